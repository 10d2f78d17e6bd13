package stats

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// TestClusteredRateHandComputed checks the ratio estimator and its
// cluster-robust interval on units of unequal size against a hand
// computation: points 12.5 of 20 games is 0.625; the residuals
// P - 0.625 G are 0.5, -0.25, -0.5, 1.5, -1.25, 0, whose squares sum to
// 4.375; SE = sqrt(6/5 * 4.375) / 20 = 0.1145644; t(5 df) = 2.5705818.
func TestClusteredRateHandComputed(t *testing.T) {
	units := []Unit{{3, 4}, {1, 2}, {2, 4}, {4, 4}, {0, 2}, {2.5, 4}}
	iv, err := ClusteredRate(units, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	want := Interval{Mean: 0.625, Lo: 0.3305028539529515, Hi: 0.9194971460470485, SE: 0.114564392373896, Units: 6, Distinct: 5, Method: ClusteredT}
	if !intervalNear(iv, want, 1e-9) {
		t.Fatalf("got %+v\nwant %+v", iv, want)
	}
}

// TestClusteredRateIgnoresGamesInsideUnits checks the point of
// clustering: a unit of 48 games that all went the same way is one
// observation, so the interval of 50 such units equals that of 50
// one-game units with the same rates.
func TestClusteredRateIgnoresGamesInsideUnits(t *testing.T) {
	var big, small []Unit
	for i := range 50 {
		r := float64(i%3) / 2 // rates 0, 0.5, 1 in turn
		big = append(big, Unit{Points: 48 * r, Games: 48})
		small = append(small, Unit{Points: r, Games: 1})
	}
	a, err := ClusteredRate(big, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ClusteredRate(small, 0.95)
	if !intervalNear(a, b, 1e-12) {
		t.Fatalf("48-game units %+v, one-game units %+v", a, b)
	}
	// A naive interval over 2,400 independent games would be about 7
	// times narrower.
	if a.Hi-a.Lo < 0.2 {
		t.Fatalf("interval %v..%v is as narrow as one over games", a.Lo, a.Hi)
	}
}

// TestClusteredRateDeterministic checks the fallback: when every unit
// gives the same result, the interval is the Wilson interval over one
// outcome, whether there are 1, 50 or 5,000 units.
func TestClusteredRateDeterministic(t *testing.T) {
	for _, rate := range []struct {
		points, lo, hi float64
	}{
		{48, 0.20654931437723745, 1},                  // Wilson of 1 of 1
		{24, 0.05462075552885198, 0.945379244471148},  // Wilson of 0.5 of 1
		{36, 0.11790958799950957, 0.9853650691891092}, // Wilson of 0.75 of 1
	} {
		for _, n := range []int{1, 50, 5000} {
			units := make([]Unit, n)
			for i := range units {
				units[i] = Unit{Points: rate.points, Games: 48}
			}
			iv, err := ClusteredRate(units, 0.95)
			if err != nil {
				t.Fatal(err)
			}
			want := Interval{Mean: rate.points / 48, Lo: rate.lo, Hi: rate.hi, Units: n, Distinct: 1, Method: WilsonDistinct}
			want.SE = (rate.hi - rate.lo) / 2 / 1.959963984540054
			if !intervalNear(iv, want, 1e-9) {
				t.Fatalf("%d units of %v/48: %+v, want %+v", n, rate.points, iv, want)
			}
		}
	}
}

// TestPairedDifferenceHandComputed checks the paired comparison: the
// differences 0.25, 0, 0.5, 0, 0.5 have mean 0.25 and standard deviation
// 0.25, so SE = 0.25/sqrt 5 and the interval is 0.25 ± 2.7764451 SE.
func TestPairedDifferenceHandComputed(t *testing.T) {
	a := []float64{0.5, 0.75, 1, 0.25, 0.5}
	b := []float64{0.25, 0.75, 0.5, 0.25, 0}
	iv, err := PairedDifference(a, b, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	want := Interval{Mean: 0.25, Lo: -0.060415999550941624, Hi: 0.5604159995509417, SE: 0.11180339887498948, Units: 5, Distinct: 3, Method: ClusteredT}
	if !intervalNear(iv, want, 1e-9) {
		t.Fatalf("got %+v\nwant %+v", iv, want)
	}
	// Every unit +0.5: the Wilson interval of 0.75 over one trial,
	// mapped to [-1, 1], for any number of units.
	for _, n := range []int{1, 40} {
		a, b := make([]float64, n), make([]float64, n)
		for i := range a {
			a[i], b[i] = 1, 0.5
		}
		iv, err := PairedDifference(a, b, 0.95)
		if err != nil {
			t.Fatal(err)
		}
		if iv.Method != WilsonDistinct || math.Abs(iv.Lo-(2*0.11790958799950957-1)) > 1e-9 || math.Abs(iv.Hi-(2*0.9853650691891092-1)) > 1e-9 {
			t.Fatalf("%d identical units: %+v", n, iv)
		}
	}
}

// TestWilsonKnownValues checks the Wilson score interval against the
// values published in Newcombe (1998), "Two-sided confidence intervals for
// the single proportion", Table I (method 3), and the textbook 8 of 10.
func TestWilsonKnownValues(t *testing.T) {
	tests := []struct {
		name      string
		successes float64
		n         float64
		lo, hi    float64
	}{
		{"Newcombe 81/263", 81, 263, 0.2553, 0.3662},
		{"Newcombe 15/148", 15, 148, 0.0624, 0.1605},
		{"Newcombe 0/20 starts at zero", 0, 20, 0, 0.1611},
		{"Newcombe 1/29", 1, 29, 0.0061, 0.1718},
		{"8 of 10", 8, 10, 0.4902, 0.9433},
		{"all of 10 ends at one", 10, 10, 0.7225, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi := Wilson(tt.successes, tt.n, 0.95)
			if math.Abs(lo-tt.lo) > 0.00005 || math.Abs(hi-tt.hi) > 0.00005 {
				t.Fatalf("Wilson(%v, %v) = [%.4f, %.4f], want [%.4f, %.4f]", tt.successes, tt.n, lo, hi, tt.lo, tt.hi)
			}
		})
	}
	if lo, _ := Wilson(0, 10, 0.95); lo != 0 {
		t.Fatalf("Wilson of 0 of 10 starts at %v, want exactly 0", lo)
	}
	if _, hi := Wilson(10, 10, 0.95); hi != 1 {
		t.Fatalf("Wilson of 10 of 10 ends at %v, want exactly 1", hi)
	}
	if lo, hi := Wilson(0, 0, 0.95); lo != 0 || hi != 1 {
		t.Fatalf("Wilson with no trial = [%v, %v], want [0, 1]", lo, hi)
	}
}

// TestClusteredBadInput checks the errors name the offending value.
func TestClusteredBadInput(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
		want string
	}{
		{"points above games", func() error { _, err := ClusteredRate([]Unit{{3, 2}}, 0.95); return err }, "unit 0: points 3 is not in [0, games 2]"},
		{"negative games", func() error { _, err := ClusteredRate([]Unit{{0, 1}, {0, -1}}, 0.95); return err }, "unit 1: games -1"},
		{"no games", func() error { _, err := ClusteredRate([]Unit{{0, 0}}, 0.95); return err }, "no unit with a game"},
		{"level", func() error { _, err := ClusteredMean([]float64{1}, 1.5); return err }, "confidence level 1.5"},
		{"lengths", func() error { _, err := PairedDifference([]float64{1}, nil, 0.95); return err }, "1 scores for a, 0 for b"},
		{"range", func() error { _, err := PairedDifference([]float64{1, 2}, []float64{0, 0}, 0.95); return err }, "unit 1 score 2"},
	}
	for _, tc := range tests {
		if err := tc.run(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// intervalNear compares two intervals, figures within tol.
func intervalNear(a, b Interval, tol float64) bool {
	near := func(x, y float64) bool { return math.Abs(x-y) <= tol }
	return near(a.Mean, b.Mean) && near(a.Lo, b.Lo) && near(a.Hi, b.Hi) && near(a.SE, b.SE) &&
		a.Units == b.Units && a.Distinct == b.Distinct && a.Method == b.Method
}

// TestPairIntervals checks the head-to-head table: each seed's pair of
// games is one unit, the mirror cell flips the interval, pairs that never
// met are empty, and a cycle of clear wins is found by Cycles3 from the
// lows.
func TestPairIntervals(t *testing.T) {
	var games []PairGame
	// 0 beats 1, 1 beats 2, 2 beats 0 on 30 seeds, except one draw in
	// each pairing so the units are not all alike; 3 plays only 0, a
	// deterministic draw.
	for seed := range int64(30) {
		for _, p := range [][2]int{{0, 1}, {1, 2}, {2, 0}} {
			s := 1.0
			if seed == 7 {
				s = 0.5
			}
			games = append(games, PairGame{A: p[0], B: p[1], Score: s, Unit: seed}, PairGame{A: p[1], B: p[0], Score: 1 - s, Unit: seed})
		}
		games = append(games, PairGame{A: 3, B: 0, Score: 0.5, Unit: seed})
	}
	table, err := PairIntervals(4, games, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ClusteredRate(append(slices.Repeat([]Unit{{2, 2}}, 29), Unit{1, 2}), 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if !intervalNear(table[0][1], want, 1e-12) || !intervalNear(table[2][0], want, 1e-12) {
		t.Fatalf("0 v 1: %+v, want %+v", table[0][1], want)
	}
	if m := table[1][0]; math.Abs(m.Mean-(1-want.Mean)) > 1e-12 || math.Abs(m.Lo-(1-want.Hi)) > 1e-12 || math.Abs(m.Hi-(1-want.Lo)) > 1e-12 {
		t.Fatalf("mirror %+v", m)
	}
	if e := table[1][3]; e.Units != 0 || e.Lo != 0 || e.Hi != 1 {
		t.Fatalf("never met: %+v", e)
	}
	if d := table[3][0]; d.Method != WilsonDistinct || d.Units != 30 || d.Distinct != 1 {
		t.Fatalf("deterministic draw: %+v", d)
	}
	cycles, err := Cycles3(Lows(table))
	if err != nil {
		t.Fatal(err)
	}
	if len(cycles) != 1 || cycles[0].Players != [3]int{0, 1, 2} {
		t.Fatalf("cycles %+v", cycles)
	}
}

// TestClusteredRateDistinct checks the form for units the caller made
// distinct: with varying rates it is ClusteredRate; when every unit gave
// the same rate the Wilson fallback is over the number of units (twenty
// different games all won are twenty observations: Wilson of 20 of 20 is
// [0.8389, 1], Newcombe's method 3), where ClusteredRate takes them as
// one.
func TestClusteredRateDistinct(t *testing.T) {
	units := []Unit{{3, 4}, {1, 2}, {2, 4}, {4, 4}, {0, 2}, {2.5, 4}}
	a, err := ClusteredRateDistinct(units, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := ClusteredRate(units, 0.95)
	b.Distinct = 6
	if !intervalNear(a, b, 1e-12) {
		t.Fatalf("varying rates: %+v, ClusteredRate %+v", a, b)
	}
	won := make([]Unit, 20)
	for i := range won {
		won[i] = Unit{Points: 2, Games: 2}
	}
	iv, err := ClusteredRateDistinct(won, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	if iv.Method != WilsonDistinct || iv.Distinct != 20 || iv.Units != 20 || iv.Mean != 1 || iv.Hi != 1 || math.Abs(iv.Lo-0.8389) > 5e-5 {
		t.Fatalf("20 distinct units all won: %+v, want Wilson of 20 of 20", iv)
	}
	// Half the points in each of 3 distinct units: Wilson of 1.5 of 3.
	half := []Unit{{1, 2}, {1, 2}, {1, 2}}
	iv, _ = ClusteredRateDistinct(half, 0.95)
	lo, hi := Wilson(1.5, 3, 0.95)
	if iv.Lo != lo || iv.Hi != hi || iv.Mean != 0.5 {
		t.Fatalf("3 units of 1/2: %+v, want Wilson [%v, %v]", iv, lo, hi)
	}
	if _, err := ClusteredRateDistinct(nil, 0.95); err == nil {
		t.Fatal("no unit: no error")
	}
}
