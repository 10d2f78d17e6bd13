package evolver

import (
	"math"

	"gonum.org/v1/gonum/stat"
)

// mirror01 reflects every coordinate of x into [0,1] in place (at 0 and
// 1, as often as needed: 1.2 gives 0.8, -0.3 gives 0.3, 2.5 gives 0.5)
// and returns x.
func mirror01(x []float64) []float64 {
	for i, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			x[i] = 0.5
			continue
		}
		t := math.Mod(v, 2)
		if t < 0 {
			t += 2
		}
		if t > 1 {
			t = 2 - t
		}
		x[i] = t
	}
	return x
}

// sqDist is the squared Euclidean distance of a and b.
func sqDist(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
	}
	return d
}

// sampleSpread is the mean over coordinates of the samples' standard
// deviation.
func sampleSpread(xs [][]float64) float64 {
	if len(xs) < 2 {
		return math.Inf(1)
	}
	dim := len(xs[0])
	total := 0.0
	col := make([]float64, len(xs))
	for i := 0; i < dim; i++ {
		for j, x := range xs {
			col[j] = x[i]
		}
		total += stat.StdDev(col, nil)
	}
	return total / float64(dim)
}
