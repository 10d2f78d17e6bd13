package bidders

import (
	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/evolver/behave"
)

// The counters of the Kindling behaviour.
const (
	kBid    = iota // sparks bid
	kTop           // the largest bid of each turn, summed
	kBudget        // sparks held when bidding
	kEmber         // sparks bid on beacons where the seat held embers
)

// Behaviour is Kindling's behaviour descriptors (the evolver's MAP-Elites
// axes): concentration (the share of a turn's
// bid that goes to its largest bid), saving (the share of the sparks held
// that is not bid) and ember use (the share of the sparks bid that goes to
// beacons where the seat already holds embers), each over all the turns of
// the candidate's matches. The grid's ranges are those the reference
// bidders span, with a margin; values beyond fall into the edge cells.
func Behaviour() *behave.Behaviour {
	return &behave.Behaviour{
		Game: "kindling",
		Descriptors: []behave.Descriptor{
			{Name: "concentration", Doc: "share of the sparks bid that goes to the turn's largest bid", Lo: 0.3, Hi: 0.8},
			{Name: "saving", Doc: "share of the sparks held that is not bid", Lo: 0, Hi: 0.6},
			{Name: "ember-use", Doc: "share of the sparks bid on beacons where the seat holds embers", Lo: 0, Hi: 0.6},
		},
		Watch: func(p engine.Player, c *behave.Counter) engine.Player {
			b, ok := p.(kindling.Bidder)
			if !ok {
				return p
			}
			return &kindlingWatcher{inner: b, c: c}
		},
		Values: func(n behave.Counts) []float64 {
			return []float64{
				behave.Ratio(n.N[kTop], n.N[kBid]),
				1 - behave.Ratio(n.N[kBid], n.N[kBudget]),
				behave.Ratio(n.N[kEmber], n.N[kBid]),
			}
		},
	}
}

// kindlingWatcher bids as its inner bidder and adds each bid to the
// counter.
type kindlingWatcher struct {
	inner kindling.Bidder
	c     *behave.Counter
}

func (w *kindlingWatcher) Bid(v *kindling.View, out *kindling.Bid) {
	w.inner.Bid(v, out)
	var sum, top, ember int64
	for i, b := range out {
		sum += int64(b)
		top = max(top, int64(b))
		if v.Embers[v.You][i] > 0 {
			ember += int64(b)
		}
	}
	w.c.Add(kBid, sum)
	w.c.Add(kTop, top)
	w.c.Add(kBudget, int64(v.Sparks[v.You]))
	w.c.Add(kEmber, ember)
}
