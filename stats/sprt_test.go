package stats

import (
	"math"
	"strings"
	"testing"
)

// TestLLRPublishedCases reproduces fastchess's tests/sprt_test.cpp (the
// same figures as fishtest's LLRcalc.py) to ±0.01, and the bounds of a
// 5%/5% test.
func TestLLRPublishedCases(t *testing.T) {
	tests := []struct {
		name       string
		model      Model
		elo0, elo1 float64
		counts     Counts
		want       float64
	}{
		{"normalized pentanomial 1", Normalized, 0, 2, Pentanomial{365, 16618, 36029 + 200, 16974, 390}, 2.25},
		{"normalized pentanomial 2", Normalized, -1.75, 0.25, Pentanomial{127, 4883, 10311 + 401, 5150, 104}, 3.01},
		{"logistic pentanomial 1", Logistic, 0.5, 2.5, Pentanomial{223, 9863, 20279 + 1000, 10037, 246}, -3.07},
		{"logistic pentanomial 2", Logistic, 0, 2, Pentanomial{871, 26175, 55003 + 980, 26678, 821}, -4.98},
		{"normalized trinomial 1", Normalized, 0, 2, Trinomial{Wins: 36433, Losses: 36027, Draws: 68692}, 0.92},
		{"normalized trinomial 2", Normalized, -1.75, 0.25, Trinomial{Wins: 10871, Losses: 10650, Draws: 20431}, 2.30},
		{"logistic trinomial 1", Logistic, 0.5, 2.5, Trinomial{Wins: 21404, Losses: 21184, Draws: 40708}, -1.57},
		{"logistic trinomial 2", Logistic, 0, 2, Trinomial{Wins: 57433, Losses: 57030, Draws: 106593}, -2.59},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := SPRT{Elo0: tc.elo0, Elo1: tc.elo1, Alpha: 0.05, Beta: 0.05, Model: tc.model}
			got, err := s.LLR(tc.counts)
			if err != nil {
				t.Fatal(err)
			}
			// fastchess checks with a relative epsilon of 1%; the issue
			// asks for ±0.01 absolute.
			if math.Abs(got-tc.want) > 0.01 {
				t.Fatalf("LLR %.4f, want %.2f", got, tc.want)
			}
		})
	}
}

// TestLLRDegenerateCounts covers fastchess's two remaining test vectors,
// where every game or pair falls in one class: "normalized trinomial 3"
// (16,700 draws, [0, 5], 2.97) and "normalized pentanomial 3" (104 WW
// pairs, [0, 5], 2.94). There the LLR hangs on the 0.001 regularisation
// and fastchess's fixed-point loop (stopped at 1e-4) lands elsewhere. Ours
// is checked against the definition instead. All draws have mean exactly
// 1/2, so the t = 0 distribution is the observed one and the LLR is minus
// N times a divergence: it cannot be positive. A brute-force search over
// the one-parameter family of trinomials with t = t1 finds the same
// maximum likelihood as the secular iteration.
func TestLLRDegenerateCounts(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Normalized}
	draws := Trinomial{Draws: 16700}
	got, err := s.LLR(draws)
	if err != nil {
		t.Fatal(err)
	}
	n, phat := regularized([]float64{0, 16700, 0})
	want := n * (bruteTrinomialLL(phat, 5/neloPerT) - bruteTrinomialLL(phat, 0))
	if got > 0 || math.Abs(got-want) > 1e-3 {
		t.Fatalf("LLR of all draws %v, brute force %v", got, want)
	}
	// All WW: the constrained maxima must be stationary points of the
	// Lagrangian, phat_i / p_i = l0 + l1 dt/dp_i for every class.
	scores := []float64{0, 0.25, 0.5, 0.75, 1}
	_, phat = regularized([]float64{0, 0, 0, 0, 104})
	for _, tv := range []float64{0, math.Sqrt2 * 5 / neloPerT} {
		p, err := mleTValue(scores, phat, 0.5, tv)
		if err != nil {
			t.Fatal(err)
		}
		mu, v := meanVar(scores, p)
		sd := math.Sqrt(v)
		grad := make([]float64, 5)
		for i, x := range scores {
			grad[i] = x/sd - (mu-0.5)*(x-mu)*(x-mu)/(2*sd*sd*sd)
		}
		l1 := (phat[1]/p[1] - phat[0]/p[0]) / (grad[1] - grad[0])
		l0 := phat[0]/p[0] - l1*grad[0]
		for i := range p {
			if r := phat[i] / p[i]; math.Abs(r-(l0+l1*grad[i])) > 1e-6*math.Max(1, r) {
				t.Errorf("t %v class %d: phat/p %v, Lagrangian %v", tv, i, r, l0+l1*grad[i])
			}
		}
	}
	if llr, _ := s.LLR(Pentanomial{0, 0, 0, 0, 104}); !(llr > 0) {
		t.Errorf("104 WW pairs give LLR %v for [0, 5], want positive", llr)
	}
}

