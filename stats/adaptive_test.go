package stats

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// fitOf builds a fit of independent ratings with the given Elo and
// standard errors.
func fitOf(elo, se []float64) BTFit {
	n := len(elo)
	f := BTFit{Cov: newSquare(n)}
	for i := range n {
		f.Cov[i][i] = se[i] * se[i]
		f.Ratings = append(f.Ratings, Rated{Name: string(rune('a' + i)), Index: i, Elo: elo[i], SE: se[i]})
	}
	// Best first, as fits are.
	for i := range f.Ratings {
		for j := i + 1; j < n; j++ {
			if f.Ratings[j].Elo > f.Ratings[i].Elo {
				f.Ratings[i], f.Ratings[j] = f.Ratings[j], f.Ratings[i]
			}
		}
	}
	return f
}

// With two players the top-1 order holds with probability Φ(diff/se),
// which the draws estimate within their standard error.
func TestTopOrderCertaintyTwoPlayers(t *testing.T) {
	fit := fitOf([]float64{30, 0}, []float64{20, 15})
	top, err := TopOrderCertainty(fit, 1, 20000, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := distuv.UnitNormal.CDF(30 / 25.0)
	if math.Abs(top.Prob-want) > 4*math.Sqrt(want*(1-want)/20000) {
		t.Fatalf("P(a over b) = %.4f, want Φ(30/25) = %.4f", top.Prob, want)
	}
	if len(top.Order) != 1 || top.Order[0] != 0 || len(top.Comparisons) != 1 {
		t.Fatalf("order %v, comparisons %v", top.Order, top.Comparisons)
	}
	again, _ := TopOrderCertainty(fit, 1, 20000, 1)
	if again.Prob != top.Prob {
		t.Fatalf("the same seed gave %v and %v", top.Prob, again.Prob)
	}
}

// The top-2 order of four players rests on 1 over 2 and 2 over each of
// the last two; independent ratings make the probability (nearly) the
// product of... at least no more than the least certain comparison's.
func TestTopOrderCertaintyComparisons(t *testing.T) {
	fit := fitOf([]float64{100, 60, 55, -200}, []float64{10, 10, 10, 10})
	top, err := TopOrderCertainty(fit, 2, 8000, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(top.Comparisons) != 3 {
		t.Fatalf("comparisons %+v, want 1>2, 2>3, 2>4", top.Comparisons)
	}
	weakest := distuv.UnitNormal.CDF(5 / math.Sqrt(200))
	if top.Prob > weakest+0.02 {
		t.Fatalf("P(top 2) = %.3f exceeds the weakest comparison's %.3f", top.Prob, weakest)
	}
	if _, err := TopOrderCertainty(fit, 5, 0, 1); err == nil {
		t.Fatal("top 5 of 4 players was measured")
	}
}

// NextPairs gives the least certain comparison the first pairs, and moves
// on as the pairs it gave add information.
func TestNextPairsLeastCertainFirst(t *testing.T) {
	fit := fitOf([]float64{100, 70, 50, -200}, []float64{10, 10, 10, 10})
	top, err := TopOrderCertainty(fit, 2, 100, 3)
	if err != nil {
		t.Fatal(err)
	}
	// 70 over 50 is the least certain (z 1.41, against 2.12 for 100 over
	// 70); about 380 direct pairs bring it level, then both get pairs.
	pairs := NextPairs(fit, top, 1000)
	if len(pairs) != 1000 || pairs[0] != [2]int{1, 2} {
		t.Fatalf("first pair %v of %d, want [1 2] (70 over 50, the least certain)", pairs[0], len(pairs))
	}
	count := map[[2]int]int{}
	for _, p := range pairs {
		count[p]++
	}
	if count[[2]int{1, 2}] <= count[[2]int{0, 1}] || count[[2]int{0, 1}] == 0 || count[[2]int{1, 3}] != 0 {
		t.Fatalf("pairs per comparison %v: want most to 1-2, some to 0-1, none to 1-3 (260 Elo apart)", count)
	}
	if NextPairs(fit, top, 0) != nil {
		t.Fatal("a batch of 0 gave pairs")
	}
}
