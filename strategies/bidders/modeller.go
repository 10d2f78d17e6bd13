package bidders

// modeller: it keeps every rival's revealed bids from the public log,
// draws a set of scenarios for this turn (a past move of each rival,
// carried over to today's beacons and scaled to its sparks, or a move of
// the lotto equilibrium while the log is short), and bids the best
// response to that sample: the spread of its sparks that maximises its
// expected points, embers and kept sparks against it.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// maxStrength bounds the strengths the modeller tallies (bids plus embers).
const maxStrength = 2 * levels

// move is one revealed move of a seat and what it held when it made it.
type move struct {
	bids   kindling.Bid
	budget int     // sparks it held
	rank   [nb]int // beacons by value that turn, most valuable first
}

// rivalLog is what the modeller knows of one rival.
type rivalLog struct {
	moves []move
	// errSame and errRank are running errors of two ways of carrying a past
	// move to a new turn: beacon by beacon, or by the beacons' value rank.
	errSame, errRank float64
}

type modellerBidder struct {
	rng     *rand.Rand
	memory  float64 // weight of a move one turn older, relative
	prior   float64 // pseudo-moves of the equilibrium prior
	samples int     // scenarios per turn
	price   float64 // points a kept spark is worth
	ember   float64 // worth of an ember left behind, as a share of price

	log   [kindling.MaxSeats]rivalLog
	prev  kindling.View // the view of the previous turn (Turn 0: none)
	store [kindling.MaxSeats][kindling.Turns]move
}

// valueRank returns the beacons ordered by value, most valuable first,
// ties by id.
func valueRank(values [nb]int) [nb]int {
	var key [nb]float64
	for i := range key {
		key[i] = float64(values[i])
	}
	return byKey(key)
}

// carry maps past move m to a turn with the given rank and budget: by
// beacon (same) or by value rank, each bid scaled by the change of sparks
// and rounded at random, capped by the budget.
func carry(rng *rand.Rand, m *move, same bool, rank [nb]int, budget int, out *kindling.Bid) {
	scale := 1.0
	if m.budget > 0 {
		scale = float64(budget) / float64(m.budget)
	}
	left := budget
	for r := 0; r < nb; r++ {
		from, to := r, r
		if !same {
			from, to = m.rank[r], rank[r]
		}
		x := float64(m.bids[from]) * scale
		b := int(x)
		if rng.Float64() < x-float64(b) {
			b++
		}
		b = min(b, left)
		out[to] = b
		left -= b
	}
}

// observe records the moves of v.Last, made from the previous view.
func (m *modellerBidder) observe(v *kindling.View) {
	last := &v.Last
	if last.Turn == 0 || m.prev.Turn != last.Turn {
		return
	}
	rank := valueRank(m.prev.Values)
	for p := 0; p < last.Seats; p++ {
		if p == v.You || last.Missed[p] {
			continue
		}
		lg := &m.log[p]
		mv := move{bids: last.Bids[p], budget: m.prev.Sparks[p], rank: rank}
		if n := len(lg.moves); n > 0 {
			// Score both ways of carrying the latest move against this one.
			prevMove := &lg.moves[n-1]
			var same, byRank kindling.Bid
			carryMean(prevMove, true, rank, mv.budget, &same)
			carryMean(prevMove, false, rank, mv.budget, &byRank)
			lg.errSame = 0.7*lg.errSame + l1(same, mv.bids)
			lg.errRank = 0.7*lg.errRank + l1(byRank, mv.bids)
		}
		if len(lg.moves) < cap(m.store[p]) {
			if lg.moves == nil {
				lg.moves = m.store[p][:0]
			}
			lg.moves = append(lg.moves, mv)
		}
	}
}

// carryMean is carry without the random rounding (rounded to nearest).
func carryMean(m *move, same bool, rank [nb]int, budget int, out *kindling.Bid) {
	scale := 1.0
	if m.budget > 0 {
		scale = float64(budget) / float64(m.budget)
	}
	for r := 0; r < nb; r++ {
		from, to := r, r
		if !same {
			from, to = m.rank[r], rank[r]
		}
		out[to] = int(math.Round(float64(m.bids[from]) * scale))
	}
}

func l1(a, b kindling.Bid) float64 {
	d := 0
	for i := range a {
		d += max(a[i]-b[i], b[i]-a[i])
	}
	return float64(d)
}

// scenario draws one move of rival p for this turn into out.
func (m *modellerBidder) scenario(v *kindling.View, p int, rank [nb]int, eq *situation, eqLevels [2]int, out *kindling.Bid) {
	lg := &m.log[p]
	n := len(lg.moves)
	budget := v.Sparks[p]
	// Weights: the prior, then each recorded move by age.
	total := m.prior
	w := 1.0
	for k := n - 1; k >= 0; k-- {
		total += w
		w *= m.memory
	}
	r := m.rng.Float64() * total
	if r < m.prior || n == 0 {
		*out = kindling.Bid{}
		eq.draw(m.rng, eqLevels[0], eqLevels[1], 0, out)
		return
	}
	r -= m.prior
	w = 1.0
	k := n - 1
	for ; k > 0; k-- {
		if r -= w; r < 0 {
			break
		}
		w *= m.memory
	}
	same := m.rng.Float64()*(lg.errSame+lg.errRank+2) < lg.errRank+1
	carry(m.rng, &lg.moves[k], same, rank, budget, out)
}

