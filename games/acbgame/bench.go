package acbgame

import (
	"context"
	"fmt"

	"github.com/spf13/pflag"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/games"
	"crucible/internal/cpuclock"
	"crucible/strategies"
)

// bench is what crucible bench measures of the engine: random against
// random on the default map, --acb-matches times.
var bench = games.Bench{
	Help: `AI Code Battle: random against random on the default 40x40 map,
fog for both players every turn: CPU time a turn.`,
	Seeds:    1,
	Workload: benchWorkload,
}

// benchWorkload adds --acb-matches and times that many matches.
func benchWorkload(fs *pflag.FlagSet) games.BenchWorkload {
	matches := fs.Int("acb-matches", 200, "random-vs-random matches timed for the AI Code Battle engine figure, 1 to 100000")
	return games.BenchWorkload{
		Check: func() error {
			if *matches < 1 || *matches > 100000 {
				return fmt.Errorf("--acb-matches %d is outside its range 1..100000", *matches)
			}
			return nil
		},
		Run: func(ctx context.Context, _ *strategies.Registry) ([]games.Figure, error) {
			return benchEngine(ctx, *matches)
		},
	}
}

// benchEngine plays random against random on the default map, matches
// times, and counts the turns.
func benchEngine(ctx context.Context, matches int) ([]games.Figure, error) {
	cfg := acb.DefaultConfig()
	turns := 0
	meter := cpuclock.Start()
	for i := 0; i < matches; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seed := uint64(i)
		m, err := acb.NewMatch(cfg, nil, seed, []acb.Controller{acb.NewRandom(engine.SeatSeed(seed, 0)), acb.NewRandom(engine.SeatSeed(seed, 1))})
		if err != nil {
			return nil, err
		}
		if err := m.Run(ctx); err != nil {
			return nil, err
		}
		turns += m.Turn()
	}
	took := meter.Stop()
	return []games.Figure{{
		What: fmt.Sprintf("engine: random vs random, 40x40, fog both sides, 1 core, %d matches", matches),
		Unit: "turn", Count: turns, CPU: took.CPU, Wall: took.Wall,
		Note: "target <= 2µs CPU a turn (500,000 turns per CPU-second)",
	}}, nil
}
