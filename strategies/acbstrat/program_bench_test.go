package acbstrat

import (
	"context"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/strategies"
)

// BenchmarkProgramVsGatherer plays each reference program and its
// hand-written original against gatherer as BenchmarkVsGatherer does, and
// reports matches per CPU second: the program's rate against the
// original's is the cost of playing a strategy as data.
//
//	go test ./strategies/acbstrat -run '^$' -bench ProgramVsGatherer -benchtime 20x -count 1
func BenchmarkProgramVsGatherer(b *testing.B) {
	refs, err := ProgramRefs()
	if err != nil {
		b.Fatal(err)
	}
	prog := Program()
	for _, name := range []string{"gatherer", "rusher", "hunter"} {
		orig := byName(b, name)
		b.Run(name+"/hand", func(b *testing.B) { benchVsGatherer(b, orig, orig.Schema.Defaults()) })
		b.Run(name+"/program", func(b *testing.B) { benchVsGatherer(b, prog, refs[name]) })
	}
}

func benchVsGatherer(b *testing.B, s strategies.Strategy, g strategies.Genome) {
	cfg := acb.DefaultConfig()
	gath := byName(b, "gatherer")
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		seed := uint64(1000 + i)
		a := s.New(g, engine.SeatSeed(seed, i%2), i%2).(acb.Controller)
		o := gath.New(gath.Schema.Defaults(), engine.SeatSeed(seed, 1-i%2), 1-i%2).(acb.Controller)
		ctrls := []acb.Controller{a, o}
		if i%2 == 1 {
			ctrls = []acb.Controller{o, a}
		}
		m, err := acb.NewMatch(cfg, nil, seed, ctrls)
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0), "matches/cpu-s")
}
