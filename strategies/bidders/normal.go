package bidders

// normal, the house bot: it keeps a decaying histogram of every rival's
// bids per beacon, turns it into the chance that each bid of its own wins,
// and chooses the bids with a small dynamic programme over its sparks,
// weighing points won against sparks saved and embers left behind. Each
// beacon's value is weighed by a random factor near 1 every turn (a
// perturbed best response), so a rival cannot count on its exact move.

import (
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// levels is the number of bid sizes at one beacon: 0..kindling.SparkCap.
const levels = kindling.SparkCap + 1

type normalBidder struct {
	rng        *rand.Rand
	taste      taste
	thrift     float64 // the seat's own lasting factor on sparkValue, 1 to 1+tasteSpread
	jitter     float64 // spread of the random weight on each beacon's value
	memory     float64 // weight old observations keep each turn
	sparkValue float64 // points a saved spark is worth
	emberValue float64 // points an ember left on a beacon is worth
	prior      float64 // weight of the even-split prior

	hist [kindling.MaxSeats][nb][levels]float64
	mass [kindling.MaxSeats]float64
	seen int
}

// observe folds the revealed bids of v.Last into the histograms.
func (n *normalBidder) observe(v *kindling.View) {
	last := &v.Last
	if last.Turn == 0 || last.Turn == n.seen {
		return
	}
	for p := 0; p < last.Seats; p++ {
		if p == v.You {
			continue
		}
		for i := 0; i < nb; i++ {
			h := &n.hist[p][i]
			for k := range h {
				h[k] *= n.memory
			}
			h[min(max(last.Bids[p][i], 0), levels-1)]++
		}
		n.mass[p] = n.mass[p]*n.memory + 1
	}
	n.seen = last.Turn
}

// winChance fills pw[i][x]: the chance that bidding x at beacon i makes
// seat v.You the single strongest there, rivals bidding independently.
func (n *normalBidder) winChance(v *kindling.View, pw *[nb][levels]float64) {
	sumV := 0
	for _, x := range v.Values {
		sumV += x
	}
	me := v.Embers[v.You]
	for i := 0; i < nb; i++ {
		for x := range pw[i] {
			pw[i][x] = 1
		}
	}
	for p := 0; p < v.Seats; p++ {
		if p == v.You {
			continue
		}
		sp := v.Sparks[p]
		for i := 0; i < nb; i++ {
			// The prior: bids spread evenly over 0..2m, m the seat's even
			// split of its sparks by value.
			m := float64(sp) * float64(v.Values[i]) / float64(sumV)
			top := int(2*m + 0.5)
			var cdf [levels]float64
			acc := 0.0
			for k := 0; k < levels; k++ {
				acc += n.hist[p][i][k]
				pri := 1.0
				if k < top {
					pri = float64(k+1) / float64(top+1)
				}
				cdf[k] = (acc + n.prior*pri) / (n.mass[p] + n.prior)
				if k >= sp {
					cdf[k] = 1 // it cannot bid more than it holds
				}
			}
			for x := 0; x < levels; x++ {
				// Win needs the rival's strength below ours:
				// embers[p]+bid <= me+x-1.
				thr := me[i] + x - 1 - v.Embers[p][i]
				switch {
				case thr < 0:
					pw[i][x] = 0
				case thr < levels:
					pw[i][x] *= cdf[thr]
				}
			}
		}
	}
}

func (n *normalBidder) Bid(v *kindling.View, out *kindling.Bid) {
	n.observe(v)
	budget := v.Budget()
	var pw [nb][levels]float64
	n.winChance(v, &pw)
	final := lastTurn(v)
	me := v.Embers[v.You]
	// A perturbed best response: each beacon's value is weighed by a random
	// factor in 1 +- jitter, so near-equal plans are chosen at random.
	var val [nb]float64
	for i := range val {
		val[i] = float64(v.Values[i]) * (1 + n.jitter*(2*n.rng.Float64()-1)) * n.taste[i]
	}

	var worth [nb][levels]float64
	for i := range worth {
		for x := 0; x <= budget; x++ {
			w := pw[i][x]
			// Each bid's worth is also misjudged by its own draw, so that
			// near-equal plans are picked at random, not always the same.
			worth[i][x] = val[i] * w
			if !final {
				worth[i][x] += n.emberValue * (1 - w) * float64((me[i]+x)/2)
			}
		}
	}
	keep := func(saved int) float64 {
		if final {
			return 1e-3 * float64(saved) // sparks left only break ties
		}
		return n.sparkValue * n.thrift * float64(min(saved, kindling.SparkCap-kindling.Income))
	}
	knapsack(&worth, budget, keep, knapTies{step: 0, end: 1e-12}, out)
	fit(out, budget)
}

func normalDef() def {
	schema := strategies.Schema{
		param("memory", "share of its weight an observed rival bid keeps each later turn (0: only the last turn counts)", 0, 1, 0.3, false),
		param("sparkValue", "points a spark saved for later turns is worth (only the sparks the cap lets through count)", 0, 1.5, 0.75, false),
		param("emberValue", "points each ember left on a lost beacon is worth", 0, 1, 0.85, false),
		param("prior", "weight of the guess that rivals split their sparks by value, against their observed bids", 0.1, 3, 2.7, false),
		param("jitter", "how much each beacon's value is randomly weighed up or down (as a share) before it picks its bids, so its choice among near-equal plans varies", 0, 0.5, 0.1, false),
	}
	return def{name: "normal", schema: schema,
		desc: "house bot, normal: learns each rival's bid distribution per beacon and bids the spread that maximises expected points, saved sparks and embers",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &normalBidder{rng: rng, taste: newTaste(rng), thrift: 1 + tasteSpread*rng.Float64(), jitter: d.Float("jitter"), memory: d.Float("memory"), sparkValue: d.Float("sparkValue"), emberValue: d.Float("emberValue"), prior: d.Float("prior")}
		}}
}
