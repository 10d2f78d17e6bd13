package bidders

// The aimed bidders: each prices beacons against what rivals can bring
// (their embers, their sparks, or a model of their bids) and buys where the
// price is right.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// topUp adds extra sparks to out: on the beacons already bid on, most
// valuable first, or on the most valuable beacons when out is empty.
func topUp(v *kindling.View, out *kindling.Bid, extra int) {
	if extra <= 0 {
		return
	}
	var key [nb]float64
	chosen := 0
	for i := range key {
		key[i] = float64(v.Values[i])
		if out[i] > 0 {
			key[i] += 100
			chosen++
		}
	}
	spread(out, byKey(key), max(1, chosen), extra)
}

// visibleCost is what seat v.You must bid at beacon i to beat every rival's
// embers there if the rivals bid nothing (at least 1).
func visibleCost(v *kindling.View, rival [nb]int, i int) int {
	return max(1, rival[i]+1-v.Embers[v.You][i])
}

// --- sniper -----------------------------------------------------------------

type sniperBidder struct {
	rng         *rand.Rand
	jitter      int // most sparks the margin moves by at random at each beacon
	margin      int
	threatShare float64
	minValue    int
	reserve     int
}

func (s *sniperBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	avail := max(0, b-s.reserve)
	if lastTurn(v) {
		avail = b
	}
	var cost [nb]int
	var val [nb]float64
	for i := 0; i < nb; i++ {
		threat := 0
		for p := 0; p < v.Seats; p++ {
			if p != v.You {
				threat = max(threat, v.Embers[p][i]+int(s.threatShare*float64(v.Sparks[p])))
			}
		}
		cost[i] = max(0, threat+1+s.margin+spin(s.rng, s.jitter)-v.Embers[v.You][i])
		val[i] = float64(v.Values[i])
		if v.Values[i] < s.minValue {
			cost[i] = -1
		}
	}
	mask, spent := bestSet(val, cost, avail)
	buy(out, mask, cost)
	topUp(v, out, mustSpend(v, spent))
	fit(out, b)
}

func sniperDef() def {
	schema := strategies.Schema{
		param("margin", "sparks bid above the strongest visible threat at a beacon", 0, 4, 1, true),
		param("threatShare", "share of a rival's sparks assumed to land on any one beacon, on top of its embers there", 0, 1, 0, false),
		param("minValue", "beacons worth less than this are never targeted", 1, 6, 3, true),
		param("reserve", "sparks kept back every turn but the last", 0, 6, 2, true),
		param("jitter", "most sparks the margin is moved up or down by at random at each beacon, each turn (0: always the margin)", 0, 3, 1, true),
	}
	return def{name: "sniper", schema: schema,
		desc: "outbids the strongest visible threat at each beacon (embers plus a share of sparks) by a margin, buying the most value it can afford",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &sniperBidder{rng: newRNG(seed), jitter: d.Int("jitter"), margin: d.Int("margin"), threatShare: d.Float("threatShare"), minValue: d.Int("minValue"), reserve: d.Int("reserve")}
		}}
}

// --- farmer -----------------------------------------------------------------

type farmerBidder struct {
	rng    *rand.Rand
	taste  taste
	jitter int     // most sparks a sowing varies by either way
	fields int     // beacons farmed
	sow    int     // sparks sown per field when not striking
	strike float64 // share of a rival's sparks assumed against a strike
}

func (f *farmerBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	me := v.Embers[v.You]
	var key [nb]float64
	for i := range key {
		key[i] = (float64(v.Values[i]) + float64(me[i])) * f.taste[i]
	}
	order := byKey(key)
	n := max(1, min(nb, f.fields))
	left := b
	for k := 0; k < n && left > 0; k++ {
		i := order[k]
		threat := 0
		for p := 0; p < v.Seats; p++ {
			if p != v.You {
				threat = max(threat, v.Embers[p][i]+share(f.strike, v.Sparks[p]))
			}
		}
		if need := max(0, threat+1-me[i]); need <= left && (me[i] > 0 || lastTurn(v)) {
			out[i] = need // the embers make this field cheap: light it
		} else {
			// sow: a losing bid leaves half as embers
			out[i] = min(max(0, int(math.Round(float64(f.sow)*f.taste[i]))+spin(f.rng, f.jitter)), left)
		}
		left -= out[i]
	}
	topUp(v, out, mustSpend(v, b-left))
	fit(out, b)
}

