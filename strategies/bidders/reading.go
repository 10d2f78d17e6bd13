package bidders

// This file holds what several bidders read off the board: rivals' embers
// and sparks, a model of their bids, the cheapest set of beacons worth
// buying, and the final clamp that keeps every move legal.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

const nb = kindling.Beacons

// newSource returns the source of newRNG(seed): a rand.Rand built on it
// draws what newRNG's does, and uniform(src) is its Float64.
func newSource(seed uint64) *rand.PCG { return rand.NewPCG(seed, 0x6b696e646c696e67) }

// uniform returns what rand.New(src).Float64() would: the next 53 bits of
// src over 2^53. (Called on the source itself, it saves the generator's
// interface call, for the bidders that draw thousands a turn.)
func uniform(src *rand.PCG) float64 { return float64(src.Uint64()<<11>>11) / (1 << 53) }

// param builds a strategies.Param.
func param(name, desc string, min, max, def float64, integer bool) strategies.Param {
	return strategies.Param{Name: name, Description: desc, Min: min, Max: max, Default: def, Integer: integer}
}

// rivalEmbers returns, per beacon, the most embers any other seat holds.
func rivalEmbers(v *kindling.View) (out [nb]int) {
	for p := 0; p < v.Seats; p++ {
		if p == v.You {
			continue
		}
		for i := 0; i < nb; i++ {
			out[i] = max(out[i], v.Embers[p][i])
		}
	}
	return out
}

// lastTurn reports whether v is the final turn, when unspent sparks only
// break ties.
func lastTurn(v *kindling.View) bool { return v.Turn >= v.Turns }

// overflow returns how many of the seat's sparks would be lost to the cap
// if it spent nothing this turn (min(12, left+5) drops the rest).
func overflow(v *kindling.View) int {
	if lastTurn(v) {
		return 0
	}
	return max(0, v.Budget()+kindling.Income-kindling.SparkCap)
}

// share returns round(f*x) for a fraction f in [0,1].
func share(f float64, x int) int { return int(math.Round(f * float64(x))) }

// byKey returns the beacon ids ordered by key descending, ties by id.
func byKey(key [nb]float64) (order [nb]int) {
	for i := range order {
		order[i] = i
	}
	for i := 1; i < nb; i++ {
		for j := i; j > 0 && key[order[j]] > key[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	return order
}

// bestSet returns the set (bit i = beacon i) with the most total value whose
// total cost fits the budget, fewer sparks breaking ties; beacons with a
// negative cost cannot be bought. It tries all 32 sets.
func bestSet(value [nb]float64, cost [nb]int, budget int) (mask int, spent int) {
	bestV := 0.0
	for m := 1; m < 1<<nb; m++ {
		c, val, ok := 0, 0.0, true
		for i := 0; i < nb; i++ {
			if m&(1<<i) == 0 {
				continue
			}
			if cost[i] < 0 {
				ok = false
				break
			}
			c += cost[i]
			val += value[i]
		}
		if !ok || c > budget {
			continue
		}
		if val > bestV+1e-9 || (math.Abs(val-bestV) <= 1e-9 && val > 0 && c < spent) {
			bestV, mask, spent = val, m, c
		}
	}
	return mask, spent
}

// spread adds n sparks to out over the beacons of order, one at a time in
// round-robin over the first width of them.
func spread(out *kindling.Bid, order [nb]int, width, n int) {
	width = max(1, min(nb, width))
	for k := 0; n > 0; k++ {
		out[order[k%width]]++
		n--
	}
}

// splitByWeight bids n sparks over the first width beacons of order (out
// holds nothing there yet): each gets its share in proportion to weight,
// rounded down, and the sparks the rounding leaves go one at a time from
// the top of order.
func splitByWeight(out *kindling.Bid, order [nb]int, width, n int, weight *[nb]float64) {
	width = max(1, min(nb, width))
	total := 0.0
	for k := 0; k < width; k++ {
		total += weight[order[k]]
	}
	given := 0
	for k := 0; k < width && total > 0; k++ {
		i := order[k]
		out[i] = int(float64(n) * weight[i] / total)
		given += out[i]
	}
	spread(out, order, width, n-given)
}

// buy bids cost[i] on every beacon i of mask (a set from bestSet).
func buy(out *kindling.Bid, mask int, cost [nb]int) {
	for i := 0; i < nb; i++ {
		if mask&(1<<i) != 0 {
			out[i] = cost[i]
		}
	}
}

// mustSpend returns how many sparks beyond the spent ones the seat should
// still put down: all it has left on the last turn (unspent sparks are
// worth only a tie-break then), else what the cap would waste.
func mustSpend(v *kindling.View, spent int) int {
	if lastTurn(v) {
		return v.Budget() - spent
	}
	return overflow(v) - spent
}

// fit makes out a legal move for budget: negative entries become 0, and
// while the sum is over the budget the smallest positive entry is lowered
// (so the bids that matter most survive).
func fit(out *kindling.Bid, budget int) {
	sum := 0
	for i := range out {
		if out[i] < 0 {
			out[i] = 0
		}
		sum += out[i]
	}
	for sum > budget {
		k := -1
		for i := range out {
			if out[i] > 0 && (k < 0 || out[i] < out[k]) {
				k = i
			}
		}
		cut := min(out[k], sum-budget)
		out[k] -= cut
		sum -= cut
	}
}

// rivalModel predicts each rival's bid per beacon as an exponentially
// weighted average of its revealed bids, updated once per resolved turn.
type rivalModel struct {
	alpha float64
	pred  [kindling.MaxSeats][nb]float64
	seen  int // the last turn folded in
}

// observe folds v.Last into the model if it is a turn not seen yet.
func (m *rivalModel) observe(v *kindling.View) {
	last := &v.Last
	if last.Turn == 0 || last.Turn == m.seen {
		return
	}
	for p := 0; p < last.Seats; p++ {
		for i := 0; i < nb; i++ {
			b := float64(last.Bids[p][i])
			if m.seen == 0 {
				m.pred[p][i] = b
			} else {
				m.pred[p][i] = m.alpha*b + (1-m.alpha)*m.pred[p][i]
			}
		}
	}
	m.seen = last.Turn
}

// threat returns, per beacon, the strongest strength a rival is expected to
// reach: its embers plus its predicted bid (capped by its sparks). Before
// any turn is revealed it assumes each rival spreads its sparks evenly.
func (m *rivalModel) threat(v *kindling.View) (out [nb]float64) {
	for p := 0; p < v.Seats; p++ {
		if p == v.You {
			continue
		}
		for i := 0; i < nb; i++ {
			bid := float64(v.Sparks[p]) / nb
			if m.seen > 0 {
				bid = math.Min(m.pred[p][i], float64(v.Sparks[p]))
			}
			out[i] = math.Max(out[i], float64(v.Embers[p][i])+bid)
		}
	}
	return out
}

// costToBeat returns the sparks seat v.You must bid at each beacon to pass
// threat by margin (strictly more than threat, plus margin), net of its own
// embers; 0 when its embers alone suffice.
func costToBeat(v *kindling.View, threat [nb]float64, margin int) (cost [nb]int) {
	for i := 0; i < nb; i++ {
		need := int(math.Floor(threat[i])) + 1 + margin
		cost[i] = max(0, need-v.Embers[v.You][i])
	}
	return cost
}
