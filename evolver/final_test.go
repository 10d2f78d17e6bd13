package evolver

import (
	"math"
	"strings"
	"testing"
	"time"

	"crucible/strategies"
)

// Rule: the held-out interval is Student's t on the paired differences:
// for 1..5 the mean is 3, the standard error sqrt(2.5/5) and t(0.975, 4)
// = 2.776445, so the 95% interval is 3 ± 1.963243.
func TestPairedInterval(t *testing.T) {
	tests := []struct {
		name           string
		d              []float64
		mean, lo, hi   float64
		unboundedBelow bool
	}{
		{"textbook t interval", []float64{1, 2, 3, 4, 5}, 3, 3 - 1.963243, 3 + 1.963243, false},
		{"no spread gives a point", []float64{0.2, 0.2, 0.2}, 0.2, 0.2, 0.2, false},
		{"one difference has no interval", []float64{0.4}, 0.4, 0, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, lo, hi := pairedInterval(tc.d, 0.95)
			if math.Abs(m-tc.mean) > 1e-9 {
				t.Errorf("mean %v, want %v", m, tc.mean)
			}
			if tc.unboundedBelow {
				if !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
					t.Errorf("interval [%v, %v], want unbounded", lo, hi)
				}
				return
			}
			if math.Abs(lo-tc.lo) > 1e-5 || math.Abs(hi-tc.hi) > 1e-5 {
				t.Errorf("interval [%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
	c := Comparison{Lo: 0.01}
	if !c.Significant() {
		t.Errorf("an interval above zero is not reported significant")
	}
	if (Comparison{Lo: -0.01}).Significant() {
		t.Errorf("an interval reaching below zero is reported significant")
	}
}

// Rule: a resumed run must share the identity of the run it continues;
// the error names the field. Stopping rules and final stages may differ.
func TestSameRun(t *testing.T) {
	base := Meta{Game: "kindling", Base: "easy", Algorithm: "ga", Pool: []string{"easy", "normal"}, Population: 16, Seeds: 8, Seed: 1,
		Hall: 4, HallOpponents: 1, Options: map[string]string{"islands": "1"}, GameConfig: []byte(`{"a": 1}`), Generations: 10, Holdout: 64}
	tests := []struct {
		name   string
		change func(m *Meta)
		want   string
	}{
		{"same run", func(m *Meta) {}, ""},
		{"more generations and another holdout are fine", func(m *Meta) { m.Generations, m.Holdout, m.BudgetS = 50, 10, 60 }, ""},
		{"config compared by content, not spacing", func(m *Meta) { m.GameConfig = []byte("{\"a\":1}\n") }, ""},
		{"another seed", func(m *Meta) { m.Seed = 2 }, "Seed 2 differs from the run's 1"},
		{"another pool", func(m *Meta) { m.Pool = []string{"easy"} }, "Pool easy differs from the run's easy,normal"},
		{"another algorithm", func(m *Meta) { m.Algorithm = "cmaes" }, "Algorithm cmaes differs"},
		{"another population", func(m *Meta) { m.Population = 8 }, "Population 8 differs"},
		{"another game configuration", func(m *Meta) { m.GameConfig = []byte(`{"a": 2}`) }, `GameConfigJSON {"a":2} differs from the run's {"a":1}`},
		{"defaults instead of a configuration", func(m *Meta) { m.GameConfig = nil }, "GameConfigJSON (the game's defaults) differs"},
		{"another identity option, by its flag", func(m *Meta) { m.Options = map[string]string{"islands": "2"} }, "islands 2 differs from the run's 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			now := base
			now.Pool = append([]string(nil), base.Pool...)
			tc.change(&now)
			err := sameRun(base, now)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want %q", err, tc.want)
			}
		})
	}
}

// Rule: the selection, the held-out comparison and the ranking play seeds
// that no generation of the run played (nor each other's), so neither the
// champion's held-out figure nor its rank is measured on the seeds it was
// selected on.
func TestFinalSeedsNeverTrained(t *testing.T) {
	for _, seed := range []uint64{0, 1, 11, 42} {
		played := map[uint64]string{}
		for gen := 0; gen < 300; gen++ {
			for _, s := range generationSeeds(seed, gen, MaxSeeds) {
				played[s] = "a generation"
			}
		}
		for _, s := range tournamentSeeds(seed, MaxTournamentSeeds) {
			if by, ok := played[s]; ok {
				t.Fatalf("run seed %d: tournament seed %d was played by %s", seed, s, by)
			}
			played[s] = "the tournament"
		}
		for _, s := range holdoutSeeds(seed, MaxHoldout) {
			if by, ok := played[s]; ok {
				t.Fatalf("run seed %d: held-out seed %d was played by %s", seed, s, by)
			}
			played[s] = "the held-out comparison"
		}
		for _, s := range rankSeeds(seed, MaxTournamentSeeds) {
			if by, ok := played[s]; ok {
				t.Fatalf("run seed %d: ranking seed %d was played by %s", seed, s, by)
			}
		}
	}
}

// TestReplanKeepsTheAnnouncedPlan checks that a stage the budget warning
// announced with fewer seeds (none for the head-to-head, say) does not
// get more later, when the stages before it ran faster than measured:
// the run does what it said.
func TestReplanKeepsTheAnnouncedPlan(t *testing.T) {
	f := &finals{cfg: &Config{TournamentSeeds: 8, Holdout: 10}, ev: &arenaEvaluator{Pool: make([]opponent, 4)},
		rep: &Report{Ranked: make([]strategies.Variant, 4), Selection: &Selection{Finalists: make([]FinalistScore, 4)}}, deadline: time.Now().Add(time.Hour), spm: 1e-9}
	ask := FinalPlan{Rank: 8, HeadToHead: 8}
	if got := f.replan(ask); got != ask {
		t.Fatalf("with time to spare and nothing announced, replan gave %+v, want %+v", got, ask)
	}
	f.announced = &FinalPlan{Select: 8, Holdout: 2, Rank: 3, HeadToHead: 0}
	if got, want := f.replan(ask), (FinalPlan{Rank: 3, HeadToHead: 0}); got != want {
		t.Fatalf("after announcing %+v, replan gave %+v, want %+v", *f.announced, got, want)
	}
}
