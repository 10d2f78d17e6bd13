package acbstrat

import "crucible/strategies"

// randomDef: random valid moves, the baseline reference. Each unit draws stay
// or one of the four steps; the resolver still keeps own units from
// stacking (a stacked move is not a valid one), but nothing else is
// planned.
func randomDef() def {
	return def{
		name: "random",
		desc: "Random valid moves — baseline reference",
		params: []strategies.Param{
			param("stay_weight", "weight of staying against each of the four steps (1: all five equally likely)", 0, 4, 1),
			param("persistence", "chance that a unit repeats the step it took last turn instead of drawing anew", 0, 0.95, 0),
			param("wall_sense", "chance that a step into a remembered wall is drawn again rather than wasted", 0, 1, 1),
		},
		build: func(d strategies.Decoder) policy {
			return &randomP{stay: d.Float("stay_weight"), persist: d.Float("persistence"), wallSense: d.Float("wall_sense")}
		},
	}
}

type randomP struct {
	stay, persist, wallSense float64
	last                     []uint8 // tile -> option taken to arrive there
	lastT                    []int32 // tile -> turn the record is for
}

func (p *randomP) draw(b *bot) int {
	x := b.rng.Float64() * (p.stay + 4)
	if x < p.stay {
		return 0
	}
	k := 1 + int(x-p.stay)
	if k > 4 {
		k = 4
	}
	return k
}

func (p *randomP) decide(b *bot) {
	if p.last == nil {
		p.last = make([]uint8, b.g.n)
		p.lastT = make([]int32, b.g.n)
	}
	for i, u := range b.own {
		k := -1
		if p.persist > 0 && p.lastT[u] == int32(b.turn) && p.last[u] != 0 && b.rng.Float64() < p.persist {
			k = int(p.last[u])
		}
		if k < 0 {
			k = p.draw(b)
		}
		for try := 0; try < 3 && k > 0 && b.wall(b.opt(u, k)) && b.rng.Float64() < p.wallSense; try++ {
			k = p.draw(b)
		}
		t := b.opt(u, k)
		if k > 0 && b.wall(t) {
			k, t = 0, u
		}
		b.wishBuf[0] = t
		b.res.setWishes(i, b.wishBuf[:1])
		p.last[t], p.lastT[t] = uint8(k), int32(b.turn+1)
	}
}
