package acbbot_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/strategies"
)

// BenchmarkOutsideBots measures the overhead of an outside bot in one run:
// matches per second of the built-in gatherer against itself in-process,
// and of the Go and Python example bots served over HTTP (started by the
// manager) against the same in-process gatherer, one match at a time
// (Workers 1) on the default 500-turn configuration. Its ms/start is the
// bot's process start and /health wait, averaged over its starts. Run:
//
//	go test -run '^$' -bench OutsideBots -benchtime 4x ./bots/acbbot/
func BenchmarkOutsideBots(b *testing.B) {
	needPython(b)
	opponent := builtin(b, "gatherer")
	cases := []struct {
		name string
		bot  func(*botproc.Manager) arena.Entrant
	}{
		{"in-process", func(*botproc.Manager) arena.Entrant {
			e := builtin(b, "gatherer")
			e.Name = "gatherer-2"
			return e
		}},
		{"acb-go-http", func(m *botproc.Manager) arena.Entrant { return botEntrant(b, m, goBot(b), nil) }},
		{"acb-python-http", func(m *botproc.Manager) arena.Entrant { return botEntrant(b, m, loadExample(b, "acb-python"), nil) }},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			mgr := newManager(b)
			es := []arena.Entrant{tc.bot(mgr), opponent}
			// The first match starts the bot's process; the timed ones
			// reuse it.
			warm := []arena.Job{{ID: "warm", Seats: []int{0, 1}, Seed: 1}}
			play(b, es, warm, arena.Options{Workers: 1})
			jobs := make([]arena.Job, b.N)
			for i := range jobs {
				jobs[i] = arena.Job{ID: fmt.Sprint("m", i), Seats: []int{i % 2, 1 - i%2}, Seed: uint64(100 + i)}
			}
			b.ResetTimer()
			recs := play(b, es, jobs, arena.Options{Workers: 1})
			b.StopTimer()
			for _, r := range recs {
				if r.Error != "" {
					b.Fatal(r.Error)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
			if st := mgr.Stats(); len(st) == 1 && st[0].Starts > 0 {
				b.ReportMetric(float64(st[0].ReadyTotal.Milliseconds())/float64(st[0].Starts), "ms/start")
			}
		})
	}
}

// BenchmarkVariantStart measures what a new variant costs before its first
// match (an evolver's candidate): starting its process and waiting for
// GET /health to answer 200, per variant. Run:
//
//	go test -run '^$' -bench VariantStart -benchtime 5x ./bots/acbbot/
func BenchmarkVariantStart(b *testing.B) {
	needPython(b)
	for _, tc := range []struct {
		name string
		m    func() *bots.Manifest
	}{{"acb-go", func() *bots.Manifest { return goBot(b) }}, {"acb-python", func() *bots.Manifest { return loadExample(b, "acb-python") }}} {
		b.Run(tc.name, func(b *testing.B) {
			m := tc.m()
			mgr := newManager(b)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// Each iteration is another variant: its own process.
				v := m.Variant(strategies.Genome{float64(i%1000) / 1000, 3})
				l, err := mgr.Lease(context.Background(), v.Spec())
				if err != nil {
					b.Fatal(err)
				}
				l.Release()
			}
			b.StopTimer()
			var ready time.Duration
			starts := 0
			for _, s := range mgr.Stats() {
				ready += s.ReadyTotal
				starts += s.Starts
			}
			b.ReportMetric(float64(ready.Microseconds())/1000/float64(starts), "ms/start")
		})
	}
}

// BenchmarkGatherSweep measures the example bots' gather parameter
// against the built-in guardian: for each value (wave 3) the Go example
// (the same moves as the Python one, faster) plays 30 seeds in both seat
// orders over 500 turns, and the share of its wins (draws half) is
// reported as win@VALUE. It is how the best value that the examples'
// documentation states was measured. Run (a few minutes on 2 cores):
//
//	go test -run '^$' -bench GatherSweep -benchtime 1x -timeout 30m ./bots/acbbot/
func BenchmarkGatherSweep(b *testing.B) {
	mgr := newManager(b)
	m := goBot(b)
	opponent := builtin(b, "guardian")
	for i := 0; i < b.N; i++ {
		for _, g := range []float64{0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 0.9} {
			es := []arena.Entrant{botEntrant(b, mgr, m, strategies.Genome{g, 3}), opponent}
			recs := play(b, es, arena.Gauntlet([]int{0}, []int{1}, arena.Seeds(200, 30)), arena.Options{Workers: 2})
			wins := 0.0
			for _, r := range recs {
				if r.Error != "" {
					b.Fatal(r.Error)
				}
				seat := 0
				if r.Players[1].Name == es[0].Name {
					seat = 1
				}
				switch {
				case r.Ranks[seat] == 1 && r.Ranks[1-seat] == 1:
					wins += 0.5
				case r.Ranks[seat] == 1:
					wins++
				}
			}
			b.ReportMetric(wins/float64(len(recs)), fmt.Sprintf("win@%.2f", g))
		}
	}
}
