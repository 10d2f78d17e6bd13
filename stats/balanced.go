package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// PairStat sums one pair's independent units (a unit: the pair's games
// on one seed, both seat orders): A's score in each unit, the mean of its
// games' scores in [0, 1], summed and squared-summed.
type PairStat struct {
	A, B  int
	Units int
	Sum   float64
	SumSq float64
}

// BalancedFit is a Bradley–Terry fit that weighs every pair of players
// alike, however many units each pair played: the ratings r solve
// Σ_j (m_ij - σ(r_i - r_j)) = 0 for every i, with m_ij pair (i, j)'s mean
// unit score shrunk by one virtual unit of 1/2 ((Sum + 1/2)/(Units + 1)),
// which are the equations of the maximum-likelihood fit of a round robin.
// So an adaptive schedule, which plays some pairs far more than others,
// estimates the same order as a round robin would, also in a
// non-transitive field, where the ordinary fit of unbalanced games orders
// by whom each player happened to meet most.
//
// Its covariance is the delta method's (an M-estimator's sandwich):
// L⁺ (Σ_pairs Var(m_ij) (e_i - e_j)(e_i - e_j)ᵀ) L⁺, L the Laplacian of the
// weights σ(1 - σ) at the fit, and Var(m_ij) = v_ij / (Units + 1) with v_ij
// the units' sample variance pooled with 2 degrees of freedom of σ(1 - σ)
// (the variance of a unit whose two games always agree, the most a unit of
// mean σ can have): a pair with few units, or units that happened to
// agree, is not taken as certain, and many units count at their own
// spread.
type BalancedFit struct {
	// Fit holds the ratings (best first, mean 0) and their covariance in
	// Elo², as a BTFit (Method "balanced").
	Fit BTFit

	pairs  []PairStat
	r      []float64   // the ratings in nats, by player index
	unitV  []float64   // v_ij per pair
	lplus  [][]float64 // L⁺ in nats
	byPair map[[2]int]int
}

// FitBalanced fits the players from every pair's units; every pair must
// have at least one.
func FitBalanced(names []string, pairs []PairStat) (*BalancedFit, error) {
	n := len(names)
	if n < 2 {
		return nil, fmt.Errorf("%d players, want at least 2", n)
	}
	b := &BalancedFit{byPair: map[[2]int]int{}}
	mean := newSquare(n)
	for k, p := range pairs {
		switch {
		case p.A < 0 || p.A >= n || p.B < 0 || p.B >= n || p.A == p.B:
			return nil, fmt.Errorf("pair %d: players %d and %d, want two different indices below %d", k, p.A, p.B, n)
		case p.Units < 1 || !(p.Sum >= 0 && p.Sum <= float64(p.Units)):
			return nil, fmt.Errorf("pair %s-%s: score %v over %d units, want units >= 1 and a score between 0 and the units", names[p.A], names[p.B], p.Sum, p.Units)
		}
		key := [2]int{min(p.A, p.B), max(p.A, p.B)}
		if _, dup := b.byPair[key]; dup {
			return nil, fmt.Errorf("pair %s-%s is given twice", names[key[0]], names[key[1]])
		}
		if p.A > p.B {
			// Store from the lower index's side.
			p = PairStat{A: p.B, B: p.A, Units: p.Units, Sum: float64(p.Units) - p.Sum, SumSq: p.SumSq - 2*p.Sum + float64(p.Units)}
		}
		b.byPair[key] = len(b.pairs)
		b.pairs = append(b.pairs, p)
		m := (p.Sum + 0.5) / float64(p.Units+1)
		mean[p.A][p.B], mean[p.B][p.A] = m, 1-m
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			if _, ok := b.byPair[[2]int{i, j}]; !ok {
				return nil, fmt.Errorf("%s and %s never met: the balanced fit needs every pair", names[i], names[j])
			}
		}
	}
	r, err := solveBalanced(mean)
	if err != nil {
		return nil, err
	}
	b.r = r
	// L⁺ at the fit.
	lap := mat.NewSymDense(n, nil)
	balancedInformation(lap, r, nil, nil)
	var chol mat.Cholesky
	if !chol.Factorize(lap) {
		return nil, errors.New("the balanced fit's information matrix is singular")
	}
	var inv mat.SymDense
	if err := chol.InverseTo(&inv); err != nil {
		return nil, err
	}
	b.lplus = newSquare(n)
	for i := range n {
		for j := range n {
			b.lplus[i][j] = inv.At(i, j) - 1/float64(n)
		}
	}
	// The variance of each pair's mean.
	meat := newSquare(n)
	b.unitV = make([]float64, len(b.pairs))
	for k, p := range b.pairs {
		s := sigmoid(r[p.A] - r[p.B])
		v := s * (1 - s)
		if p.Units >= 2 {
			mu := p.Sum / float64(p.Units)
			sample := math.Max(0, (p.SumSq-float64(p.Units)*mu*mu)/float64(p.Units-1))
			v = (varPriorDF*v + float64(p.Units-1)*sample) / (varPriorDF + float64(p.Units-1))
		}
		b.unitV[k] = v
		vm := v / float64(p.Units+1)
		meat[p.A][p.A] += vm
		meat[p.B][p.B] += vm
		meat[p.A][p.B] -= vm
		meat[p.B][p.A] -= vm
	}
	fit := BTFit{Method: "balanced"}
	b.setCov(&fit, meat)
	for i, name := range names {
		fit.Ratings = append(fit.Ratings, Rated{Name: name, Index: i, Elo: r[i] * eloPerNat})
	}
	fit.setIntervals()
	for _, p := range b.pairs {
		fit.Units += p.Units
	}
	slices.SortStableFunc(fit.Ratings, func(x, y Rated) int {
		if x.Elo != y.Elo {
			if x.Elo > y.Elo {
				return -1
			}
			return 1
		}
		return strings.Compare(x.Name, y.Name)
	})
	b.Fit = fit
	return b, nil
}

