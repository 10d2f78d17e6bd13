package stats

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestGlickmanExample checks the worked example of Glickman's "Example of
// the Glicko-2 system": a 1500/200/0.06 player who beats a 1400/30 player
// and loses to 1550/100 and 1700/300 ends at 1464.06 / 151.52 / 0.05999.
//
// The paper rounds every intermediate figure to four decimals on the
// Glicko-2 scale (mu' = -0.2069, phi' = 0.8722) before converting back, so
// its 1464.06 is 0.009 above exact arithmetic (1464.0507) and its 0.05999
// is the exact 0.059996 cut, not rounded. The test checks the paper's
// figures on the Glicko-2 scale to its four decimals, and the converted
// ones within the paper's last printed digit.
func TestGlickmanExample(t *testing.T) {
	g := DefaultGlicko2()
	got := g.Update(GlickoRating{1500, 200, 0.06}, []GlickoGame{
		{Opponent: GlickoRating{1400, 30, 0.06}, Score: 1},
		{Opponent: GlickoRating{1550, 100, 0.06}, Score: 0},
		{Opponent: GlickoRating{1700, 300, 0.06}, Score: 0},
	})
	round4 := func(x float64) float64 { return math.Round(x*1e4) / 1e4 }
	checks := []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"mu' on the Glicko-2 scale, 4 decimals", round4((got.Rating - 1500) / GlickoScale), -0.2069, 1e-12},
		{"phi' on the Glicko-2 scale, 4 decimals", round4(got.RD / GlickoScale), 0.8722, 1e-12},
		{"rating within 0.01 of 1464.06", got.Rating, 1464.06, 0.01},
		{"rd to 2 decimals", math.Round(got.RD*100) / 100, 151.52, 1e-9},
		{"volatility within 0.00001 of 0.05999", got.Volatility, 0.05999, 0.00001},
	}
	for _, c := range checks {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s: got %.6f, want %.6f", c.name, c.got, c.want)
		}
	}
}

// TestRatePeriodMatchesUpdate checks that a period of outcomes gives each
// player the paper's update against the others' pre-period ratings.
func TestRatePeriodMatchesUpdate(t *testing.T) {
	g := DefaultGlicko2()
	prior := map[string]GlickoRating{
		"me": {1500, 200, 0.06}, "a": {1400, 30, 0.06}, "b": {1550, 100, 0.06}, "c": {1700, 300, 0.06},
	}
	out := g.RatePeriod(prior, []Outcome{{"me", "a", 1}, {"b", "me", 1}, {"me", "c", 0}})
	want := g.Update(prior["me"], []GlickoGame{{prior["a"], 1}, {prior["b"], 0}, {prior["c"], 0}})
	if out["me"] != want {
		t.Fatalf("RatePeriod gave me %+v, Update gives %+v", out["me"], want)
	}
	if wantA := g.Update(prior["a"], []GlickoGame{{prior["me"], 0}}); out["a"] != wantA {
		t.Fatalf("RatePeriod gave a %+v, want %+v", out["a"], wantA)
	}
	if prior["me"] != (GlickoRating{1500, 200, 0.06}) {
		t.Fatalf("RatePeriod changed its prior")
	}
}

// TestIdlePlayerDeviationGrows checks the paper's rule for a player who
// does not compete in a period: phi' = sqrt(phi^2 + sigma^2), rating and
// volatility unchanged.
func TestIdlePlayerDeviationGrows(t *testing.T) {
	g := DefaultGlicko2()
	prior := map[string]GlickoRating{"idle": {1600, 50, 0.06}, "x": g.Initial, "y": g.Initial}
	out := g.RatePeriod(prior, []Outcome{{"x", "y", 1}})
	phi := 50 / GlickoScale
	wantRD := math.Sqrt(phi*phi+0.06*0.06) * GlickoScale
	got := out["idle"]
	if got.Rating != 1600 || got.Volatility != 0.06 || math.Abs(got.RD-wantRD) > 1e-9 {
		t.Fatalf("idle player became %+v, want 1600 / %.4f / 0.06", got, wantRD)
	}
	if !(got.RD > 50) {
		t.Fatalf("idle RD %v did not grow", got.RD)
	}
	// Several idle periods keep growing it.
	after := g.RatePeriods(prior, [][]Outcome{{{"x", "y", 1}}, {{"x", "y", 0}}, {{"x", "y", 0.5}}})
	if !(after["idle"].RD > got.RD) {
		t.Fatalf("three idle periods gave RD %v, not above one period's %v", after["idle"].RD, got.RD)
	}
}

