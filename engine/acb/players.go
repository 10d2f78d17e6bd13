package acb

import (
	"context"
	"math/rand/v2"
)

// Idle is a player that never moves: its units hold every turn.
type Idle struct{}

// Turn returns no moves.
func (Idle) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) { return buf, nil }

// Random is a player that orders each of its units in a random direction
// (N, E, S, W or stay), never into a wall it has seen. It is seeded, so a
// match with Random players repeats exactly.
type Random struct {
	rng        *rand.Rand
	rows, cols int
	wall       []bool
}

// NewRandom returns a Random player drawing from a PCG generator seeded
// with seed (use engine.SeatSeed for the seat's seed).
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
}

// Turn orders every own unit in v in a random valid direction.
func (r *Random) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) {
	if r.wall == nil || r.rows != v.Config.Rows || r.cols != v.Config.Cols {
		r.rows, r.cols = v.Config.Rows, v.Config.Cols
		r.wall = make([]bool, r.rows*r.cols)
	}
	for _, w := range v.Walls {
		r.wall[w.Row*r.cols+w.Col] = true
	}
	var opts [5]Dir
	for _, u := range v.Bots {
		if u.Owner != v.You.ID {
			continue
		}
		n := 0
		opts[n] = Stay
		n++
		for d := North; d <= West; d++ {
			q := Step(u.Position, d, r.rows, r.cols)
			if !r.wall[q.Row*r.cols+q.Col] {
				opts[n] = d
				n++
			}
		}
		buf = append(buf, Move{Position: u.Position, Direction: opts[r.rng.IntN(n)]})
	}
	return buf, nil
}
