package evolver

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/strategies"
)

// stall is how long a stalled evaluation waits for the budget to cut it
// before it gives up (the test then fails instead of hanging).
const stall = 2 * time.Minute

// stalling measures as synthetic does, except in generation at, where it
// waits until the search cuts it.
type stalling struct {
	synthetic
	at  int
	cut atomic.Bool // set when the stalled evaluation was cut by its context
}

func (s *stalling) Evaluate(ctx context.Context, b matchBatch) ([]measure, error) {
	if b.Generation != s.at {
		return s.synthetic.Evaluate(ctx, b)
	}
	select {
	case <-ctx.Done():
		s.cut.Store(true)
		return nil, ctx.Err()
	case <-time.After(stall):
		return nil, errors.New("the budget never cut the generation")
	}
}

// Rule: with a budget, a generation still running at its deadline is cut
// at once and dropped, the first one too; the search then ends by the
// budget with the generations before it.
func TestBudgetCutsEveryGeneration(t *testing.T) {
	for _, at := range []int{0, 2} {
		space := paramSpace{Base: testStrategy()}
		ga, err := newGA(space, 4, 1, GAOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ev := &stalling{synthetic: synthetic{space: space, gamesPerSeed: 2}, at: at}
		s := &search{Space: space, Algorithm: ga, Evaluator: ev, Seed: 3, Seeds: 2, Budget: 2 * time.Second, Dir: t.TempDir()}
		res, err := s.Run(context.Background())
		if err != nil {
			t.Fatalf("stalled in generation %d: %v", at, err)
		}
		if !ev.cut.Load() || !res.Cut || res.Stopped != "budget" || res.Generations != at {
			t.Errorf("stalled in generation %d: cut %v, result cut %v, stopped by %s after %d generations; want the stalled generation cut, %d before it",
				at, ev.cut.Load(), res.Cut, res.Stopped, res.Generations, at)
		}
		if s.Seeds != 2 || s.Hall != 0 || s.HallOpponents != 0 {
			t.Errorf("Run wrote its caller's fields: seeds %d, hall %d, hall opponents %d", s.Seeds, s.Hall, s.HallOpponents)
		}
	}
}

// stallingRunner plays matches with arena.Run, except its call number
// stallAt (from 1), which waits until its context ends.
func stallingRunner(stallAt int, calls, cut *atomic.Int32) MatchRunner {
	return func(ctx context.Context, g engine.Game, entrants []arena.Entrant, jobs []arena.Job, opt arena.Options, emit func(arena.Record) error) error {
		if int(calls.Add(1)) != stallAt {
			return arena.Run(ctx, g, entrants, jobs, opt, emit)
		}
		select {
		case <-ctx.Done():
			cut.Add(1)
			return ctx.Err()
		case <-time.After(stall):
			return errors.New("the budget never cut the stage")
		}
	}
}

// stalledRun runs tinyKindling with a budget of 6s (and a generation limit
// gens, 0 for none) whose match runner stalls in its call stallAt, and
// returns the report and the number of stalled calls the budget cut.
func stalledRun(t *testing.T, gens, stallAt int) (Config, *Report, int32) {
	t.Helper()
	var calls, cut atomic.Int32
	cfg := tinyKindling(t, "ga", t.TempDir())
	cfg.Generations, cfg.Budget = gens, 6*time.Second
	cfg.Play = stallingRunner(stallAt, &calls, &cut)
	rep, err := Evolve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, rep, cut.Load()
}

// Rule: a budget is a promise. A first generation still running at its
// deadline is cut and the run ends, without an error, with the best it
// has: the base itself, marked not validated, in champion.json and
// report.json.
func TestBudgetCutFirstGenerationEndsWithChampion(t *testing.T) {
	cfg, rep, cut := stalledRun(t, 0, 1)
	if cut != 1 || rep.Generations != 0 || rep.Stopped != "budget" || rep.Validated || !strings.Contains(rep.ValidationNote, "first generation") {
		t.Fatalf("cut %d, %d generations, stopped by %s, validated %v (%s); want the first generation cut and an unvalidated champion",
			cut, rep.Generations, rep.Stopped, rep.Validated, rep.ValidationNote)
	}
	champ, err := strategies.LoadVariant(filepath.Join(cfg.Out, ChampionFile))
	if err != nil || champ.ID != rep.Base.ID {
		t.Fatalf("champion.json %v (%v), want the base %s", champ.ID, err, rep.Base.ID)
	}
	if _, err := os.Stat(filepath.Join(cfg.Out, ReportFile)); err != nil {
		t.Fatal(err)
	}
}

// Rule: when the budget leaves the selection no time (its first seed cut
// at the deadline), the run ends without an error: the champion is the
// search's hall-of-fame leader, marked not validated.
func TestBudgetWithoutTimeForSelection(t *testing.T) {
	// Calls 1 and 2 are the generations, 3 the selection's first seed.
	cfg, rep, cut := stalledRun(t, 2, 3)
	if cut != 1 || rep.Generations != 2 || rep.Validated || rep.Selection != nil || !strings.Contains(rep.ValidationNote, "no time for the selection") {
		t.Fatalf("cut %d, %d generations, validated %v (%s), selection %v; want an unvalidated champion after 2 generations",
			cut, rep.Generations, rep.Validated, rep.ValidationNote, rep.Selection)
	}
	champ, err := strategies.LoadVariant(filepath.Join(cfg.Out, ChampionFile))
	if err != nil || champ.ID != rep.Champion.ID || len(rep.Ranked) == 0 || rep.Ranked[0].ID != champ.ID || champ.ID == rep.Base.ID {
		t.Fatalf("champion.json %s (%v), report's %s, first finalist %v: want the hall's leader", champ.ID, err, rep.Champion.ID, rep.Ranked)
	}
}

// Rule: a budget that cannot hold one generation is refused at the start
// with the estimate of the first probe matches, as a FieldError of Budget,
// before the generation is played.
func TestBudgetTooShortIsRefused(t *testing.T) {
	cfg := tinyKindling(t, "ga", t.TempDir())
	cfg.Pool = nil // every Kindling strategy
	cfg.Generations, cfg.Budget, cfg.Population, cfg.Seeds = 0, 5*time.Second, MaxPopulation, MaxSeeds
	_, err := Evolve(context.Background(), cfg)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Budget" || !strings.Contains(err.Error(), "cannot hold one generation: the first plays about") {
		t.Fatalf("error %v, want a FieldError of Budget with the estimate", err)
	}
	if data, _ := os.ReadFile(filepath.Join(cfg.Out, GenerationsFile)); len(data) > 0 {
		t.Errorf("a refused run played a generation: %s", data)
	}
}

