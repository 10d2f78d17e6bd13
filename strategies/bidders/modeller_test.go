package bidders

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestTallyAsFullSums: the normal equations' sums kept by tally (its upper
// half summed, the lower copied by sums) are bit for bit the sums of every product
// f[j] f[k] (and f[j] y) over rows taken in and out in turn, so fit sees
// the very matrix a full double loop would give it.
func TestTallyAsFullSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 25))
	var lg rivalLog
	var want [features][features + 1]float64
	for n := range 2000 {
		var r row
		for j := range r.f {
			r.f[j] = math.Round(rng.NormFloat64()*4*1e3) / 1e3
		}
		r.y = float64(rng.IntN(13))
		sign := 1.0
		if n%3 == 2 {
			sign = -1
		}
		lg.tally(&r, sign)
		for j := 0; j < features; j++ {
			for k := 0; k < features; k++ {
				want[j][k] += sign * r.f[j] * r.f[k]
			}
			want[j][features] += sign * r.f[j] * r.y
		}
	}
	got := lg.sums()
	for j := range want {
		for k := range want[j] {
			if math.Float64bits(got[j][k]) != math.Float64bits(want[j][k]) {
				t.Fatalf("sums[%d][%d] = %v, the full sum %v", j, k, got[j][k], want[j][k])
			}
		}
	}
}