// bruteTrinomialLL is the largest sum_i phat_i log p_i over trinomials
// (loss, draw, win) with t-value (mu - 1/2)/sigma = tv, found by scanning
// the loss probability on a log grid and solving for the win probability
// by bisection.
func bruteTrinomialLL(phat []float64, tv float64) float64 {
	best := math.Inf(-1)
	for la := -30.0; la < 0; la += 0.002 {
		a := math.Exp(la)
		f := func(b float64) float64 {
			mu := b + 0.5*(1-a-b)
			return (mu-0.5)/math.Sqrt(b+0.25*(1-a-b)-mu*mu) - tv
		}
		lo, hi := 1e-300, 1-a-1e-15
		if f(lo)*f(hi) > 0 {
			continue
		}
		for range 100 {
			m := (lo + hi) / 2
			if f(lo)*f(m) <= 0 {
				hi = m
			} else {
				lo = m
			}
		}
		b := (lo + hi) / 2
		ll := phat[0]*math.Log(a) + phat[1]*math.Log(1-a-b) + phat[2]*math.Log(b)
		best = math.Max(best, ll)
	}
	return best
}

// TestBoundsAndVerdict checks the stopping bounds ln(β/(1-α)) and
// ln((1-β)/α) and the verdict on each side of them.
func TestBoundsAndVerdict(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: Normalized}
	lo, hi := s.Bounds()
	if math.Abs(lo-math.Log(0.05/0.95)) > 1e-15 || math.Abs(hi-math.Log(0.95/0.05)) > 1e-15 {
		t.Fatalf("bounds %v %v", lo, hi)
	}
	if math.Abs(hi-2.944438979) > 1e-9 {
		t.Fatalf("upper bound %v, want ln 19 = 2.9444", hi)
	}
	tests := []struct {
		llr  float64
		want Verdict
	}{{hi, AcceptH1}, {hi + 1, AcceptH1}, {lo, AcceptH0}, {lo - 1, AcceptH0}, {0, Continue}, {hi - 1e-9, Continue}}
	for _, tc := range tests {
		if got := s.Decide(tc.llr); got != tc.want {
			t.Errorf("Decide(%v) = %v, want %v", tc.llr, got, tc.want)
		}
	}
	// Asymmetric error rates move the bounds: alpha 0.01 raises the
	// upper one to ln(0.95/0.01).
	s.Alpha = 0.01
	if _, hi := s.Bounds(); math.Abs(hi-math.Log(95)) > 1e-12 {
		t.Fatalf("upper bound with alpha 0.01: %v", hi)
	}
}

// TestLLRSymmetry checks a property of the GSPRT: swapping A and B
// (reversing the classes) and negating the hypotheses gives the same LLR.
func TestLLRSymmetry(t *testing.T) {
	p := Pentanomial{127, 4883, 10712, 5150, 104}
	rev := Pentanomial{104, 5150, 10712, 4883, 127}
	for _, m := range []Model{Logistic, Normalized} {
		a, _ := SPRT{Elo0: -1.75, Elo1: 0.25, Alpha: 0.05, Beta: 0.05, Model: m}.LLR(p)
		b, _ := SPRT{Elo0: -0.25, Elo1: 1.75, Alpha: 0.05, Beta: 0.05, Model: m}.LLR(rev)
		if math.Abs(a+b) > 1e-6 {
			t.Errorf("%v: LLR %v, mirrored %v; want opposite", m, a, b)
		}
	}
}

// TestMLEConstraint checks that the constrained maximum-likelihood
// distributions hold their constraint: the mean for the logistic model,
// the t-value for the normalized one, and sum to 1.
func TestMLEConstraint(t *testing.T) {
	scores := []float64{0, 0.25, 0.5, 0.75, 1}
	_, phat := regularized([]float64{365, 16618, 36229, 16974, 390})
	for _, s := range []float64{0.49, 0.5, 0.5029, 0.53} {
		p, err := mleMean(scores, phat, s)
		if err != nil {
			t.Fatal(err)
		}
		mu, _ := meanVar(scores, p)
		sum := 0.0
		for _, v := range p {
			sum += v
		}
		if math.Abs(mu-s) > 1e-12 || math.Abs(sum-1) > 1e-12 {
			t.Errorf("mean %v: got mean %v, total %v", s, mu, sum)
		}
	}
	for _, tv := range []float64{-0.02, 0, 0.008, 0.05} {
		p, err := mleTValue(scores, phat, 0.5, tv)
		if err != nil {
			t.Fatal(err)
		}
		mu, v := meanVar(scores, p)
		if got := (mu - 0.5) / math.Sqrt(v); math.Abs(got-tv) > 1e-9 {
			t.Errorf("t %v: got t %v", tv, got)
		}
	}
}

