package acbhttp

import (
	"unicode/utf8"

	"crucible/engine/acb"
)

// decodeViewFast decodes the canonical form of a /turn body into tb without
// reflection: every key one of the View's own (exact case, each once per
// object), integers without fraction or exponent, strings without escapes,
// no null. It reports false as soon as the input leaves that form, and the
// caller then decodes with encoding/json, whose result (and error) stands.
// Whenever it reports true, tb equals what encoding/json would produce
// (FuzzFastViewMatchesEncodingJSON checks this). The engine's bodies are
// always canonical, so the bot server's hot path avoids reflection.
func decodeViewFast(data []byte, tb *turnBody) bool {
	p := fastParser{b: data}
	ok := p.object(func(key []byte) bool {
		switch string(key) {
		case "match_id":
			s, ok := p.str()
			if !ok {
				return false
			}
			tb.MatchID = &s
			return true
		case "turn":
			n, ok := p.int()
			if !ok {
				return false
			}
			tb.Turn = &n
			return true
		case "config":
			return p.config(&tb.Config)
		case "you":
			return p.object(func(k []byte) bool {
				switch string(k) {
				case "id":
					return p.intTo(&tb.You.ID)
				case "energy":
					return p.intTo(&tb.You.Energy)
				case "score":
					return p.intTo(&tb.You.Score)
				}
				return false
			})
		case "bots":
			tb.Bots = []acb.Unit{}
			return p.array(func() bool {
				var u acb.Unit
				if !p.unit(&u) {
					return false
				}
				tb.Bots = append(tb.Bots, u)
				return true
			})
		case "dead":
			tb.Dead = []acb.Unit{}
			return p.array(func() bool {
				var u acb.Unit
				if !p.unit(&u) {
					return false
				}
				tb.Dead = append(tb.Dead, u)
				return true
			})
		case "energy":
			tb.Energy = []acb.Pos{}
			return p.array(func() bool {
				var q acb.Pos
				if !p.pos(&q) {
					return false
				}
				tb.Energy = append(tb.Energy, q)
				return true
			})
		case "walls":
			tb.Walls = []acb.Pos{}
			return p.array(func() bool {
				var q acb.Pos
				if !p.pos(&q) {
					return false
				}
				tb.Walls = append(tb.Walls, q)
				return true
			})
		case "cores":
			tb.Cores = []acb.CoreView{}
			return p.array(func() bool {
				var c acb.CoreView
				ok := p.object(func(k []byte) bool {
					switch string(k) {
					case "position":
						return p.pos(&c.Position)
					case "owner":
						return p.intTo(&c.Owner)
					case "active":
						return p.boolTo(&c.Active)
					}
					return false
				})
				if ok {
					tb.Cores = append(tb.Cores, c)
				}
				return ok
			})
		case "zone":
			z := &acb.Zone{}
			tb.Zone = z
			return p.object(func(k []byte) bool {
				switch string(k) {
				case "center":
					return p.pos(&z.Center)
				case "centers":
					z.Centers = []acb.Pos{}
					return p.array(func() bool {
						var q acb.Pos
						if !p.pos(&q) {
							return false
						}
						z.Centers = append(z.Centers, q)
						return true
					})
				case "radius":
					return p.intTo(&z.Radius)
				}
				return false
			})
		}
		return false
	})
	if !ok {
		return false
	}
	p.ws()
	return p.i == len(p.b)
}

// fastParser walks a JSON document in the canonical form only.
type fastParser struct {
	b []byte
	i int
}

