package bidders

// The simple bidders: each reads little of the board and follows one idea.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// newRNG returns the bidder's own generator, seeded from its seat seed.
func newRNG(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6b696e646c696e67)) }

// noise returns a uniform draw from [-1, 1).
func noise(rng *rand.Rand) float64 { return 2*rng.Float64() - 1 }

// spin returns a whole number drawn uniformly from -j..j.
func spin(rng *rand.Rand, j int) int { return rng.IntN(2*j+1) - j }

// tasteSpread is how far a seat's taste moves its reading of a beacon's
// worth: by a factor in 1 +- tasteSpread, drawn once per match.
const tasteSpread = 0.35

// taste is a seat's own, lasting reading of the beacons: a factor near 1
// per beacon, drawn once per match from the seat's generator. The
// hand-rule bidders and normal weigh each beacon by it, so copies of one
// bidder at a table (seated with different seeds) lean toward different
// beacons all match and do not mirror one another, as the per-turn jitter
// alone, often too small to change a ranking, let them.
type taste [nb]float64

// newTaste draws a taste with rng.
func newTaste(rng *rand.Rand) (t taste) {
	for i := range t {
		t[i] = 1 + tasteSpread*noise(rng)
	}
	return t
}

// --- random -----------------------------------------------------------------

type randomBidder struct {
	rng   *rand.Rand
	spend float64 // mean share of sparks spent
	width int     // beacons bid on
	bias  float64 // exponent on value when picking beacons
}

func (r *randomBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	n := min(b, max(0, int(math.Round(r.spend*float64(b)*(0.5+r.rng.Float64())))))
	// Pick width beacons, weighted by value^bias, without replacement.
	var picked [nb]int
	var taken [nb]bool
	k := 0
	for ; k < r.width; k++ {
		total := 0.0
		for i := 0; i < nb; i++ {
			if !taken[i] {
				total += math.Pow(float64(v.Values[i]), r.bias)
			}
		}
		x := r.rng.Float64() * total
		pick := -1
		for i := 0; i < nb; i++ {
			if taken[i] {
				continue
			}
			pick = i
			x -= math.Pow(float64(v.Values[i]), r.bias)
			if x < 0 {
				break
			}
		}
		taken[pick] = true
		picked[k] = pick
	}
	for ; n > 0; n-- {
		out[picked[r.rng.IntN(k)]]++
	}
	fit(out, b)
}

func randomDef() def {
	schema := strategies.Schema{
		param("spend", "mean share of its sparks spent each turn (the actual share varies from half to one and a half times this)", 0, 1, 0.95, false),
		param("width", "how many beacons it bids on each turn", 1, 5, 4, true),
		param("bias", "how strongly valuable beacons are preferred when picking at random (0: uniform)", 0, 3, 2, false),
	}
	return def{name: "random", schema: schema,
		desc: "spends a random share of its sparks on beacons picked at random, weighted by value",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &randomBidder{rng: newRNG(seed), spend: d.Float("spend"), width: d.Int("width"), bias: d.Float("bias")}
		}}
}

// --- even -------------------------------------------------------------------

type evenBidder struct {
	rng    *rand.Rand
	taste  taste
	jitter float64 // relative noise on each beacon's weight and on the spend
	spend  float64 // share of sparks spent
	width  int     // beacons split over
	weight float64 // 0: equal split, 1: proportional to value
}

func (e *evenBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	n := max(share(min(1, e.spend*(1+e.jitter*noise(e.rng))), b), overflow(v))
	var key [nb]float64
	var want [nb]float64
	for i := range want {
		key[i] = float64(v.Values[i]) * (1 + e.jitter*noise(e.rng)) * e.taste[i]
		want[i] = ((1 - e.weight) + e.weight*float64(v.Values[i])) * (1 + e.jitter*noise(e.rng)) * e.taste[i]
	}
	splitByWeight(out, byKey(key), e.width, n, &want)
	fit(out, b)
}

func evenDef() def {
	schema := strategies.Schema{
		param("spend", "share of its sparks spent each turn (at least what the cap would waste)", 0.1, 1, 0.9, false),
		param("width", "how many of the most valuable beacons the sparks are split over", 1, 5, 4, true),
		param("weight", "how the split follows value: 0 splits equally, 1 in proportion to each beacon's value", 0, 1, 0.7, false),
		param("jitter", "random relative change (up to this share either way) of each beacon's weight, the ranking and the share spent, drawn each turn", 0, 1, 0.15, false),
	}
	return def{name: "even", schema: schema,
		desc: "splits its sparks evenly (or by value) over the most valuable beacons",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &evenBidder{rng: rng, taste: newTaste(rng), jitter: d.Float("jitter"), spend: d.Float("spend"), width: d.Int("width"), weight: d.Float("weight")}
		}}
}

