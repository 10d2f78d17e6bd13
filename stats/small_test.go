package stats

import (
	"math"
	"testing"
)

func TestSmallSampleRate(t *testing.T) {
	tests := []struct {
		name   string
		units  []Unit
		method Method
		lo, hi float64
	}{
		{"one unit won: the exact bound 0.025", []Unit{{2, 2}}, ExactExtreme, 0.025, 1},
		{"one unit lost", []Unit{{0, 2}}, ExactExtreme, 0, 0.975},
		{"two units won: sqrt(0.025)", []Unit{{2, 2}, {1, 1}}, ExactExtreme, math.Sqrt(0.025), 1},
		{"a 1-1 split is not available", []Unit{{1, 2}}, NotAvailable, 0, 1},
		{"two equal splits are not available", []Unit{{1, 2}, {1, 2}}, NotAvailable, 0, 1},
		{"two different units: t on 1 df", []Unit{{2, 2}, {1.9, 2}}, ClusteredT, 0.975 - 12.706204736174698*0.025, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			iv, err := SmallSampleRate(tt.units, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			if iv.Method != tt.method || math.Abs(iv.Lo-tt.lo) > 1e-9 || math.Abs(iv.Hi-tt.hi) > 1e-9 {
				t.Errorf("%s [%v, %v], want %s [%v, %v]", iv.Method, iv.Lo, iv.Hi, tt.method, tt.lo, tt.hi)
			}
		})
	}
	// From three units on, ClusteredRateDistinct's.
	units := []Unit{{2, 2}, {2, 2}, {2, 2}}
	got, _ := SmallSampleRate(units, 0.95)
	want, _ := ClusteredRateDistinct(units, 0.95)
	if got != want {
		t.Errorf("three units: %+v, want ClusteredRateDistinct's %+v", got, want)
	}
}
