// Package strategy is the play of the acb-go example bot, apart from its
// HTTP server (../main.go): the lab's benchmarks also play it in-process,
// so that an outside bot's overhead is measured against the same moves.
// It uses the standard library only.
package strategy

import (
	"encoding/json"
	"log"
	"math"
	"os"
	"strconv"
	"sync"
	"time"
)

// Pos is a tile: row and column.
type Pos struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// State is the part of the game state of one turn (the body of POST
// /turn) that the strategy reads.
type State struct {
	MatchID string `json:"match_id"`
	Turn    int    `json:"turn"`
	Config  struct {
		Rows          int `json:"rows"`
		Cols          int `json:"cols"`
		VisionRadius2 int `json:"vision_radius2"`
	} `json:"config"`
	You struct {
		ID int `json:"id"`
	} `json:"you"`
	Bots []struct {
		Position Pos `json:"position"`
		Owner    int `json:"owner"`
	} `json:"bots"`
	Energy []Pos `json:"energy"`
	Cores  []struct {
		Position Pos  `json:"position"`
		Owner    int  `json:"owner"`
		Active   bool `json:"active"`
	} `json:"cores"`
	Walls []Pos `json:"walls"`
}

// Move orders the unit at Position one step in Direction (N, E, S, W).
type Move struct {
	Position  Pos    `json:"position"`
	Direction string `json:"direction"`
}

// Params are the strategy's two parameters.
type Params struct {
	Gather float64
	Wave   int
}

// LoadParams reads CRUCIBLE_PARAMS, else CRUCIBLE_PARAM_<NAME>, else the
// defaults (gather 0.9, wave 3).
func LoadParams() Params {
	p := map[string]float64{"gather": 0.9, "wave": 3}
	if raw := os.Getenv("CRUCIBLE_PARAMS"); raw != "" {
		var m map[string]float64
		if err := json.Unmarshal([]byte(raw), &m); err != nil {
			log.Fatalf("CRUCIBLE_PARAMS = %s: %v", raw, err)
		}
		for k, v := range m {
			p[k] = v
		}
	} else {
		for _, k := range []string{"gather", "wave"} {
			if s := os.Getenv("CRUCIBLE_PARAM_" + map[string]string{"gather": "GATHER", "wave": "WAVE"}[k]); s != "" {
				v, err := strconv.ParseFloat(s, 64)
				if err != nil {
					log.Fatalf("CRUCIBLE_PARAM_%s = %q is not a number", k, s)
				}
				p[k] = v
			}
		}
	}
	return Params{Gather: math.Max(0, math.Min(1, p["gather"])), Wave: max(1, int(math.Round(p["wave"])))}
}

// memory is what one seat of one match remembers between turns.
type memory struct {
	walls map[Pos]bool
	cores map[Pos][2]int // owner, active (1 or 0)
	last  time.Time
}

// Bot plays every match it is sent, remembering each seat's walls and
// cores by match id and seat. Its methods are safe for concurrent use.
type Bot struct {
	p       Params
	mu      sync.Mutex
	matches map[string]*memory
}

// New returns a bot that plays with p.
func New(p Params) *Bot { return &Bot{p: p, matches: map[string]*memory{}} }

func (b *Bot) memory(key string) *memory {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := time.Now()
	for k, m := range b.matches {
		if now.Sub(m.last) > 10*time.Minute {
			delete(b.matches, k)
		}
	}
	m := b.matches[key]
	if m == nil {
		m = &memory{walls: map[Pos]bool{}, cores: map[Pos][2]int{}}
		b.matches[key] = m
	}
	m.last = now
	return m
}

var dirs = [4]struct {
	name   string
	dr, dc int
}{{"N", -1, 0}, {"E", 0, 1}, {"S", 1, 0}, {"W", 0, -1}}

const far = 1 << 30

// field is a multi-source BFS distance grid on the torus (far when not
// reached); unseen tiles count as open.
func field(rows, cols int, walls map[Pos]bool, sources []Pos) []int {
	d := make([]int, rows*cols)
	for i := range d {
		d[i] = far
	}
	q := make([]Pos, 0, rows*cols)
	for _, s := range sources {
		if !walls[s] && d[s.Row*cols+s.Col] == far {
			d[s.Row*cols+s.Col] = 0
			q = append(q, s)
		}
	}
	for i := 0; i < len(q); i++ {
		p := q[i]
		for _, dd := range dirs {
			n := Pos{(p.Row + dd.dr + rows) % rows, (p.Col + dd.dc + cols) % cols}
			if !walls[n] && d[n.Row*cols+n.Col] == far {
				d[n.Row*cols+n.Col] = d[p.Row*cols+p.Col] + 1
				q = append(q, n)
			}
		}
	}
	return d
}