func (p *fastParser) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// consume skips white space and the byte c.
func (p *fastParser) consume(c byte) bool {
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// str reads a string without escapes or control characters, valid UTF-8.
func (p *fastParser) str() (string, bool) {
	raw, ok := p.rawStr()
	if !ok || !utf8.Valid(raw) {
		return "", false
	}
	return string(raw), true
}

func (p *fastParser) rawStr() ([]byte, bool) {
	if !p.consume('"') {
		return nil, false
	}
	start := p.i
	for p.i < len(p.b) {
		c := p.b[p.i]
		switch {
		case c == '"':
			s := p.b[start:p.i]
			p.i++
			return s, true
		case c == '\\' || c < 0x20:
			return nil, false
		}
		p.i++
	}
	return nil, false
}

// int reads an integer literal: an optional minus, then 0 or a digit 1-9
// followed by digits, not followed by a fraction or exponent, fitting in
// an int64.
func (p *fastParser) int() (int, bool) {
	p.ws()
	neg := false
	if p.i < len(p.b) && p.b[p.i] == '-' {
		neg = true
		p.i++
	}
	start := p.i
	var n uint64
	for p.i < len(p.b) && p.b[p.i] >= '0' && p.b[p.i] <= '9' {
		d := uint64(p.b[p.i] - '0')
		if n > (1<<63)/10 {
			return 0, false
		}
		n = n*10 + d
		p.i++
	}
	digits := p.i - start
	if digits == 0 || (digits > 1 && p.b[start] == '0') || digits > 19 {
		return 0, false
	}
	if p.i < len(p.b) {
		switch p.b[p.i] {
		case '.', 'e', 'E':
			return 0, false
		}
	}
	if neg {
		if n > 1<<63 {
			return 0, false
		}
		return int(-int64(n)), true
	}
	if n > 1<<63-1 {
		return 0, false
	}
	return int(n), true
}

func (p *fastParser) intTo(dst *int) bool {
	n, ok := p.int()
	*dst = n
	return ok
}

func (p *fastParser) boolTo(dst *bool) bool {
	p.ws()
	switch {
	case len(p.b)-p.i >= 4 && string(p.b[p.i:p.i+4]) == "true":
		*dst = true
		p.i += 4
	case len(p.b)-p.i >= 5 && string(p.b[p.i:p.i+5]) == "false":
		*dst = false
		p.i += 5
	default:
		return false
	}
	// A literal must end here (encoding/json rejects "truex").
	return p.i == len(p.b) || !isLetter(p.b[p.i])
}

func isLetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// object reads an object, handing each key to field, which reads the
// value. A key seen twice in one object, or one field rejects, fails.
func (p *fastParser) object(field func(key []byte) bool) bool {
	if !p.consume('{') {
		return false
	}
	if p.consume('}') {
		return true
	}
	var seen [24][]byte
	n := 0
	for {
		key, ok := p.rawStr()
		if !ok {
			return false
		}
		for _, k := range seen[:n] {
			if string(k) == string(key) {
				return false
			}
		}
		if n == len(seen) {
			return false
		}
		seen[n] = key
		n++
		if !p.consume(':') || !field(key) {
			return false
		}
		if p.consume(',') {
			continue
		}
		return p.consume('}')
	}
}

// array reads an array, calling elem for each element.
func (p *fastParser) array(elem func() bool) bool {
	if !p.consume('[') {
		return false
	}
	if p.consume(']') {
		return true
	}
	for {
		if !elem() {
			return false
		}
		if p.consume(',') {
			continue
		}
		return p.consume(']')
	}
}

func (p *fastParser) pos(q *acb.Pos) bool {
	return p.object(func(k []byte) bool {
		switch string(k) {
		case "row":
			return p.intTo(&q.Row)
		case "col":
			return p.intTo(&q.Col)
		}
		return false
	})
}

func (p *fastParser) unit(u *acb.Unit) bool {
	return p.object(func(k []byte) bool {
		switch string(k) {
		case "position":
			return p.pos(&u.Position)
		case "owner":
			return p.intTo(&u.Owner)
		}
		return false
	})
}

func (p *fastParser) config(c *acb.Config) bool {
	return p.object(func(k []byte) bool {
		switch string(k) {
		case "rows":
			return p.intTo(&c.Rows)
		case "cols":
			return p.intTo(&c.Cols)
		case "max_turns":
			return p.intTo(&c.MaxTurns)
		case "vision_radius2":
			return p.intTo(&c.VisionRadius2)
		case "attack_radius2":
			return p.intTo(&c.AttackRadius2)
		case "spawn_cost":
			return p.intTo(&c.SpawnCost)
		case "energy_interval":
			return p.intTo(&c.EnergyInterval)
		case "cores_per_player":
			return p.intTo(&c.CoresPerPlayer)
		case "zone_enabled":
			return p.boolTo(&c.ZoneEnabled)
		case "zone_start_turn":
			return p.intTo(&c.ZoneStartTurn)
		case "zone_shrink_interval":
			return p.intTo(&c.ZoneShrinkInterval)
		case "zone_shrink_step":
			return p.intTo(&c.ZoneShrinkStep)
		case "zone_min_radius":
			return p.intTo(&c.ZoneMinRadius)
		case "kill_score":
			return p.intTo(&c.KillScore)
		case "turn_timeout":
			n, ok := p.int()
			c.TurnTimeout = int64(n)
			return ok
		case "rules_version":
			s, ok := p.str()
			c.RulesVersion = s
			return ok
		}
		return false
	})
}