func (m *modellerBidder) Bid(v *kindling.View, out *kindling.Bid) {
	m.observe(v)
	defer func() { m.prev = *v }()
	budget := v.Budget()
	if budget == 0 {
		return
	}
	rank := valueRank(v.Values)
	// Strength tallies over the scenarios: cnt[i][s] scenarios in which the
	// strongest rival reaches strength s at beacon i.
	var cnt [nb][maxStrength + 1]int
	var eq [kindling.MaxSeats]situation
	var eqLevels [kindling.MaxSeats][2]int
	for p := 0; p < v.Seats; p++ {
		if p == v.You || (len(m.log[p].moves) > 0 && m.prior == 0) {
			continue
		}
		eq[p] = situationOf(v, p)
		want := level(m.price)
		floorA := 0.0
		if lastTurn(v) {
			want = levelLo
		} else {
			floorA = float64(max(0, v.Sparks[p]+kindling.Income-kindling.SparkCap))
		}
		la, lb := eq[p].prices(want, want, floorA, 0)
		eqLevels[p] = [2]int{la, lb}
	}
	for s := 0; s < m.samples; s++ {
		var top [nb]int
		for p := 0; p < v.Seats; p++ {
			if p == v.You {
				continue
			}
			var bid kindling.Bid
			m.scenario(v, p, rank, &eq[p], eqLevels[p], &bid)
			for i := 0; i < nb; i++ {
				top[i] = max(top[i], bid[i]+v.Embers[p][i])
			}
		}
		for i := 0; i < nb; i++ {
			cnt[i][min(top[i], maxStrength)]++
		}
	}
	bestResponse(v, &cnt, m.samples, m.price, m.ember, out)
}

// bestResponse bids the spread of the seat's sparks that maximises, against
// rival strengths tallied in cnt over n scenarios, the expected points won
// (less a share of the points a rival wins: all of them with one rival),
// plus ember*price for each ember left on a beacon it does not light, plus
// price for each spark kept that the cap lets through (on the last turn a
// kept spark only breaks ties).
func bestResponse(v *kindling.View, cnt *[nb][maxStrength + 1]int, n int, price, ember float64, out *kindling.Bid) {
	budget := v.Budget()
	final := lastTurn(v)
	deny := 1 / float64(max(1, v.Seats-1))
	me := v.Embers[v.You]
	var worth [nb][levels]float64
	for i := 0; i < nb; i++ {
		// below[s]: scenarios with rival strength below s.
		var below [maxStrength + 2]int
		for s := 0; s <= maxStrength; s++ {
			below[s+1] = below[s] + cnt[i][s]
		}
		val := float64(v.Values[i])
		for x := 0; x <= budget; x++ {
			st := min(x+me[i], maxStrength)
			win, lose := 0.0, float64(n-below[st+1])/float64(n)
			if st > 0 {
				win = float64(below[st]) / float64(n)
			}
			w := val * (win - deny*lose)
			if !final {
				w += ember * price * float64(st/2) * (1 - win)
			}
			worth[i][x] = w
		}
	}
	keep := func(left int) float64 {
		if final {
			return 1e-3 * float64(left)
		}
		return price * float64(min(left, kindling.SparkCap-kindling.Income))
	}
	knapsack(&worth, budget, keep, out)
}

// knapsack sets out to the bids (summing to at most budget) that maximise
// the sum of worth[i][out[i]] plus keep(sparks left); ties go to fewer
// sparks spent.
func knapsack(worth *[nb][levels]float64, budget int, keep func(int) float64, out *kindling.Bid) {
	const none = -1e18
	var dp, next [levels]float64
	var choice [nb][levels]int8
	for u := range dp {
		dp[u] = none
	}
	dp[0] = 0
	for i := 0; i < nb; i++ {
		for u := range next {
			next[u] = none
		}
		for u := 0; u <= budget; u++ {
			if dp[u] == none {
				continue
			}
			for x := 0; u+x <= budget; x++ {
				if t := dp[u] + worth[i][x]; t > next[u+x]+1e-12 {
					next[u+x] = t
					choice[i][u+x] = int8(x)
				}
			}
		}
		dp = next
	}
	best, bestU := none, 0
	for u := 0; u <= budget; u++ {
		if dp[u] == none {
			continue
		}
		if t := dp[u] + keep(budget-u); t > best+1e-9 {
			best, bestU = t, u
		}
	}
	for i, u := nb-1, bestU; i >= 0; i-- {
		x := int(choice[i][u])
		out[i] = x
		u -= x
	}
}

func modellerDef() def {
	schema := strategies.Schema{
		param("memory", "weight of a rival's move one turn older when drawing its likely moves (1: every past move alike)", 0.1, 1, 0.6, false),
		param("prior", "weight, in moves, of the lotto equilibrium among a rival's likely moves (it fades as the log grows)", 0, 4, 1, false),
		param("samples", "scenarios of the rivals' moves drawn each turn (fewer: a noisier, more varied response)", 4, 48, 16, true),
		param("price", "points a spark kept for a later turn is worth", 0.3, 3, 1.6, false),
		param("ember", "points an ember left on a beacon it does not light is worth, as a share of a spark's", 0, 2, 1, false),
	}
	return def{name: "modeller", schema: schema,
		desc: "rival modeller: draws likely moves of every rival from its revealed bids (or the lotto equilibrium while its log is short) and bids the best response to them",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &modellerBidder{rng: newRNG(seed), memory: d.Float("memory"), prior: d.Float("prior"),
				samples: d.Int("samples"), price: d.Float("price"), ember: d.Float("ember")}
		}}
}