func farmerDef() def {
	schema := strategies.Schema{
		param("fields", "how many beacons it keeps farming (the most valuable, counting its own embers)", 1, 3, 3, true),
		param("sow", "sparks sown on a field each turn it does not strike there", 1, 5, 2, true),
		param("strike", "share of a rival's sparks assumed to defend a field when deciding to light it", 0, 1, 0.2, false),
		param("jitter", "most sparks a sowing is raised or lowered by at random (0: always sow exactly)", 0, 2, 1, true),
	}
	return def{name: "farmer", schema: schema,
		desc: "ember farmer: sows small bids on the same beacons so embers pile up, then lights them cheaply",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &farmerBidder{rng: rng, taste: newTaste(rng), jitter: d.Int("jitter"), fields: d.Int("fields"), sow: d.Int("sow"), strike: d.Float("strike")}
		}}
}

// --- saver ------------------------------------------------------------------

type saverBidder struct {
	rng      *rand.Rand
	taste    taste
	jitter   int // most sparks the strike threshold moves by either way, each turn (and a tenth of noise per unit on the ranking)
	strikeAt int // sparks held before it strikes
	targets  int // beacons struck at once
	trickle  int // sparks spent while saving
}

func (s *saverBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	rival := rivalEmbers(v)
	var key [nb]float64
	for i := range key {
		key[i] = float64(v.Values[i]) / float64(visibleCost(v, rival, i)) * (1 + 0.1*float64(s.jitter)*noise(s.rng)) * s.taste[i]
	}
	order := byKey(key)
	if b < s.strikeAt+spin(s.rng, s.jitter) && !lastTurn(v) {
		out[order[0]] = max(min(s.trickle, b), overflow(v))
		fit(out, b)
		return
	}
	var val [nb]float64
	for i := range val {
		val[i] = float64(v.Values[i])
	}
	splitByWeight(out, order, s.targets, b, &val)
	fit(out, b)
}

func saverDef() def {
	schema := strategies.Schema{
		param("strikeAt", "sparks it banks before striking with all of them (it always strikes on the last turn)", 5, 12, 8, true),
		param("targets", "how many beacons a strike is split over, by value", 1, 3, 3, true),
		param("trickle", "sparks spent while saving, on the beacon with the most value per visible cost", 0, 3, 2, true),
		param("jitter", "most sparks the strike threshold is moved up or down by at random each turn; each beacon's value per visible cost is also judged up to 10% off per unit (0: fixed)", 0, 3, 1, true),
	}
	return def{name: "saver", schema: schema,
		desc: "banks sparks toward the cap, then strikes with everything on the best beacons",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &saverBidder{rng: rng, taste: newTaste(rng), jitter: d.Int("jitter"), strikeAt: d.Int("strikeAt"), targets: d.Int("targets"), trickle: d.Int("trickle")}
		}}
}

// --- growth -----------------------------------------------------------------

type growthBidder struct {
	rng       *rand.Rand
	taste     taste
	jitter    int     // most sparks the overbid (or the idle spend) moves by at random
	minGrowth int     // points above base before a beacon is hunted
	overbid   int     // sparks above the visible threat
	idle      float64 // share of sparks spent when nothing has grown
}

func (gh *growthBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	base := kindling.BaseValues()
	rival := rivalEmbers(v)
	var key [nb]float64
	for i := range key {
		key[i] = float64(v.Values[i]-base[i])*10 + float64(v.Values[i])*gh.taste[i]
	}
	order := byKey(key)
	left := b
	for _, i := range order {
		if v.Values[i]-base[i] < gh.minGrowth {
			break
		}
		need := max(0, rival[i]+1+gh.overbid+spin(gh.rng, gh.jitter)-v.Embers[v.You][i])
		if need <= left {
			out[i] = max(need, 1)
			left -= out[i]
		}
	}
	spent := b - left
	if spent == 0 {
		// Nothing has grown: keep pace on the best value per visible cost.
		var k2 [nb]float64
		for i := range k2 {
			k2[i] = float64(v.Values[i]) / float64(visibleCost(v, rival, i)) * gh.taste[i]
		}
		o2 := byKey(k2)
		n := min(b, max(0, share(gh.idle, b)+spin(gh.rng, gh.jitter)))
		spread(out, o2, 2, n)
		spent = n
	}
	topUp(v, out, mustSpend(v, spent))
	fit(out, b)
}

