package bidders

// crowd, the bidder for crowded tables: a rival model per seat read off
// the public log (how much of its sparks it spends, over how many beacons,
// how much its embers draw it, how often it comes back to last turn's
// beacons, and its recorded moves by value rank), joint rival moves
// sampled from those models, a handful of candidate allocations (best
// responses to the sampled strengths at three spark prices, all-in plans
// on the best pairs, and one-spark shifts of the best), each played
// against the same samples with the engine's own Resolve, and a move drawn
// among the candidates by a softmax of their mean worth: points won, less
// a share of what the rivals close to it in score win, plus kept sparks
// and embers left. A seat that plays like a house bot is read off its
// shadows instead (crowdshadow.go). Mixed, not deterministic: the samples,
// the shifts and the final draw come from the seat's own generator.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// seatModel is what crowd reads of one rival from the log.
type seatModel struct {
	spend   float64 // running share of its sparks it bids
	width   float64 // running number of beacons it bids on
	embPull float64 // running excess share of its bids on beacons where it held embers
	repeat  float64 // running share of its bid beacons it also bid on the turn before
	seen    int
	moves   [kindling.Turns]move
	n       int
}

// crowdMaxCand bounds the candidates of one turn.
const crowdMaxCand = 24

type crowdBidder struct {
	rng      *rand.Rand
	samples  int     // joint rival moves sampled each turn
	price    float64 // points a kept spark is worth with one rival
	crowdExp float64 // the price falls as (seats-1)^-crowdExp at a crowded table
	ember    float64 // an ember's worth as a share of a spark's, with one rival
	crowdEmb float64 // the ember share falls as (seats-1)^-crowdEmb at a crowded table
	deny     float64 // weight of a close rival's points against its own
	temp     float64 // softmax temperature over candidates, in points, with one rival
	crowdTmp float64 // the temperature grows as (seats-1)^crowdTmp at a crowded table
	memory   float64 // weight the running figures give the latest turn
	// shadowMix scales how often a rival's move is drawn from its shadows
	// (copies of the house bot, crowdshadow.go) by their fit; shadowSharp is
	// how fast a copy's weight falls with its error.
	shadowMix, shadowSharp float64
	shadows                *[kindling.MaxSeats]shadowSet

	// house is a normal bidder kept beside the models: its plan (a best
	// response to per-beacon histograms of the rivals' bids) is one more
	// candidate.
	house  normalBidder
	models [kindling.MaxSeats]seatModel
	prev   kindling.View
	scen   [][kindling.MaxSeats]kindling.Bid
}

// observe folds the previous turn into every rival's model.
func (c *crowdBidder) observe(v *kindling.View) {
	last := &v.Last
	if last.Turn == 0 || c.prev.Turn != last.Turn {
		return
	}
	rank := valueRank(c.prev.Values)
	a := c.memory
	for p := 0; p < last.Seats; p++ {
		if p == v.You || last.Missed[p] {
			continue
		}
		m := &c.models[p]
		bids := last.Bids[p]
		budget := c.prev.Sparks[p]
		spent, width, onEmb, embBeacons, rep, prevWidth := 0, 0, 0, 0, 0, 0
		for i := 0; i < nb; i++ {
			spent += bids[i]
			if bids[i] > 0 {
				width++
			}
			if c.prev.Embers[p][i] > 0 {
				embBeacons++
				onEmb += bids[i]
			}
			if c.prev.Last.Turn > 0 && c.prev.Last.Bids[p][i] > 0 {
				prevWidth++
				if bids[i] > 0 {
					rep++
				}
			}
		}
		share := 0.0
		if budget > 0 {
			share = float64(spent) / float64(budget)
		}
		pull := 0.0
		if spent > 0 && embBeacons > 0 {
			pull = float64(onEmb)/float64(spent) - float64(embBeacons)/nb
		}
		repeat := 0.5
		if prevWidth > 0 {
			repeat = float64(rep) / float64(prevWidth)
		}
		if m.seen == 0 {
			m.spend, m.width, m.embPull, m.repeat = share, float64(max(1, width)), pull, repeat
		} else {
			m.spend = a*share + (1-a)*m.spend
			m.width = a*float64(max(1, width)) + (1-a)*m.width
			m.embPull = a*pull + (1-a)*m.embPull
			m.repeat = a*repeat + (1-a)*m.repeat
		}
		m.seen++
		if m.n < len(m.moves) {
			m.moves[m.n] = move{bids: bids, budget: budget, rank: rank}
			m.n++
		}
	}
}

