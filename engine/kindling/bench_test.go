package kindling

import (
	"context"
	"io"
	"testing"

	"crucible/engine"
)

// BenchmarkPlay measures whole 4-seat, 8-turn matches through Game.Play
// with cheap bidders (the arena's path, without a log).
func BenchmarkPlay(b *testing.B) {
	spec := engine.MatchSpec{Seats: seatsOf(evenSplit{}, greedyTop{}, allOn{2}, evenSplit{})}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Game{}).Play(ctx, spec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlayWithLog is BenchmarkPlay writing the JSON log.
func BenchmarkPlayWithLog(b *testing.B) {
	spec := engine.MatchSpec{Seats: seatsOf(evenSplit{}, greedyTop{}, allOn{2}, evenSplit{}), Replay: io.Discard}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Game{}).Play(ctx, spec); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkResolve measures one 4-seat turn of the rules alone.
func BenchmarkResolve(b *testing.B) {
	start, _ := NewState(4)
	bids := [MaxSeats]Bid{{1, 1, 1, 1, 1}, {0, 0, 5, 0, 0}, {0, 2, 0, 3, 0}, {0, 0, 2, 2, 1}}
	b.ReportAllocs()
	for b.Loop() {
		s := start
		if _, err := Resolve(&s, &bids, nil); err != nil {
			b.Fatal(err)
		}
	}
}
