package kindprog

import (
	"math/rand/v2"

	"crucible/engine/kindling"
)

// bidder plays a program.
type bidder struct {
	p   program
	rng *rand.Rand
}

func newBidder(p program, seed uint64) *bidder {
	return &bidder{p: p, rng: rand.New(rand.NewPCG(seed, 0x6b70726f67))}
}

// feature returns feature f for beacon i.
func (b *bidder) feature(v *kindling.View, i, f int) float64 {
	me := v.You
	rivals := func(get func(s int) int) int {
		m := 0
		for s := 0; s < v.Seats; s++ {
			if s != me {
				m = max(m, get(s))
			}
		}
		return m
	}
	switch f {
	case fValue:
		return float64(v.Values[i])
	case fGrowth:
		return float64(v.Values[i] - kindling.BaseValues()[i])
	case fEmbers:
		return float64(v.Embers[me][i])
	case fRivalEmbers:
		return float64(rivals(func(s int) int { return v.Embers[s][i] }))
	case fRivalBid:
		return float64(rivals(func(s int) int { return v.Last.Bids[s][i] }))
	case fRivalStrength:
		return float64(rivals(func(s int) int { return v.Embers[s][i] + v.Sparks[s] }))
	case fTurn:
		return float64(v.Turn)
	case fSparks:
		return float64(v.Budget())
	case fWaste:
		if v.Turn >= v.Turns {
			return 0
		}
		return float64(max(0, v.Budget()+kindling.Income-kindling.SparkCap))
	case fRivalSparks:
		return float64(rivals(func(s int) int { return v.Sparks[s] }))
	case fLead:
		best := rivals(func(s int) int { return v.Scores[s] })
		return float64(max(0, min(100, v.Scores[me]-best+20)))
	}
	return 0
}

func (b *bidder) fires(v *kindling.View, i int, ru *rule) bool {
	return features.Fires(ru.cond, ru.join, func(f int) float64 { return b.feature(v, i, f) })
}

// Bid writes the program's move: always legal (non-negative, summing to
// at most the budget).
func (b *bidder) Bid(v *kindling.View, out *kindling.Bid) {
	budget := v.Budget()
	top := 0 // the beacon of highest value reads the global rules
	for i := range v.Values {
		if v.Values[i] > v.Values[top] {
			top = i
		}
	}
	spend, save, targets := b.p.spend, -1, b.p.targets
	var set [3]bool
	var appeal [kindling.Beacons]float64
	var skip [kindling.Beacons]bool
	for i := range appeal {
		appeal[i] = float64(v.Values[i])
	}
	for r := range b.p.rules {
		ru := &b.p.rules[r]
		switch ru.action {
		case aSpend, aSave, aTargets:
			if set[ru.action] || !b.fires(v, top, ru) {
				continue
			}
			set[ru.action] = true
			switch ru.action {
			case aSpend:
				spend = ru.amount
			case aSave:
				save = ru.amount
			default:
				targets = ru.amount
			}
		case aFavour, aSkip:
			for i := range appeal {
				if !b.fires(v, i, ru) {
					continue
				}
				if ru.action == aSkip {
					skip[i] = true
				} else {
					appeal[i] += float64(ru.amount) / 10 * b.feature(v, i, ru.weigh)
				}
			}
		}
	}
	n := (spend*budget + 50) / 100
	if v.Turn >= v.Turns && save < 0 {
		n = budget
	}
	n = max(n, int(b.feature(v, 0, fWaste)))
	if save >= 0 {
		n = min(n, max(0, budget-save))
	}
	n = min(n, budget)
	j := float64(b.p.jitter) / 100
	var buf [kindling.Beacons]int
	order := buf[:0]
	for i := range appeal {
		appeal[i] *= 1 + j*(2*b.rng.Float64()-1)
		if !skip[i] && appeal[i] > 0 {
			order = append(order, i)
		}
	}
	for x := 1; x < len(order); x++ { // most appealing first, ties by beacon
		for y := x; y > 0 && appeal[order[y]] > appeal[order[y-1]]; y-- {
			order[y], order[y-1] = order[y-1], order[y]
		}
	}
	if len(order) > targets {
		order = order[:targets]
	}
	if len(order) == 0 || n == 0 {
		return
	}
	total := 0.0
	for _, i := range order {
		total += appeal[i]
	}
	left := n
	for _, i := range order {
		out[i] = int(float64(n) * appeal[i] / total)
		left -= out[i]
	}
	for k := 0; left > 0; k = (k + 1) % len(order) {
		out[order[k]]++
		left--
	}
}