// sampleSeat draws rival p's move this turn from its model: half the time
// (once two moves are known) a recorded move carried to today's value
// ranks, otherwise a spend, a width and beacons drawn from its running
// figures.
func (c *crowdBidder) sampleSeat(v *kindling.View, p int, rank [nb]int, out *kindling.Bid) {
	m := &c.models[p]
	budget := v.Sparks[p]
	if budget == 0 {
		return
	}
	if c.shadowSample(p, out) {
		return
	}
	if m.n >= 2 && c.rng.IntN(2) == 0 {
		k := m.n - 1 - min(m.n-1, int(c.rng.ExpFloat64()))
		carry(c.rng, &m.moves[k], false, rank, budget, out)
		return
	}
	spendShare, width, pull, repeat := 0.8, 2.5, 0.2, 0.5
	if m.seen > 0 {
		spendShare, width, pull, repeat = m.spend, m.width, m.embPull, m.repeat
	}
	if lastTurn(v) {
		spendShare = max(spendShare, 0.9)
	}
	spend := int(math.Round(float64(budget) * min(1, max(0, spendShare*(0.75+0.5*c.rng.Float64())))))
	if !lastTurn(v) {
		spend = max(spend, budget+kindling.Income-kindling.SparkCap)
	}
	spend = min(spend, budget)
	k := min(nb, max(1, int(math.Round(width+c.rng.Float64()-0.5))))
	var w [nb]float64
	for i := 0; i < nb; i++ {
		w[i] = float64(v.Values[i])
		if v.Embers[p][i] > 0 {
			w[i] *= 1 + 2*max(0, pull)
		}
		if v.Last.Turn > 0 && v.Last.Bids[p][i] > 0 {
			w[i] *= 0.5 + repeat
		}
	}
	var pick [nb]float64
	total := 0.0
	for j := 0; j < k; j++ {
		sum := 0.0
		for i := range w {
			if pick[i] == 0 {
				sum += w[i]
			}
		}
		r := c.rng.Float64() * sum
		for i := range w {
			if pick[i] != 0 {
				continue
			}
			if r -= w[i]; r < 0 || i == nb-1 {
				pick[i] = w[i] * (0.5 + c.rng.ExpFloat64())
				total += pick[i]
				break
			}
		}
	}
	left := spend
	for i := 0; i < nb && total > 0; i++ {
		x := int(math.Round(float64(spend) * pick[i] / total))
		x = min(x, left)
		out[i] = x
		left -= x
	}
	for i := 0; left > 0 && i < nb; i++ {
		if pick[i] > 0 {
			out[i] += left
			left = 0
		}
	}
}

// worth returns what candidate bid is worth to seat v.You against one
// joint rival move: points won, less deny times the points of each rival
// within 10 of its score or ahead (shared by the rivals), plus kept sparks
// (up to the carry) and embers left at their prices.
func (c *crowdBidder) worth(v *kindling.View, bid *kindling.Bid, rivals *[kindling.MaxSeats]kindling.Bid, price float64) float64 {
	st := kindling.State{Seats: v.Seats, Turn: v.Turn, Values: v.Values, Sparks: v.Sparks, Scores: v.Scores, Embers: v.Embers}
	bids := *rivals
	bids[v.You] = *bid
	rec, err := kindling.Resolve(&st, &bids, nil)
	if err != nil {
		return math.Inf(-1)
	}
	me := v.You
	u := float64(rec.Points[me])
	deny := c.deny
	if v.Seats == 2 {
		deny = 1
	}
	for p := 0; p < v.Seats; p++ {
		if p != me && v.Scores[p]+10 >= v.Scores[me] {
			u -= deny * float64(rec.Points[p]) / float64(v.Seats-1)
		}
	}
	left := v.Budget() - sum(bid)
	if lastTurn(v) {
		return u + 1e-3*float64(left)
	}
	u += price * float64(min(left, kindling.SparkCap-kindling.Income))
	ember := c.ember / math.Pow(float64(v.Seats-1), c.crowdEmb)
	for i := 0; i < nb; i++ {
		u += ember * price * float64(rec.Embers[me][i])
	}
	return u
}

