package evolver

import (
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/strategies"
)

func duelSetup(t *testing.T) (*strategies.Registry, strategies.Strategy, []opponent) {
	t.Helper()
	reg, err := strategies.NewRegistry(duelStrategies()...)
	if err != nil {
		t.Fatal(err)
	}
	base, err := reg.Lookup("duel", "duel")
	if err != nil {
		t.Fatal(err)
	}
	pool, err := referencePool(reg, "duel", []string{"weak", "mid", "strong"})
	if err != nil {
		t.Fatal(err)
	}
	return reg, base, pool
}

func duelVariant(base strategies.Strategy, strength, hunter float64) strategies.Variant {
	return strategies.NewVariant(base, strategies.Genome{strength, hunter, 0.5})
}

// Rule: the champion is the finalist strongest against the field, not the
// one that wins the finalists' head-to-head. The hunter beats every other
// finalist outright but is the weakest against the reference pool; the
// SPRT stops measuring it early.
func TestSelectPicksPoolStrongestNotHeadToHead(t *testing.T) {
	reg, base, pool := duelSetup(t)
	field := fieldOf(pool, base)
	if len(field) != 4 || field[3].Name != "duel" {
		t.Fatalf("field %v, want the pool and the base", field)
	}
	hunter := duelVariant(base, 0.35, 1)
	strong := duelVariant(base, 0.75, 0)
	middle := duelVariant(base, 0.6, 0)
	finalists := []strategies.Variant{hunter, middle, strong}
	ev := &arenaEvaluator{Game: duelGame{}, Base: base, Pool: field, Workers: 2}
	seeds := tournamentSeeds(1, 24)

	h2h, _, err := tournament(context.Background(), duelGame{}, nil, reg, finalists, nil, seeds, 2, 2, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if top := h2h.Standings[0].Name; top != hunter.Label() {
		t.Fatalf("head-to-head leader %s, want the hunter %s (the case needs it)", top, hunter.Label())
	}

	sel, err := selectChampion(context.Background(), ev, paramSpace{Base: base}, finalists, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sel.Finalists {
		t.Logf("%s rate %.3f [%.3f, %.3f] over %d seeds, dropped %v", f.Label, f.Rate.Mean, f.Rate.Lo, f.Rate.Hi, f.Rate.Units, f.Dropped)
	}
	if sel.Champion != strong.ID || sel.Finalists[0].ID != strong.ID {
		t.Errorf("champion %s, want the pool-strongest %s (%s)", sel.Champion, strong.ID, sel.Reason)
	}
	var h FinalistScore
	for _, f := range sel.Finalists {
		if f.ID == hunter.ID {
			h = f
		}
	}
	if !h.Dropped || h.Rate.Units >= len(seeds) || sel.SavedMatches == 0 {
		t.Errorf("the hunter played %d of %d seeds (dropped %v, %d matches saved); the SPRT should stop it early", h.Rate.Units, len(seeds), h.Dropped, sel.SavedMatches)
	}
	if h.SPRT == nil || h.SPRT.Verdict != "H1" || h.SPRT.LLR < h.SPRT.Upper {
		t.Errorf("the hunter's test %+v does not accept H1", h.SPRT)
	}
	if want := len(field) * 2 * (sel.Finalists[0].Rate.Units + sel.Finalists[1].Rate.Units + sel.Finalists[2].Rate.Units); sel.Matches != want {
		t.Errorf("%d matches, want %d (each finalist the field in both seat orders on each seed it played)", sel.Matches, want)
	}
}

// Rule: of two finalists within noise of each other, the champion is the
// one closer to the base's defaults, even with the lower score rate.
func TestSelectPrefersCloserWithinNoise(t *testing.T) {
	_, base, pool := duelSetup(t)
	far := duelVariant(base, 0.77, 0)
	near := duelVariant(base, 0.75, 0)
	ev := &arenaEvaluator{Game: duelGame{}, Base: base, Pool: fieldOf(pool, base), Workers: 2}
	sel, err := selectChampion(context.Background(), ev, paramSpace{Base: base}, []strategies.Variant{far, near}, tournamentSeeds(3, 16), nil)
	if err != nil {
		t.Fatal(err)
	}
	if sel.Leader != far.ID {
		t.Fatalf("leader %s, want the stronger %s (the case needs it)", sel.Leader, far.ID)
	}
	if sel.Champion != near.ID || !strings.Contains(sel.Reason, "closer to the base") {
		t.Errorf("champion %s (%s), want the closer %s", sel.Champion, sel.Reason, near.ID)
	}
}

// Rule: a run with a budget ends within it, final stages included, and
// the margin it states (BudgetMargin), with a game whose matches take
// 3 ms of wall time (sleep, so the machine's load hardly matters); also
// when the matches turn five times slower once the search is over, so that
// the final stages planned from the search's pace must be cut at the
// deadline; and when they stall in the held-out comparison (a loaded
// machine once ended it before two seeds were done, and the run failed
// with "held-out comparison: context deadline exceeded"): the run ends in
// its budget with its champion, warning that it was not compared.
func TestEvolveRespectsBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("plays for the budget's length")
	}
	for _, mode := range []string{"steady", "slower-finals", "stalled-holdout"} {
		t.Run(mode, func(t *testing.T) {
			reg, _, _ := duelSetup(t)
			budget := 6 * time.Second
			g := duelGame{delay: 3 * time.Millisecond}
			cfg := Config{
				Game: g, Registry: reg, Base: "duel", Algorithm: "ga",
				Pool: []string{"weak", "mid", "strong"}, Population: 8, Seeds: 4, Seed: 5, Budget: budget,
				Workers: 2, Top: 3, TournamentSeeds: 8, Holdout: 32, Out: t.TempDir() + "/run",
			}
			var warnings []string
			if mode != "steady" {
				g.slow, g.slowAfter = new(atomic.Int64), 1<<40
				if mode == "stalled-holdout" {
					g.slowBy = 10_000 // 30 s a match: no seed ends in the budget
				}
				cfg.Progress = func(e Event) {
					switch e := e.(type) {
					case SelectionStarted:
						if mode == "slower-finals" {
							g.slow.Store(1 << 41) // every later match is slow
						}
					case HoldoutStarted:
						if mode == "stalled-holdout" {
							g.slow.Store(1 << 41)
						}
					case Warning:
						warnings = append(warnings, e.Message)
					}
				}
				cfg.Game = g
			}
			t0 := time.Now()
			rep, err := Evolve(context.Background(), cfg)
			took := time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d generations, %d search matches, %d final matches, plan %+v, %v in all", rep.Generations, rep.Matches, rep.FinalMatches, rep.Plan, took)
			if limit := budget + BudgetMargin(budget); took > limit {
				t.Errorf("the run took %v, beyond its budget %v by more than its margin %v", took, budget, BudgetMargin(budget))
			}
			if rep.Stopped != "budget" || rep.Selection == nil {
				t.Errorf("stopped by %s, selection %v; want the budget to stop the search and the selection to run", rep.Stopped, rep.Selection)
			}
			// A loaded machine may leave the selection no time for the
			// held-out stage at all: either warning says why there is none.
			if mode == "stalled-holdout" && (rep.Holdout != nil || !slices.ContainsFunc(warnings, func(w string) bool {
				return strings.Contains(w, "the budget stopped the held-out comparison") || strings.Contains(w, "no time for the held-out comparison")
			})) {
				t.Errorf("held-out %+v, warnings %q: want no comparison and a warning saying the budget stopped it", rep.Holdout, warnings)
			}
		})
	}
}
