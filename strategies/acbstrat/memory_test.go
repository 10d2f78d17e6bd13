package acbstrat

import (
	"math/rand/v2"
	"testing"

	"crucible/engine/acb"
)

// TestVisibleMatchesDistances: a tile is visible exactly when an own unit
// or an own active core lies within the vision radius by the rules'
// squared distance (acb.Dist2), on grids of several sizes and radii
// (some reaching across the whole grid), few units and many.
func TestVisibleMatchesDistances(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, c := range []struct{ rows, cols, r2 int }{{40, 40, 49}, {40, 40, 2}, {63, 63, 100}, {17, 23, 49}, {8, 8, 200}, {30, 12, 0}, {70, 130, 49}, {9, 100, 30}} {
		g := newGrid(c.rows, c.cols)
		cfg := acb.DefaultConfig()
		cfg.Rows, cfg.Cols, cfg.VisionRadius2 = c.rows, c.cols, c.r2
		m := newMemory(g, cfg, nil)
		for _, n := range []int{0, 1, 5, 12, 13, 40} {
			own := make([]int32, n)
			for i := range own {
				own[i] = int32(rng.IntN(g.n))
			}
			cores := []int32{int32(rng.IntN(g.n))}
			m.sight(own, cores)
			for ti := int32(0); ti < int32(g.n); ti++ {
				want := false
				for _, u := range append(append([]int32(nil), own...), cores...) {
					if acb.Dist2(g.pos(u), g.pos(ti), c.rows, c.cols) <= c.r2 {
						want = true
					}
				}
				if got := m.visible(ti); got != want {
					t.Fatalf("%dx%d r2 %d, %d units: visible(%v) = %v, want %v", c.rows, c.cols, c.r2, n, g.pos(ti), got, want)
				}
			}
		}
	}
}
