package evolver

import (
	"math"
	"testing"
)

// Rule: the held-out interval is Student's t on the paired differences:
// for 1..5 the mean is 3, the standard error sqrt(2.5/5) and t(0.975, 4)
// = 2.776445, so the 95% interval is 3 ± 1.963243.
func TestPairedInterval(t *testing.T) {
	tests := []struct {
		name           string
		d              []float64
		mean, lo, hi   float64
		unboundedBelow bool
	}{
		{"textbook t interval", []float64{1, 2, 3, 4, 5}, 3, 3 - 1.963243, 3 + 1.963243, false},
		{"no spread gives a point", []float64{0.2, 0.2, 0.2}, 0.2, 0.2, 0.2, false},
		{"one difference has no interval", []float64{0.4}, 0.4, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, lo, hi := PairedInterval(tc.d, 0.95)
			if math.Abs(m-tc.mean) > 1e-9 {
				t.Errorf("mean %v, want %v", m, tc.mean)
			}
			if tc.unboundedBelow {
				if !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
					t.Errorf("interval [%v, %v], want unbounded", lo, hi)
				}
				return
			}
			if math.Abs(lo-tc.lo) > 1e-5 || math.Abs(hi-tc.hi) > 1e-5 {
				t.Errorf("interval [%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
	c := Comparison{Lo: 0.01}
	if !c.Significant() {
		t.Errorf("an interval above zero is not reported significant")
	}
	if (Comparison{Lo: -0.01}).Significant() {
		t.Errorf("an interval reaching below zero is reported significant")
	}
}
