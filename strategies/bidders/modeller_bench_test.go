package bidders

import (
	"context"
	"encoding/gob"
	"os"
	"runtime"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/internal/cpuclock"
)

// allViews keeps a copy of every view its bidder is asked to bid from,
// and of every bid it makes.
type allViews struct {
	kindling.Bidder
	views []kindling.View
	bids  []kindling.Bid
}

func (r *allViews) Bid(v *kindling.View, out *kindling.Bid) {
	r.views = append(r.views, *v)
	r.Bidder.Bid(v, out)
	r.bids = append(r.bids, *out)
}

// modellerField plays n matches with modeller in seat 0 and the rest
// drawn from the field as BenchmarkSeatInField draws them (4 seats, or
// with mixed, 2, 3 and 4 in turn), and returns its record of each.
func modellerField(tb testing.TB, field []string, n int, mixed bool) []*allViews {
	m := mustLookup(tb, "modeller")
	var out []*allViews
	for seed := uint64(1); seed <= uint64(n); seed++ {
		seats := make([]engine.Seat, 4)
		if mixed {
			seats = seats[:2+seed%3]
		}
		rec := &allViews{Bidder: m.New(m.Schema.Defaults(), engine.SeatSeed(seed, 0), 0).(kindling.Bidder)}
		seats[0] = engine.Seat{Name: "modeller", Player: rec}
		for k := 1; k < len(seats); k++ {
			o := mustLookup(tb, field[(int(seed)*3+k)%len(field)])
			seats[k] = engine.Seat{Name: o.Name, Player: o.New(o.Schema.Defaults(), engine.SeatSeed(seed, k), k)}
		}
		if _, err := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			tb.Fatal(err)
		}
		out = append(out, rec)
	}
	return out
}

// BenchmarkModellerReplay: one op replays, to a fresh modeller, every view
// modeller bid from in one of 32 matches of BenchmarkSeatInField (seat 0
// modeller, the rest drawn from the field): its seat's cost without the
// rest of the match. cpu-ns/seat is the CPU time of the thread that
// builds the bidder and makes its calls (locked to it), cpu-ns/op the
// process's, per match.
// With MODELLER_VIEWS set, the views are read from that file (and written
// to it first if it does not exist), so that trees with other fields, or
// an older modeller, replay the same turns.
func BenchmarkModellerReplay(b *testing.B) {
	matches := replayViews(b)
	m := mustLookup(b, "modeller")
	g := m.Schema.Defaults()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	start := cpuNanos(b)
	var own int64
	n := 0
	for b.Loop() {
		k := n % len(matches)
		n++
		t0 := cpuclock.Thread()
		bd := m.New(g, engine.SeatSeed(uint64(k+1), 0), 0).(kindling.Bidder)
		for i := range matches[k] {
			var out kindling.Bid
			bd.Bid(&matches[k][i], &out)
		}
		own += int64(cpuclock.Thread() - t0)
	}
	b.ReportMetric(float64(cpuNanos(b)-start)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(own)/float64(b.N), "cpu-ns/seat")
}

// replayViews returns the views of BenchmarkModellerReplay.
func replayViews(b *testing.B) [][]kindling.View {
	path := os.Getenv("MODELLER_VIEWS")
	if path != "" {
		if f, err := os.Open(path); err == nil {
			defer f.Close()
			var m [][]kindling.View
			if err := gob.NewDecoder(f).Decode(&m); err != nil {
				b.Fatal(err)
			}
			return m
		}
	}
	var m [][]kindling.View
	for _, r := range modellerField(b, fieldNames(b), 32, false) {
		m = append(m, r.views)
	}
	if path != "" {
		f, err := os.Create(path)
		if err != nil {
			b.Fatal(err)
		}
		defer f.Close()
		if err := gob.NewEncoder(f).Encode(m); err != nil {
			b.Fatal(err)
		}
	}
	return m
}
