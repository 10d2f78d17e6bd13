package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// NashResult is the Nash averaging of a field.
type NashResult struct {
	// Mass is the maximum-entropy Nash equilibrium: the share of each
	// player in the mixture no other player beats on average.
	Mass []float64 `json:"mass"`
	// Rating is each player's expected payoff against that mixture, (A
	// Mass)_i: 0 for the players in the support, negative for those the
	// mixture beats. It is Balduzzi et al.'s Nash average of the player.
	Rating []float64 `json:"rating"`
	// Support lists the players any Nash equilibrium can use, in index
	// order; the maximum-entropy one gives each of them positive mass.
	Support []int `json:"support"`
}

// ScoreMargins turns a score matrix (score[i][j] is i's score rate
// against j) into the antisymmetric matrix of margins (score[i][j] -
// score[j][i])/2, which is score - 1/2 when the two rates of each pair sum
// to 1. Pairs that never met (both entries 0) get margin 0.
func ScoreMargins(score [][]float64) [][]float64 {
	n := len(score)
	a := newSquare(n)
	for i := range n {
		for j := range n {
			if i != j && j < len(score[i]) && i < len(score[j]) {
				a[i][j] = (score[i][j] - score[j][i]) / 2
			}
		}
	}
	return a
}

// NashAverage is the Nash averaging of Balduzzi et al. ("Re-evaluating
// evaluation", NeurIPS 2018) of the antisymmetric payoff matrix a
// (a[i][j] = -a[j][i], what i gains against j: ScoreMargins of a score
// matrix, or its log-odds). The symmetric zero-sum game has value 0; its
// equilibria form a polytope, and the maximum-entropy one is unique and
// invariant to copies of a player. Method:
//
//  1. One linear program (gonum's simplex) per player not yet known to be
//     in the support maximises that player's mass over the equilibria
//     {p ≥ 0, Σp = 1, aᵀp ≥ 0}; the players with positive mass in some
//     equilibrium form the support S (any mass seen in a solution marks
//     its player too, which saves programs).
//  2. The entropy is maximised over the equilibria, restricted to S, by
//     its convex dual: p ∝ exp(-Mᵀθ) over S, minimising log Σ exp(-Mᵀθ)
//     by Newton's method, M holding the constraints (aᵀp)_j = 0 for j in
//     S, which hold at every equilibrium, and (aᵀp)_j ≥ 0 for the others,
//     handled by an active set (a multiplier that turns negative leaves
//     it, a violated constraint joins it).
func NashAverage(a [][]float64) (NashResult, error) {
	n := len(a)
	if n == 0 {
		return NashResult{}, errors.New("no player")
	}
	if err := checkSquare("payoff", a, n); err != nil {
		return NashResult{}, err
	}
	if err := checkFinite("payoff", a); err != nil {
		return NashResult{}, err
	}
	scale := 0.0
	for i := range n {
		for j := range n {
			scale = math.Max(scale, math.Abs(a[i][j]))
		}
	}
	for i := range n {
		for j := range n {
			if math.Abs(a[i][j]+a[j][i]) > 1e-9*math.Max(scale, 1) {
				return NashResult{}, fmt.Errorf("payoff[%d][%d] = %v but payoff[%d][%d] = %v; want an antisymmetric matrix (ScoreMargins makes one from scores)", i, j, a[i][j], j, i, a[j][i])
			}
		}
	}
	res := NashResult{Mass: make([]float64, n), Rating: make([]float64, n)}
	if scale == 0 {
		// Every player ties every other: every mixture is an equilibrium.
		for i := range n {
			res.Mass[i] = 1 / float64(n)
			res.Support = append(res.Support, i)
		}
		return res, nil
	}
	support, err := nashSupport(a, scale)
	if err != nil {
		return NashResult{}, err
	}
	p, err := maxEntropyNash(a, support, scale)
	if err != nil {
		return NashResult{}, err
	}
	for k, i := range support {
		res.Mass[i] = p[k]
	}
	res.Support = support
	for i := range n {
		for j := range n {
			res.Rating[i] += a[i][j] * res.Mass[j]
		}
		if slices.Contains(support, i) {
			res.Rating[i] = 0 // exactly, not the solver's 1e-15
		}
	}
	return res, nil
}

// nashSupport finds the players some equilibrium gives mass, by linear
// programs in standard form over x = (p, s): Σ_i a[i][j] p_i - s_j = 0 for
// every j, Σ p = 1, x ≥ 0.
func nashSupport(a [][]float64, scale float64) ([]int, error) {
	n := len(a)
	rows, cols := n+1, 2*n
	m := mat.NewDense(rows, cols, nil)
	for j := range n {
		for i := range n {
			m.Set(j, i, a[i][j])
		}
		m.Set(j, n+j, -1)
	}
	for i := range n {
		m.Set(n, i, 1)
	}
	b := make([]float64, rows)
	b[n] = 1
	in := make([]bool, n)
	tol := 1e-9
	for i := range n {
		if in[i] {
			continue
		}
		c := make([]float64, cols)
		c[i] = -1
		opt, x, err := lp.Simplex(c, m, b, 1e-12*scale, nil)
		if err != nil {
			return nil, fmt.Errorf("the support program for player %d: %w", i, err)
		}
		for k := range n {
			if x[k] > tol {
				in[k] = true
			}
		}
		if -opt > tol {
			in[i] = true
		}
	}
	var s []int
	for i, ok := range in {
		if ok {
			s = append(s, i)
		}
	}
	if len(s) == 0 {
		return nil, errors.New("the support programs found no equilibrium")
	}
	return s, nil
}

