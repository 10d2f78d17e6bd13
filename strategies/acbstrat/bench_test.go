package acbstrat

import (
	"context"
	"syscall"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
)

// BenchmarkVsGatherer plays each strategy (default parameters) against
// gatherer on the default 40x40 map, seats alternating, and reports full
// matches per second of wall time and per second of the process's CPU time
// (matches/cpu-s: the figure per core, less disturbed by other processes
// on a shared machine).
//
//	go test ./strategies/acbstrat -run '^$' -bench VsGatherer -benchtime 20x -count 1
func BenchmarkVsGatherer(b *testing.B) {
	cfg := acb.DefaultConfig()
	gath := byName(b, "gatherer")
	for _, s := range All() {
		b.Run(s.Name, func(b *testing.B) {
			turns := 0
			b.ReportAllocs()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				seed := uint64(1000 + i)
				a := s.New(s.Schema.Defaults(), engine.SeatSeed(seed, i%2), i%2).(acb.Controller)
				g := gath.New(gath.Schema.Defaults(), engine.SeatSeed(seed, 1-i%2), 1-i%2).(acb.Controller)
				ctrls := []acb.Controller{a, g}
				if i%2 == 1 {
					ctrls = []acb.Controller{g, a}
				}
				m, err := acb.NewMatch(cfg, nil, seed, ctrls)
				if err != nil {
					b.Fatal(err)
				}
				if err := m.Run(context.Background()); err != nil {
					b.Fatal(err)
				}
				turns += m.Turn()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "matches/s")
			b.ReportMetric(float64(b.N)/(cpuTime()-cpu0), "matches/cpu-s")
			b.ReportMetric(float64(turns)/float64(b.N), "turns/match")
		})
	}
}

// BenchmarkBFS measures one full multi-source search on the default map.
func BenchmarkBFS(b *testing.B) {
	g := newGrid(40, 40)
	walls := make([]bool, g.n)
	for i := 0; i < g.n; i += 9 {
		walls[i] = true
	}
	tmpl := template(walls)
	f := make(field, g.n)
	q := make([]int32, g.n)
	src := []int32{5, 700, 1300}
	for i := 0; i < b.N; i++ {
		g.bfs(f, q, src, tmpl, 0)
	}
}

// cpuTime returns the CPU time (user and system) the process has used, in
// seconds.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
