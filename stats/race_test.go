package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The fast LLR of the simulation is SPRT.LLR, along a growing count.
func TestRaceLLRMatchesSPRT(t *testing.T) {
	test := SPRT{Elo0: -3, Elo1: 12, Alpha: 0.05, Beta: 0.1, Model: Logistic}
	llr := newRaceLLR(test)
	rng := rand.New(rand.NewPCG(3, 4))
	var c Pentanomial
	for n := range 3000 {
		c[min(4, rng.IntN(5)+rng.IntN(2))]++
		got, err := llr(c)
		if err != nil {
			t.Fatal(err)
		}
		want, err := test.LLR(c)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-want) > 1e-8*math.Max(1, math.Abs(want)) {
			t.Fatalf("pair %d, counts %v: fast LLR %v, SPRT.LLR %v", n, c, got, want)
		}
	}
}

func TestRaceStartAdjustsAlpha(t *testing.T) {
	rr, err := Race{Test: SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}}.Start(8)
	if err != nil {
		t.Fatal(err)
	}
	if rr.Test.Alpha != 0.05/8 || rr.Test.Beta != 0.05 || rr.Delta != 0.05 {
		t.Fatalf("candidate test alpha %v beta %v delta %v, want 0.05/8, 0.05, 0.05 (Bonferroni, delta defaults to beta)", rr.Test.Alpha, rr.Test.Beta, rr.Delta)
	}
	if _, err := (Race{Test: SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}}).Start(0); err == nil {
		t.Fatal("a race of 0 candidates started")
	}
	if _, err := (Race{Test: SPRT{Elo0: 0, Elo1: 10, Alpha: 0.05, Beta: 0.05}, Delta: 1}).Start(2); err == nil {
		t.Fatal("a race with delta 1 started")
	}
}

// A candidate that wins every pair is accepted; the others stop.
func TestRaceWinnerStopsRace(t *testing.T) {
	rr, err := Race{Test: SPRT{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.05}}.Start(3)
	if err != nil {
		t.Fatal(err)
	}
	rounds := 0
	for !rr.Done {
		// Candidate 1 wins both games, 0 and 2 split every pair.
		if err := rr.AddRound([]int{WLDD, WW, WLDD}); err != nil {
			t.Fatal(err)
		}
		rounds++
		if rounds > 1000 {
			t.Fatal("no verdict after 1000 rounds")
		}
	}
	if rr.Winner != 1 || rr.Racers[1].Status != RaceAccepted {
		t.Fatalf("winner %d (status %v), want candidate 1 accepted", rr.Winner, rr.Racers[1].Status)
	}
	for _, i := range []int{0, 2} {
		if s := rr.Racers[i].Status; s != RaceStopped && s != RaceEliminated && s != RaceRejected {
			t.Fatalf("candidate %d is %v after the race ended", i, s)
		}
	}
	if err := rr.AddRound([]int{0, 0, 0}); err == nil {
		t.Fatal("a round was counted after the race ended")
	}
}

// A candidate far behind another is eliminated before its own test
// decides, and the elimination names the stronger one.
func TestRaceEliminatesClearlyWorse(t *testing.T) {
	rr, err := Race{Test: SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}}.Start(2)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for !rr.Done && rr.Rounds < 100_000 {
		// Candidate 0 near even, candidate 1 loses most pairs, but not so
		// many that its own test rejects it first: a long test.
		a := WLDD + rng.IntN(3) - 1
		b := LD + rng.IntN(3) - 1
		if err := rr.AddRound([]int{a, b}); err != nil {
			t.Fatal(err)
		}
		if rr.Racers[1].Status != RaceActive {
			break
		}
	}
	r := rr.Racers[1]
	if r.Status != RaceEliminated && r.Status != RaceRejected {
		t.Fatalf("candidate 1 is %v after %d rounds, want eliminated or rejected", r.Status, rr.Rounds)
	}
	if r.Status == RaceEliminated && r.By != 0 {
		t.Fatalf("candidate 1 eliminated by %d, want 0", r.By)
	}
	// A dropped candidate's class is not read.
	if !rr.Done {
		if err := rr.AddRound([]int{WLDD, 7}); err != nil {
			t.Fatalf("the class of a dropped candidate was read: %v", err)
		}
	}
}

