package bidders

// crowd's shadows: a type-based model of each rival seat. Beside its
// running figures, crowd keeps a few copies of known bidder types per
// rival seat (the house bots normal and easy, the known bots of a server
// table, each copy with its own taste drawn at random), and has every copy
// bid from that seat's side of the table each turn (it sees the same
// public log the seat sees). It shadows no other bidder of the lab on
// purpose: shadowing mcbr reads the reference opponent move for move (2
// seats: 0.998), which measures nothing about an agent written elsewhere. After the turn, each copy's weight is
// cut by how far its bid was from the seat's real one, so the copies whose
// taste matches the seat's gain; and the seat's running fit (how close the
// weighted copies came) sets how often crowd samples the seat's move from
// them rather than from its running figures. A seat that plays like the
// house bot is then read nearly exactly; any other seat fits badly and is
// read from its figures as before. (Bayesian inference over opponent
// types, with a likelihood falling exponentially in the L1 error: see
// e.g. Southey et al., "Bayes' Bluff: Opponent Modelling in Poker", UAI
// 2005, for the idea of weighing a population of opponent models by how
// well they predicted the revealed play.)

import (
	"math"

	"crucible/engine/kindling"
)

// shadowKinds lists the bidder types crowd shadows each rival seat with,
// and how many copies of each (more for the kinds whose lasting taste
// differs by seat).
var shadowKinds = []struct {
	def    func() def
	copies int
}{{normalDef, 6}, {easyDef, 2}}

// crowdShadows is the number of copies per rival seat.
const crowdShadows = 8

type shadowSet struct {
	copies [crowdShadows]kindling.Bidder
	weight [crowdShadows]float64
	pred   [crowdShadows]kindling.Bid
	turn   int     // the turn pred was made for; 0: none
	fit    float64 // running closeness of the weighted copies' bid to the seat's, 0..1
	fitted int     // turns folded into fit
}

// shadowStep scores last turn's predictions against the revealed bids and
// has every copy bid for this turn, for every rival seat.
func (c *crowdBidder) shadowStep(v *kindling.View) {
	if c.shadows == nil {
		c.shadows = new([kindling.MaxSeats]shadowSet)
		for p := range c.shadows {
			k := 0
			for _, kind := range shadowKinds {
				d := kind.def()
				g := d.schema.Defaults()
				for j := 0; j < kind.copies; j++ {
					c.shadows[p].copies[k] = d.build(d.schema.Decoder(g), c.rng.Uint64())
					c.shadows[p].weight[k] = 1.0 / crowdShadows
					k++
				}
			}
		}
	}
	for p := 0; p < v.Seats; p++ {
		if p == v.You {
			continue
		}
		sh := &c.shadows[p]
		if sh.turn > 0 && v.Last.Turn == sh.turn && !v.Last.Missed[p] {
			real := &v.Last.Bids[p]
			total, close := 0.0, 0.0
			for k := range sh.copies {
				d, m := bidDistance(&sh.pred[k], real)
				sh.weight[k] *= math.Exp(-c.shadowSharp * d)
				total += sh.weight[k]
				close += sh.weight[k] * (1 - m)
			}
			if total > 0 {
				for k := range sh.weight {
					sh.weight[k] /= total
				}
				close /= total
			} else {
				for k := range sh.weight {
					sh.weight[k] = 1.0 / crowdShadows
				}
			}
			if sh.fitted == 0 {
				sh.fit = close
			} else {
				sh.fit = 0.5*close + 0.5*sh.fit
			}
			sh.fitted++
		}
		vp := *v
		vp.You = p
		for k := range sh.copies {
			sh.pred[k] = kindling.Bid{}
			sh.copies[k].Bid(&vp, &sh.pred[k])
		}
		sh.turn = v.Turn
	}
}

// bidDistance returns the L1 distance of two bids over the larger of their
// sums (at least 1) as d, and the same capped at 1 as m.
func bidDistance(a, b *kindling.Bid) (d, m float64) {
	diff, sa, sb := 0, 0, 0
	for i := 0; i < nb; i++ {
		diff += abs(a[i] - b[i])
		sa += a[i]
		sb += b[i]
	}
	d = float64(diff) / float64(max(1, sa, sb))
	return d, min(1, d)
}

// shadowSample draws rival p's move from its shadows with the chance its
// fit earns (shadowMix times the fit, and half that before any turn is
// seen), into out; it reports whether it drew.
func (c *crowdBidder) shadowSample(p int, out *kindling.Bid) bool {
	if c.shadows == nil || c.shadowMix == 0 {
		return false
	}
	sh := &c.shadows[p]
	q := c.shadowMix * 0.5
	if sh.fitted > 0 {
		q = c.shadowMix * sh.fit
	}
	if c.rng.Float64() >= q {
		return false
	}
	r := c.rng.Float64()
	k := 0
	for ; k < crowdShadows-1; k++ {
		if r -= sh.weight[k]; r < 0 {
			break
		}
	}
	*out = sh.pred[k]
	return true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
