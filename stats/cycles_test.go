package stats

import (
	"math"
	"strings"
	"testing"
)

// TestCycles3 checks the cycle finder on a field with one strong cycle
// (0 > 1 > 2 > 0), one whose weakest link is not significant (3 > 0 only
// by a lower bound of 0.49), a transitive player and a pair that never
// met.
func TestCycles3(t *testing.T) {
	nan := math.NaN()
	// lo[i][j]: lower bound of i's score against j.
	lo := [][]float64{
		{0, 0.7, 0.2, 0.3, 0.6},
		{0.1, 0, 0.65, 0.2, 0.6},
		{0.55, 0.1, 0, nan, 0.6},
		{0.49, 0.6, nan, 0, 0.6},
		{0.2, 0.2, 0.2, 0.2, 0},
	}
	got, err := Cycles3(lo)
	if err != nil {
		t.Fatal(err)
	}
	// 0 > 1 > 2 > 0 with margins 0.2, 0.15, 0.05; 3 > 0 is not
	// significant and 2, 3 never met, so no other cycle.
	if len(got) != 1 || got[0].Players != [3]int{0, 1, 2} || math.Abs(got[0].Margin-0.05) > 1e-12 {
		t.Fatalf("cycles %+v", got)
	}
	// Make 3 > 0 significant and let 1 beat 3: the cycle 0 > 1 > 3 > 0
	// (margins 0.2, 0.02, 0.08) appears, listed after the stronger one.
	lo[3][0], lo[1][3], lo[3][1] = 0.58, 0.52, 0.1
	got, _ = Cycles3(lo)
	if len(got) != 2 || got[0].Players != [3]int{0, 1, 2} || got[1].Players != [3]int{0, 1, 3} || math.Abs(got[1].Margin-0.02) > 1e-12 {
		t.Fatalf("cycles %+v", got)
	}
	if _, err := Cycles3([][]float64{{0, 1}}); err == nil || !strings.Contains(err.Error(), "lo row 0 has 2 entries, want 1") {
		t.Fatalf("error %v", err)
	}
}
