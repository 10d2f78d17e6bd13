package bidders

import (
	"context"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
)

// TestCrowdShadowsReadTheHouseBot: crowd's shadows (copies of the house
// bots bidding from a rival's seat) fit a seat played by normal clearly
// better than one played by mcbr: over 100 4-seat matches, the mean fit
// after the last turn is at least 0.55 at the normal seats and at least
// 0.1 above the mcbr seat's.
func TestCrowdShadowsReadTheHouseBot(t *testing.T) {
	names := []string{"crowd", "mcbr", "normal", "normal"}
	const seeds = 100
	var fit [4]float64
	for seed := uint64(1); seed <= seeds; seed++ {
		seats := make([]engine.Seat, len(names))
		var c *crowdBidder
		for i, n := range names {
			s := mustLookup(t, n)
			p := s.New(s.Schema.Defaults(), engine.SeatSeed(seed, i), i)
			if i == 0 {
				c = p.(*crowdBidder)
			}
			seats[i] = engine.Seat{Name: n, Strategy: n, Player: p}
		}
		if _, err := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			t.Fatal(err)
		}
		for p := 1; p < 4; p++ {
			sh := &c.shadows[p]
			if sh.fitted != kindling.Turns-1 {
				t.Fatalf("seed %d seat %d: %d turns folded into the fit, want %d", seed, p, sh.fitted, kindling.Turns-1)
			}
			fit[p] += sh.fit / seeds
		}
	}
	t.Logf("mean fit of the shadows: mcbr %.3f, normal %.3f and %.3f", fit[1], fit[2], fit[3])
	for p := 2; p < 4; p++ {
		if fit[p] < 0.55 || fit[p] < fit[1]+0.1 {
			t.Errorf("seat %d (normal): mean fit %.3f, want at least 0.55 and 0.1 above mcbr's %.3f", p, fit[p], fit[1])
		}
	}
}

// TestBidDistance pins the error measure the shadows are weighed by.
func TestBidDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b kindling.Bid
		d, m float64
	}{
		{kindling.Bid{1, 2, 3, 0, 0}, kindling.Bid{1, 2, 3, 0, 0}, 0, 0},
		{kindling.Bid{0, 0, 4, 0, 0}, kindling.Bid{0, 0, 0, 4, 0}, 2, 1},
		{kindling.Bid{0, 0, 4, 0, 0}, kindling.Bid{0, 0, 3, 1, 0}, 0.5, 0.5},
		{kindling.Bid{}, kindling.Bid{}, 0, 0},
	} {
		if d, m := bidDistance(&tc.a, &tc.b); d != tc.d || m != tc.m {
			t.Errorf("bidDistance(%v, %v) = %v, %v; want %v, %v", tc.a, tc.b, d, m, tc.d, tc.m)
		}
	}
}

// TestShadowKindsFill: the kinds' copies fill every shadow slot exactly.
func TestShadowKindsFill(t *testing.T) {
	n := 0
	for _, k := range shadowKinds {
		n += k.copies
	}
	if n != crowdShadows {
		t.Fatalf("shadowKinds has %d copies, crowdShadows is %d", n, crowdShadows)
	}
}
