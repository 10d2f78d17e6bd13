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
// settle the top order t of fit, by a variance-driven rule: each pair of
// the batch goes to the comparison of t that is least certain (smallest
// Diff/SE), which then counts the information one more direct game pair
// would add to its difference (2 p(1-p) (ln 10/400)² per pair, p the
// fitted expected score), so the batch spreads over the comparisons in
// the order of their uncertainty. This is ResponseGraphUCB's rule (Rowland
// et al., "Multiagent evaluation under incomplete information", NeurIPS
// 2019: play the edge of the response graph whose sign is least certain,
// stop when every edge is certain) with the edges those of the top-k order
// and their uncertainty from the Bradley–Terry fit's covariance, so games
// against common opponents count too. Ties go to the earlier comparison.
// It returns the pairs as (Above, Below) indices, one entry per game
// pair.
func NextPairs(fit BTFit, t TopOrder, batch int) [][2]int {
	if batch < 1 || len(t.Comparisons) == 0 {
		return nil
	}
	const k = math.Ln10 / 400
	vars := make([]float64, len(t.Comparisons))
	info := make([]float64, len(t.Comparisons))
	for i, c := range t.Comparisons {
		vars[i] = c.SE * c.SE
		p := 1 / (1 + math.Pow(10, -c.Diff/400))
		info[i] = 2 * p * (1 - p) * k * k
	}
	out := make([][2]int, 0, batch)
	for range batch {
		best, bestZ := -1, math.Inf(1)
		for i, c := range t.Comparisons {
			z := math.Inf(1)
			if vars[i] > 0 {
				z = math.Abs(c.Diff) / math.Sqrt(vars[i])
			}
			if z < bestZ {
				best, bestZ = i, z
			}
		}
		if best < 0 {
			// Every comparison is certain: nothing to gain.
			break
		}
		c := t.Comparisons[best]
		out = append(out, [2]int{c.Above, c.Below})
		if vars[best] > 0 {
			vars[best] = 1 / (1/vars[best] + info[best])
		}
	}
	return out
}