func growthDef() def {
	schema := strategies.Schema{
		param("minGrowth", "points a beacon must have grown above its base before it is hunted", 0, 4, 4, true),
		param("overbid", "sparks bid above the best rival embers at a hunted beacon", 0, 4, 3, true),
		param("idle", "share of its sparks spent on the best value per visible cost when nothing has grown", 0, 1, 0.9, false),
		param("jitter", "most sparks moved up or down at random: the overbid at each hunted beacon, or the spend when nothing has grown (0: none)", 0, 3, 1, true),
	}
	return def{name: "growth", schema: schema,
		desc: "growth hunter: targets beacons that went unlit and grew above their base",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &growthBidder{rng: rng, taste: newTaste(rng), jitter: d.Int("jitter"), minGrowth: d.Int("minGrowth"), overbid: d.Int("overbid"), idle: d.Float("idle")}
		}}
}

// --- dump -------------------------------------------------------------------

type dumpBidder struct {
	rng       *rand.Rand
	taste     taste
	jitter    float64 // relative noise on value per cost and on the early spend
	dumpTurns int     // final turns on which it spends everything
	early     float64 // share of sparks spent before that
	width     int     // beacons a dump is split over
}

func (d *dumpBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	rival := rivalEmbers(v)
	var cost [nb]int
	var val [nb]float64
	for i := range cost {
		cost[i] = visibleCost(v, rival, i)
		val[i] = float64(v.Values[i]) * (1 + d.jitter*noise(d.rng)) * d.taste[i]
	}
	if v.Turn > v.Turns-d.dumpTurns {
		var key [nb]float64
		for i := range key {
			key[i] = val[i] / float64(cost[i])
		}
		splitByWeight(out, byKey(key), d.width, b, &val)
		fit(out, b)
		return
	}
	n := max(share(min(1, d.early*(1+d.jitter*noise(d.rng))), b), overflow(v))
	mask, spent := bestSet(val, cost, n)
	buy(out, mask, cost)
	topUp(v, out, n-spent)
	fit(out, b)
}

func dumpDef() def {
	schema := strategies.Schema{
		param("dumpTurns", "how many final turns it empties its bank on", 1, 3, 3, true),
		param("early", "share of its sparks spent before the dump, on cheap uncontested beacons", 0, 0.8, 0.45, false),
		param("width", "how many beacons a dump is split over, by value per visible cost", 1, 5, 3, true),
		param("jitter", "random relative change (up to this share either way) of each beacon's value as it judges it and of the early spend, drawn each turn", 0, 1, 0.15, false),
	}
	return def{name: "dump", schema: schema,
		desc: "last-turn dump: plays small and cheap early, then empties its bank on the final turns",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &dumpBidder{rng: rng, taste: newTaste(rng), jitter: d.Float("jitter"), dumpTurns: d.Int("dumpTurns"), early: d.Float("early"), width: d.Int("width")}
		}}
}

// --- bestresp ---------------------------------------------------------------

type bestRespBidder struct {
	rng     *rand.Rand
	jitter  int // most sparks the safety moves by at random at each beacon
	model   rivalModel
	safety  int
	stretch float64
}

func (br *bestRespBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	br.model.observe(v)
	cost := costToBeat(v, br.model.threat(v), br.safety)
	for i := range cost {
		cost[i] = max(0, cost[i]+spin(br.rng, br.jitter))
	}
	var val [nb]float64
	for i := range val {
		val[i] = float64(v.Values[i])
	}
	mask, spent := bestSet(val, cost, b)
	buy(out, mask, cost)
	// share <= b-spent, so on the last turn this spends all that is left.
	topUp(v, out, max(share(br.stretch, b-spent), mustSpend(v, spent)))
	fit(out, b)
}

func bestRespDef() def {
	schema := strategies.Schema{
		param("alpha", "weight of the latest revealed bids in each rival's running average (1: only last turn counts)", 0.05, 1, 0.25, false),
		param("safety", "sparks bid above each rival's predicted strength", 0, 3, 0, true),
		param("stretch", "share of the sparks left after buying that is added to the bought beacons as insurance", 0, 1, 0.3, false),
		param("jitter", "most sparks the safety is moved up or down by at random at each beacon, each turn (0: always the safety)", 0, 3, 1, true),
	}
	return def{name: "bestresp", schema: schema,
		desc: "best response: predicts each rival's bids from a running average and buys the most value its sparks can win",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &bestRespBidder{rng: newRNG(seed), jitter: d.Int("jitter"), model: rivalModel{alpha: d.Float("alpha")}, safety: d.Int("safety"), stretch: d.Float("stretch")}
		}}
}
