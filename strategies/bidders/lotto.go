package bidders

// lotto, the equilibrium bidder: it plays the General Lotto relaxation of
// each turn (see internal/lotto), whose equilibria were solved offline by
// regret matching and stored in a table. A spark is priced in points; the
// bidder finds the prices at which its own and its strongest rival's
// expected spends fit their sparks, reads each beacon's equilibrium bid
// distribution off the table and draws its bids from them with its seeded
// generator.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders/internal/lotto"
)

// Price levels: a spark price lambda (points per spark) is level
// L = log(lambda/PriceMin)/log(PriceRatio); beacon i's contest then sits
// at table level L - lv[i], lv[i] the level of the beacon's value.
const (
	levelLo = 0
	levelHi = lotto.Prices - 1 + 10 // the top of the grid even for a beacon worth 9
)

// level returns the price level of lambda points per spark.
func level(lambda float64) int {
	return int(math.Round(math.Log(lambda/lotto.PriceMin) / math.Log(lotto.PriceRatio)))
}

// valueLevel[v] is the level of value v (the level of lambda = v is
// level(v) - level(1)... computed as log_PriceRatio v, rounded).
var valueLevel = func() (lv [kindling.ValueCap + 1]int) {
	for v := 1; v <= kindling.ValueCap; v++ {
		lv[v] = int(math.Round(math.Log(float64(v)) / math.Log(lotto.PriceRatio)))
	}
	return lv
}()

// situation is one seat's five contests of a turn as the table sees them:
// that seat against, at each beacon, the rival with the most embers there,
// holding the sparks of the richest rival.
type situation struct {
	table       *lotto.Table
	lead        [nb]int // own embers minus the strongest rival's
	lv          [nb]int // value level of each beacon
	own         [nb]int // own embers
	rivalEmb    [nb]int // strongest rival embers
	budget      int     // own sparks
	rivalBudget int     // the richest rival's sparks
}

// situationOf builds the situation of seat me in v.
func situationOf(v *kindling.View, me int) situation {
	s := situation{table: lotto.Load(), budget: v.Sparks[me]}
	for p := 0; p < v.Seats; p++ {
		if p == me {
			continue
		}
		s.rivalBudget = max(s.rivalBudget, v.Sparks[p])
		for i := 0; i < nb; i++ {
			s.rivalEmb[i] = max(s.rivalEmb[i], v.Embers[p][i])
		}
	}
	for i := 0; i < nb; i++ {
		s.own[i] = v.Embers[me][i]
		s.lead[i] = s.own[i] - s.rivalEmb[i]
		s.lv[i] = valueLevel[min(max(v.Values[i], 1), kindling.ValueCap)]
	}
	return s
}

// spend returns the expected bids of the seat (b false, at price level la
// against its rival at lb) or of its rival (b true), summed over the
// beacons.
func (s *situation) spend(la, lb int, b bool) float64 {
	e := 0.0
	for i := 0; i < nb; i++ {
		e += s.table.Mean(s.lead[i], la-s.lv[i], lb-s.lv[i], b)
	}
	return e
}

// fitLevel moves level l until spend(l) is at most budget (raising the
// price) or, when it is below floor, at least floor (lowering it), within
// levelLo..levelHi.
func fitLevel(l int, spend func(int) float64, budget, floor float64) int {
	e := spend(l) // spend(l), each level's spend worked out once
	for l < levelHi && e > budget {
		l++
		e = spend(l)
	}
	for l > levelLo && e < floor {
		down := spend(l - 1)
		if !(down <= budget) {
			break
		}
		l, e = l-1, down
	}
	return l
}

// prices returns the price levels of the seat and of its rival: each
// starts at its wanted level and moves until its expected spend fits its
// sparks (at most all of them, at least what the cap would waste), given
// the other's level; three rounds of this settle them.
func (s *situation) prices(wantA, wantB int, floorA, floorB float64) (la, lb int) {
	la, lb = wantA, wantB
	for round := 0; round < 3; round++ {
		from := lb
		la = fitLevel(wantA, func(l int) float64 { return s.spend(l, lb, false) }, float64(s.budget), floorA)
		lb = fitLevel(wantB, func(l int) float64 { return s.spend(la, l, true) }, float64(s.rivalBudget), floorB)
		if lb == from {
			break // settled: a round from the same lb gives the same la and lb
		}
	}
	return la, lb
}

// lottoDraw is a seat's move in the lotto relaxation, ready to be drawn:
// the five bids drawn from the beacons' equilibrium distributions as if
// independently, conditioned on their sum lying in floor..budget (the
// relaxation keeps the budget only in expectation; this puts it back).
// Each beacon's bid is first capped by what surely wins there (one more
// than the rival's embers and all its sparks).
type lottoDraw struct {
	p             [nb][levels]float64 // each beacon's distribution, mass above the cap moved to it
	cap           [nb]int
	f             [nb + 1][levels]float64 // f[k][t]: the chance that beacons k..4 sum to t
	floor, budget int
	total         float64 // the chance that the sum lies in floor..budget
}