// Rule: the held-out difference in Elo is the logistic Elo of the
// challenger's rate less the base's, its interval the ends mapped alike;
// a perfect record gives a finite figure.
func TestHoldoutElo(t *testing.T) {
	if got, want := eloDiff(0.5, 0.25, 100), -400*math.Log10(1/0.75-1); math.Abs(got-want) > 1e-9 {
		t.Errorf("eloDiff(0.5, +0.25) = %v, want %v", got, want)
	}
	if got := eloDiff(0.6, 0, 100); got != 0 {
		t.Errorf("no difference gives %v Elo", got)
	}
	if got := eloDiff(0.5, 0.5, 100); math.IsInf(got, 0) || got <= 0 {
		t.Errorf("a perfect record gives %v Elo, want a finite positive figure", got)
	}
}

// Rule: the ranking in free-for-all groups seats every entrant once per
// seed in a group of distinct entrants, and each group once per rotation,
// so every member sits in every seat.
func TestGroupRoundRobin(t *testing.T) {
	const n, seats = 7, 3
	seeds := []uint64{11, 12}
	jobs := groupRoundRobin(n, seats, seeds)
	ids := map[string]bool{}
	type key struct{ round, entrant, seat int }
	sat := map[key]int{}
	for _, j := range jobs {
		if ids[j.ID] {
			t.Fatalf("job id %s twice", j.ID)
		}
		ids[j.ID] = true
		seen := map[int]bool{}
		for s, e := range j.Seats {
			if seen[e] {
				t.Fatalf("job %s seats entrant %d twice", j.ID, e)
			}
			seen[e] = true
			sat[key{j.Round, e, s}]++
		}
		if len(j.Seats) != seats {
			t.Fatalf("job %s has %d seats", j.ID, len(j.Seats))
		}
	}
	for r := range seeds {
		for e := 0; e < n; e++ {
			for s := 0; s < seats; s++ {
				if sat[key{r, e, s}] == 0 {
					t.Errorf("round %d: entrant %d never sits in seat %d", r, e, s)
				}
			}
		}
	}
}
