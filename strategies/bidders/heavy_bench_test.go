package bidders

import (
	"crucible/engine/kindling"
	"crucible/internal/cpuclock"
)

// clockedBidder adds the thread CPU time of every Bid of the bidder it
// wraps (cpuclock.Thread: clock_gettime's exact count, where getrusage's
// whole clock ticks vary by a fifth over a benchmark's few hundred ms).
type clockedBidder struct {
	kindling.Bidder
	ns int64
}

func (c *clockedBidder) Bid(v *kindling.View, out *kindling.Bid) {
	start := cpuclock.Thread()
	c.Bidder.Bid(v, out)
	c.ns += int64(cpuclock.Thread() - start)
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
