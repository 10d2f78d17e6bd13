package acbstrat

import (
	"crucible/strategies"
)

// Roaming strategies: nomad keeps every unit on the move and out of long
// fights; scout spreads its units over the sectors it has seen least
// lately; zone-driver plays the storm: it keeps its units inside the
// circle the storm will have a few turns ahead, takes the centre early and
// fights those pushed in from the edge (with the zone off it holds the
// centre of the map instead).

// ----------------------------------------------------------------- nomad

func nomadDef() def {
	return def{
		name: "nomad",
		desc: "Mobile, avoids prolonged engagements",
		params: []strategies.Param{
			iparam("linger", "turns a unit may stand still before it must move on", 0, 10, 2),
			iparam("flee_margin", "extra enemies assumed before stepping into range of any", 0, 3, 1),
			param("roam", "share of the units roaming unseen land rather than chasing energy", 0, 1, 0.5),
		},
		build: func(d strategies.Decoder) policy {
			return &nomadP{linger: d.Int("linger"), margin: d.Int("flee_margin"), roam: d.Float("roam")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type nomadP struct {
	linger, margin int
	roam           float64
	a, ax          assignment
	idx, ro        []int32
	targets, ready []int32
	sectors        []int32
	cores          []int32
}

func (p *nomadP) decide(b *bot) {
	o := moveOpts{wLose: -60, wTrade: -25, wWin: 1, margin: p.margin, coreStay: 5}
	p.idx = b.unitIdx(p.idx[:0])
	p.idx = razeReflex(b, p.idx, 3, &p.cores, &o)
	nr := int(p.roam*float64(len(p.idx)) + 0.5)
	if len(p.idx) <= 2 {
		nr = 0
	}
	// Energy for the first share (it must still pay its way), roaming for
	// the rest.
	p.targets, p.ready = b.energyPlan(p.targets[:0], p.ready[:0], 2)
	gat := p.idx[:len(p.idx)-nr]
	b.assign(&p.a, gat, p.targets, p.ready, b.g.rows+b.g.cols)
	p.ro = append(p.ro[:0], p.idx[len(p.idx)-nr:]...)
	for k, i := range gat {
		if p.a.unitTarget[k] < 0 {
			p.ro = append(p.ro, i)
		}
	}
	p.sectors = b.staleSectors(p.sectors[:0], 15, len(p.ro)+4)
	b.assign(&p.ax, p.ro, p.sectors, nil, 3*(b.g.rows+b.g.cols))
	for k, i := range gat {
		if j := p.a.unitTarget[k]; j >= 0 {
			p.move(b, i, p.targets[j], &o)
		}
	}
	for k, i := range p.ro {
		t := int32(-1)
		if j := p.ax.unitTarget[k]; j >= 0 {
			t = p.sectors[j]
		}
		p.move(b, i, t, &o)
	}
}

func (p *nomadP) move(b *bot, i int32, t int32, o *moveOpts) {
	u := b.own[i]
	var sc [5]float64
	if t >= 0 {
		b.towardTile(u, t, 1, &sc)
	}
	// Standing still too long is not nomadic, unless collecting.
	if b.waited(u) > p.linger && !b.mem.isEnergy(u) {
		sc[0] -= 4
	}
	// In range of an enemy: never stay, even in a fight we win.
	if b.enemyNow(u) > 0 {
		sc[0] -= 3
	}
	b.spread(u, &sc, 0.8)
	b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, o.margin)
	b.coreStay(u, &sc, o.coreStay)
	b.rank(int(i), &sc)
}

// ----------------------------------------------------------------- scout

func scoutDef() def {
	return def{
		name: "scout",
		desc: "Prioritizes map exploration",
		params: []strategies.Param{
			param("scout_share", "share of the units (beyond the first gatherers) that explore", 0, 1, 0.7),
			iparam("revisit_age", "turns after which a visited sector is worth visiting again", 10, 200, 30),
			iparam("caution", "extra enemies assumed before a scout steps into range", 0, 3, 1),
			iparam("gatherers", "units always collecting energy", 0, 8, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &scoutP{share: d.Float("scout_share"), age: d.Int("revisit_age"), caution: d.Int("caution"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type scoutP struct {
	share                   float64
	age, caution, gatherers int
	// seen is the last turn each sector was in sight: the sector of a
	// unit and the eight around it (vision reaches past a sector's side).
	seen           []int32
	eco            gatherCore
	a              assignment
	idx, rest      []int32
	sectors, cores []int32
}

func (p *scoutP) decide(b *bot) {
	o := moveOpts{wLose: -60, wTrade: -20, wWin: 1, margin: p.caution, coreStay: 5}
	p.idx = b.unitIdx(p.idx[:0])
	p.idx = razeReflex(b, p.idx, 3, &p.cores, &o)
	nf := p.gatherers
	if len(p.idx) <= 2 {
		nf = 1
	}
	p.rest = p.eco.pick(b, p.idx, nf, 6, 1, p.rest[:0])
	ns := int(p.share*float64(len(p.rest)) + 0.5)
	scouts := p.rest[:ns]
	p.eco.run(b, p.rest[ns:], 6, 1)
	// One scout per stale sector, oldest and farthest first by cost.
	p.look(b)
	p.sectors = b.staleSectorsOf(p.sectors[:0], p.seen, p.age, len(scouts)+4)
	b.assign(&p.a, scouts, p.sectors, nil, 4*(b.g.rows+b.g.cols))
	for k, i := range scouts {
		u := b.own[i]
		var sc [5]float64
		if j := p.a.unitTarget[k]; j >= 0 {
			b.towardTile(u, p.sectors[j], 1, &sc)
		}
		b.spread(u, &sc, 1.5)
		b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, o.margin)
		b.coreStay(u, &sc, o.coreStay)
		b.rank(int(i), &sc)
	}
}

// look marks the sectors in sight of the units this turn.
func (p *scoutP) look(b *bot) {
	m := b.mem
	if p.seen == nil {
		p.seen = make([]int32, len(m.secSeen))
		for i := range p.seen {
			p.seen[i] = -1
		}
	}
	for _, u := range b.own {
		s := m.sector(u)
		r, c := s/m.secCols, s%m.secCols
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				rr, cc := (r+dr+m.secRows)%m.secRows, (c+dc+m.secCols)%m.secCols
				p.seen[rr*m.secCols+cc] = int32(b.turn)
			}
		}
	}
}

// ------------------------------------------------------------ zone-driver

func zoneDriverDef() def {
	return def{
		name: "zone-driver",
		desc: "Exploits the shrinking zone mechanic",
		params: []strategies.Param{
			iparam("margin", "turns of slack kept ahead of the storm beyond every strategy's margin", 0, 4, 1),
			iparam("lookahead", "turns ahead the storm is read: energy is collected only where it leaves this much slack, and the whole army holds the centre once the circle of that turn is small", 0, 10, 3),
			param("centre_share", "share of the units holding the centre (all of them once the storm closes in)", 0, 1, 0.5),
			param("push", "reward for stepping into fights it wins (the storm herds enemies into its centre)", 0, 8, 4),
		},
		build: func(d strategies.Decoder) policy {
			return &zoneP{margin: d.Int("margin"), ahead: d.Int("lookahead"), share: d.Float("centre_share"), push: d.Float("push")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type zoneP struct {
	margin, ahead int
	share, push   float64
	eco           gatherCore
	a             assignment
	cc            multiCache
	idx, rest     []int32
	cores         []int32
	targets       []int32
	ready         []int32
	prey          []int32
}

// decide plays the storm. With the zone off, a share of the units holds
// the centre nearest it and the rest gather. With the zone on, the units
// collect energy only where the storm leaves them slack and only while a
// core can still spawn units that reach the centre in time, raze open
// cores the storm has not reached, and mass at the centre: enemies the
// storm drives in must cross the massed army, which steps into every
// fight it wins and hunts the enemies the storm presses.
func (p *zoneP) decide(b *bot) {
	cf := b.cached(&p.cc, b.centres)
	p.idx = b.unitIdx(p.idx[:0])
	o := moveOpts{wLose: -40, wTrade: -8, wWin: p.push, coreStay: 5}
	p.idx = razeReflex(b, p.idx, 6, &p.cores, &o)
	if !b.cfg.ZoneEnabled {
		// No storm: hold the centre with a share, gather with the rest.
		n := int(p.share*float64(len(p.idx)) + 0.5)
		if len(p.idx) <= 3 {
			n = 0
		}
		p.rest = p.rest[:0]
		p.holdCentre(b, cf, n, &o)
		p.eco.run(b, p.rest, 6, 1)
		return
	}
	b.storm.extra = p.margin
	// Energy buys units only while some own core can spawn one with the
	// slack to walk in; after that it only breaks score ties (energy is
	// the first tie-break), and a third unit of it would be spent on a
	// unit the storm kills: collect up to spawn_cost - 1.
	spawnSafe := false
	for _, oc := range b.ownCores {
		if b.slack(oc) > b.stormNeed(oc)+p.ahead {
			spawnSafe = true
		}
	}
	hungry := spawnSafe || b.v.You.Energy < b.cfg.SpawnCost-1
	p.targets, p.ready = p.targets[:0], p.ready[:0]
	if hungry {
		p.targets, p.ready = b.energyPlan(p.targets, p.ready, 3)
	}
	n := 0
	for k, t := range p.targets {
		if b.slack(t) >= b.storm.margin+p.margin {
			p.targets[n], p.ready[n] = t, p.ready[k]
			n++
		}
	}
	p.targets, p.ready = p.targets[:n], p.ready[:n]
	// The first two units always gather while the storm allows: energy
	// makes the bigger army at the centre, and breaks ties.
	nc := int(p.share*float64(len(p.idx)-2) + 0.5)
	if r := b.zoneRadius(b.turn + 1 + p.ahead); r >= 0 && r <= 6 {
		nc = len(p.idx)
	}
	nc = max(nc, 0)
	nc = min(nc, len(p.idx))
	p.rest = p.rest[:0]
	b.assign(&p.a, p.idx[nc:], p.targets, p.ready, b.g.rows+b.g.cols)
	for k, i := range p.idx[nc:] {
		if j := p.a.unitTarget[k]; j >= 0 {
			b.goTo(int(i), p.targets[j], &o)
			continue
		}
		p.rest = append(p.rest, i)
	}
	p.rest = append(p.rest, p.idx[:nc]...)
	// Prey: enemy units the storm presses (short of slack), which must
	// come in past the army.
	p.prey = p.prey[:0]
	for _, e := range b.enemy {
		if b.stormPressed(e) {
			p.prey = append(p.prey, e)
		}
	}
	var pf *lazy
	if len(p.prey) > 0 {
		pf = b.multiLazy(0, p.prey, b.mem.wallT, 8)
	}
	idle := len(p.rest) - nc // gatherers without a tile come first in rest
	for k, i := range p.rest {
		u := b.own[i]
		var sc [5]float64
		cf = b.checkCached(u, &p.cc)
		switch {
		case pf != nil && pf.at(u) <= 6 && b.allies(u) > b.enemyNext(u):
			b.towardLazy(u, pf, 1, &sc)
		case k < idle:
			// A gatherer without a tile waits spread out inside the
			// circle of lookahead turns ahead, ready for the next refill.
			for k2 := 0; k2 < 5; k2++ {
				if !b.zoneOK(b.opt(u, k2), p.ahead, 1) {
					sc[k2] -= 3
				}
			}
			b.toward(u, cf, 0.2, &sc)
			b.spread(u, &sc, 0.5)
		default:
			// To the centre, loosely packed.
			b.maxDist(u, cf, 2, 1, &sc)
			b.spread(u, &sc, 0.3)
		}
		if !hungry {
			for k2 := 1; k2 < 5; k2++ {
				if t := b.opt(u, k2); b.mem.isEnergy(t) && b.mem.energy[b.mem.eslot[t]-1].full {
					sc[k2] -= 3 // collecting would pay for a unit the storm kills
				}
			}
		}
		b.settle(int(i), &sc, &o)
	}
}

// holdCentre sends the n units nearest the centres to hold within four
// steps of them, spread out; the others are appended to p.rest.
func (p *zoneP) holdCentre(b *bot, cf field, n int, o *moveOpts) {
	b.assignManyField(&p.a, p.idx, cf, n)
	for k, i := range p.idx {
		if p.a.unitTarget[k] < 0 {
			p.rest = append(p.rest, i)
			continue
		}
		u := b.own[i]
		var sc [5]float64
		cf = b.checkCached(u, &p.cc)
		b.maxDist(u, cf, 4, 1, &sc)
		b.spread(u, &sc, 0.5)
		b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, 0)
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}
