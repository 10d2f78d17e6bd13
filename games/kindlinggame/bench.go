package kindlinggame

import (
	"context"
	"time"

	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/engine/kindling"
	"crucible/games"
	"crucible/internal/cpuclock"
	"crucible/strategies"
)

// bench is what crucible bench measures of the engine: whole matches of
// cheap bidders for about a CPU-second.
var bench = games.Bench{
	Help: `Kindling: whole 4-seat, 8-turn matches on one core with cheap
bidders (even, greedy, contrarian, sniper): CPU time a match.`,
	Seeds: 400,
	Workload: func(*pflag.FlagSet) games.BenchWorkload {
		return games.BenchWorkload{Run: benchEngine}
	},
}

// benchEngine plays 4-seat matches of cheap bidders for about a second of
// CPU time, building players per match as the arena does.
func benchEngine(ctx context.Context, reg *strategies.Registry) ([]games.Figure, error) {
	g := kindling.Game{}
	var es []arena.Entrant
	for _, name := range []string{"even", "greedy", "contrarian", "sniper"} {
		s, err := reg.Lookup(Name, name)
		if err != nil {
			return nil, err
		}
		es = append(es, arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults()))
	}
	jobs := []arena.Job{{ID: "b", Seats: []int{0, 1, 2, 3}}}
	n, took, err := timeLoop(ctx, time.Second, func(i int) error {
		jobs[0].Seed = uint64(i)
		return arena.PlaySequential(ctx, g, es, jobs)
	})
	if err != nil {
		return nil, err
	}
	return []games.Figure{{
		What: "engine: 4 seats x 8 turns, cheap bidders, 1 core",
		Unit: "match", Count: n, CPU: took.CPU, Wall: took.Wall,
		Note: "target <= 10µs CPU a match (100,000 matches per CPU-second)",
	}}, nil
}

// timeLoop calls f with 0, 1, 2, ... until the process has used at least
// d of CPU time (or 10 d of wall time has passed, on a machine too busy to
// give it the CPU), checking every 256 calls, and says how many calls it
// made and what they took.
func timeLoop(ctx context.Context, d time.Duration, f func(i int) error) (int, cpuclock.Sample, error) {
	meter := cpuclock.Start()
	n := 0
	for {
		for k := 0; k < 256; k++ {
			if err := f(n); err != nil {
				return n, cpuclock.Sample{}, err
			}
			n++
		}
		if err := ctx.Err(); err != nil {
			return n, cpuclock.Sample{}, err
		}
		if took := meter.Stop(); took.CPU >= d || took.Wall >= 10*d {
			return n, took, nil
		}
	}
}
