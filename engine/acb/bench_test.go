package acb

import (
	"context"
	"fmt"
	"syscall"
	"testing"

	"crucible/engine"
)

// BenchmarkRandomVsRandom plays random against random on the default
// 40x40 map, fog computed for both players every turn, and reports the cost
// per turn (a match that ends early counts the turns it played).
//
//	go test ./engine/acb -run '^$' -bench RandomVsRandom -benchtime 200x -count 1
func BenchmarkRandomVsRandom(b *testing.B) {
	turns := randomMatches(b, DefaultConfig())
	b.ReportMetric(float64(turns)/float64(b.N), "turns/match")
}

// randomMatches plays b.N matches of random against random on cfg (seeds
// 0..b.N-1), reports the wall and CPU time per turn and returns the turns
// played.
func randomMatches(b *testing.B, cfg Config) int {
	turns := 0
	b.ReportAllocs()
	cpu0 := cpuNanos()
	for i := 0; i < b.N; i++ {
		seed := uint64(i)
		m, err := NewMatch(cfg, nil, seed, []Controller{NewRandom(engine.SeatSeed(seed, 0)), NewRandom(engine.SeatSeed(seed, 1))})
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		turns += m.Turn()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns), "ns/turn")
	b.ReportMetric(float64(cpuNanos()-cpu0)/float64(turns), "cpu-ns/turn")
	return turns
}

// BenchmarkTurns measures the turn loop alone (no match set-up or map
// generation), to show that a turn allocates nothing.
//
//	go test ./engine/acb -run '^$' -bench Turns -benchtime 100000x -count 1
func BenchmarkTurns(b *testing.B) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 100000
	mp, err := GenerateMap(cfg, 2, 1)
	if err != nil {
		b.Fatal(err)
	}
	newMatch := func(seed uint64) *Match {
		m, err := NewMatch(cfg, mp, seed, []Controller{NewRandom(engine.SeatSeed(seed, 0)), NewRandom(engine.SeatSeed(seed, 1))})
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	m := newMatch(1)
	for range 50 { // warm the reused slices
		m.Step()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		done, err := m.Step()
		if err != nil {
			b.Fatal(err)
		}
		if done {
			b.StopTimer()
			m = newMatch(uint64(i))
			b.StartTimer()
		}
	}
}

// BenchmarkGenerateMap measures map generation for the default 40x40 grid
// and two players (part of every match's set-up).
//
//	go test ./engine/acb -run '^$' -bench GenerateMap -benchtime 500x -count 1
func BenchmarkGenerateMap(b *testing.B) {
	cfg := DefaultConfig()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := GenerateMap(cfg, 2, uint64(i)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCrowdedRandom is random against random with spawn_cost 0 (every
// free core spawns every turn), for the cost of a turn with a few dozen
// units on the board.
//
//	go test ./engine/acb -run '^$' -bench CrowdedRandom -benchtime 200x -count 1
func BenchmarkCrowdedRandom(b *testing.B) {
	cfg := DefaultConfig()
	cfg.SpawnCost = 0
	turns, units := 0, 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		seed := uint64(i)
		m, err := NewMatch(cfg, nil, seed, []Controller{NewRandom(engine.SeatSeed(seed, 0)), NewRandom(engine.SeatSeed(seed, 1))})
		if err != nil {
			b.Fatal(err)
		}
		for done := false; !done; {
			if done, err = m.Step(); err != nil {
				b.Fatal(err)
			}
			units += len(m.units)
		}
		turns += m.Turn()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns), "ns/turn")
	b.ReportMetric(float64(units)/float64(turns), "units/turn")
}

// BenchmarkReplay plays recorded matches of random against random on the
// default 40x40 map and reports the cost per turn and the replay's size:
// the turn loop plus the replay writer.
//
//	go test ./engine/acb -run '^$' -bench Replay -benchtime 200x -count 1
func BenchmarkReplay(b *testing.B) {
	cfg := DefaultConfig()
	turns, size := 0, 0
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		seed := uint64(i)
		m, err := NewMatchWith(MatchOptions{Config: cfg, Seed: seed, Record: true, Players: []MatchPlayer{
			{Name: "a", Strategy: "random", Controller: NewRandom(engine.SeatSeed(seed, 0))},
			{Name: "b", Strategy: "random", Controller: NewRandom(engine.SeatSeed(seed, 1))},
		}})
		if err != nil {
			b.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			b.Fatal(err)
		}
		turns += m.Turn()
		size += len(m.Replay())
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(turns), "ns/turn")
	b.ReportMetric(float64(size)/float64(b.N), "bytes/replay")
}

// BenchmarkTurnSize measures the turn loop of random against random on
// generated maps of 40x40, 63x63, 100x100 and 200x200 with the same units:
// four cores a player and no spawning (spawn_cost beyond any energy), so
// the eight initial units play every turn and only the grid grows. A turn
// whose cost grows with the grid rather than the units shows here.
//
//	go test ./engine/acb -run '^$' -bench TurnSize -benchtime 20000x -count 1
func BenchmarkTurnSize(b *testing.B) {
	for _, side := range []int{40, 63, 100, 200} {
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Rows, cfg.Cols = side, side
			cfg.CoresPerPlayer = 4
			cfg.SpawnCost = 1000000
			cfg.MaxTurns = 100000
			mp, err := GenerateMap(cfg, 2, 1)
			if err != nil {
				b.Fatal(err)
			}
			newMatch := func(seed uint64) *Match {
				m, err := NewMatch(cfg, mp, seed, []Controller{NewRandom(engine.SeatSeed(seed, 0)), NewRandom(engine.SeatSeed(seed, 1))})
				if err != nil {
					b.Fatal(err)
				}
				return m
			}
			m := newMatch(1)
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuNanos()
			for i := 0; i < b.N; i++ {
				done, err := m.Step()
				if err != nil {
					b.Fatal(err)
				}
				if done {
					m = newMatch(uint64(i)) // rare: max_turns is 100000
				}
			}
			b.ReportMetric(float64(cpuNanos()-cpu0)/float64(b.N), "cpu-ns/turn")
		})
	}
}

// BenchmarkRandomVsRandomSize is BenchmarkRandomVsRandom on generated maps
// of 40x40 and 63x63 (default config otherwise), the cost per turn of whole
// matches with spawning.
//
//	go test ./engine/acb -run '^$' -bench RandomVsRandomSize -benchtime 100x -count 1
func BenchmarkRandomVsRandomSize(b *testing.B) {
	for _, side := range []int{40, 63} {
		b.Run(fmt.Sprintf("%dx%d", side, side), func(b *testing.B) {
			cfg := DefaultConfig()
			cfg.Rows, cfg.Cols = side, side
			randomMatches(b, cfg)
		})
	}
}

// cpuNanos returns the CPU time (user and system) the process has used, in
// nanoseconds: the benchmarks' figure per unit of work that a busy machine
// disturbs less than wall time.
func cpuNanos() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
