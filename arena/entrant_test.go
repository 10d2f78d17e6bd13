package arena_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	"crucible/arena"
	"crucible/engine"
	"crucible/strategies"
)

// scribbler is a strategy whose constructor writes into the genome it is
// given, and records the value it found there first.
func scribbler(seen *atomic.Int64, nilPlayer bool) strategies.Strategy {
	return strategies.Strategy{
		Game: "toy", Name: "scribbler",
		Schema: strategies.Schema{{Name: "strength", Min: 0, Max: 10, Default: 3}},
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			if g[0] != 7 {
				seen.Add(1)
			}
			g[0] = -1
			if nilPlayer {
				return nil
			}
			return &toyPlayer{strength: g[0], seed: seed}
		},
	}
}

// TestStrategyEntrant checks the entrant of a strategy: each match's
// player gets its own copy of the genome (a constructor that writes into
// it changes neither the caller's genome nor later matches, even on
// several workers), the record carries name, strategy and variant, and a
// constructor that builds no player fails its match naming the strategy.
func TestStrategyEntrant(t *testing.T) {
	var spoiled atomic.Int64
	g := strategies.Genome{7}
	e := arena.StrategyEntrant(scribbler(&spoiled, false), "s#v1", "v1", g)
	if e.Name != "s#v1" || e.Strategy != "scribbler" || e.VariantID != "v1" || e.Params["strength"] != 7 {
		t.Fatalf("entrant %+v", e)
	}
	es := []arena.Entrant{e, toyEntrants(2)[1]}
	recs, err := runAll(t, context.Background(), toyGame{}, es, arena.RoundRobin(2, arena.Seeds(1, 20)), arena.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if n := spoiled.Load(); n != 0 || g[0] != 7 {
		t.Fatalf("%d of %d players found a genome written by an earlier one; the caller's genome is %v", n, len(recs), g)
	}
	bad := arena.StrategyEntrant(scribbler(&spoiled, true), "nil", "", g)
	recs, err = runAll(t, context.Background(), toyGame{}, []arena.Entrant{bad, es[1]}, arena.RoundRobin(2, arena.Seeds(1, 1)), arena.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		if !strings.Contains(r.Error, "strategy scribbler built no player") {
			t.Fatalf("a nil player gave record error %q", r.Error)
		}
	}
}