func TestRaceRefusesBadClasses(t *testing.T) {
	rr, err := Race{Test: SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}}.Start(2)
	if err != nil {
		t.Fatal(err)
	}
	if err := rr.AddRound([]int{1}); err == nil {
		t.Fatal("a round of 1 class for 2 candidates was counted")
	}
	if err := rr.AddRound([]int{1, 5}); err == nil {
		t.Fatal("class 5 was counted")
	}
}

// The family-wise false-positive rate of the race, over many simulated
// families of candidates all equal to the baseline, is at most alpha
// (within three binomial standard errors); testing each alone at alpha
// exceeds it, so the simulation can tell the two apart. Bounds of 0 and
// 40 Elo keep the tests short.
func TestRaceFamilyWise(t *testing.T) {
	const families, alpha = 1000, 0.05
	sim := RaceSim{
		Race:     Race{Test: SPRT{Elo0: 0, Elo1: 40, Alpha: alpha, Beta: 0.05}},
		Elos:     []float64{0, 0, 0, 0},
		DrawRate: 0.2, Shared: 0.5, Families: families, Seed: 7,
	}
	res, err := sim.Run()
	if err != nil {
		t.Fatal(err)
	}
	limit := alpha + 3*math.Sqrt(alpha*(1-alpha)/families)
	race, alone := res.Race.FalsePositiveRate(families), res.Alone.FalsePositiveRate(families)
	adjusted := res.AloneAdjusted.FalsePositiveRate(families)
	t.Logf("equal families: race %.4f, alone at alpha %.4f, alone at alpha/k %.4f; matches race %d, alone %d, alone adjusted %d",
		race, alone, adjusted, res.Race.Matches, res.Alone.Matches, res.AloneAdjusted.Matches)
	if race > limit {
		t.Errorf("race family-wise false-positive rate %.4f over %d families, want <= %.4f", race, families, limit)
	}
	if adjusted > limit {
		t.Errorf("alone at alpha/k: family-wise rate %.4f, want <= %.4f", adjusted, limit)
	}
	if alone <= alpha {
		t.Errorf("alone at alpha: family-wise rate %.4f, want above alpha %v (four tests at alpha each)", alone, alpha)
	}
	if res.Race.Undecided > 0 {
		t.Errorf("%d races undecided at the default cap", res.Race.Undecided)
	}
}

// With one candidate +60 Elo among equal ones, the race finds it about as
// often as testing each alone at alpha/k and plays fewer matches.
func TestRaceFindsStrongCandidateCheaper(t *testing.T) {
	const families = 300
	sim := RaceSim{
		Race:     Race{Test: SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}},
		Elos:     []float64{0, 0, 60, 0, 0, 0},
		DrawRate: 0.2, Shared: 0.5, Families: families, Seed: 11,
	}
	res, err := sim.Run()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("found: race %d, alone adjusted %d of %d; matches race %d, alone adjusted %d",
		res.Race.Found, res.AloneAdjusted.Found, families, res.Race.Matches, res.AloneAdjusted.Matches)
	if res.Race.Found < families*85/100 {
		t.Errorf("race found the +60 candidate in %d of %d families, want at least 85%%", res.Race.Found, families)
	}
	if res.Race.Matches >= res.AloneAdjusted.Matches {
		t.Errorf("race played %d matches, alone at alpha/k %d: want fewer", res.Race.Matches, res.AloneAdjusted.Matches)
	}
}

func TestRaceSimRefusesBadInput(t *testing.T) {
	base := RaceSim{Race: Race{Test: SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05}}, Elos: []float64{0}, Families: 1}
	tests := []struct {
		name string
		edit func(*RaceSim)
	}{
		{"no candidates", func(s *RaceSim) { s.Elos = nil }},
		{"no families", func(s *RaceSim) { s.Families = 0 }},
		{"draw rate 1", func(s *RaceSim) { s.DrawRate = 1 }},
		{"shared 2", func(s *RaceSim) { s.Shared = 2 }},
		{"elo NaN", func(s *RaceSim) { s.Elos = []float64{math.NaN()} }},
		{"bad test", func(s *RaceSim) { s.Race.Test.Elo1 = -1 }},
	}
	for _, tt := range tests {
		s := base
		tt.edit(&s)
		if _, err := s.Run(); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
}
