package acbstrat

import "crucible/strategies"

// Attacking strategies: rusher, kamikaze, assassin and siege. All of them
// go for enemy cores (known, or suspected from the map's symmetry) but
// differ in how: rusher in waves straight on, kamikaze diving at enemy
// units for one-for-one trades, assassin with a small team that paths
// around enemy reach to the least defended core, siege with a massed army
// that rings a core and storms it once it outnumbers the defence.

// ---------------------------------------------------------------- rusher

func rusherDef() def {
	return def{
		name: "rusher",
		desc: "Rushes enemy cores aggressively",
		params: []strategies.Param{
			iparam("wave", "units that gather at home before a wave sets off together", 1, 10, 4),
			iparam("grab_range", "steps a rushing unit detours to take a full energy tile", 0, 6, 2),
			param("recklessness", "how little a rushing unit cares about losing fights (1: ignores them)", 0, 1, 0.6),
			iparam("gatherers", "units kept collecting energy to pay for the waves", 0, 10, 4),
		},
		build: func(d strategies.Decoder) policy {
			return &rusherP{wave: d.Int("wave"), grab: d.Int("grab_range"), reckless: d.Float("recklessness"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type rusherP struct {
	wave, grab, gatherers int
	reckless              float64
	ec, oc                multiCache
	eco                   gatherCore
	idx, army             []int32
	sectors               []int32
	ax                    assignment
}

func (p *rusherP) decide(b *bot) {
	if len(b.enemyCores) == 0 {
		exploreAll(b, &p.ax, &p.idx, &p.sectors, 20)
		return
	}
	p.idx = b.unitIdx(p.idx[:0])
	p.army = p.eco.pick(b, p.idx, p.gatherers, 6, 1, p.army[:0])
	b.cached(&p.ec, b.enemyCores)
	var of field
	if len(b.ownCores) > 0 {
		of = b.cached(&p.oc, b.ownCores)
	}
	// Army units at home (within 4 steps of an own core) wait for a wave.
	home := 0
	for _, i := range p.army {
		if of != nil && of.at(b.own[i]) <= 4 {
			home++
		}
	}
	launch := home >= p.wave
	wLose := -40 * (1 - p.reckless)
	for _, i := range p.army {
		u := b.own[i]
		var sc [5]float64
		if of != nil {
			of = b.checkCached(u, &p.oc)
		}
		if !launch && of != nil && of.at(u) <= 4 {
			// Wait off the core, on the side facing the enemy.
			b.towardCached(u, &p.ec, 0.2, &sc)
			for k := 0; k < 5; k++ {
				if of.at(b.opt(u, k)) > 4 {
					sc[k] -= 5
				}
			}
		} else if t := nearbyEnergy(b, u, p.grab); t >= 0 {
			b.towardTile(u, t, 1, &sc)
		} else {
			b.towardCached(u, &p.ec, 1, &sc)
		}
		b.danger(u, &sc, wLose, 0, 1, 0)
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// nearbyEnergy returns a full energy tile within steps of u, or -1.
func nearbyEnergy(b *bot, u int32, steps int) int32 {
	if steps <= 0 {
		return -1
	}
	best, bd := int32(-1), steps+1
	for _, e := range b.mem.energy {
		if !e.full || b.g.manhattan(u, e.tile) > steps {
			continue
		}
		if d := b.fieldTo(e.tile).at(u); d < bd {
			best, bd = e.tile, d
		}
	}
	return best
}

// exploreAll sends every unit to the sectors not visited for age turns,
// one unit per sector, the rest towards the oldest ones.
func exploreAll(b *bot, a *assignment, idx, sectors *[]int32, age int) {
	*idx = b.unitIdx((*idx)[:0])
	*sectors = b.staleSectors((*sectors)[:0], age, len(*idx))
	o := moveOpts{wLose: -30, wTrade: -5, coreStay: 5}
	b.assign(a, *idx, *sectors, nil, 4*(b.g.rows+b.g.cols))
	rest := b.sendAssigned(a, *idx, &o, (*idx)[:0])
	for _, i := range rest {
		var sc [5]float64
		b.spread(b.own[i], &sc, 1)
		b.coreStay(b.own[i], &sc, 5)
		b.rank(int(i), &sc)
	}
}

// -------------------------------------------------------------- kamikaze

func kamikazeDef() def {
	return def{
		name: "kamikaze",
		desc: "Sacrificial rush tactics",
		params: []strategies.Param{
			iparam("dive_range", "steps within which a unit dives at the nearest enemy unit instead of marching on a core", 2, 30, 10),
			iparam("wave", "units that gather at home before they set off together", 1, 6, 1),
			param("restraint", "how much a diving unit still shies from fights it loses without a trade (0: none)", 0, 1, 0),
			iparam("gatherers", "units kept collecting energy to pay for more divers", 0, 8, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &kamikazeP{dive: d.Int("dive_range"), wave: d.Int("wave"), restraint: d.Float("restraint"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type kamikazeP struct {
	dive, wave, gatherers int
	restraint             float64
	ec, oc                multiCache
	eco                   gatherCore
	sectors               []int32
	ax                    assignment
	idx, army             []int32
}

func (p *kamikazeP) decide(b *bot) {
	var uf *lazy
	if len(b.enemy) > 0 {
		uf = b.multiLazy(0, b.enemy, b.mem.wallT, p.dive)
	}
	if uf == nil && len(b.enemyCores) == 0 {
		exploreAll(b, &p.ax, &p.idx, &p.sectors, 20)
		return
	}
	p.idx = b.unitIdx(p.idx[:0])
	p.army = p.eco.pick(b, p.idx, p.gatherers, 4, 0, p.army[:0])
	var of field
	if len(b.ownCores) > 0 {
		of = b.cached(&p.oc, b.ownCores)
	}
	home := 0
	for _, i := range p.army {
		if of != nil && of.at(b.own[i]) <= 3 {
			home++
		}
	}
	launch := home >= p.wave
	if len(b.enemyCores) > 0 {
		b.cached(&p.ec, b.enemyCores)
	}
	for _, i := range p.army {
		u := b.own[i]
		var sc [5]float64
		switch {
		case uf != nil && uf.at(u) <= p.dive:
			b.towardLazy(u, uf, 1, &sc)
		case !launch && of != nil && of.at(u) <= 3:
			b.spread(u, &sc, 1)
		case len(b.enemyCores) > 0:
			b.towardCached(u, &p.ec, 1, &sc)
		}
		// A kamikaze wants trades; restraint only shies from pure losses.
		b.danger(u, &sc, -20*p.restraint, 2, 2, 0)
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// -------------------------------------------------------------- assassin

func assassinDef() def {
	return def{
		name: "assassin",
		desc: "Prioritizes high-value targets",
		params: []strategies.Param{
			iparam("team", "units in the strike team; the others gather energy", 1, 12, 4),
			iparam("strike_range", "steps from the target core inside which the team stops sneaking and strikes", 1, 8, 3),
			iparam("max_defenders", "visible defenders a core may have and still be chosen as the target", 0, 6, 2),
			iparam("reserve", "units that always stay gathering before any joins the team", 0, 10, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &assassinP{team: d.Int("team"), strike: d.Int("strike_range"), maxDef: d.Int("max_defenders"), reserve: d.Int("reserve")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type assassinP struct {
	team, strike, maxDef, reserve int
	g                             gatherCore
	idx, rest, teamIdx            []int32
	target                        int32
	a                             assignment
	one                           [1]int32
}

// value rates an enemy core as a target: razing is worth 2 points and
// removes a spawner; every visible defender in attack range makes it
// costlier. Cores with more than maxDef defenders are skipped (-1).
func (p *assassinP) value(b *bot, c int32) float64 {
	def := b.enemyNow(c)
	if def > p.maxDef {
		return -1
	}
	return 2 / float64(1+def)
}

func (p *assassinP) decide(b *bot) {
	// Pick the most valuable core, nearest to our units on ties.
	p.target = -1
	bestV, bestD := -1.0, far
	for _, c := range b.enemyCores {
		v := p.value(b, c)
		if v < 0 {
			continue
		}
		d := far
		if oc, od := b.nearestOwnCore(c); oc >= 0 {
			d = od
		}
		if v > bestV || (v == bestV && d < bestD) {
			p.target, bestV, bestD = c, v, d
		}
	}
	p.idx = b.unitIdx(p.idx[:0])
	if n := min(p.team, len(p.idx)-p.reserve); p.target >= 0 && n > 0 {
		// The team: the units nearest the target.
		p.one[0] = p.target
		b.assignMany(&p.a, p.idx, p.target, n)
		p.teamIdx, p.rest = p.teamIdx[:0], p.rest[:0]
		for k, i := range p.idx {
			if p.a.unitTarget[k] >= 0 {
				p.teamIdx = append(p.teamIdx, i)
			} else {
				p.rest = append(p.rest, i)
			}
		}
		p.sneak(b)
		p.idx = append(p.idx[:0], p.rest...)
	}
	p.g.run(b, p.idx, 6, 1)
}

// sneak moves the team towards the target along paths that keep out of
// enemy reach, striking straight in once within strike range.
func (p *assassinP) sneak(b *bot) {
	plain := b.fieldTo(p.target)
	var stealth *lazy
	if len(b.enemy) > 0 {
		tmpl := b.dangerTemplate(0)
		tmpl[p.target] = 0
		stealth = b.multiLazy(0, p.one[:], tmpl, 0)
	}
	for _, i := range p.teamIdx {
		u := b.own[i]
		var sc [5]float64
		switch {
		case plain.at(u) <= p.strike || stealth == nil || stealth.at(u) >= far:
			b.towardTile(u, p.target, 1, &sc)
			b.danger(u, &sc, -10, 0, 3, 0)
		default:
			b.towardLazy(u, stealth, 1, &sc)
			b.danger(u, &sc, -40, -10, 2, 0)
		}
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// ----------------------------------------------------------------- siege

func siegeDef() def {
	return def{
		name: "siege",
		desc: "Methodical core destruction",
		params: []strategies.Param{
			iparam("army", "units the army musters at home before it marches", 4, 40, 10),
			iparam("ring", "steps from the target core at which the army halts and closes up", 3, 10, 6),
			param("assault_ratio", "own units in the ring per defender (those seen plus one) needed to storm the core", 1, 4, 2.5),
			iparam("gatherers", "units kept gathering energy to feed the army", 0, 10, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &siegeP{army: d.Int("army"), ring: d.Int("ring"), ratio: d.Float("assault_ratio"), gatherers: d.Int("gatherers"), target: -1}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type siegeP struct {
	army, ring, gatherers int
	ratio                 float64
	target                int32
	marching              bool
	g, eco                gatherCore
	oc                    multiCache
	idx, soldiers         []int32
}

func (p *siegeP) decide(b *bot) {
	// Keep the target until it is razed (or found not to exist).
	if p.target >= 0 && !containsTile(b.enemyCores, p.target) {
		p.target = -1
	}
	if p.target < 0 && len(b.enemyCores) > 0 && len(b.ownCores) > 0 {
		of := b.cached(&p.oc, b.ownCores)
		best := far
		for _, c := range b.enemyCores {
			if d := of.at(c); d < best {
				p.target, best = c, d
			}
		}
	}
	p.idx = b.unitIdx(p.idx[:0])
	// Feeders: the units best placed to collect, always.
	p.soldiers = p.eco.pick(b, p.idx, p.gatherers, 4, 1, p.soldiers[:0])
	if !p.marching && len(p.soldiers) >= p.army {
		p.marching = true
	}
	if p.marching && len(p.soldiers) < p.army/2 {
		p.marching = false
	}
	if p.target < 0 || !p.marching {
		// Nothing known to besiege, or the army is not ready: the soldiers
		// collect and search too (an idle army would starve the economy).
		p.g.run(b, p.soldiers, 4, 1)
		return
	}
	tf := b.fieldTo(p.target)
	// Count the army in the ring and the defence around the core.
	inRing := 0
	for _, i := range p.soldiers {
		if tf.at(b.own[i]) <= p.ring+1 {
			inRing++
		}
	}
	// The garrison: visible enemy units within the ring around the core.
	defence := 0
	for _, e := range b.enemy {
		if b.g.dist2(e, p.target) <= (p.ring+1)*(p.ring+1) {
			defence++
		}
	}
	// Storm once the ring holds assault_ratio units per defender, counting
	// one more defender than seen (a core may hide one in the fog).
	storm := float64(inRing) >= p.ratio*float64(defence+1)
	for _, i := range p.soldiers {
		u := b.own[i]
		var sc [5]float64
		tf = b.checkTile(u, p.target)
		b.toward(u, tf, 1, &sc)
		if storm {
			b.danger(u, &sc, -8, 0, 3, 0)
		} else {
			// Close up on the ring, no nearer.
			b.minDist(u, tf, p.ring, 3, &sc)
			b.danger(u, &sc, -25, -3, 3, 0)
		}
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}
