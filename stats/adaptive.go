package stats

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
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
// raises log Π_c Φ(z_c), z_c = |Diff_c|/SE_c over the comparisons of t, the
// product form of the approximate probability of correct selection of
// optimal computing budget allocation (OCBA: Chen and Lee, "Stochastic
// Simulation Optimization: An Optimal Computing Budget Allocation", 2011,
// ch. 3), to first order. One more unit of pair (i, j) lowers Var(m_ij)
// from v_ij/(n+1) to v_ij/(n+2), and every comparison's variance by that
// times the square of its sensitivity to m_ij (from L⁺); comparison c's
// variance weighs φ(z_c)/Φ(z_c) · z_c/(2 Var_c), z_c floored at 1 so that a
// comparison whose difference is near zero still draws units without
// taking them all. Every comparison counts, not only the least certain
// one: a rule that feeds the least certain comparison alone starves a
// player whose rating rests on pairs played once (on the 21 AI Code Battle
// strategies, 420,000 matches went to one near-tie while opportunist's
// one-unit pairs kept it 90 Elo too low). The batch is chosen one pair at
// a time with the reductions applied, so it spreads over the comparisons.
// The pair is most often a comparison's own two players, but can be a
// common opponent's when that says more. This is ResponseGraphUCB's idea
// (Rowland et al., "Multiagent evaluation under incomplete information",
// NeurIPS 2019: sample the edges of the response graph whose sign is
// uncertain, stop when every edge is certain) with the edges those of the
// top-k order and their uncertainty from the fit's covariance. Ties go to
// the earlier pair. The pairs are returned as (A, B) indices, one entry
// per game pair.
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
	weight := make([]float64, nc)
	for range batch {
		gaining := false
		for c := range nc {
			weight[c] = 0
			if vars[c] <= 0 {
				continue // certain: nothing to gain
			}
			z := diffs[c] / math.Sqrt(vars[c])
			// d/dv of -log Φ(d/√v) is φ(z)/Φ(z) · z/(2v); z floored at 1.
			zf := math.Max(z, 1)
			weight[c] = distuv.UnitNormal.Prob(z) / distuv.UnitNormal.CDF(z) * zf / (2 * vars[c])
			gaining = gaining || weight[c] > 0
		}
		if !gaining {
			break // every comparison is certain: nothing to gain
		}
		best, gain := -1, 0.0
		for k := range b.pairs {
			drop := b.unitV[k] * (1/units[k] - 1/(units[k]+1))
			g := 0.0
			for c := range nc {
				g += weight[c] * drop * sens[c][k]
			}
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
