package bidders

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"unsafe"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// threadClock returns the CPU time of the calling OS thread from the
// scheduler's own count (clock_gettime(CLOCK_THREAD_CPUTIME_ID)), which is
// exact to the nanosecond; getrusage's figure is made of whole clock ticks
// and varies by a fifth over a benchmark's few hundred milliseconds.
func threadClock(b *testing.B) int64 {
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID (Linux)
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		b.Fatal(e)
	}
	return ts.Nano()
}

// clockedBidder adds the thread CPU time of every Bid of the bidder it wraps.
type clockedBidder struct {
	kindling.Bidder
	b  *testing.B
	ns int64
}

func (c *clockedBidder) Bid(v *kindling.View, out *kindling.Bid) {
	start := threadClock(c.b)
	c.Bidder.Bid(v, out)
	c.ns += threadClock(c.b) - start
}

// BenchmarkHeavySeat: the CPU time of one seat per match for the heavy
// bidders (and even beside them), measured on the seat's own calls: seat 0
// is the named bidder and seats 1-3 are drawn in turn from the whole field,
// as in BenchmarkSeatInField. It reports cpu-ns/seat, the thread CPU time
// of seat 0's Bid calls per match (the thread is locked so that its clock
// is the bidder's), which holds on a loaded machine.
func BenchmarkHeavySeat(b *testing.B) {
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
			var ns int64
			for b.Loop() {
				seed++
				me := &clockedBidder{Bidder: s.New(g, engine.SeatSeed(seed, 0), 0).(kindling.Bidder), b: b}
				seats[0] = engine.Seat{Name: name, Player: me}
				for k := 1; k < 4; k++ {
					o := strats[(int(seed)*3+k)%len(strats)]
					seats[k] = engine.Seat{Name: o.Name, Player: o.New(o.Schema.Defaults(), engine.SeatSeed(seed, k), k)}
				}
				if _, err := (kindling.Game{}).Play(ctx, engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
					b.Fatal(err)
				}
				ns += me.ns
			}
			b.ReportMetric(float64(ns)/float64(b.N), "cpu-ns/seat")
		})
	}
}

// BenchmarkStageLevel: BenchmarkStageSolve's game solved with a beacon's
// nodes taken four at a time (avx, where the machine has it) and one by
// one (go), in one process.
func BenchmarkStageLevel(b *testing.B) {
	first, _ := kindling.NewState(2)
	var v kindling.View
	v.Fill(&first, 0, nil)
	v.Turn = 3
	v.Values = [nb]int{2, 3, 5, 3, 4}
	v.Sparks[0], v.Sparks[1] = 9, 11
	v.Embers[0] = [nb]int{0, 2, 0, 1, 0}
	v.Embers[1] = [nb]int{1, 0, 3, 0, 0}
	defer func(was bool) { stageAVX = was }(stageAVX)
	for _, avx := range []bool{true, false} {
		b.Run(map[bool]string{true: "avx", false: "go"}[avx], func(b *testing.B) {
			stageAVX = avx && stageAVX
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			var g stageGame
			start := threadClock(b)
			for b.Loop() {
				g.setup(&v, 1.6, 0.75, 1)
				g.solveOwn(cfrIterations)
			}
			b.ReportMetric(float64(threadClock(b)-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