func (c *crowdBidder) Bid(v *kindling.View, out *kindling.Bid) {
	c.observe(v)
	c.shadowStep(v)
	defer func() { c.prev = *v }()
	budget := v.Budget()
	if budget == 0 {
		return
	}
	rank := valueRank(v.Values)
	if cap(c.scen) < c.samples {
		c.scen = make([][kindling.MaxSeats]kindling.Bid, c.samples)
	}
	scen := c.scen[:c.samples]
	var cnt [nb][maxStrength + 1]int
	for s := range scen {
		scen[s] = [kindling.MaxSeats]kindling.Bid{}
		var top [nb]int
		for p := 0; p < v.Seats; p++ {
			if p == v.You {
				continue
			}
			c.sampleSeat(v, p, rank, &scen[s][p])
			for i := range top {
				top[i] = max(top[i], scen[s][p][i]+v.Embers[p][i])
			}
		}
		for i := range top {
			cnt[i][min(top[i], maxStrength)]++
		}
	}
	crowded := float64(v.Seats - 1)
	price := c.price / math.Pow(crowded, c.crowdExp)
	temp := c.temp * math.Pow(crowded, c.crowdTmp)
	var cands [crowdMaxCand]kindling.Bid
	nc := 0
	add := func(b kindling.Bid) {
		fit(&b, budget)
		for k := 0; k < nc; k++ {
			if cands[k] == b {
				return
			}
		}
		if nc < len(cands) {
			cands[nc] = b
			nc++
		}
	}
	var hb kindling.Bid
	c.house.Bid(v, &hb)
	add(hb)
	for _, f := range []float64{1, 0.5, 1.6} {
		var b kindling.Bid
		bestResponse(v, &cnt, len(scen), price*f, c.ember/math.Pow(crowded, c.crowdEmb), &b)
		add(b)
	}
	// All-in plans on the best value per strongest visible threat.
	rival := rivalEmbers(v)
	var key [nb]float64
	for i := range key {
		key[i] = float64(v.Values[i]) / float64(visibleCost(v, rival, i)+1)
	}
	order := byKey(key)
	for _, w := range []int{1, 2, 3} {
		var b kindling.Bid
		spread(&b, order, w, budget)
		add(b)
	}
	// One-spark shifts of the first best response.
	base := cands[0]
	for k := 0; k < 10 && nc < len(cands); k++ {
		b := base
		from, to := c.rng.IntN(nb), c.rng.IntN(nb)
		if b[from] > 0 && from != to {
			b[from]--
			b[to]++
		} else if sum(&b) < budget {
			b[to]++
		} else {
			continue
		}
		add(b)
	}
	var mean [crowdMaxCand]float64
	best := math.Inf(-1)
	for k := 0; k < nc; k++ {
		t := 0.0
		for s := range scen {
			t += c.worth(v, &cands[k], &scen[s], price)
		}
		mean[k] = t / float64(len(scen))
		best = max(best, mean[k])
	}
	// Softmax draw among the candidates.
	total := 0.0
	var wts [crowdMaxCand]float64
	for k := 0; k < nc; k++ {
		wts[k] = math.Exp((mean[k] - best) / temp)
		total += wts[k]
	}
	r := c.rng.Float64() * total
	pick := 0
	for ; pick < nc-1; pick++ {
		if r -= wts[pick]; r < 0 {
			break
		}
	}
	*out = cands[pick]
	topUp(v, out, mustSpend(v, sum(out)))
	fit(out, budget)
}

func crowdDef() def {
	schema := strategies.Schema{
		param("samples", "joint rival moves sampled each turn (each candidate is played against all of them)", 16, 256, 96, true),
		param("price", "points a spark kept for a later turn is worth, with one rival", 0.3, 4, 2.2, false),
		param("crowdPrice", "how fast the price of a kept spark falls at a crowded table: it is price/(seats-1)^crowdPrice", 0, 3, 1.69, false),
		param("ember", "points an ember left on a beacon is worth, as a share of a spark's, with one rival", 0, 2, 0.8, false),
		param("crowdEmber", "how fast an ember's share falls at a crowded table: it is ember/(seats-1)^crowdEmber", 0, 3, 1.5, false),
		param("deny", "weight of the points a rival close in score wins against its own, shared over the rivals (2 seats: always 1)", 0, 2, 1.2, false),
		param("temp", "softmax temperature of the final draw among candidates, in points, with one rival (low: nearly always the best)", 0.02, 2, 0.1, false),
		param("crowdTemp", "how fast the temperature grows at a crowded table: it is temp*(seats-1)^crowdTemp", 0, 2, 0.9, false),
		param("memory", "weight the running figures of a rival (spend, width, ember pull, repeats) give its latest turn", 0.1, 1, 0.5, false),
		param("shadowMix", "how often a rival's move is drawn from its shadows (copies of the house bot bidding from its seat), times how well they predicted it so far (0: never)", 0, 1, 0.9, false),
		param("shadowSharp", "how fast a shadow's weight falls with the share of sparks it mispredicted each turn", 0, 20, 4, false),
	}
	return def{name: "crowd", schema: schema,
		desc: "crowded-table bidder: a model per rival seat from the log (spend, width, ember pull, repeats, recorded moves, and shadows: copies of the house bots bidding from that seat, weighed by how well they predicted it), sampled joint rival moves, candidate allocations played against them with the engine's Resolve, and a softmax draw among the candidates by mean worth",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			house := normalBidder{rng: newRNG(seed ^ 0x686f757365), taste: newTaste(rng), thrift: 1, jitter: 0.1, memory: 0.3, sparkValue: 0.75, emberValue: 0.85, prior: 2.7}
			return &crowdBidder{rng: rng, house: house, samples: d.Int("samples"), price: d.Float("price"), crowdExp: d.Float("crowdPrice"), ember: d.Float("ember"),
				crowdEmb: d.Float("crowdEmber"), deny: d.Float("deny"), temp: d.Float("temp"), crowdTmp: d.Float("crowdTemp"), memory: d.Float("memory"),
				shadowMix: d.Float("shadowMix"), shadowSharp: d.Float("shadowSharp")}
		}}
}