// TestNewPlayersStartAtInitial checks that names unknown to prior start at
// the initial rating and that a win moves the winner up and the loser down
// symmetrically.
func TestNewPlayersStartAtInitial(t *testing.T) {
	g := DefaultGlicko2()
	out := g.RatePeriod(nil, []Outcome{{"w", "l", 1}})
	w, l := out["w"], out["l"]
	if !(w.Rating > 1500 && l.Rating < 1500) {
		t.Fatalf("winner %v loser %v", w, l)
	}
	if math.Abs((w.Rating-1500)-(1500-l.Rating)) > 1e-9 || math.Abs(w.RD-l.RD) > 1e-9 {
		t.Fatalf("equal new players moved asymmetrically: %+v %+v", w, l)
	}
	d := g.RatePeriod(nil, []Outcome{{"a", "b", 0.5}})
	if d["a"].Rating != 1500 || d["b"].Rating != 1500 {
		t.Fatalf("a draw between equals moved ratings: %+v", d)
	}
}

// TestRatePeriodOrderIndependent checks that shuffling the outcomes of a
// period gives identical ratings, bit for bit.
func TestRatePeriodOrderIndependent(t *testing.T) {
	g := DefaultGlicko2()
	names := []string{"a", "b", "c", "d", "e"}
	rng := rand.New(rand.NewPCG(1, 2))
	var outs []Outcome
	for i := 0; i < 200; i++ {
		a, b := rng.IntN(5), rng.IntN(5)
		if a == b {
			continue
		}
		outs = append(outs, Outcome{names[a], names[b], float64(rng.IntN(3)) / 2})
	}
	prior := map[string]GlickoRating{"a": {1510, 80, 0.06}, "b": {1420, 120, 0.059}, "c": {1700, 40, 0.061}}
	want := g.RatePeriod(prior, outs)
	for k := 0; k < 5; k++ {
		rng.Shuffle(len(outs), func(i, j int) { outs[i], outs[j] = outs[j], outs[i] })
		if got := g.RatePeriod(prior, outs); !reflect.DeepEqual(got, want) {
			t.Fatalf("shuffled outcomes gave %+v, want %+v", got, want)
		}
	}
}

// TestUpdateStaysFinite checks over many random periods, extreme ones
// included, that ratings stay finite, deviations positive and no larger
// than before plus the idle growth, and volatility positive.
func TestUpdateStaysFinite(t *testing.T) {
	g := DefaultGlicko2()
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 2000; k++ {
		r := GlickoRating{rng.Float64() * 4000, 1 + rng.Float64()*999, 0.001 + rng.Float64()*0.2}
		var games []GlickoGame
		for n := rng.IntN(30); n > 0; n-- {
			games = append(games, GlickoGame{GlickoRating{rng.Float64() * 4000, 1 + rng.Float64()*999, 0.06}, float64(rng.IntN(3)) / 2})
		}
		u := g.Update(r, games)
		phi, sigma := r.RD/GlickoScale, u.Volatility
		grown := math.Sqrt(phi*phi+sigma*sigma) * GlickoScale
		if math.IsNaN(u.Rating) || math.IsInf(u.Rating, 0) || !(u.RD > 0) || u.RD > grown+1e-9 || !(u.Volatility > 0) {
			t.Fatalf("Update(%+v, %d games) = %+v", r, len(games), u)
		}
	}
}
