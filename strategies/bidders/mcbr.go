package bidders

// mcbr, the Monte Carlo best responder: the reference opponent of issue 24,
// written from the Kindling guide's rules alone. It models each rival from
// the bids revealed so far plus a prior (the rival spends a share of its
// sparks and splits it by value), samples the rivals' bids from those
// models, and bids the allocation with the best expected points plus the
// worth of the sparks it keeps and the embers it leaves (bestResponse: the
// expectation is a sum over beacons, so a knapsack over the sampled
// strength tallies finds the best allocation exactly).

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// shareLog is what mcbr knows of one rival: the share of its sparks it
// bid on the beacon of each value rank, on every revealed turn.
type shareLog struct {
	shares [][nb]float64
	buf    [kindling.Turns][nb]float64
}

type mcbrBidder struct {
	rng     *rand.Rand
	prior   float64 // pseudo-turns of the value-split prior
	samples int
	price   float64 // points a kept spark is worth
	ember   float64 // an ember's worth as a share of a spark's
	log     [kindling.MaxSeats]shareLog
	prev    kindling.View
}

// observe records the shares of v.Last against the previous view.
func (m *mcbrBidder) observe(v *kindling.View) {
	if v.Last.Turn == 0 || m.prev.Turn != v.Last.Turn {
		return
	}
	rank := valueRank(m.prev.Values)
	for p := 0; p < v.Last.Seats; p++ {
		if p == v.You || v.Last.Missed[p] {
			continue
		}
		lg := &m.log[p]
		if lg.shares == nil {
			lg.shares = lg.buf[:0]
		}
		var sh [nb]float64
		if b := m.prev.Sparks[p]; b > 0 {
			for r, i := range rank {
				sh[r] = float64(v.Last.Bids[p][i]) / float64(b)
			}
		}
		if len(lg.shares) < kindling.Turns {
			lg.shares = append(lg.shares, sh)
		}
	}
}

// sampleRival draws rival p's bid this turn: a recorded turn's shares by
// value rank (the latest likelier), or the prior (a spend of 50-100% of its
// sparks split by value with noise), scaled to its sparks.
func (m *mcbrBidder) sampleRival(v *kindling.View, p int, rank [nb]int, out *kindling.Bid) {
	budget := v.Sparks[p]
	lg := &m.log[p]
	n := len(lg.shares)
	var want [nb]float64
	if n == 0 || m.rng.Float64()*(m.prior+float64(n)) < m.prior {
		spend := float64(budget) * (0.5 + 0.5*m.rng.Float64())
		total := 0.0
		for i := 0; i < nb; i++ {
			want[i] = float64(v.Values[i]) * m.rng.ExpFloat64()
			total += want[i]
		}
		for i := range want {
			want[i] *= spend / total
		}
	} else {
		k := n - 1
		for k > 0 && m.rng.IntN(2) == 0 {
			k--
		}
		for r, i := range rank {
			want[i] = lg.shares[k][r] * float64(budget)
		}
	}
	left := budget
	for i := 0; i < nb; i++ {
		x := int(want[i])
		if m.rng.Float64() < want[i]-math.Floor(want[i]) {
			x++
		}
		x = min(x, left)
		out[i] = x
		left -= x
	}
}

func (m *mcbrBidder) Bid(v *kindling.View, out *kindling.Bid) {
	m.observe(v)
	defer func() { m.prev = *v }()
	if v.Budget() == 0 {
		return
	}
	rank := valueRank(v.Values)
	var cnt [nb][maxStrength + 1]int
	for s := 0; s < m.samples; s++ {
		var top [nb]int
		for p := 0; p < v.Seats; p++ {
			if p == v.You {
				continue
			}
			var bid kindling.Bid
			m.sampleRival(v, p, rank, &bid)
			for i := range top {
				top[i] = max(top[i], bid[i]+v.Embers[p][i])
			}
		}
		for i := range top {
			cnt[i][min(top[i], maxStrength)]++
		}
	}
	bestResponse(v, &cnt, m.samples, m.price, m.ember, out)
	fit(out, v.Budget())
}

func mcbrDef() def {
	schema := strategies.Schema{
		param("prior", "weight, in turns, of the prior (rivals spend half to all their sparks, split by value) against each rival's revealed turns", 0.5, 6, 2, false),
		param("samples", "rival moves sampled each turn", 16, 256, 64, true),
		param("price", "points a spark kept for a later turn is worth", 0.3, 3, 1, false),
		param("ember", "points an ember left on a beacon it does not light is worth, as a share of a spark's", 0, 2, 0.5, false),
	}
	return def{name: "mcbr", schema: schema,
		desc: "Monte Carlo best responder (reference opponent): models each rival's split of its sparks by value rank from its revealed bids plus a prior, samples their bids and bids the allocation with the best expected points, kept sparks and embers",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &mcbrBidder{rng: newRNG(seed), prior: d.Float("prior"), samples: d.Int("samples"), price: d.Float("price"), ember: d.Float("ember")}
		}}
}
