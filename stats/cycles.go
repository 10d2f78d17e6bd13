package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// Cycle is a 3-cycle of significant wins: Players[0] beats Players[1],
// which beats Players[2], which beats Players[0].
type Cycle struct {
	Players [3]int `json:"players"`
	// Margin is the weakest link: the smallest of the three lower bounds
	// minus 1/2.
	Margin float64 `json:"margin"`
}

// Cycles3 lists the 3-cycles A > B > C > A of a field in which each win
// is significant: lo[i][j] is the lower end of the interval of i's score
// rate against j (from ClusteredRate, say), and i beats j significantly
// when it is above 1/2. (For a cruder test, pass the score rates minus a
// fixed margin.) Each cycle is listed once, starting from its smallest
// index, strongest (largest Margin) first. NaN entries (pairs that never
// met) are no win.
func Cycles3(lo [][]float64) ([]Cycle, error) {
	n := len(lo)
	if err := checkSquare("lo", lo, n); err != nil {
		return nil, err
	}
	for i := range n {
		for j := range n {
			if math.IsInf(lo[i][j], 0) {
				return nil, fmt.Errorf("lo[%d][%d] = %v, want a finite bound", i, j, lo[i][j])
			}
		}
	}
	beats := func(i, j int) bool { return lo[i][j] > 0.5 }
	var out []Cycle
	for a := range n {
		for b := a + 1; b < n; b++ {
			for c := a + 1; c < n; c++ {
				if c == b || !beats(a, b) || !beats(b, c) || !beats(c, a) {
					continue
				}
				m := min(lo[a][b], lo[b][c], lo[c][a]) - 0.5
				out = append(out, Cycle{Players: [3]int{a, b, c}, Margin: m})
			}
		}
	}
	slices.SortStableFunc(out, func(x, y Cycle) int {
		if c := cmp.Compare(y.Margin, x.Margin); c != 0 {
			return c
		}
		return slices.Compare(x.Players[:], y.Players[:])
	})
	return out, nil
}
