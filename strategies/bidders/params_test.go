package bidders

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// bidLog is a Bidder that records every bid of the bidder it wraps.
type bidLog struct {
	kindling.Bidder
	bids []kindling.Bid
}

func (l *bidLog) Bid(v *kindling.View, out *kindling.Bid) {
	l.Bidder.Bid(v, out)
	l.bids = append(l.bids, *out)
}

// bidsOf plays matches of s (at genome g, in seat 0) against normal and
// greedy at their defaults and returns every bid s made.
func bidsOf(t *testing.T, s strategies.Strategy, g strategies.Genome) []kindling.Bid {
	t.Helper()
	normal, greedy := mustLookup(t, "normal"), mustLookup(t, "greedy")
	var all []kindling.Bid
	for seed := uint64(1); seed <= 6; seed++ {
		me := &bidLog{Bidder: s.New(g, engine.SeatSeed(seed, 0), 0).(kindling.Bidder)}
		seats := []engine.Seat{
			{Name: s.Name, Player: me},
			{Name: "normal", Player: normal.New(normal.Schema.Defaults(), engine.SeatSeed(seed, 1), 1)},
			{Name: "greedy", Player: greedy.New(greedy.Schema.Defaults(), engine.SeatSeed(seed, 2), 2)},
		}
		if _, err := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats}); err != nil {
			t.Fatal(err)
		}
		all = append(all, me.bids...)
	}
	return all
}

// TestSchemaOrderDoesNotRewire: a bidder registered with every parameter of
// its schema moved (the first put last), given the same values by name,
// makes exactly the same bids, so every constructor reads its parameters by
// name, not by position. (Read by position, every bidder's bids differ.)
func TestSchemaOrderDoesNotRewire(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range defs() {
		t.Run(d.name, func(t *testing.T) {
			rev := d // every parameter moved: the first put last
			rev.schema = append(slices.Clone(d.schema[1:]), d.schema[0])
			s, err := strategyOf(d)
			if err != nil {
				t.Fatal(err)
			}
			sr, err := strategyOf(rev)
			if err != nil {
				t.Fatalf("registering %s with its schema rotated: %v", d.name, err)
			}
			for k := 0; k < 3; k++ {
				x := make([]float64, len(d.schema))
				for i := range x {
					x[i] = rng.Float64()
				}
				g := s.Schema.Denormalize(x)
				gr, err := sr.Schema.FromMap(s.Schema.Map(g))
				if err != nil {
					t.Fatal(err)
				}
				if a, b := bidsOf(t, s, g), bidsOf(t, sr, gr); !slices.Equal(a, b) {
					t.Fatalf("genome %v: bids differ with the schema rotated (%v), first %v vs %v", s.Schema.Map(g), sr.Schema.Names(), a[:4], b[:4])
				}
			}
		})
	}
}

// TestSchemaEditFailsRegistration: a parameter inserted in a bidder's
// schema that its constructor does not read, or a parameter renamed, stops
// registration with an error naming the bidder and the parameter.
func TestSchemaEditFailsRegistration(t *testing.T) {
	for _, d := range defs() {
		ins := d
		ins.schema = slices.Insert(slices.Clone(d.schema), 0, param("nerve", "an added knob", 0, 1, 0.5, false))
		_, err := strategyOf(ins)
		if want := "kindling bidder " + d.name + ": constructor never reads parameter nerve"; err == nil || err.Error() != want {
			t.Errorf("%s with a parameter inserted: error %v, want %q", d.name, err, want)
		}
		ren := d
		ren.schema = slices.Clone(d.schema)
		old := ren.schema[len(ren.schema)-1].Name
		ren.schema[len(ren.schema)-1].Name = old + "2"
		_, err = strategyOf(ren)
		if err == nil || !strings.Contains(err.Error(), `reads parameter "`+old+`", which the schema lacks`) {
			t.Errorf("%s with parameter %s renamed: error %v, want one naming %s", d.name, old, err, old)
		}
	}
}
