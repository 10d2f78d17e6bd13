package bidders

import (
	"context"
	"runtime"
	"syscall"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// benchMatches plays whole 8-turn matches of the named bidders (one seat
// each) at their defaults through Game.Play, building the players for each
// match as the arena does.
func benchMatches(b *testing.B, names ...string) {
	list := make([]strategies.Strategy, len(names))
	genomes := make([]strategies.Genome, len(names))
	for i, n := range names {
		list[i] = mustLookup(b, n)
		genomes[i] = list[i].Schema.Defaults()
	}
	seats := make([]engine.Seat, len(names))
	ctx := context.Background()
	b.ReportAllocs()
	seed := uint64(0)
	for b.Loop() {
		seed++
		for i, s := range list {
			seats[i] = engine.Seat{Name: s.Name, Player: s.New(genomes[i], engine.SeatSeed(seed, i), i)}
		}
		if _, err := (kindling.Game{}).Play(ctx, engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchCheap: four of the cheap bidders.
func BenchmarkMatchCheap(b *testing.B) { benchMatches(b, "even", "greedy", "contrarian", "sniper") }

// BenchmarkMatchRandom: four random bidders (a generator each).
func BenchmarkMatchRandom(b *testing.B) { benchMatches(b, "random", "random", "easy", "easy") }

// BenchmarkMatchNormal: four of the house bot normal, the costliest bidder.
func BenchmarkMatchNormal(b *testing.B) { benchMatches(b, "normal", "normal", "normal", "normal") }

// BenchmarkMatchMixed: one of each kind of reader.
func BenchmarkMatchMixed(b *testing.B) { benchMatches(b, "bestresp", "farmer", "growth", "normal") }

// BenchmarkMatchLotto: four lotto bidders (table lookups and a small
// dynamic programme per turn).
func BenchmarkMatchLotto(b *testing.B) { benchMatches(b, "lotto", "lotto", "lotto", "lotto") }

// BenchmarkMatchModeller: four modellers (rival models and a best response
// per turn).
func BenchmarkMatchModeller(b *testing.B) {
	benchMatches(b, "modeller", "modeller", "modeller", "modeller")
}

// BenchmarkMatchCFR: cfr, the costliest bidder (a stage game solved by
// CFR+ every turn), against three cheap ones.
func BenchmarkMatchCFR(b *testing.B) { benchMatches(b, "cfr", "even", "greedy", "contrarian") }

// BenchmarkMatchCFRHeadsUp: two cfr bidders, two seats.
func BenchmarkMatchCFRHeadsUp(b *testing.B) { benchMatches(b, "cfr", "cfr") }

// cpuNanos returns the CPU time (user plus system) the process has used.
func cpuNanos(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// fieldNames are the 16 bidders of the package in registration order.
func fieldNames(b *testing.B) []string {
	var out []string
	for _, s := range All() {
		out = append(out, s.Name)
	}
	if len(out) < 4 {
		b.Fatalf("only %d bidders", len(out))
	}
	return out
}

// BenchmarkSeatInField: one op is one 4-seat match in which seat 0 is the
// named bidder and seats 1-3 are drawn in turn from the whole field of
// bidders (the same draw for every bidder), so the figures of two bidders
// differ by what their seat costs. Besides wall time it reports cpu-ns/op,
// the process's CPU time per match, which holds on a loaded machine, and
// cpu-ns/seat, the CPU time of seat 0's own Bid calls per match (the
// thread is locked so that its clock is the bidder's; clockedBidder).
func BenchmarkSeatInField(b *testing.B) {
	field := fieldNames(b)
	for _, name := range []string{"even", "cfr", "tuned", "modeller"} {
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			s := mustLookup(b, name)
			g := s.Schema.Defaults()
			strats := make([]strategies.Strategy, len(field))
			for i, n := range field {
				strats[i] = mustLookup(b, n)
			}
			seats := make([]engine.Seat, 4)
			ctx := context.Background()
			seed := uint64(0)
			b.ReportAllocs()
			start := cpuNanos(b)
			var own int64
			for b.Loop() {
				seed++
				me := &clockedBidder{Bidder: s.New(g, engine.SeatSeed(seed, 0), 0).(kindling.Bidder)}
				seats[0] = engine.Seat{Name: name, Player: me}
				for k := 1; k < 4; k++ {
					o := strats[(int(seed)*3+k)%len(strats)]
					seats[k] = engine.Seat{Name: o.Name, Player: o.New(o.Schema.Defaults(), engine.SeatSeed(seed, k), k)}
				}
				if _, err := (kindling.Game{}).Play(ctx, engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
					b.Fatal(err)
				}
				own += me.ns
			}
			b.ReportMetric(float64(cpuNanos(b)-start)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(own)/float64(b.N), "cpu-ns/seat")
		})
	}
}

// BenchmarkStageSolve: one turn's stage game solved by cfr's CFR+ (a
// mid-match turn, 9 and 11 sparks, embers on both sides).
func BenchmarkStageSolve(b *testing.B) {
	v := stageBenchView()
	var g stageGame
	start := cpuNanos(b)
	for b.Loop() {
		g.setup(&v, 1.6, 0.75, 1)
		g.solveOwn(cfrIterations)
	}
	b.ReportMetric(float64(cpuNanos(b)-start)/float64(b.N), "cpu-ns/op")
}

// threadCPU returns the CPU time the calling OS thread has used.
func threadCPU(b *testing.B) int64 {
	const rusageThread = 1 // RUSAGE_THREAD (Linux)
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// timedBidder adds the thread CPU time of every Bid of the bidder it wraps.
type timedBidder struct {
	kindling.Bidder
	b     *testing.B
	ns    int64
	turns int
}

func (t *timedBidder) Bid(v *kindling.View, out *kindling.Bid) {
	start := threadCPU(t.b)
	t.Bidder.Bid(v, out)
	t.ns += threadCPU(t.b) - start
	t.turns++
}

// BenchmarkTurnDecision: the CPU time of one decision of each new bidder
// (and of modeller and cfr beside them)
// (one Bid call, in 4-seat matches against house bots normal), reported
// as cpu-ns/turn and as a share of the server's 45 s turn (share45).
// (The thread is locked so that its CPU clock is the bidder's.)
func BenchmarkTurnDecision(b *testing.B) {
	for _, name := range []string{"crowd", "blotto", "mcbr", "modeller", "cfr"} {
		b.Run(name, func(b *testing.B) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			s, normal := mustLookup(b, name), mustLookup(b, "normal")
			ctx := context.Background()
			var ns int64
			turns := 0
			seed := uint64(0)
			for b.Loop() {
				seed++
				me := &timedBidder{Bidder: s.New(s.Schema.Defaults(), engine.SeatSeed(seed, 0), 0).(kindling.Bidder)}
				seats := []engine.Seat{{Name: name, Player: me}}
				for k := 1; k < 4; k++ {
					seats = append(seats, engine.Seat{Name: "normal", Player: normal.New(normal.Schema.Defaults(), engine.SeatSeed(seed, k), k)})
				}
				if _, err := (kindling.Game{}).Play(ctx, engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
					b.Fatal(err)
				}
				ns += me.ns
				turns += me.turns
			}
			per := float64(ns) / float64(turns)
			b.ReportMetric(per, "cpu-ns/turn")
			b.ReportMetric(per/45e9, "share45")
		})
	}
}
