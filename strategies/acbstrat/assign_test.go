package acbstrat

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestAssignMakesCheapestPairsFirst: assign matches, of the pairs of a
// free unit and an open target costing at most maxCost, the cheapest first,
// the lowest target index and then the lowest unit index on a tie, the
// cost being the step distance (fresh searches here) or the target's ready
// offset when later; on random maps, unit subsets in any order, targets
// (walls and repeats included) and ready offsets, one assignment reused.
func TestAssignMakesCheapestPairsFirst(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	var a assignment
	for trial := 0; trial < 300; trial++ {
		rows, cols := 6+rng.IntN(14), 6+rng.IntN(14)
		lines := make([]string, rows)
		for r := range lines {
			var sb strings.Builder
			for c := 0; c < cols; c++ {
				switch x := rng.Float64(); {
				case x < 0.2:
					sb.WriteByte('#')
				case x < 0.28:
					sb.WriteByte('a')
				default:
					sb.WriteByte('.')
				}
			}
			lines[r] = sb.String()
		}
		b := newBot(1)
		b.begin(sketch(lines, 3))
		g := b.g
		var idx []int32
		for _, k := range rng.Perm(len(b.own)) {
			if rng.IntN(4) > 0 {
				idx = append(idx, int32(k))
			}
		}
		targets := make([]int32, rng.IntN(12))
		var ready []int32
		if rng.IntN(2) == 0 {
			ready = make([]int32, len(targets))
		}
		for j := range targets {
			targets[j] = int32(rng.IntN(g.n))
			if j > 0 && rng.IntN(6) == 0 {
				targets[j] = targets[rng.IntN(j)]
			}
			if ready != nil {
				ready[j] = int32(rng.IntN(12))
			}
		}
		maxCost := 2 + rng.IntN(30)
		b.assign(&a, idx, targets, ready, maxCost)

		// The pairs' costs from fresh searches, then the cheapest pair
		// (by cost, target, unit) made until none is left.
		f := make(field, g.n)
		q := make([]int32, g.n+8)
		cost := make([][]int, len(targets))
		for j, tg := range targets {
			g.bfs(f, q, []int32{tg}, b.mem.wallT, 0)
			cost[j] = make([]int, len(idx))
			for k, i := range idx {
				cost[j][k] = f.at(b.own[i])
				if ready != nil && cost[j][k] < int(ready[j]) {
					cost[j][k] = int(ready[j])
				}
			}
		}
		wantT, wantC := make([]int32, len(idx)), make([]int32, len(idx))
		for k := range wantT {
			wantT[k], wantC[k] = -1, far
		}
		done := make([]bool, len(targets))
		for {
			bj, bk := -1, -1
			for j := range targets {
				for k := range idx {
					if done[j] || wantT[k] >= 0 || cost[j][k] > maxCost {
						continue
					}
					if bj < 0 || cost[j][k] < cost[bj][bk] {
						bj, bk = j, k
					}
				}
			}
			if bj < 0 {
				break
			}
			done[bj] = true
			wantT[bk], wantC[bk] = int32(bj), int32(cost[bj][bk])
		}
		for k := range idx {
			if a.unitTarget[k] != wantT[k] || a.unitCost[k] != wantC[k] {
				t.Fatalf("trial %d (%dx%d, %d units, %d targets, maxCost %d): unit %d gets target %d at %d, want %d at %d",
					trial, rows, cols, len(idx), len(targets), maxCost, k, a.unitTarget[k], a.unitCost[k], wantT[k], wantC[k])
			}
		}
	}
}
