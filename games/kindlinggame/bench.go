package kindlinggame

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/engine/kindling"
	"crucible/games"
	"crucible/strategies"
)

// bench is what crucible bench measures of the engine: whole matches of
// cheap bidders for about a second.
var bench = games.Bench{
	Help: `Kindling: whole 4-seat, 8-turn matches per second on one core with
cheap bidders (even, greedy, contrarian, sniper).`,
	Seeds: 400,
	Workload: func(*pflag.FlagSet) games.BenchWorkload {
		return games.BenchWorkload{Run: benchEngine}
	},
}

// benchEngine times 4-seat matches of cheap bidders for about a second,
// building players per match as the arena does.
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
		What: "engine: 4 seats x 8 turns, cheap bidders, 1 core", Value: float64(n) / took.Seconds(), Unit: "matches/s",
		Note: fmt.Sprintf("%.0f ns per match (target >= 100000 matches/s)", float64(took.Nanoseconds())/float64(n)),
	}}, nil
}

// timeLoop calls f with 0, 1, 2, ... until at least d has passed, checking
// the clock every 256 calls, and says how many calls it made.
func timeLoop(ctx context.Context, d time.Duration, f func(i int) error) (int, time.Duration, error) {
	start := time.Now()
	n := 0
	for {
		for k := 0; k < 256; k++ {
			if err := f(n); err != nil {
				return n, 0, err
			}
			n++
		}
		if err := ctx.Err(); err != nil {
			return n, 0, err
		}
		if took := time.Since(start); took >= d {
			return n, took, nil
		}
	}
}
