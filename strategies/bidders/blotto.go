package bidders

// blotto, the equilibrium bidder for crowded tables: every turn it plays
// the whole table's stage game (all seats, embers and kept sparks priced
// in points) as a multi-player Colonel Blotto game over a menu of
// allocations for each seat, and learns an approximate coarse correlated
// equilibrium of it by sampled multiplicative weights (Hedge): each
// iteration every seat draws a move from its current weights, and every
// seat's weights then grow with the payoff, worked out by the engine's
// rules (beacon by beacon, as Resolve), each of its moves would have had against the others'
// draws. No-regret dynamics of this kind converge to the set of coarse
// correlated equilibria (Hart and Mas-Colell, "A simple adaptive procedure
// leading to correlated equilibrium", Econometrica 2000, for regret
// matching; Hedge alike); the multi-player Blotto game itself is studied by
// Boix-Adserà, Edelman and Jayanti, "The Multiplayer Colonel Blotto Game",
// EC 2020 (arXiv 2002.05240), and the long-run adaptive learning of
// discrete Blotto games by Ewerhart and Kaźmierowski (arXiv 2403.17139).
// Its move is drawn from its own time-averaged weights: mixed, not
// deterministic.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// blottoMenu is the number of allocations on each seat's menu.
const blottoMenu = 16

type blottoBidder struct {
	rng   *rand.Rand
	iters int     // Hedge iterations per turn
	eta   float64 // learning rate, per point of payoff
	price float64 // points a kept spark is worth, with one rival
	ember float64 // an ember's worth as a share of a spark's
	deny  float64 // weight of the other seats' points against a seat's own, shared over them
}

// menu fills m with seat p's allocations of its sparks in v: all-in on the
// best one, two and three beacons by value per visible cost (the cost to
// beat the others' embers there), a split by value at three spends, and
// the rest drawn at random (a random spend over random beacons).
func (bb *blottoBidder) menu(v *kindling.View, p int, m *[blottoMenu]kindling.Bid) {
	budget := v.Sparks[p]
	var key [nb]float64
	for i := range key {
		top := 0
		for q := 0; q < v.Seats; q++ {
			if q != p {
				top = max(top, v.Embers[q][i])
			}
		}
		key[i] = float64(v.Values[i]) / float64(max(1, top+1-v.Embers[p][i])+1)
	}
	order := byKey(key)
	k := 0
	for w := 1; w <= 3; w++ {
		m[k] = kindling.Bid{}
		spread(&m[k], order, w, budget)
		k++
	}
	var val [nb]float64
	for i := range val {
		val[i] = float64(v.Values[i])
	}
	for _, f := range []float64{1, 0.7, 0.4} {
		m[k] = kindling.Bid{}
		splitByWeight(&m[k], order, 3, share(f, budget), &val)
		k++
	}
	for ; k < blottoMenu; k++ {
		m[k] = kindling.Bid{}
		n := budget
		if !lastTurn(v) {
			n = max(budget+kindling.Income-kindling.SparkCap, bb.rng.IntN(budget+1))
		}
		w := 1 + bb.rng.IntN(3)
		var rk [nb]float64
		for i := range rk {
			rk[i] = key[i] * bb.rng.ExpFloat64()
		}
		spread(&m[k], byKey(rk), w, n)
	}
}

// payoffs adds to u[k], for every move k of seat p's menu, that move's
// worth against the others' moves in joint: its points, less deny times
// the others' points shared over them, plus kept sparks (up to the carry)
// and embers left at their prices. The worth is a sum over beacons (each
// beacon's outcome, by the rules' single-strongest-seat test, depends only
// on the bids there) plus the kept sparks, so it is worked out beacon by
// beacon, as Resolve would (TestBlottoPayoffsAreResolve checks it).
func (bb *blottoBidder) payoffs(v *kindling.View, joint *[kindling.MaxSeats]kindling.Bid, p int, menu *[blottoMenu]kindling.Bid, price float64, u *[blottoMenu]float64) {
	deny := bb.deny
	if v.Seats == 2 {
		deny = 1
	}
	share := deny / float64(v.Seats-1)
	final := lastTurn(v)
	var top, count [nb]int
	for i := 0; i < nb; i++ {
		for q := 0; q < v.Seats; q++ {
			if q == p {
				continue
			}
			switch st := joint[q][i] + v.Embers[q][i]; {
			case st > top[i]:
				top[i], count[i] = st, 1
			case st == top[i]:
				count[i]++
			}
		}
	}
	for k := range menu {
		w := 0.0
		for i := 0; i < nb; i++ {
			st := menu[k][i] + v.Embers[p][i]
			val := float64(v.Values[i])
			switch {
			case st > top[i] && st > 0:
				w += val
				continue
			case st < top[i] && count[i] == 1:
				w -= share * val // the single strongest other lights it
			}
			if !final {
				w += bb.ember * price * float64(st/2)
			}
		}
		left := v.Sparks[p] - sum(&menu[k])
		if final {
			w += 1e-3 * float64(left)
		} else {
			w += price * float64(min(left, kindling.SparkCap-kindling.Income))
		}
		u[k] = w
	}
}

