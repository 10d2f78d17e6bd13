package bidders

import (
	"syscall"
	"testing"
	"unsafe"

	"crucible/engine/kindling"
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

// stageBenchView is the turn of BenchmarkStageSolve: a mid-match turn, 9
// and 11 sparks, embers on both sides.
func stageBenchView() kindling.View {
	first, _ := kindling.NewState(2)
	var v kindling.View
	v.Fill(&first, 0, nil)
	v.Turn = 3
	v.Values = [nb]int{2, 3, 5, 3, 4}
	v.Sparks[0], v.Sparks[1] = 9, 11
	v.Embers[0] = [nb]int{0, 2, 0, 1, 0}
	v.Embers[1] = [nb]int{1, 0, 3, 0, 0}
	return v
}
