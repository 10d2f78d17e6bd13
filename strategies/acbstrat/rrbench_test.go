package acbstrat_test

import (
	"context"
	"syscall"
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
	cpu0 := cpuSeconds()
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
	b.ReportMetric(float64(matches)/(cpuSeconds()-cpu0), "matches/cpu-s")
}

// cpuSeconds returns the CPU time (user and system) the process has used.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