// TestEloPublishedCases reproduces fastchess's tests/elo_test.cpp: the
// logistic and normalized Elo and their ± (half the interval) at 95%.
func TestEloPublishedCases(t *testing.T) {
	tests := []struct {
		name                       string
		counts                     Counts
		elo, eloErr, nelo, neloErr float64
	}{
		// Stats(LL, LD, WL, DD, WD, WW) in fastchess; WL and DD share a class.
		{"pentanomial 1", Pentanomial{34, 54, 31 + 32, 64, 75}, 55.58, 27.65, 57.94, 28.28},
		{"pentanomial 2", Pentanomial{332, 433, 457 + 41, 333, 334}, -8.64, 10.33, -9.17, 10.96},
		{"pentanomial 3", Pentanomial{7895, 8757, 5485 + 200, 568, 9999}, -21.04, 2.95, -19.01, 2.65},
		{"trinomial 2", Trinomial{Wins: 136, Losses: 96, Draws: 111}, 40.70, 30.43, 49.77, 36.77},
		{"trinomial 1", Trinomial{Wins: 76, Losses: 89, Draws: 123}, math.NaN(), math.NaN(), -20.76, 40.13},
		{"trinomial 3", Trinomial{Wins: 34, Losses: 356, Draws: 0}, math.NaN(), math.NaN(), -508.44, 34.48},
	}
	near := func(got, want float64) bool {
		return math.IsNaN(want) || math.Abs(got-want) <= 0.01*math.Abs(want)
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := EstimateElo(tc.counts, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			if !near(e.Elo, tc.elo) || !near((e.EloHi-e.EloLo)/2, tc.eloErr) {
				t.Errorf("Elo %.2f ± %.2f, want %.2f ± %.2f", e.Elo, (e.EloHi-e.EloLo)/2, tc.elo, tc.eloErr)
			}
			if !near(e.NElo, tc.nelo) || !near((e.NEloHi-e.NEloLo)/2, tc.neloErr) {
				t.Errorf("nElo %.2f ± %.2f, want %.2f ± %.2f", e.NElo, (e.NEloHi-e.NEloLo)/2, tc.nelo, tc.neloErr)
			}
			if e.Method != NormalPairs {
				t.Errorf("method %v", e.Method)
			}
		})
	}
	// fastchess prints LOS 100.00% and 5.05% for pentanomial 1 and 2.
	e, _ := EstimateElo(Pentanomial{332, 433, 498, 333, 334}, 0.95)
	if math.Abs(e.LOS-0.0505) > 0.00005 {
		t.Errorf("LOS %v, want 5.05%%", e.LOS)
	}
}

// TestEstimateOneClass checks the degenerate case: every pair in one
// class has no variance, so the interval is the Wilson interval over one
// outcome however many pairs there are, and the Elo stays finite.
func TestEstimateOneClass(t *testing.T) {
	small, err := EstimateElo(Pentanomial{0, 0, 0, 0, 10}, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	big, _ := EstimateElo(Pentanomial{0, 0, 0, 0, 10000}, 0.95)
	lo, hi := Wilson(1, 1, 0.95)
	for _, e := range []Estimate{small, big} {
		if e.Method != WilsonDistinct || e.Distinct != 1 || e.ScoreLo != lo || e.ScoreHi != hi {
			t.Fatalf("%+v, want Wilson [%v, %v] over one outcome", e, lo, hi)
		}
		for _, v := range []float64{e.Elo, e.EloLo, e.EloHi, e.NElo, e.NEloLo, e.NEloHi, e.LOS} {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Fatalf("non-finite figure in %+v", e)
			}
		}
	}
	if small.EloLo != big.EloLo {
		t.Fatalf("repeating WW narrowed the interval: %v vs %v", small.EloLo, big.EloLo)
	}
	// A score of 1 over 20 games is taken half a game from the edge.
	if want := LogisticElo(1 - 0.5/20); math.Abs(small.Elo-want) > 1e-9 {
		t.Fatalf("Elo of 10 WW pairs %v, want %v", small.Elo, want)
	}
}

