package kindprog

import (
	"context"
	"syscall"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// greedyLike is a program close to the bidder greedy: most of the sparks
// on the two most valuable beacons, all of them on the last turn.
const greedyLike = `{"jitter": 15, "spend": 55, "targets": 2, "rules": [{"when": "turn >= 8", "then": "spend 100"}, {"when": "value < 2", "then": "skip"}, {"when": "rival_bid >= 4", "then": "favour embers 0.5"}]}`

// BenchmarkMatch plays four-seat matches of four copies of a bidder: the
// hand-written greedy and the greedy-like program (the cost of a program
// against a cheap bidder's code).
//
//	go test ./strategies/kindprog -run '^$' -bench Match -count 1
func BenchmarkMatch(b *testing.B) {
	var greedy strategies.Strategy
	for _, s := range bidders.All() {
		if s.Name == "greedy" {
			greedy = s
		}
	}
	g, err := Genome([]byte(greedyLike))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("greedy", func(b *testing.B) { benchFour(b, greedy, greedy.Schema.Defaults()) })
	b.Run("program", func(b *testing.B) { benchFour(b, Program(), g) })
}

func benchFour(b *testing.B, s strategies.Strategy, g strategies.Genome) {
	seats := make([]engine.Seat, 4)
	b.ReportAllocs()
	seed := uint64(0)
	cpu0 := cpuTime()
	for b.Loop() {
		seed++
		for i := range seats {
			seats[i] = engine.Seat{Name: s.Name, Player: s.New(g, engine.SeatSeed(seed, i), i)}
		}
		if _, err := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/(cpuTime()-cpu0), "matches/cpu-s")
}

// cpuTime returns the CPU time (user and system) the process has used, in
// seconds: a rate per CPU second is less disturbed by other processes on
// a shared machine than one per wall second.
func cpuTime() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