// maxEntropyNash maximises the entropy of p over the equilibria with
// support S (see NashAverage) and returns p over S.
func maxEntropyNash(a [][]float64, support []int, scale float64) ([]float64, error) {
	n, k := len(a), len(support)
	if k == 1 {
		return []float64{1}, nil
	}
	inS := make([]bool, n)
	for _, i := range support {
		inS[i] = true
	}
	// Constraint rows over S, scaled to order 1: row j is (a[i][j] for
	// i in S); equalities for j in S, inequalities row·p >= 0 otherwise.
	var eq, ineq [][]float64
	for j := range n {
		row := make([]float64, k)
		for t, i := range support {
			row[t] = a[i][j] / scale
		}
		if inS[j] {
			eq = append(eq, row)
		} else {
			ineq = append(ineq, row)
		}
	}
	active := make([]bool, len(ineq))
	for range 4*n + 10 {
		// Rows of M: equalities as they are, active inequalities negated
		// (g·p <= 0 with g = -row) so their multipliers must be >= 0.
		var rows [][]float64
		rows = append(rows, eq...)
		var idx []int
		for t, on := range active {
			if on {
				g := make([]float64, k)
				for q, v := range ineq[t] {
					g[q] = -v
				}
				rows = append(rows, g)
				idx = append(idx, t)
			}
		}
		p, theta, err := entropyDual(rows, k)
		if err != nil {
			return nil, err
		}
		// A negative multiplier: that constraint is not binding.
		worst, at := -1e-10, -1
		for q, t := range idx {
			if l := theta[len(eq)+q]; l < worst {
				worst, at = l, t
			}
		}
		if at >= 0 {
			active[at] = false
			continue
		}
		// A violated inequality joins the active set.
		viol, at := -1e-12, -1
		for t, row := range ineq {
			if active[t] {
				continue
			}
			v := 0.0
			for q := range row {
				v += row[q] * p[q]
			}
			if v < viol {
				viol, at = v, t
			}
		}
		if at < 0 {
			return p, nil
		}
		active[at] = true
	}
	return nil, errors.New("the maximum-entropy program did not settle its active constraints")
}

// entropyDual minimises f(θ) = log Σ_i exp(-(Mᵀθ)_i) over θ, M given by
// rows, by Newton's method with a pseudo-inverse Hessian (the rows may be
// dependent) and backtracking. It returns p = softmax(-Mᵀθ), which
// maximises the entropy subject to M p = 0, and θ.
func entropyDual(rows [][]float64, k int) ([]float64, []float64, error) {
	m := len(rows)
	theta := make([]float64, m)
	w := make([]float64, k)
	p := make([]float64, k)
	eval := func(th []float64) float64 {
		for i := range w {
			w[i] = 0
		}
		for r, row := range rows {
			for i, v := range row {
				w[i] -= th[r] * v
			}
		}
		lse := logSumExp(w)
		for i := range p {
			p[i] = math.Exp(w[i] - lse)
		}
		return lse
	}
	f := eval(theta)
	if m == 0 {
		return slices.Clone(p), theta, nil
	}
	grad := make([]float64, m)
	trial := make([]float64, m)
	for range 500 {
		// grad = -M p; Hessian = M (diag p - p pᵀ) Mᵀ.
		gmax := 0.0
		mp := make([]float64, m)
		for r, row := range rows {
			s := 0.0
			for i, v := range row {
				s += v * p[i]
			}
			mp[r] = s
			grad[r] = -s
			gmax = math.Max(gmax, math.Abs(s))
		}
		if gmax < 1e-13 {
			return slices.Clone(p), theta, nil
		}
		h := mat.NewSymDense(m, nil)
		for r := range m {
			for q := r; q < m; q++ {
				s := 0.0
				for i := range k {
					s += rows[r][i] * rows[q][i] * p[i]
				}
				h.SetSym(r, q, s-mp[r]*mp[q])
			}
		}
		var eig mat.EigenSym
		if !eig.Factorize(h, true) {
			return nil, nil, errors.New("the entropy program's Hessian has no eigen decomposition")
		}
		vals := eig.Values(nil)
		var vecs mat.Dense
		eig.VectorsTo(&vecs)
		top := slices.Max(vals)
		step := make([]float64, m)
		for e, l := range vals {
			if l <= 1e-12*top {
				continue
			}
			dot := 0.0
			for r := range m {
				dot += vecs.At(r, e) * grad[r]
			}
			for r := range m {
				step[r] -= vecs.At(r, e) * dot / l
			}
		}
		t := 1.0
		for ; t > 1e-12; t /= 2 {
			for r := range m {
				trial[r] = theta[r] + t*step[r]
			}
			if nf := eval(trial); nf <= f {
				f = nf
				break
			}
		}
		if t <= 1e-12 {
			eval(theta)
			return slices.Clone(p), theta, nil
		}
		copy(theta, trial)
	}
	return slices.Clone(p), theta, nil
}