// TestSPRTBadInput checks that every invalid parameter is refused with
// an error naming it.
func TestSPRTBadInput(t *testing.T) {
	ok := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: Logistic}
	tests := []struct {
		name string
		s    SPRT
		c    Counts
		want string
	}{
		{"elo0 = elo1", SPRT{Elo0: 5, Elo1: 5, Alpha: 0.05, Beta: 0.05}, Pentanomial{}, "elo0 5 must be below elo1 5"},
		{"alpha 0", SPRT{Elo0: 0, Elo1: 5, Alpha: 0, Beta: 0.05}, Pentanomial{}, "alpha 0 is not in (0, 1)"},
		{"beta 1", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 1}, Pentanomial{}, "beta 1 is not in (0, 1)"},
		{"alpha + beta", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.6, Beta: 0.5}, Pentanomial{}, "alpha 0.6 + beta 0.5 must be below 1"},
		{"model", SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: 7}, Pentanomial{}, "model Model(7)"},
		{"negative class", ok, Pentanomial{1, -2, 3, 4, 5}, "pentanomial count LD is -2"},
		{"negative draws", ok, Trinomial{Wins: 1, Draws: -1}, "trinomial draws is -1"},
	}
	for _, tc := range tests {
		_, err := tc.s.LLR(tc.c)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := EstimateElo(Pentanomial{}, 0.95); err == nil {
		t.Error("estimate of no pairs succeeded")
	}
	if _, err := ParseModel("bayesian"); err == nil || !strings.Contains(err.Error(), `"bayesian"`) {
		t.Errorf("ParseModel: %v", err)
	}
}

// TestPairBucket checks the pentanomial classes of every seat-swapped
// pair, and that RotationScore and ScoreBucket reduce to them for two
// seats.
func TestPairBucket(t *testing.T) {
	tests := []struct {
		a, b float64
		want int
	}{
		{0, 0, LL}, {0, 0.5, LD}, {0.5, 0, LD}, {1, 0, WLDD}, {0, 1, WLDD}, {0.5, 0.5, WLDD},
		{1, 0.5, WD}, {0.5, 1, WD}, {1, 1, WW},
	}
	for _, tc := range tests {
		got, err := PairBucket(tc.a, tc.b)
		if err != nil || got != tc.want {
			t.Errorf("PairBucket(%v, %v) = %d, %v; want %d", tc.a, tc.b, got, err, tc.want)
		}
		// The same pair seen as two rotations of a 2-seat game: B's rank
		// is 1 for a win, 2 for a loss, equal for a draw.
		rank := func(s float64) (a, b int) {
			switch s {
			case 1:
				return 2, 1
			case 0:
				return 1, 2
			}
			return 1, 1
		}
		a1, b1 := rank(tc.a)
		a2, b2 := rank(tc.b)
		s, err := RotationScore([]int{a1, a2}, []int{b1, b2})
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := ScoreBucket(s); got != tc.want {
			t.Errorf("rotations of (%v, %v): score %v bucket %d, want %d", tc.a, tc.b, s, got, tc.want)
		}
	}
	if _, err := PairBucket(0.25, 1); err == nil || !strings.Contains(err.Error(), "0.25") {
		t.Errorf("score 0.25 accepted: %v", err)
	}
	var p Pentanomial
	for _, g := range [][2]float64{{1, 1}, {1, 0}, {0.5, 0.5}, {0, 0.5}} {
		if err := p.Add(g[0], g[1]); err != nil {
			t.Fatal(err)
		}
	}
	if p != (Pentanomial{0, 1, 2, 0, 1}) || p.Pairs() != 4 {
		t.Fatalf("counts %v", p)
	}
}

// TestRotationScoreFourSeats checks the N-seat reduction on a 4-seat
// group: B ahead of A in two rotations, level in one, behind in one
// scores (1+1+0.5+0)/4 = 0.625, exactly between the classes 1/2 and 3/4,
// and goes to the one nearer 1/2; so does 3/8 between 1/4 and 1/2.
func TestRotationScoreFourSeats(t *testing.T) {
	s, err := RotationScore([]int{3, 4, 2, 1}, []int{1, 2, 2, 4})
	if err != nil || s != 0.625 {
		t.Fatalf("score %v, %v; want 0.625", s, err)
	}
	tests := []struct {
		s    float64
		want int
	}{{0, 0}, {0.1, 0}, {0.125, 1}, {1.0 / 6, 1}, {1.0 / 3, 1}, {0.375, 2}, {0.5, 2}, {0.625, 2}, {2.0 / 3, 3}, {0.875, 3}, {0.9, 4}, {1, 4}}
	for _, tc := range tests {
		if got, err := ScoreBucket(tc.s); err != nil || got != tc.want {
			t.Errorf("ScoreBucket(%v) = %d, %v; want %d", tc.s, got, err, tc.want)
		}
	}
	if _, err := RotationScore([]int{1, 2}, []int{2}); err == nil {
		t.Error("ranks of different lengths accepted")
	}
	if _, err := RotationScore([]int{0}, []int{1}); err == nil || !strings.Contains(err.Error(), "rotation 0") {
		t.Errorf("rank 0 accepted: %v", err)
	}
	if _, err := ScoreBucket(1.5); err == nil {
		t.Error("score 1.5 accepted")
	}
}