// setCov sets fit's covariance (Elo²) to the sandwich L⁺ meat L⁺.
func (b *BalancedFit) setCov(fit *BTFit, meat [][]float64) {
	n := len(b.lplus)
	cov := mul(mul(b.lplus, meat), b.lplus)
	fit.Cov = newSquare(n)
	for i := range n {
		for j := range n {
			fit.Cov[i][j] = cov[i][j] * eloPerNat * eloPerNat
		}
	}
}

// setIntervals sets every rating's standard error and interval from
// the covariance (normalQuantile is two-sided: a 95% interval).
func (fit *BTFit) setIntervals() {
	z := normalQuantile(0.95)
	for k := range fit.Ratings {
		r := &fit.Ratings[k]
		r.SE = math.Sqrt(math.Max(0, fit.Cov[r.Index][r.Index]))
		r.Lo, r.Hi = r.Elo-z*r.SE, r.Elo+z*r.SE
	}
}

// solveBalanced finds the mean-zero ratings (nats) whose expected scores
// sum, per player, to its mean scores: Newton's method on the concave
// Σ_{i<j} m_ij log σ(r_i - r_j) + m_ji log σ(r_j - r_i), from 0.
func solveBalanced(mean [][]float64) ([]float64, error) {
	n := len(mean)
	r := make([]float64, n)
	obj := func(r []float64) float64 {
		v := 0.0
		for i := range n {
			for j := range n {
				if i != j {
					v += mean[i][j] * logSigmoid(r[i]-r[j])
				}
			}
		}
		return v
	}
	h := mat.NewSymDense(n, nil)
	grad := make([]float64, n)
	step := make([]float64, n)
	trial := make([]float64, n)
	var chol mat.Cholesky
	f := obj(r)
	for range 200 {
		balancedInformation(h, r, mean, grad)
		if !chol.Factorize(h) {
			return nil, errors.New("the balanced fit's information matrix is singular")
		}
		d := mat.NewVecDense(n, step)
		if err := chol.SolveVecTo(d, mat.NewVecDense(n, grad)); err != nil {
			return nil, err
		}
		t := 1.0
		for {
			for i := range r {
				trial[i] = r[i] + t*step[i]
			}
			if nf := obj(trial); nf >= f-1e-12*math.Abs(f) || t < 1e-10 {
				f = nf
				break
			}
			t /= 2
		}
		copy(r, trial)
		move := 0.0
		for _, v := range step {
			move = math.Max(move, math.Abs(t*v))
		}
		if move*eloPerNat < 1e-10 {
			return r, nil
		}
	}
	return nil, errors.New("the balanced fit did not converge in 200 Newton steps")
}

// balancedInformation sets h to L + J/n at the ratings r (nats): L the
// Laplacian of the weights σ(1 - σ)(r_i - r_j), J the all-ones matrix,
// which makes it invertible on mean-zero ratings. With grad non-nil it
// also sets grad to the gradient of solveBalanced's objective,
// Σ_j (m_ij - σ(r_i - r_j)) per player i.
func balancedInformation(h *mat.SymDense, r []float64, mean [][]float64, grad []float64) {
	n := len(r)
	for i := range n {
		if grad != nil {
			grad[i] = 0
		}
		for j := i; j < n; j++ {
			h.SetSym(i, j, 1/float64(n))
		}
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			p := sigmoid(r[i] - r[j])
			w := p * (1 - p)
			h.SetSym(i, j, h.At(i, j)-w)
			h.SetSym(i, i, h.At(i, i)+w)
			h.SetSym(j, j, h.At(j, j)+w)
			if grad != nil {
				e := mean[i][j] - p
				grad[i] += e
				grad[j] -= e
			}
		}
	}
}

// varPriorDF is the weight, in degrees of freedom, of the cautious
// variance σ(1 - σ) a pair's unit variance is pooled with (see
// BalancedFit).
const varPriorDF = 2

// mul is the product of two square matrices.
func mul(a, b [][]float64) [][]float64 {
	n := len(a)
	out := newSquare(n)
	for i := range n {
		for k := range n {
			if a[i][k] == 0 {
				continue
			}
			for j := range n {
				out[i][j] += a[i][k] * b[k][j]
			}
		}
	}
	return out
}
