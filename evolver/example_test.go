package evolver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"crucible/engine/kindling"
	"crucible/evolver"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// A tiny evolution of the Kindling bidder "easy" by CMA-ES against three
// reference bidders: three generations, then the final stages: the two best
// distinct variants play the field on fresh seeds for the champion's place,
// the champion is compared with the base on held-out seeds and ranked among
// the reference bidders. The same seed gives the same run, so the output
// below is exact.
func ExampleEvolve() {
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "evolve-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)

	rep, err := evolver.Evolve(context.Background(), evolver.Config{
		Game: kindling.Game{}, Registry: reg, Base: "easy", Algorithm: "cmaes",
		Pool: []string{"easy", "even", "greedy"}, Population: 6, Seeds: 4, Seed: 1, Generations: 3,
		Top: 2, TournamentSeeds: 4, Holdout: 16, Out: filepath.Join(dir, "run"),
		Progress: func(e evolver.Event) {
			if g, ok := e.(evolver.GenerationDone); ok {
				fmt.Printf("generation %d: champion %s, fitness %.3f (base %.3f)\n", g.Stats.Generation+1, g.Stats.Champion, g.Stats.Best, g.Stats.Base)
			}
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range rep.Selection.Finalists {
		fmt.Printf("finalist %s: %.3f against the field over %d seeds\n", f.Label, f.Rate.Mean, f.Rate.Units)
	}
	fmt.Printf("champion %s, rank %d of %d among the reference bidders\n", rep.Champion.Label(), rep.ChampionRank, len(rep.Leaderboard.Standings))
	fmt.Printf("held-out: %.3f against the base's %.3f, difference in [%+.3f, %+.3f]\n", rep.Holdout.RateA, rep.Holdout.RateB, rep.Holdout.Lo, rep.Holdout.Hi)

	// The run directory reads back with OpenRun.
	run, err := evolver.OpenRun(filepath.Join(dir, "run"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d generations on file, champion %s, %d ranked finalists\n", len(run.Generations), run.Champion.ID, len(run.Ranked))
	// Output:
	// generation 1: champion 2456234fa1, fitness 0.583 (base 0.208)
	// generation 2: champion 65159fc313, fitness 0.589 (base 0.196)
	// generation 3: champion 65159fc313, fitness 0.562 (base 0.227)
	// finalist easy#2456234fa1: 0.646 against the field over 4 seeds
	// finalist easy#65159fc313: 0.583 against the field over 4 seeds
	// champion easy#2456234fa1, rank 2 of 4 among the reference bidders
	// held-out: 0.609 against the base's 0.208, difference in [+0.296, +0.506]
	// 3 generations on file, champion 2456234fa1, 2 ranked finalists
}
