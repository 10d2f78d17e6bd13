package acbstrat_test

import (
	"context"
	"testing"

	"crucible/arena"
	"crucible/engine/acb"
)

// BenchmarkRoundRobin plays the round robin of every strategy at its
// defaults, both seat orders, on one seed per iteration on one worker (the
// schedule of crucible arena --game acb --players all), and reports matches
// per second. Profile it for where a strategy-heavy match spends its time:
//
//	go test ./strategies/acbstrat -run '^$' -bench RoundRobin -benchtime 1x -cpuprofile /tmp/rr.prof
func BenchmarkRoundRobin(b *testing.B) {
	es := entrants()
	cfg := acb.DefaultConfig()
	matches := 0
	for i := 0; i < b.N; i++ {
		jobs := arena.RoundRobin(len(es), arena.Seeds(uint64(7+i), 1))
		err := arena.Run(context.Background(), acb.Game{}, es, jobs, arena.Options{Workers: 1, Config: cfg}, func(r arena.Record) error {
			if r.Error != "" {
				b.Errorf("job %s failed: %s", r.Job, r.Error)
			}
			matches++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(matches)/b.Elapsed().Seconds(), "matches/s")
}
