package bidders

import (
	"context"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
)

// copiesApart plays seeds 4-seat matches of one other bidder (seat 0,
// cycling through the field) and three copies of s at their defaults, and
// returns the share of (turn, pair of copies) in which the pair's bids
// differ.
func copiesApart(t *testing.T, name string, seeds int) float64 {
	t.Helper()
	all := All()
	s := mustLookup(t, name)
	apart, turns := 0, 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		o := all[int(seed)%len(all)]
		seats := []engine.Seat{{Name: o.Name, Player: o.New(o.Schema.Defaults(), engine.SeatSeed(seed, 0), 0)}}
		logs := make([]*bidLog, 3)
		for k := range logs {
			logs[k] = &bidLog{Bidder: s.New(s.Schema.Defaults(), engine.SeatSeed(seed, k+1), k+1).(kindling.Bidder)}
			seats = append(seats, engine.Seat{Name: name, Player: logs[k]})
		}
		if _, err := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			t.Fatal(err)
		}
		for turn := range logs[0].bids {
			a, b, c := logs[0].bids[turn], logs[1].bids[turn], logs[2].bids[turn]
			for _, differ := range []bool{a != b, b != c, a != c} {
				turns++
				if differ {
					apart++
				}
			}
		}
	}
	return float64(apart) / float64(turns)
}

// TestCopiesNeverMirror: of three copies of every bidder at one table,
// each seeded by its seat, any two bid differently on most turns (at least
// 70% of the 3 pairs x 320 turns over 40 seeds): a table of house bots is
// three players, not one player three times.
func TestCopiesNeverMirror(t *testing.T) {
	for _, s := range All() {
		if got := copiesApart(t, s.Name, 40); got < 0.7 {
			t.Errorf("%s: two copies bid differently on %.2f of turns, want at least 0.70", s.Name, got)
		} else {
			t.Logf("%s: %.2f", s.Name, got)
		}
	}
}
