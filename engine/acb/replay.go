package acb

import (
	"encoding/json"
	"strconv"
)

// ReplayFormat is the "format" field of an ACB replay.
const ReplayFormat = "crucible-acb-replay/1"

// recorder writes the replay document by hand as the match goes, in a fixed
// field order, so the same match always gives the same bytes.
type recorder struct {
	m     *Match
	buf   []byte
	turns int
}

func newRecorder(m *Match) *recorder {
	r := &recorder{m: m, buf: make([]byte, 0, 1<<16)}
	b := r.buf
	b = append(b, `{"format":"`+ReplayFormat+`","rules_version":`...)
	b = appendJSONString(b, m.cfg.RulesVersion)
	b = append(b, `,"match_id":`...)
	b = appendJSONString(b, m.matchID)
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, m.seed, 10)
	b = append(b, `,"config":`...)
	cfg, _ := json.Marshal(m.cfg) // a struct of ints, bools and a string: cannot fail
	b = append(b, cfg...)
	b = append(b, `,"players":[`...)
	for p := range m.players {
		ps := &m.players[p]
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = strconv.AppendInt(b, int64(p), 10)
		b = append(b, `,"name":`...)
		b = appendJSONString(b, ps.name)
		b = append(b, `,"strategy":`...)
		b = appendJSONString(b, ps.strategy)
		b = append(b, `,"params":`...)
		params := []byte("{}")
		if len(ps.params) > 0 {
			if enc, err := json.Marshal(ps.params); err == nil { // map keys come out sorted
				params = enc
			}
		}
		b = append(b, params...)
		b = append(b, '}')
	}
	b = append(b, `],"map":`...)
	mp, _ := json.Marshal(m.mp)
	b = append(b, mp...)
	b = append(b, `,"initial":{"units":`...)
	b = r.appendUnits(b)
	b = append(b, "},\"turns\":[\n"...)
	r.buf = b
	return r
}

// appendJSONString appends s as a JSON string.
func appendJSONString(b []byte, s string) []byte {
	enc, _ := json.Marshal(s)
	return append(b, enc...)
}

func appendInts(b []byte, open byte, vs ...int) []byte {
	b = append(b, open)
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return b
}

// appendUnits writes the living units as [[id, owner, r, c], ...] by id.
func (r *recorder) appendUnits(b []byte) []byte {
	b = append(b, '[')
	for i, u := range r.m.units {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendInts(b, '[', int(u.id), int(u.owner), int(u.row), int(u.col))
		b = append(b, ']')
	}
	return append(b, ']')
}

// orders opens turn t's object with the validated moves, by unit id.
func (r *recorder) orders(t int) {
	b := r.buf
	if r.turns > 0 {
		b = append(b, ",\n"...)
	}
	r.turns++
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(t), 10)
	b = append(b, `,"orders":[`...)
	first := true
	for _, u := range r.m.units {
		if u.ordered != int32(t) || u.dir == Stay {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(u.id), 10)
		b = append(b, `,"`...)
		b = append(b, u.dir.String()...)
		b = append(b, `"]`...)
	}
	b = append(b, ']')
	r.buf = b
}

// turn closes the turn object with the state at its end.
func (r *recorder) turn() {
	m := r.m
	b := r.buf
	b = append(b, `,"units":`...)
	b = r.appendUnits(b)
	b = append(b, `,"cores_razed":[`...)
	first := true
	for _, c := range m.cores {
		if c.active {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = strconv.AppendInt(b, int64(c.id), 10)
	}
	b = append(b, `],"energy":[`...)
	for ei, t := range m.energyTiles {
		if !m.energyFull[ei] {
			continue
		}
		if b[len(b)-1] != '[' {
			b = append(b, ',')
		}
		b = appendInts(b, '[', int(t)/m.cols, int(t)%m.cols)
		b = append(b, ']')
	}
	b = append(b, `],"players":[`...)
	for p := range m.players {
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"score":`...)
		b = strconv.AppendInt(b, int64(m.players[p].score), 10)
		b = append(b, `,"energy":`...)
		b = strconv.AppendInt(b, int64(m.players[p].energy), 10)
		b = append(b, '}')
	}
	b = append(b, `],"events":[`...)
	for i, e := range m.events {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendEvent(b, e)
	}
	b = append(b, "]}"...)
	r.buf = b
}

// appendEvent writes one event. Shapes:
//
//	{"type":"died","unit":7,"cause":"combat"}
//	{"type":"spawned","unit":12,"owner":0,"core":1}
//	{"type":"collected","player":0,"row":4,"col":9}
//	{"type":"captured","core":3,"owner":1,"player":0}
//	{"type":"bot_inactive","player":1}
func appendEvent(b []byte, e Event) []byte {
	b = append(b, `{"type":"`...)
	b = append(b, e.Type...)
	b = append(b, '"')
	num := func(name string, v int) {
		b = append(b, `,"`...)
		b = append(b, name...)
		b = append(b, `":`...)
		b = strconv.AppendInt(b, int64(v), 10)
	}
	switch e.Type {
	case EventDied:
		num("unit", e.Unit)
		b = append(b, `,"cause":"`...)
		b = append(b, e.Cause...)
		b = append(b, '"')
	case EventSpawned:
		num("unit", e.Unit)
		num("owner", e.Owner)
		num("core", e.Core)
	case EventCollected:
		num("player", e.Player)
		num("row", e.Pos.Row)
		num("col", e.Pos.Col)
	case EventCaptured:
		num("core", e.Core)
		num("owner", e.Owner)
		num("player", e.Player)
	case EventBotInactive:
		num("player", e.Player)
	}
	return append(b, '}')
}

// finish closes the document with the result.
func (r *recorder) finish() {
	m := r.m
	b := r.buf
	b = append(b, "\n],\"result\":{\"winner\":"...)
	if m.winner == NoWinner {
		b = append(b, "null"...)
	} else {
		b = strconv.AppendInt(b, int64(m.winner), 10)
	}
	b = append(b, `,"reason":"`...)
	b = append(b, m.reason...)
	b = append(b, `","turns":`...)
	b = strconv.AppendInt(b, int64(m.turn), 10)
	b = append(b, `,"players":[`...)
	for p := range m.players {
		st := m.players[p].stats
		if p > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"score":`...)
		b = strconv.AppendInt(b, int64(st.Score), 10)
		b = append(b, `,"energy":`...)
		b = strconv.AppendInt(b, int64(st.Energy), 10)
		b = append(b, `,"units":`...)
		b = strconv.AppendInt(b, int64(st.Units), 10)
		b = append(b, `,"cores":`...)
		b = strconv.AppendInt(b, int64(st.Cores), 10)
		b = append(b, `,"crashed":`...)
		b = strconv.AppendBool(b, st.Crashed)
		b = append(b, '}')
	}
	b = append(b, "]}}\n"...)
	r.buf = b
}