// --- greedy -----------------------------------------------------------------

type greedyBidder struct {
	rng         *rand.Rand
	taste       taste
	jitter      float64 // relative noise on appeal and spend
	targets     int     // beacons bid on
	spend       float64 // share of sparks spent
	emberWeight float64 // how much own embers raise a beacon's appeal
}

func (gb *greedyBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	n := max(share(min(1, gb.spend*(1+gb.jitter*noise(gb.rng))), b), overflow(v))
	if lastTurn(v) {
		n = b
	}
	var key [nb]float64
	for i := range key {
		key[i] = (float64(v.Values[i]) + gb.emberWeight*float64(v.Embers[v.You][i])) * (1 + gb.jitter*noise(gb.rng)) * gb.taste[i]
	}
	spread(out, byKey(key), gb.targets, n) // n/targets each, the rest from the top
	fit(out, b)
}

func greedyDef() def {
	schema := strategies.Schema{
		param("targets", "how many top beacons it goes all-in on", 1, 3, 2, true),
		param("spend", "share of its sparks spent each turn (all of them on the last turn)", 0.2, 1, 0.55, false),
		param("emberWeight", "points of appeal each own ember adds to a beacon when ranking them", 0, 2, 0, false),
		param("jitter", "random relative change (up to this share either way) of each beacon's appeal and of the share spent, drawn each turn", 0, 1, 0.15, false),
	}
	return def{name: "greedy", schema: schema,
		desc: "goes all-in on the most valuable beacons, counting its own embers",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &greedyBidder{rng: rng, taste: newTaste(rng), jitter: d.Float("jitter"), targets: d.Int("targets"), spend: d.Float("spend"), emberWeight: d.Float("emberWeight")}
		}}
}

// --- contrarian -------------------------------------------------------------

type contrarianBidder struct {
	rng    *rand.Rand
	taste  taste
	jitter float64 // relative noise on each beacon's appeal
	avoid  float64 // how much last turn's rival bids repel
	width  int
	spend  float64
}

func (c *contrarianBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	n := max(share(c.spend, b), overflow(v))
	if lastTurn(v) {
		n = b
	}
	var key [nb]float64
	for i := range key {
		crowd := 0
		if v.Last.Turn > 0 {
			for p := 0; p < v.Last.Seats; p++ {
				if p != v.You {
					crowd += v.Last.Bids[p][i]
				}
			}
		}
		key[i] = float64(v.Values[i]) / (1 + c.avoid*float64(crowd)) * (1 + c.jitter*noise(c.rng)) * c.taste[i]
	}
	splitByWeight(out, byKey(key), c.width, n, &key)
	fit(out, b)
}

func contrarianDef() def {
	schema := strategies.Schema{
		param("avoid", "how strongly sparks rivals put on a beacon last turn push it down the list (0: ignore them)", 0, 3, 0.17, false),
		param("width", "how many of the least contested beacons it bids on", 1, 4, 3, true),
		param("spend", "share of its sparks spent each turn (all of them on the last turn)", 0.3, 1, 0.75, false),
		param("jitter", "random relative change (up to this share either way) of each beacon's appeal, drawn each turn", 0, 1, 0.15, false),
	}
	return def{name: "contrarian", schema: schema,
		desc: "goes where the others were not last turn, weighing value against last turn's crowd",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			rng := newRNG(seed)
			return &contrarianBidder{rng: rng, taste: newTaste(rng), jitter: d.Float("jitter"), avoid: d.Float("avoid"), width: d.Int("width"), spend: d.Float("spend")}
		}}
}

// --- easy (house bot) -------------------------------------------------------

type easyBidder struct {
	rng   *rand.Rand
	spend float64
	noise float64
	focus int
}

func (e *easyBidder) Bid(v *kindling.View, out *kindling.Bid) {
	b := v.Budget()
	n := min(b, share(e.spend*(0.6+0.8*e.rng.Float64()), b))
	var key [nb]float64
	for i := range key {
		key[i] = float64(v.Values[i]) + e.noise*(2*e.rng.Float64()-1)
	}
	spread(out, byKey(key), e.focus, n) // n/focus each, the rest from the top
	fit(out, b)
}

func easyDef() def {
	schema := strategies.Schema{
		param("spend", "typical share of its sparks spent (it varies by up to 40% either way)", 0.2, 1, 0.6, false),
		param("noise", "random points added to or taken from each beacon's value before it picks (it misjudges more)", 0, 4, 2, false),
		param("focus", "how many beacons it splits its bid over", 1, 3, 2, true),
	}
	return def{name: "easy", schema: schema,
		desc: "house bot, easy: picks beacons by a noisy reading of their value and ignores embers and rivals",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &easyBidder{rng: newRNG(seed), spend: d.Float("spend"), noise: d.Float("noise"), focus: d.Int("focus")}
		}}
}