func dist2(a, b Pos, rows, cols int) int {
	dr, dc := abs(a.Row-b.Row), abs(a.Col-b.Col)
	dr, dc = min(dr, rows-dr), min(dc, cols-dc)
	return dr*dr + dc*dc
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// Turn returns the moves of one turn: the strategy of
// ../../acb-python/main.py, step for step.
func (b *Bot) Turn(s *State) []Move {
	rows, cols, me := s.Config.Rows, s.Config.Cols, s.You.ID
	mem := b.memory(s.MatchID + "/" + strconv.Itoa(me))
	for _, w := range s.Walls {
		mem.walls[w] = true
	}
	for _, c := range s.Cores {
		active := 0
		if c.Active {
			active = 1
		}
		mem.cores[c.Position] = [2]int{c.Owner, active}
	}
	var mine, enemies []Pos
	for _, u := range s.Bots {
		if u.Owner == me {
			mine = append(mine, u.Position)
		} else {
			enemies = append(enemies, u.Position)
		}
	}
	moves := []Move{}
	if len(mine) == 0 {
		return moves
	}
	var home, targets []Pos
	for p, c := range mem.cores {
		if c[1] == 1 && c[0] == me {
			home = append(home, p)
		} else if c[1] == 1 {
			targets = append(targets, p)
		}
	}
	sortPos(home)
	sortPos(targets)
	toEnergy := field(rows, cols, mem.walls, s.Energy)
	at := func(f []int, p Pos) int { return f[p.Row*cols+p.Col] }
	sortBy(mine, func(p Pos) int { return at(toEnergy, p) })
	nGather := int(math.Round(b.p.Gather * float64(len(mine))))
	gatherers, attackers := mine[:nGather], mine[nGather:]
	if len(targets) == 0 {
		targets = enemies
	}
	if len(targets) == 0 {
		from := home
		if len(from) == 0 {
			from = mine[:1]
		}
		for _, p := range from {
			targets = append(targets, Pos{(p.Row + rows/2) % rows, (p.Col + cols/2) % cols})
		}
	}
	r2 := s.Config.VisionRadius2
	if r2 == 0 {
		r2 = 49
	}
	threatened := false
	for _, e := range enemies {
		for _, h := range home {
			if dist2(e, h, rows, cols) <= r2 {
				threatened = true
			}
		}
	}
	var toTarget []int
	if len(attackers) > 0 && (len(attackers) >= b.p.Wave || threatened) {
		toTarget = field(rows, cols, mem.walls, targets)
	}
	isHome := map[Pos]bool{}
	for _, h := range home {
		isHome[h] = true
	}
	occupied := map[Pos]bool{}
	for _, p := range mine {
		occupied[p] = true
	}
	taken := map[Pos]bool{}
	for _, g := range []struct {
		units []Pos
		f     []int
	}{{gatherers, toEnergy}, {attackers, toTarget}} {
		for _, p := range g.units {
			delete(occupied, p)
			cost := func(q Pos) int {
				if g.f == nil {
					return far
				}
				return at(g.f, q)
			}
			stay := cost(p)
			if isHome[p] {
				stay = far + 1 // step off a core to let it spawn
			}
			best, bestDir, bestPos := 0, "", Pos{}
			for _, d := range dirs {
				n := Pos{(p.Row + d.dr + rows) % rows, (p.Col + d.dc + cols) % cols}
				if mem.walls[n] || taken[n] || occupied[n] {
					continue // two own units on one tile both die
				}
				if c := cost(n); bestDir == "" || c < best {
					best, bestDir, bestPos = c, d.name, n
				}
			}
			if bestDir != "" && best < stay {
				taken[bestPos] = true
				moves = append(moves, Move{Position: p, Direction: bestDir})
			} else {
				taken[p] = true
			}
		}
	}
	return moves
}

func less(a, b Pos) bool { return a.Row < b.Row || a.Row == b.Row && a.Col < b.Col }

func sortPos(ps []Pos) { sortBy(ps, func(Pos) int { return 0 }) }

// sortBy sorts ps by key, then by position (a stable, simple insertion
// sort: a few dozen units).
func sortBy(ps []Pos, key func(Pos) int) {
	for i := 1; i < len(ps); i++ {
		for j := i; j > 0; j-- {
			a, b := ps[j-1], ps[j]
			ka, kb := key(a), key(b)
			if ka < kb || ka == kb && less(a, b) {
				break
			}
			ps[j-1], ps[j] = b, a
		}
	}
}
