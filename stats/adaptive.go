package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// RankComparison is one of the orderings a top-k order rests on: player
// Above (an index in the names of the fit) rated over player Below by
// Diff Elo with standard error SE.
type RankComparison struct {
	Above int     `json:"above"`
	Below int     `json:"below"`
	Diff  float64 `json:"diff"`
	SE    float64 `json:"se"`
}

// Z is the comparison's difference in standard errors (infinite when the
// difference is certain).
func (c RankComparison) Z() float64 {
	if c.SE == 0 {
		return math.Inf(1)
	}
	return c.Diff / c.SE
}

// TopOrder is how certain a fit's top-k order is.
type TopOrder struct {
	// Order are the top k players (indices in the names of the fit), best
	// first.
	Order []int `json:"order"`
	// Prob is the probability that the top k are these players in this
	// order, under the fit's normal approximation: the share of Draws
	// draws of the ratings from N(Elo, Cov) in which Order[0] > Order[1]
	// > ... > Order[k-1] > every other player. Its Monte Carlo standard
	// error is at most 0.5/sqrt(Draws).
	Prob  float64 `json:"prob"`
	Draws int     `json:"draws"`
	// Comparisons are the orderings the order rests on: each of the top k
	// over the next (k-1 of them), and the k-th over each player below.
	Comparisons []RankComparison `json:"comparisons"`
}

// TopOrderCertainty measures the certainty of the top top players of fit
// by draws draws (0 means 4,000) from the normal distribution of the
// ratings, seeded by seed so that the same fit gives the same figure.
func TopOrderCertainty(fit BTFit, top, draws int, seed uint64) (TopOrder, error) {
	n := len(fit.Ratings)
	if top < 1 || top > n {
		return TopOrder{}, fmt.Errorf("top %d is outside [1, %d players]", top, n)
	}
	if draws == 0 {
		draws = 4000
	}
	if draws < 1 {
		return TopOrder{}, fmt.Errorf("draws %d, want at least 1", draws)
	}
	elo := make([]float64, n)
	for _, r := range fit.Ratings {
		elo[r.Index] = r.Elo
	}
	t := TopOrder{Draws: draws}
	for _, r := range fit.Ratings[:top] {
		t.Order = append(t.Order, r.Index)
	}
	comp := func(a, b int) RankComparison {
		d, se := fit.Diff(a, b)
		return RankComparison{Above: a, Below: b, Diff: d, SE: se}
	}
	for i := 0; i+1 < top; i++ {
		t.Comparisons = append(t.Comparisons, comp(t.Order[i], t.Order[i+1]))
	}
	last := t.Order[top-1]
	for _, r := range fit.Ratings[top:] {
		t.Comparisons = append(t.Comparisons, comp(last, r.Index))
	}
	// A square root of the covariance (which is singular: the ratings
	// are anchored), from its eigen-decomposition.
	var eig mat.EigenSym
	cov := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			cov.SetSym(i, j, (fit.Cov[i][j]+fit.Cov[j][i])/2)
		}
	}
	if !eig.Factorize(cov, true) {
		return TopOrder{}, errors.New("the covariance of the ratings has no eigen-decomposition")
	}
	var vec mat.Dense
	eig.VectorsTo(&vec)
	vals := eig.Values(nil)
	root := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			root.Set(i, j, vec.At(i, j)*math.Sqrt(math.Max(0, vals[j])))
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0x70b0de7))
	z := make([]float64, n)
	x := make([]float64, n)
	hold := 0
	for range draws {
		for i := range z {
			z[i] = rng.NormFloat64()
		}
		for i := range n {
			v := elo[i]
			for j := range n {
				v += root.At(i, j) * z[j]
			}
			x[i] = v
		}
		ok := true
		for _, c := range t.Comparisons {
			if x[c.Above] <= x[c.Below] {
				ok = false
				break
			}
		}
		if ok {
			hold++
		}
	}
	t.Prob = float64(hold) / float64(draws)
	return t, nil
}

// NextPairs chooses the next batch of seat-swapped game pairs to play to
// settle the top order t of the fit, by a variance-driven rule: each game
// pair of the batch goes to the pair of players whose one more unit most
// reduces the variance of the least certain comparison of t (smallest
// |Diff|/SE). One more unit of pair (i, j) lowers Var(m_ij) from
// v_ij/(n+1) to v_ij/(n+2), and every comparison's variance by that times
// the square of its sensitivity to m_ij (from L⁺); the batch is chosen one
// pair at a time with those reductions applied, so it spreads over the
// comparisons in the order of their uncertainty. The pair is most often
// the comparison's own two players, but can be a common opponent's when
// that says more. This is ResponseGraphUCB's idea (Rowland et al.,
// "Multiagent evaluation under incomplete information", NeurIPS 2019:
// sample the edge of the response graph whose sign is least certain, stop
// when every edge is certain) with the edges those of the top-k order and
// their uncertainty from the fit's covariance. Ties go to the earlier
// comparison and the earlier pair. The pairs are returned as (A, B)
// indices, one entry per game pair.
func (b *BalancedFit) NextPairs(t TopOrder, batch int) [][2]int {
	if batch < 1 || len(t.Comparisons) == 0 {
		return nil
	}
	nc := len(t.Comparisons)
	// sens[c][k]: the sensitivity of comparison c's difference (nats) to
	// pair k's mean, squared.
	sens := make([][]float64, nc)
	vars := make([]float64, nc)
	diffs := make([]float64, nc)
	units := make([]float64, len(b.pairs))
	for k, p := range b.pairs {
		units[k] = float64(p.Units + 1)
	}
	for c, cmp := range t.Comparisons {
		sens[c] = make([]float64, len(b.pairs))
		x, y := cmp.Above, cmp.Below
		for k, p := range b.pairs {
			d := (b.lplus[x][p.A] - b.lplus[y][p.A]) - (b.lplus[x][p.B] - b.lplus[y][p.B])
			sens[c][k] = d * d
			vars[c] += b.unitV[k] / units[k] * d * d
		}
		diffs[c] = math.Abs(cmp.Diff) / eloPerNat
	}
	out := make([][2]int, 0, batch)
	for range batch {
		worst, worstZ := -1, math.Inf(1)
		for c := range nc {
			z := math.Inf(1)
			if vars[c] > 0 {
				z = diffs[c] / math.Sqrt(vars[c])
			}
			if z < worstZ {
				worst, worstZ = c, z
			}
		}
		if worst < 0 {
			break // every comparison is certain: nothing to gain
		}
		best, gain := -1, 0.0
		for k := range b.pairs {
			g := b.unitV[k] * (1/units[k] - 1/(units[k]+1)) * sens[worst][k]
			if g > gain {
				best, gain = k, g
			}
		}
		if best < 0 {
			break
		}
		drop := b.unitV[best] * (1/units[best] - 1/(units[best]+1))
		for c := range nc {
			vars[c] = math.Max(0, vars[c]-drop*sens[c][best])
		}
		units[best]++
		out = append(out, [2]int{b.pairs[best].A, b.pairs[best].B})
	}
	return out
}
