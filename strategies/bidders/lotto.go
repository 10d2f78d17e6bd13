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

// spendAt is one seat's expected spend as a function of its own price
// level, the other seat's held fixed: beacon i's mean bid is the table's
// entry base[i] plus Prices for each level of its own (clamped), so a
// level's spend is five loads summed in beacon order.
type spendAt struct {
	means *[lotto.Entries]float32
	base  [nb]int
	lv    [nb]int
}

// spendOf returns the spend of the seat (b false, at level l against its
// rival at level other) or of its rival (b true, at level l against the
// seat at other): in either the table reads the contest of the bidder
// whose level moves, its lead negated for the rival.
func (s *situation) spendOf(other int, b bool) spendAt {
	sp := spendAt{means: s.table.Means(), lv: s.lv}
	for i := 0; i < nb; i++ {
		lead := s.lead[i]
		if b {
			lead = -lead
		}
		sp.base[i] = lotto.Entry(lotto.ClampLead(lead), 0, lotto.ClampLevel(other-s.lv[i]))
	}
	return sp
}

// at returns the spend at level l, the beacons' means summed in order.
func (sp *spendAt) at(l int) float64 {
	e := 0.0
	for i := 0; i < nb; i++ {
		e += float64(sp.means[sp.base[i]+lotto.ClampLevel(l-sp.lv[i])*lotto.Prices])
	}
	return e
}

// fitLevel moves level l until sp.at(l) is at most budget (raising the
// price) or, when it is below floor, at least floor (lowering it), within
// levelLo..levelHi.
func fitLevel(l int, sp *spendAt, budget, floor float64) int {
	e := sp.at(l) // each level's spend worked out once
	for l < levelHi && e > budget {
		l++
		e = sp.at(l)
	}
	for l > levelLo && e < floor {
		down := sp.at(l - 1)
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
		from, fromA := lb, la
		spA := s.spendOf(lb, false)
		la = fitLevel(wantA, &spA, float64(s.budget), floorA)
		if round > 0 && la == fromA {
			break // the same la as the last round's gives the same lb: settled
		}
		spB := s.spendOf(la, true)
		lb = fitLevel(wantB, &spB, float64(s.rivalBudget), floorB)
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
//
// The table's strategies are sparse (most are pure), so each beacon keeps
// the bids it gives any chance (sup, ascending) and every sum runs over
// those alone: the terms it skips are exact zeros, which leave a sum, or
// a remainder being counted down, as they were.
type lottoDraw struct {
	p             [nb][levels]float64 // each beacon's distribution, mass above the cap moved to it (set at sup only)
	sup           [nb][levels]int8    // the bids of p's support, ascending
	n             [nb]int             // the size of each support
	cap           [nb]int
	f             [nb + 1][levels]float64 // f[k][t]: the chance that beacons k..4 sum to t (t up to budget)
	floor, budget int
	total         float64 // the chance that the sum lies in floor..budget
}

// by255[q] is q/255, a probability of the table.
var by255 = func() (t [256]float64) {
	for q := range t {
		t[q] = float64(q) / 255
	}
	return t
}()

// prepare sets d to the seat's move at levels la, lb, its sum at least
// floor (when it can be).
func (s *situation) prepare(la, lb, floor int, d *lottoDraw) {
	budget := s.budget
	d.budget, d.floor = budget, min(floor, budget)
	for i := 0; i < nb; i++ {
		c := min(budget, max(0, s.rivalEmb[i]+s.rivalBudget+1-s.own[i]))
		d.cap[i] = c
		q, bids := s.table.Support(s.lead[i], la-s.lv[i], lb-s.lv[i])
		n := 0
		for _, x := range bids {
			pr, at := by255[q[x]], min(int(x), c)
			if n > 0 && int(d.sup[i][n-1]) == at {
				d.p[i][at] += pr // more mass above the cap
				continue
			}
			d.p[i][at] = pr
			d.sup[i][n] = int8(at)
			n++
		}
		d.n[i] = n
	}
	d.f[nb] = [levels]float64{0: 1}
	for k := nb - 1; k >= 0; k-- {
		sup, pk, next := &d.sup[k], &d.p[k], &d.f[k+1]
		for t := 0; t <= budget; t++ {
			acc := 0.0
			for j := 0; j < d.n[k]; j++ {
				x := int(sup[j])
				if x > t {
					break
				}
				acc += pk[x] * next[t-x]
			}
			d.f[k][t] = acc
		}
	}
	d.total = 0
	for t := d.floor; t <= budget; t++ {
		d.total += d.f[0][t]
	}
}

// draw sets out to a move drawn from d with src (uniform) and returns the
// sparks it bids.
func (d *lottoDraw) draw(src *rand.PCG, out *kindling.Bid) int {
	want := d.budget
	if d.total > 0 {
		r := uniform(src) * d.total
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
		x := min(left, d.cap[k]) // the fallback: fill the caps in order
		if norm > 0 {
			r := uniform(src) * norm
			for j := 0; j < d.n[k]; j++ {
				y := int(d.sup[k][j])
				if y >= x {
					break
				}
				if r -= d.p[k][y] * d.f[k+1][left-y]; r < 0 {
					x = y
					break
				}
			}
		}
		out[k] = x
		left -= x
	}
	return want - left
}

type lottoBidder struct {
	src        *rand.PCG // newRNG's source (uniform)
	price      float64   // points a spark is worth to the seat
	rivalPrice float64   // the rivals' price as a multiple of the seat's
	crowd      float64   // how much each extra rival cheapens the rival's sparks
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
	spent := d.draw(l.src, out)
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
			return &lottoBidder{src: newSource(seed), price: d.Float("price"), rivalPrice: d.Float("rivalPrice"), crowd: d.Float("crowd")}
		}}
}
