package acbstrat

import "crucible/strategies"

// gathererDef: energy collection first, combat avoided. Units are matched one
// to one with energy tiles that are full or about to refill (nearest
// pairs first, a unit waiting on a tile that refills soon); spare units
// explore sectors not seen lately to find more tiles, then wait near known
// tiles. Fights are avoided unless clearly won; an enemy core left
// undefended close by is razed in passing.
func gathererDef() def {
	return def{
		name: "gatherer",
		desc: "Energy collection priority, avoids combat",
		params: []strategies.Param{
			iparam("horizon", "turns ahead an emptied energy tile still counts as a target (a unit goes and waits on it)", 0, 20, 6),
			iparam("caution", "extra enemies assumed in every fight estimate before stepping into range", 0, 3, 1),
			iparam("raze_range", "steps within which an undefended enemy core is razed in passing (0: never)", 0, 20, 5),
			param("explore_share", "share of the units without an energy tile that explore unseen sectors", 0, 1, 0.5),
		},
		build: func(d strategies.Decoder) policy {
			return &gathererP{horizon: d.Int("horizon"), caution: d.Int("caution"), razeRange: d.Int("raze_range"),
				g: gatherCore{explore: d.Float("explore_share"), exploreSet: true}}
		},
		fin: finishing{reach: 12, strike: true},
	}
}

type gathererP struct {
	horizon, caution, razeRange int
	g                           gatherCore
	idx, cores                  []int32
}

func (p *gathererP) decide(b *bot) {
	o := moveOpts{wLose: -60, wTrade: -15, wWin: 0, margin: p.caution, coreStay: 4}
	p.idx = b.unitIdx(p.idx[:0])
	p.idx = razeReflex(b, p.idx, p.razeRange, &p.cores, &o)
	p.g.run(b, p.idx, p.horizon, p.caution)
}

// gatherCore is the economy shared by strategies that collect: units are
// matched one to one with energy tiles that are full or refill within the
// horizon (cheapest pairs first; a unit early for a refill waits on the
// tile); of the units left over, a share explores sectors not seen
// lately and the others hover two steps from known energy tiles. Fights
// are avoided unless won.
type gatherCore struct {
	// explore is the share of spare units sent exploring (default 0.5 when
	// zero and exploreSet is false).
	explore    float64
	exploreSet bool
	// avoid and avoidW, when set, keep the collectors off marked tiles
	// (see moveOpts).
	avoid  []uint16
	avoidW float64

	a, ax          assignment
	rest, ex       []int32
	targets, ready []int32
	sectors, tiles []int32
	energy         multiCache
}

// run moves the units idx (indices into b.own).
func (gc *gatherCore) run(b *bot, idx []int32, horizon, caution int) {
	if len(idx) == 0 {
		return
	}
	o := moveOpts{wLose: -60, wTrade: -15, wWin: 0, margin: caution, coreStay: 4, avoid: gc.avoid, avoidW: gc.avoidW}
	gc.targets, gc.ready = b.energyPlan(gc.targets[:0], gc.ready[:0], horizon)
	b.assign(&gc.a, idx, gc.targets, gc.ready, b.g.rows+b.g.cols)
	gc.rest = b.sendAssigned(&gc.a, idx, &o, gc.rest[:0])
	share := gc.explore
	if !gc.exploreSet {
		share = 0.5
	}
	nx := int(share*float64(len(gc.rest)) + 0.5)
	nx = min(nx, len(gc.rest), 10)
	gc.sectors = b.staleSectors(gc.sectors[:0], 40, 12)
	gc.ex = append(gc.ex[:0], gc.rest[:nx]...)
	b.assign(&gc.ax, gc.ex, gc.sectors, nil, 3*(b.g.rows+b.g.cols))
	gc.ex = b.sendAssigned(&gc.ax, gc.ex, &o, gc.ex[:0])
	gc.ex = append(gc.ex, gc.rest[nx:]...)
	gc.tiles = b.allEnergy(gc.tiles[:0])
	var ef field
	if len(gc.tiles) > 0 {
		ef = b.cached(&gc.energy, gc.tiles)
	}
	for _, i := range gc.ex {
		u := b.own[i]
		if ef != nil {
			// Already in place and out of any enemy's reach: stay, without
			// weighing the options (most of a large idle army).
			if d := ef.at(u); d >= 1 && d <= 2 && b.enemyNext(u) == 0 && !b.onOwnCore(u) {
				b.stay(int(i))
				continue
			}
		}
		var sc [5]float64
		if ef != nil {
			// Hover two steps from an energy tile: close enough to take it
			// when it refills, without blocking the assigned collector.
			ef = b.checkCached(u, &gc.energy)
			b.maxDist(u, ef, 2, 1, &sc)
		}
		b.spread(u, &sc, 0.5)
		b.settle(int(i), &sc, &o)
	}
}

// razeReflex sends, for every seen enemy core with no unit on it within
// rng steps of one of idx's units, the nearest such unit onto it, unless
// the fight there looks lost. It returns idx without the units sent.
func razeReflex(b *bot, idx []int32, rng int, cores *[]int32, o *moveOpts) []int32 {
	if rng <= 0 {
		return idx
	}
	*cores = b.realEnemyCores((*cores)[:0])
	return razeCores(b, idx, rng, *cores, o)
}

// razeCores is razeReflex on the given enemy cores.
func razeCores(b *bot, idx []int32, rng int, cores []int32, o *moveOpts) []int32 {
	for _, c := range cores {
		if !b.undefended(c) || b.oddsAt(c).class() == fightLose {
			continue
		}
		f := b.fieldTo(c)
		best, bd := -1, rng+1
		for k, i := range idx {
			if d := f.at(b.own[i]); d < bd {
				best, bd = k, d
			}
		}
		if best < 0 {
			continue
		}
		i := idx[best]
		var sc [5]float64
		b.towardTile(b.own[i], c, 1, &sc)
		b.danger(b.own[i], &sc, o.wLose, 0, 0, 0)
		b.rank(int(i), &sc)
		idx = append(idx[:best], idx[best+1:]...)
	}
	return idx
}

// pick is the economy of the fighting strategies: of the units idx, the n
// best placed to collect (cheapest matches to energy tiles full or due
// within horizon) are sent gathering; the others are appended to rest and
// returned for the strategy's own use.
func (gc *gatherCore) pick(b *bot, idx []int32, n, horizon, caution int, rest []int32) []int32 {
	if n <= 0 || len(idx) == 0 {
		return append(rest, idx...)
	}
	o := moveOpts{wLose: -60, wTrade: -15, wWin: 0, margin: caution, coreStay: 4, avoid: gc.avoid, avoidW: gc.avoidW}
	gc.targets, gc.ready = b.energyPlan(gc.targets[:0], gc.ready[:0], horizon)
	b.assign(&gc.a, idx, gc.targets, gc.ready, b.g.rows+b.g.cols)
	// Keep only the n cheapest matches.
	for {
		worst, wc := -1, int32(-1)
		matched := 0
		for k := range idx {
			if gc.a.unitTarget[k] >= 0 {
				matched++
				if gc.a.unitCost[k] > wc {
					worst, wc = k, gc.a.unitCost[k]
				}
			}
		}
		if matched <= n || worst < 0 {
			break
		}
		gc.a.unitTarget[worst] = -1
	}
	return b.sendAssigned(&gc.a, idx, &o, rest)
}
