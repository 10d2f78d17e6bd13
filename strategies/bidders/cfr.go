package bidders

// cfr, the stage-game equilibrium bidder: every turn it solves the turn as
// a zero-sum game between itself and its strongest rival (stage.go) with a
// few iterations of CFR+, and draws its move from its average strategy
// with its seeded generator. Kept sparks and embers left behind are priced
// in points, so the turn's game stands in for the rest of the match.

import (
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// cfrIterations is the number of CFR+ iterations per turn: enough to bring
// the first turn's game within about 0.1 point of an equilibrium (see
// TestStageGameConverges), few enough to keep a match cheap.
const cfrIterations = 16

type cfrBidder struct {
	rng        *rand.Rand
	price      float64 // points a kept spark is worth
	ember      float64 // an ember's worth as a share of a spark's
	rivalPrice float64 // the rival's price as a multiple of the seat's
	g          stageGame
}

// setup fills g with seat you's turn in v against its strongest rival: at
// each beacon the most embers any rival holds there, and the sparks of the
// richest rival.
func (g *stageGame) setup(v *kindling.View, price, ember, rivalPrice float64) {
	you := v.You
	rivalB := 0
	var rivalEmb [nb]int
	for p := 0; p < v.Seats; p++ {
		if p == you {
			continue
		}
		rivalB = max(rivalB, v.Sparks[p])
		for i := range rivalEmb {
			rivalEmb[i] = max(rivalEmb[i], v.Embers[p][i])
		}
	}
	carry := kindling.SparkCap - kindling.Income
	keepA, keepB := price, price*rivalPrice
	if lastTurn(v) {
		// A kept spark only breaks ties.
		keepA, keepB, carry = 1e-3, 1e-3, kindling.SparkCap
	}
	g.ember = ember * price
	for i := 0; i < nb; i++ {
		g.values[i] = float64(v.Values[i])
	}
	me := v.Budget()
	// Only the seats' inputs are set: reset initialises the CFR+ state of
	// every node a solve reads, so the rest need not be cleared (some 40 KB
	// a turn).
	g.a.setInput(me, v.Embers[you], keepA, carry)
	g.b.setInput(rivalB, rivalEmb, keepB, carry)
	for i := 0; i < nb; i++ {
		// No seat bids more than surely wins.
		g.a.cap[i] = min(me, max(0, rivalEmb[i]+rivalB+1-g.a.emb[i]))
		g.b.cap[i] = min(rivalB, max(0, g.a.emb[i]+me+1-rivalEmb[i]))
	}
}

// setInput sets the inputs of a seat of a stage game (its caps are set
// after) as a stageSeat literal with only them would.
func (s *stageSeat) setInput(budget int, emb [nb]int, keep float64, carry int) {
	s.budget, s.emb, s.keep, s.carry = budget, emb, keep, carry
	s.cap, s.hi, s.noAverage = [nb]int{}, [nb + 1]int{}, false
	// payoffs reads the marginal one bid past the most a seat can bid.
	s.w, s.marg = [nb][levels]float64{}, [nb][levels]float64{}
}

func (c *cfrBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	if b == 0 {
		return
	}
	c.g.setup(v, perRival(c.price, v.Seats), c.ember, c.rivalPrice)
	c.g.solveOwnMemo(cfrIterations)
	c.g.a.sample(c.rng, out)
	topUp(v, out, mustSpend(v, sum(out)))
	fit(out, b)
}

// perRival returns what a kept spark is worth at a table of seats seats
// when it is worth price with one rival: price/(seats-1). The more rivals
// contest each beacon, the less a spark kept for later can buy, and every
// bidder that prices kept sparks bids more freely at a crowded table.
func perRival(price float64, seats int) float64 { return price / float64(max(1, seats-1)) }

// sum returns the sparks a bid spends.
func sum(b *kindling.Bid) int {
	s := 0
	for _, x := range b {
		s += x
	}
	return s
}

func cfrDef() def {
	schema := strategies.Schema{
		param("price", "points a spark kept for a later turn is worth, to itself", 0.3, 4, 1.6, false),
		param("ember", "points an ember left on a beacon it does not light is worth, as a share of a spark's", 0, 2, 0.75, false),
		param("rivalPrice", "the price of a kept spark assumed for its rival, as a multiple of its own", 0.5, 2, 1, false),
	}
	return def{name: "cfr", schema: schema,
		desc: "stage-game equilibrium: solves each turn against its strongest rival as a zero-sum game by CFR+ (kept sparks and embers priced in points) and draws its move from the mixed solution",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &cfrBidder{rng: newRNG(seed), price: d.Float("price"), ember: d.Float("ember"), rivalPrice: d.Float("rivalPrice")}
		}}
}