// draw returns an index drawn with probability proportional to w.
func draw(rng *rand.Rand, w *[blottoMenu]float64) int {
	total := 0.0
	for _, x := range w {
		total += x
	}
	r := rng.Float64() * total
	for k, x := range w {
		if r -= x; r < 0 {
			return k
		}
	}
	return blottoMenu - 1
}

func (bb *blottoBidder) Bid(v *kindling.View, out *kindling.Bid) {
	budget := v.Budget()
	if budget == 0 {
		return
	}
	price := perRival(bb.price, v.Seats)
	var menus [kindling.MaxSeats][blottoMenu]kindling.Bid
	var logw [kindling.MaxSeats][blottoMenu]float64
	var avg [blottoMenu]float64
	for p := 0; p < v.Seats; p++ {
		bb.menu(v, p, &menus[p])
	}
	var probs [kindling.MaxSeats][blottoMenu]float64
	for it := 0; it < bb.iters; it++ {
		// Current strategies from the log-weights, and one draw each.
		var pick [kindling.MaxSeats]int
		for p := 0; p < v.Seats; p++ {
			top := math.Inf(-1)
			for _, x := range logw[p] {
				top = max(top, x)
			}
			for k, x := range logw[p] {
				probs[p][k] = math.Exp(x - top)
			}
			pick[p] = draw(bb.rng, &probs[p])
		}
		total := 0.0
		for _, x := range probs[v.You] {
			total += x
		}
		for k, x := range probs[v.You] {
			avg[k] += x / total
		}
		// Every seat's moves against the others' draws.
		var joint [kindling.MaxSeats]kindling.Bid
		for p := 0; p < v.Seats; p++ {
			joint[p] = menus[p][pick[p]]
		}
		for p := 0; p < v.Seats; p++ {
			var u [blottoMenu]float64
			bb.payoffs(v, &joint, p, &menus[p], price, &u)
			for k := range u {
				logw[p][k] += bb.eta * u[k]
			}
		}
	}
	*out = menus[v.You][draw(bb.rng, &avg)]
	topUp(v, out, mustSpend(v, sum(out)))
	fit(out, budget)
}

func blottoDef() def {
	schema := strategies.Schema{
		param("iters", "sampled multiplicative-weights iterations per turn over the whole table's stage game", 10, 200, 80, true),
		param("eta", "learning rate of the weights, per point of payoff", 0.02, 1, 0.15, false),
		param("price", "points a spark kept for a later turn is worth with one rival (shared out over the rivals at a crowded table)", 0.3, 3, 1.2, false),
		param("ember", "points an ember left on a beacon is worth, as a share of a spark's", 0, 2, 0.4, false),
		param("deny", "weight of the other seats' points against a seat's own, shared over them (2 seats: always 1)", 0, 2, 0.8, false),
	}
	return def{name: "blotto", schema: schema,
		desc: "equilibrium bidder for crowded tables: learns an approximate coarse correlated equilibrium of the whole table's turn (a multi-player Blotto game over a menu of allocations per seat, embers and kept sparks priced) by sampled multiplicative weights, and draws its move from its averaged strategy",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &blottoBidder{rng: newRNG(seed), iters: d.Int("iters"), eta: d.Float("eta"), price: d.Float("price"), ember: d.Float("ember"), deny: d.Float("deny")}
		}}
}
