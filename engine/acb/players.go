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
	wall       []uint64 // bit t: tile t is a wall it has seen
}

// NewRandom returns a Random player drawing from a PCG generator seeded
// with seed (use engine.SeatSeed for the seat's seed).
func NewRandom(seed uint64) *Random {
	return &Random{rng: rand.New(rand.NewPCG(seed, seed^0x5eed))}
}

// RemembersWalls reports true: r keeps every wall it is shown (see
// WallMemory).
func (r *Random) RemembersWalls() bool { return true }

// Turn orders every own unit in v in a random valid direction.
func (r *Random) Turn(ctx context.Context, v *View, buf []Move) ([]Move, error) {
	if r.wall == nil || r.rows != v.Config.Rows || r.cols != v.Config.Cols {
		r.rows, r.cols = v.Config.Rows, v.Config.Cols
		r.wall = make([]uint64, (r.rows*r.cols+63)/64)
	}
	for _, w := range v.Walls {
		t := w.Row*r.cols + w.Col
		r.wall[t>>6] |= 1 << (t & 63)
	}
	var opts [5]Dir
	for _, u := range v.Bots {
		if u.Owner != v.You.ID {
			continue
		}
		n := 0
		opts[n] = Stay
		n++
		row, col := u.Position.Row, u.Position.Col
		up, down, left, right := row-1, row+1, col-1, col+1
		if up < 0 {
			up = r.rows - 1
		}
		if down == r.rows {
			down = 0
		}
		if left < 0 {
			left = r.cols - 1
		}
		if right == r.cols {
			right = 0
		}
		// The tiles one step North, East, South and West (as Step gives).
		next := [4]int{up*r.cols + col, row*r.cols + right, down*r.cols + col, row*r.cols + left}
		for d := North; d <= West; d++ {
			if t := next[d-North]; r.wall[t>>6]&(1<<(t&63)) == 0 {
				opts[n] = d
				n++
			}
		}
		buf = append(buf, Move{Position: u.Position, Direction: opts[r.rng.IntN(n)]})
	}
	return buf, nil
}
