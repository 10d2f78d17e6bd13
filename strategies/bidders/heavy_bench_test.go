package bidders

import (
	"context"
	"testing"

	"crucible/engine"
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

// viewRecorder keeps a copy of every view its bidder bids from with sparks.
type viewRecorder struct {
	kindling.Bidder
	views []kindling.View
}

func (r *viewRecorder) Bid(v *kindling.View, out *kindling.Bid) {
	if v.Budget() > 0 {
		r.views = append(r.views, *v)
	}
	r.Bidder.Bid(v, out)
}

// BenchmarkStageSolveField: one op solves, as cfr does (solveOwn at its
// defaults), the stage games of every turn cfr bid in 32 matches of
// BenchmarkSeatInField (seat 0 cfr, the rest drawn from the field): the
// turns of a field without the rest of the match, nor the memo.
func BenchmarkStageSolveField(b *testing.B) {
	field := fieldNames(b)
	cfr := mustLookup(b, "cfr")
	rec := &viewRecorder{}
	seats := make([]engine.Seat, 4)
	for seed := uint64(1); seed <= 32; seed++ {
		rec.Bidder = cfr.New(cfr.Schema.Defaults(), engine.SeatSeed(seed, 0), 0).(kindling.Bidder)
		seats[0] = engine.Seat{Name: "cfr", Player: rec}
		for k := 1; k < 4; k++ {
			o := mustLookup(b, field[(int(seed)*3+k)%len(field)])
			seats[k] = engine.Seat{Name: o.Name, Player: o.New(o.Schema.Defaults(), engine.SeatSeed(seed, k), k)}
		}
		if _, err := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			b.Fatal(err)
		}
	}
	var g stageGame
	start := cpuNanos(b)
	for b.Loop() {
		for i := range rec.views {
			v := &rec.views[i]
			g.setup(v, perRival(1.6, v.Seats), 0.75, 1)
			g.solveOwn(cfrIterations)
		}
	}
	b.ReportMetric(float64(cpuNanos(b)-start)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(rec.views)), "turns/op")
}
