package stats

import (
	"math"
	"strings"
	"testing"
)

// hanPayoffs is the 5x5 payoff table of Han et al. (2013) that OpenSpiel's
// alpharank_test.py ranks: r = 1, t = 2, p = 0, s = -1, delta = 4,
// eps = 0.25.
func hanPayoffs() [][]float64 {
	r, t, p, s, delta, eps := 1.0, 2.0, 0.0, -1.0, 4.0, 0.25
	return [][]float64{
		{r - eps/2, r - eps, 0, s + delta - eps, r - eps},
		{r, r, s, s, s},
		{0, t, p, p, p},
		{t - delta, t, p, p, p},
		{r, t, p, p, p},
	}
}

// TestAlphaRankOpenSpiel reproduces OpenSpiel's test_stationary_distribution:
// m = 20, alpha = 0.1, fitness against the population.
func TestAlphaRankOpenSpiel(t *testing.T) {
	pi, err := AlphaRank{M: 20, Alpha: 0.1, Global: true}.Rank(hanPayoffs())
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.40966787, 0.07959841, 0.20506998, 0.08505983, 0.2206039}
	for i := range want {
		if math.Abs(pi[i]-want[i]) > 5e-8 {
			t.Fatalf("pi %v, want %v", pi, want)
		}
	}
}

// TestAlphaRankConstantSum checks OpenSpiel's
// test_constant_sum_transition_matrix idea on rock-paper-scissors: for a
// constant-sum game the population fitness has the closed form
// u = alpha m/(m-1) (P[r][s] - 1/2), and the local model is u = alpha
// (P[r][s] - P[s][r]). Both rank RPS uniformly, and a score matrix
// (constant sum 1) with a dominant strategy gives it most of the mass.
func TestAlphaRankConstantSum(t *testing.T) {
	rps := [][]float64{{0.5, 0, 1}, {1, 0.5, 0}, {0, 1, 0.5}}
	for _, a := range []AlphaRank{{M: 20, Alpha: 0.1, Global: true}, {}, {M: 50, Alpha: 5}} {
		pi, err := a.Rank(rps)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range pi {
			if math.Abs(v-1.0/3) > 1e-12 {
				t.Fatalf("%+v: RPS pi %v, want uniform", a, pi)
			}
		}
	}
	// The closed form of the fixation probability in a constant-sum
	// game: two strategies, 0 scores 0.7 against 1.
	score := [][]float64{{0.5, 0.7}, {0.3, 0.5}}
	m, alpha := 20.0, 3.0
	rho := func(u float64) float64 { return (1 - math.Exp(-u)) / (1 - math.Exp(-m*u)) }
	r01 := rho(alpha * m / (m - 1) * (0.3 - 0.5)) // 1 invades 0
	r10 := rho(alpha * m / (m - 1) * (0.7 - 0.5)) // 0 invades 1
	pi, err := AlphaRank{M: 20, Alpha: alpha, Global: true}.Rank(score)
	if err != nil {
		t.Fatal(err)
	}
	if want := r10 / (r10 + r01); math.Abs(pi[0]-want) > 1e-12 {
		t.Fatalf("pi %v, closed form %v", pi, want)
	}
}

// TestAlphaRankLargeAlpha checks that large selection intensities stay
// finite (the fixation probabilities are summed in logarithms) and agree
// with the infinite-alpha limit on a transitive field and on a cycle with
// a dominated fourth strategy.
func TestAlphaRankLargeAlpha(t *testing.T) {
	transitive := [][]float64{{0.5, 0.6, 0.7}, {0.4, 0.5, 0.6}, {0.3, 0.4, 0.5}}
	pi, err := AlphaRank{Alpha: 100}.Rank(transitive)
	if err != nil {
		t.Fatal(err)
	}
	if pi[0] < 0.999 {
		t.Fatalf("transitive field at alpha 100: %v", pi)
	}
	inf, eps, err := InfiniteAlphaRank(transitive)
	if err != nil {
		t.Fatal(err)
	}
	if inf[0] < 0.999 || eps >= 0.5/1024 {
		t.Fatalf("infinite alpha: %v at eps %v", inf, eps)
	}
	// Rock-paper-scissors plus a strategy every other beats: the mass
	// leaves it and splits evenly on the cycle.
	cycle := [][]float64{
		{0.5, 0.2, 0.8, 0.9},
		{0.8, 0.5, 0.2, 0.9},
		{0.2, 0.8, 0.5, 0.9},
		{0.1, 0.1, 0.1, 0.5},
	}
	inf, _, err = InfiniteAlphaRank(cycle)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if math.Abs(inf[i]-1.0/3) > 1e-3 {
			t.Fatalf("cycle: %v", inf)
		}
	}
	if inf[3] > 1e-3 {
		t.Fatalf("dominated strategy kept %v", inf[3])
	}
}

// TestAlphaRankBadInput checks the errors name the field and value.
func TestAlphaRankBadInput(t *testing.T) {
	tests := []struct {
		a    AlphaRank
		p    [][]float64
		want string
	}{
		{AlphaRank{}, [][]float64{{0, 1}}, "payoff row 0 has 2 entries, want 1"},
		{AlphaRank{M: 1}, [][]float64{{0, 1}, {1, 0}}, "population size 1"},
		{AlphaRank{Alpha: -1}, [][]float64{{0, 1}, {1, 0}}, "alpha -1"},
		{AlphaRank{}, [][]float64{{0, math.NaN()}, {1, 0}}, "payoff[0][1] = NaN"},
	}
	for _, tc := range tests {
		_, err := tc.a.Rank(tc.p)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.a, err, tc.want)
		}
	}
}
