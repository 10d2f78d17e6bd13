package stats

import (
	"errors"
	"fmt"
	"math"
)

// AlphaRank ranks the strategies of a symmetric two-player game by α-Rank
// (Omidshafiei et al. 2019), single-population, as OpenSpiel's
// alpharank.py defines it. A population of M agents plays the game;
// occasionally a mutant strategy r appears in a population that plays s
// and takes it over with the fixation probability
//
//	ρ(r, s) = 1 / (1 + Σ_{l=1}^{M-1} Π_{k=1}^{l} exp(-Alpha (f_r(k) - f_s(M-k))))
//
// where f_x(k) is the fitness of a strategy x held by k agents. With the
// local selection model (OpenSpiel's default) a strategy's fitness is its
// payoff against the other one, f_r = P[r][s] and f_s = P[s][r]; with
// Global it is the expected payoff against the rest of the population,
// f_r(k) = ((k-1) P[r][r] + (M-k) P[r][s]) / (M-1). The Markov chain over
// monomorphic populations moves from s to r with probability
// ρ(r, s)/(n-1); its stationary distribution is the ranking's mass.
type AlphaRank struct {
	// M is the population size; 0 means OpenSpiel's default 50.
	M int
	// Alpha is the selection intensity (the inverse temperature of the
	// Fermi rule); 0 means OpenSpiel's default 100. Large values rank by
	// who beats whom, small ones blur towards the uniform distribution.
	Alpha float64
	// Global selects the fitness against the whole finite population
	// (OpenSpiel's use_local_selection_model=False). The default uses the
	// payoff against the current opponent only.
	Global bool
}

// Rank is the stationary mass of each strategy of the payoff matrix:
// payoff[i][j] is what strategy i earns against strategy j (for a score
// matrix, i's score rate against j). The masses sum to 1.
func (a AlphaRank) Rank(payoff [][]float64) ([]float64, error) {
	n := len(payoff)
	if err := checkSquare("payoff", payoff, n); err != nil {
		return nil, err
	}
	if err := checkFinite("payoff", payoff); err != nil {
		return nil, err
	}
	m, alpha := a.M, a.Alpha
	if m == 0 {
		m = 50
	}
	if alpha == 0 {
		alpha = 100
	}
	if m < 2 {
		return nil, fmt.Errorf("population size %d, want at least 2", m)
	}
	if !(alpha > 0) || math.IsInf(alpha, 0) {
		return nil, fmt.Errorf("alpha %v, want a positive number", alpha)
	}
	if n == 0 {
		return nil, errors.New("no strategy to rank")
	}
	if n == 1 {
		return []float64{1}, nil
	}
	c := newSquare(n)
	logs := make([]float64, m)
	eta := 1 / float64(n-1)
	for s := range n {
		for r := range n {
			if r == s {
				continue
			}
			// logs holds 0 and the logarithms of the products, so
			// 1/rho is the sum of their exponentials.
			logs[0] = 0
			acc := 0.0
			for k := 1; k < m; k++ {
				var fr, fs float64
				if a.Global {
					fr = (float64(k-1)*payoff[r][r] + float64(m-k)*payoff[r][s]) / float64(m-1)
					fs = (float64(m-k-1)*payoff[s][s] + float64(k)*payoff[s][r]) / float64(m-1)
				} else {
					fr, fs = payoff[r][s], payoff[s][r]
				}
				acc -= alpha * (fr - fs)
				logs[k] = acc
			}
			c[s][r] = eta * math.Exp(-logSumExp(logs))
		}
	}
	return stationary(c)
}

// InfiniteAlphaRank is α-Rank in the limit α → ∞ (OpenSpiel's
// use_inf_alpha with sweep_pi_vs_epsilon): from s the chain moves to a
// strategy r that beats it (P[r][s] > P[s][r]) with probability
// (1-eps)/(n-1), to one that loses to it with eps/(n-1), and to one that
// ties with 1/(2(n-1)). The noise eps starts at 0.5 and halves until the
// stationary distribution stops changing (at least 10 halvings, as
// OpenSpiel does); the distribution is returned with the eps reached. As eps vanishes
// the mass gathers on the sink components of the "who beats whom" graph:
// all of it on a strategy that beats every other, equal shares on a
// cycle.
func InfiniteAlphaRank(payoff [][]float64) (pi []float64, eps float64, err error) {
	n := len(payoff)
	if err := checkSquare("payoff", payoff, n); err != nil {
		return nil, 0, err
	}
	if err := checkFinite("payoff", payoff); err != nil {
		return nil, 0, err
	}
	if n == 0 {
		return nil, 0, errors.New("no strategy to rank")
	}
	if n == 1 {
		return []float64{1}, 0, nil
	}
	chain := func(eps float64) [][]float64 {
		c := newSquare(n)
		eta := 1 / float64(n-1)
		for s := range n {
			for r := range n {
				if r == s {
					continue
				}
				switch d := payoff[r][s] - payoff[s][r]; {
				case math.Abs(d) <= 1e-14:
					c[s][r] = eta / 2
				case d > 0:
					c[s][r] = eta * (1 - eps)
				default:
					c[s][r] = eta * eps
				}
			}
		}
		return c
	}
	eps = 0.5
	var prev []float64
	for iter := 0; iter < 100; iter++ {
		pi, err = stationary(chain(eps))
		if err != nil {
			return nil, 0, err
		}
		if iter > 10 && allClose(pi, prev, 1e-5, 1e-8) {
			return pi, eps, nil
		}
		prev = pi
		eps /= 2
	}
	return nil, 0, errors.New("the infinite-alpha ranking did not converge in 100 halvings of the noise")
}

// stationary is the stationary distribution of the Markov chain with
// off-diagonal transition probabilities c (the diagonal is ignored), by
// the Grassmann–Taksar–Heyman elimination, which subtracts nothing and so
// stays accurate when transitions are tiny. A chain that is not
// irreducible has no unique distribution and is refused.
func stationary(c [][]float64) ([]float64, error) {
	n := len(c)
	p := newSquare(n)
	for i := range n {
		copy(p[i], c[i])
	}
	for k := n - 1; k > 0; k-- {
		s := 0.0
		for j := range k {
			s += p[k][j]
		}
		if !(s > 0) {
			return nil, errors.New("the chain is reducible (several stationary distributions); lower alpha or use the infinite-alpha ranking")
		}
		for i := range k {
			p[i][k] /= s
		}
		for i := range k {
			if p[i][k] == 0 {
				continue
			}
			for j := range k {
				p[i][j] += p[i][k] * p[k][j]
			}
		}
	}
	pi := make([]float64, n)
	pi[0] = 1
	total := 1.0
	for j := 1; j < n; j++ {
		for i := range j {
			pi[j] += pi[i] * p[i][j]
		}
		total += pi[j]
	}
	for i := range pi {
		pi[i] /= total
	}
	return pi, nil
}

// logSumExp is log(Σ exp(x_i)) without overflow.
func logSumExp(x []float64) float64 {
	m := math.Inf(-1)
	for _, v := range x {
		m = math.Max(m, v)
	}
	s := 0.0
	for _, v := range x {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}

// allClose is numpy's allclose: |a - b| <= atol + rtol |b| everywhere.
func allClose(a, b []float64, rtol, atol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > atol+rtol*math.Abs(b[i]) {
			return false
		}
	}
	return true
}

// checkFinite refuses a matrix with NaN or infinite entries.
func checkFinite(name string, m [][]float64) error {
	for i, row := range m {
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("%s[%d][%d] = %v, want a finite number", name, i, j, v)
			}
		}
	}
	return nil
}