// prepare sets d to the seat's move at levels la, lb, its sum at least
// floor (when it can be).
func (s *situation) prepare(la, lb, floor int, d *lottoDraw) {
	budget := s.budget
	d.budget, d.floor = budget, min(floor, budget)
	for i := 0; i < nb; i++ {
		d.cap[i] = min(budget, max(0, s.rivalEmb[i]+s.rivalBudget+1-s.own[i]))
		d.p[i] = [levels]float64{}
		q := s.table.Probs(s.lead[i], la-s.lv[i], lb-s.lv[i], false)
		for x := 0; x < lotto.Bids; x++ {
			d.p[i][min(x, d.cap[i])] += float64(q[x]) / 255
		}
	}
	d.f[nb] = [levels]float64{0: 1}
	for k := nb - 1; k >= 0; k-- {
		for t := 0; t <= budget; t++ {
			acc := 0.0
			for x := 0; x <= min(t, d.cap[k]); x++ {
				acc += d.p[k][x] * d.f[k+1][t-x]
			}
			d.f[k][t] = acc
		}
	}
	d.total = 0
	for t := d.floor; t <= budget; t++ {
		d.total += d.f[0][t]
	}
}

// draw sets out to a move drawn from d with rng and returns the sparks it
// bids.
func (d *lottoDraw) draw(rng *rand.Rand, out *kindling.Bid) int {
	want := d.budget
	if d.total > 0 {
		r := rng.Float64() * d.total
		for t := d.floor; t <= d.budget; t++ {
			if r -= d.f[0][t]; r < 0 {
				want = t
				break
			}
		}
	} else {
		// No sum in range has any chance (every cap is tiny): bid the caps.
		want = 0
		for i := 0; i < nb; i++ {
			want += d.cap[i]
		}
		want = min(want, d.budget)
	}
	left := want
	for k := 0; k < nb; k++ {
		// The sum over x <= min(left, cap) of p[k][x] f[k+1][left-x], the
		// very sum prepare left in f[k][left].
		norm := d.f[k][left]
		x := 0
		if norm > 0 {
			r := rng.Float64() * norm
			for x = 0; x < min(left, d.cap[k]); x++ {
				if r -= d.p[k][x] * d.f[k+1][left-x]; r < 0 {
					break
				}
			}
		} else {
			x = min(left, d.cap[k]) // the fallback: fill the caps in order
		}
		out[k] = x
		left -= x
	}
	return want - left
}

type lottoBidder struct {
	rng        *rand.Rand
	price      float64 // points a spark is worth to the seat
	rivalPrice float64 // the rivals' price as a multiple of the seat's
	crowd      float64 // how much each extra rival cheapens the rival's sparks
}

func (l *lottoBidder) Bid(v *kindling.View, out *kindling.Bid) {
	if v.Budget() == 0 {
		return
	}
	s := situationOf(v, v.You)
	price := perRival(l.price, v.Seats)
	wantA := level(price)
	wantB := level(price*l.rivalPrice) - int(math.Round(l.crowd*math.Log(float64(max(1, v.Seats-1)))/math.Log(lotto.PriceRatio)))
	floorA, floorB := float64(overflow(v)), 0.0
	if lastTurn(v) {
		wantA, wantB = levelLo, levelLo // a spark kept is worth only a tie-break
	} else {
		floorB = float64(max(0, s.rivalBudget+kindling.Income-kindling.SparkCap))
	}
	la, lb := s.prices(wantA, wantB, floorA, floorB)
	var d lottoDraw
	s.prepare(la, lb, overflow(v), &d)
	spent := d.draw(l.rng, out)
	topUp(v, out, mustSpend(v, spent))
	fit(out, v.Budget())
}

func lottoDef() def {
	schema := strategies.Schema{
		param("price", "points a spark is worth when kept for a later turn: the higher, the less it bids and the more it saves", 0.3, 4, 1.8, false),
		param("rivalPrice", "the price of a spark assumed for its rivals, as a multiple of its own (below 1: rivals bid more freely)", 0.5, 2, 1.3, false),
		param("crowd", "how much each rival beyond the first cheapens the rival's sparks at a beacon (0: a crowd is read as one rival)", 0, 1, 0.6, false),
	}
	return def{name: "lotto", schema: schema,
		desc: "equilibrium bidder: draws each beacon's bid from the mixed equilibrium of its one-beacon contest (General Lotto, solved offline by regret matching), priced so its expected spend fits its sparks",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			return &lottoBidder{rng: newRNG(seed), price: d.Float("price"), rivalPrice: d.Float("rivalPrice"), crowd: d.Float("crowd")}
		}}
}
