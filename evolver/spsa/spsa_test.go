package spsa

import (
	"math"
	"math/rand/v2"
	"testing"
)

// Rule: the gains are fishtest's. At the planned end (k = N) the step is
// c_end and the learning rate r_end, whatever N; at the first iteration
// they are the hand-computed values of fishtest's formulas; an integer's
// floor holds the step at half a unit.
func TestGains(t *testing.T) {
	p := Param{Min: 0, Max: 10, CEnd: 1, REnd: 0.002}
	tests := []struct {
		name  string
		p     Param
		k, n  int
		c, r  float64
		delta float64
	}{
		{"end of a 100-iteration plan", p, 100, 100, 1, 0.002, 1e-12},
		{"end of a 12345-iteration plan", p, 12345, 12345, 1, 0.002, 1e-12},
		// c_1 = 100^0.101 = 1.59222; R_1 = 0.002 (110/11)^0.602 / c_1² = 0.0031552.
		{"first of 100", p, 1, 100, 1.59222, 0.0031552, 2e-5},
		// Past the plan the gains decay as at its end (n taken as k).
		{"past the plan", p, 200, 100, 1, 0.002, 1e-12},
		// c_end 0.2 at the end, floored at 0.5: R = a_k / 0.25.
		{"integer floor", Param{Min: 0, Max: 10, CEnd: 0.2, REnd: 0.002, MinC: 0.5}, 50, 50, 0.5, 0.002 * 0.04 / 0.25, 1e-12},
	}
	for _, tc := range tests {
		c, r := Schedule{}.Gains(tc.p, tc.k, tc.n)
		if math.Abs(c-tc.c) > tc.delta*math.Max(1, tc.c) || math.Abs(r-tc.r) > tc.delta {
			t.Errorf("%s: c %.7g, R %.7g; want %.7g, %.7g", tc.name, c, r, tc.c, tc.r)
		}
	}
	// The step c_k and the gain a_k = R_k·c_k² fall along the run.
	pc, pa := math.Inf(1), math.Inf(1)
	for k := 1; k <= 1000; k *= 10 {
		c, r := Schedule{}.Gains(p, k, 1000)
		if c >= pc || r*c*c >= pa {
			t.Errorf("k %d: c %.4g, a %.4g do not fall from %.4g, %.4g", k, c, r*c*c, pc, pa)
		}
		pc, pa = c, r*c*c
	}
}

// Rule: a pair is symmetric about θ (clipped to the bounds), with flips
// of ±1, and the update moves θ towards the side that won, by R·c·result.
func TestPerturbAndUpdate(t *testing.T) {
	params := []Param{{Min: 0, Max: 1, CEnd: 0.05, REnd: 0.002}, {Min: -5, Max: 5, CEnd: 0.5, REnd: 0.002, MinC: 0.5}}
	tu, err := New(params, Schedule{}, []float64{0.99, 0})
	if err != nil {
		t.Fatal(err)
	}
	p := tu.Perturb(1, 10, rand.New(rand.NewPCG(1, 2)))
	for i := range params {
		if math.Abs(p.Flip[i]) != 1 {
			t.Fatalf("flip %v is not ±1", p.Flip[i])
		}
	}
	if p.Plus[0] != 1 && p.Minus[0] != 1 {
		t.Errorf("θ 0.99 ± c %.3g: %.3g and %.3g, one should be clipped to the bound 1", p.C[0], p.Plus[0], p.Minus[0])
	}
	if got := p.Plus[1] + p.Minus[1]; math.Abs(got) > 1e-12 {
		t.Errorf("θ 0 ± c: %.3g and %.3g are not symmetric", p.Plus[1], p.Minus[1])
	}
	before := tu.Theta[1]
	tu.Update(p, 3)
	want := before + p.R[1]*p.C[1]*3*p.Flip[1]
	if math.Abs(tu.Theta[1]-want) > 1e-12 {
		t.Errorf("θ after a result of 3: %.6g, want %.6g", tu.Theta[1], want)
	}
	if (tu.Theta[1]-before)*(p.Plus[1]-before) <= 0 {
		t.Errorf("a won pair moved θ from %.4g to %.4g, away from the plus side %.4g", before, tu.Theta[1], p.Plus[1])
	}
	tu.Update(p, 1e9)
	if tu.Theta[0] < 0 || tu.Theta[0] > 1 || tu.Theta[1] < -5 || tu.Theta[1] > 5 {
		t.Errorf("θ %v left its bounds", tu.Theta)
	}
	for _, bad := range [][]Param{{{Min: 1, Max: 1, CEnd: 1}}, {{Min: 0, Max: 1, CEnd: 0}}, {{Min: 0, Max: 1, CEnd: 1, REnd: -1}}} {
		if _, err := New(bad, Schedule{}, []float64{0}); err == nil {
			t.Errorf("New(%+v) accepted", bad)
		}
	}
}

// Rule: on noisy games between the two sides whose expected score peaks
// at θ = 0.7 (win or loss only, 16 games an iteration), SPSA at fishtest's
// defaults started at 0.2 ends near 0.7.
func TestConvergesOnNoisyGames(t *testing.T) {
	score := func(x float64) float64 { return 0.5 - (x-0.7)*(x-0.7) }
	const n = 20000
	tu, _ := New([]Param{{Min: 0, Max: 1, CEnd: 0.05, REnd: DefaultREnd}}, Schedule{}, []float64{0.2})
	rnd := rand.New(rand.NewPCG(3, 4))
	for k := 1; k <= n; k++ {
		p := tu.Perturb(k, n, rnd)
		win := 0.5 + score(p.Plus[0]) - score(p.Minus[0])
		res := 0.0
		for range 16 {
			if rnd.Float64() < win {
				res++
			} else {
				res--
			}
		}
		tu.Update(p, res)
	}
	if math.Abs(tu.Theta[0]-0.7) > 0.04 {
		t.Errorf("θ ended at %.3f, want within 0.04 of 0.7", tu.Theta[0])
	}
}
