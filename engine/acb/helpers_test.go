package acb

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"crucible/engine"
)

// scripted plays fixed moves: moves[v.Turn] in the view of that turn.
type scripted struct {
	moves map[int][]Move
}

func (s scripted) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) {
	return append(buf, s.moves[v.Turn]...), nil
}

// funcCtrl adapts a function to Controller.
type funcCtrl func(v *View, buf []Move) ([]Move, error)

func (f funcCtrl) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) { return f(v, buf) }

// remoteCtrl is a network-like bot that fails on the turns fail says.
type remoteCtrl struct {
	fail  func(turn int) bool
	calls int
}

func (r *remoteCtrl) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) {
	r.calls++
	if r.fail(v.Turn) {
		return buf, errors.New("timeout")
	}
	return buf, nil
}

func (r *remoteCtrl) Remote() bool { return true }

// testMap is a 20x20 map with cpp cores per player: player p's core k at
// (1+3k, 1+6p), so the initial units of different players are out of each
// other's attack range; plus the given walls and energy.
func testMap(players, cpp int, walls, energy []Pos) *Map {
	m := &Map{Rows: 20, Cols: 20, Walls: walls, Energy: energy}
	id := 0
	for p := 0; p < players; p++ {
		for k := 0; k < cpp; k++ {
			m.Cores = append(m.Cores, Core{ID: id, Owner: p, Row: 1 + 3*k, Col: 1 + 6*p})
			id++
		}
	}
	return m
}

// newTestMatch builds a match on mp with cfg (rows and cols from the map)
// and the controllers (Idle when nil).
func newTestMatch(t *testing.T, cfg Config, mp *Map, ctrls ...Controller) *Match { // mp nil: generated
	t.Helper()
	for i := range ctrls {
		if ctrls[i] == nil {
			ctrls[i] = Idle{}
		}
	}
	m, err := NewMatch(cfg, mp, 1, ctrls)
	if err != nil {
		t.Fatalf("NewMatch: %v", err)
	}
	return m
}

// setUnits replaces every unit of the match (ids 0.. in the given order)
// and refreshes the occupancy.
func (m *Match) setUnits(us ...UnitInfo) {
	m.units = m.units[:0]
	for i, u := range us {
		m.units = append(m.units, unit{id: int32(i), owner: int32(u.Owner), row: int32(u.Pos.Row), col: int32(u.Pos.Col), ordered: -1})
	}
	m.nextID = int32(len(us))
	m.rebuildOcc()
	m.visTurn = make([]int, m.np)
	for p := range m.visTurn {
		m.visTurn[p] = -1
	}
}

func u(owner, r, c int) UnitInfo { return UnitInfo{Owner: owner, Pos: Pos{Row: r, Col: c}} }

func mv(r, c int, d Dir) Move { return Move{Position: Pos{Row: r, Col: c}, Direction: d} }

func step(t *testing.T, m *Match) bool {
	t.Helper()
	done, err := m.Step()
	if err != nil {
		t.Fatalf("Step: %v", err)
	}
	return done
}

// causes maps unit id to its death cause in the last turn.
func causes(m *Match) map[int]string {
	out := map[int]string{}
	for _, e := range m.Events() {
		if e.Type == EventDied {
			out[e.Unit] = e.Cause
		}
	}
	return out
}

// alive returns the living units' positions by id.
func alive(m *Match) map[int]Pos {
	out := map[int]Pos{}
	for _, u := range m.Units() {
		out[u.ID] = u.Pos
	}
	return out
}

// crowdCtrl drives each unit at the nearest energy it sees (half of them)
// or the nearest enemy core it sees, else the centre, with a share of
// random steps: crowds that collect, collide, fight, raze and meet the
// storm, so every phase has work to do.
type crowdCtrl struct{ rng *rand.Rand }

func (c crowdCtrl) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) {
	R, C := v.Config.Rows, v.Config.Cols
	for _, u := range v.Bots {
		if u.Owner != v.You.ID {
			continue
		}
		target := Pos{Row: R / 2, Col: C / 2}
		best := -1
		if (u.Position.Row+u.Position.Col)%2 == 0 {
			for _, e := range v.Energy {
				if d := Dist2(u.Position, e, R, C); best < 0 || d < best {
					target, best = e, d
				}
			}
		}
		for _, cv := range v.Cores {
			if best >= 0 {
				break
			}
			if d := Dist2(u.Position, cv.Position, R, C); cv.Owner != v.You.ID && cv.Active && (best < 0 || d < best) {
				target, best = cv.Position, d
			}
		}
		d := Dir(c.rng.IntN(5))
		if c.rng.IntN(3) > 0 {
			bestD := Dist2(u.Position, target, R, C)
			for _, cand := range []Dir{North, East, South, West} {
				if dd := Dist2(Step(u.Position, cand, R, C), target, R, C); dd < bestD {
					d, bestD = cand, dd
				}
			}
		}
		buf = append(buf, Move{Position: u.Position, Direction: d})
	}
	return buf, nil
}

// playCrowd plays a match of n crowdCtrl players and returns its replay.
func playCrowd(t *testing.T, seed uint64, n int, cfg Config) []byte {
	t.Helper()
	seats := make([]engine.Seat, n)
	for i := range seats {
		s := engine.SeatSeed(seed, i)
		seats[i] = engine.Seat{Name: fmt.Sprintf("crowd-%d", i), Strategy: "crowd", Player: crowdCtrl{rand.New(rand.NewPCG(s, 1))}}
	}
	var buf bytes.Buffer
	if _, err := (Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Config: cfg, Seats: seats, Replay: &buf}); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return buf.Bytes()
}
