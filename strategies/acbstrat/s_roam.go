package acbstrat

import (
	"crucible/engine/acb"
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
	}
}

type scoutP struct {
	share                   float64
	age, caution, gatherers int
	eco                     gatherCore
	a                       assignment
	idx, rest               []int32
	sectors, cores          []int32
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
	p.sectors = b.staleSectors(p.sectors[:0], p.age, len(scouts)+4)
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

// ------------------------------------------------------------ zone-driver

func zoneDriverDef() def {
	return def{
		name: "zone-driver",
		desc: "Exploits the shrinking zone mechanic",
		params: []strategies.Param{
			iparam("margin", "tiles of safety kept inside the storm's future edge", 0, 4, 1),
			iparam("lookahead", "turns ahead the storm's edge is predicted", 0, 10, 3),
			param("centre_share", "share of the units holding the centre (all of them once the storm closes in)", 0, 1, 0.5),
			param("push", "reward for stepping into fights it wins (the storm herds enemies into its centre)", 0, 8, 4),
		},
		build: func(d strategies.Decoder) policy {
			return &zoneP{margin: d.Int("margin"), ahead: d.Int("lookahead"), share: d.Float("centre_share"), push: d.Float("push")}
		},
	}
}

type zoneP struct {
	margin, ahead int
	share, push   float64
	eco           gatherCore
	a             assignment
	idx, rest     []int32
	cores         []int32
	targets       []int32
	ready         []int32
}

func (p *zoneP) decide(b *bot) {
	c := b.zoneCentre()
	cf := b.fieldTo(c)
	p.idx = b.unitIdx(p.idx[:0])
	o := moveOpts{wLose: -40, wTrade: -8, wWin: p.push, coreStay: 5}
	if !b.cfg.ZoneEnabled {
		// No storm: hold the centre with a share, gather with the rest.
		p.idx = razeReflex(b, p.idx, 6, &p.cores, &o)
		n := int(p.share*float64(len(p.idx)) + 0.5)
		if len(p.idx) <= 3 {
			n = 0
		}
		b.assignMany(&p.a, p.idx, c, n)
		p.rest = p.rest[:0]
		for k, i := range p.idx {
			if p.a.unitTarget[k] < 0 {
				p.rest = append(p.rest, i)
				continue
			}
			u := b.own[i]
			var sc [5]float64
			cf = b.checkTile(u, c)
			b.maxDist(u, cf, 4, 1, &sc)
			b.spread(u, &sc, 0.5)
			b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, 0)
			b.coreStay(u, &sc, 5)
			b.rank(int(i), &sc)
		}
		p.eco.run(b, p.rest, 6, 1)
		return
	}
	// Storm: energy inside the future circle, the rest to the centre.
	// Energy is worth collecting only while some own core will still be
	// inside the circle: a core in the storm spawns units straight into it.
	rf0 := acb.ZoneRadius(b.cfg, b.turn+1+p.ahead)
	spawnSafe := false
	for _, oc := range b.ownCores {
		if b.g.dist2(oc, c) <= rf0*rf0 {
			spawnSafe = true
		}
	}
	p.targets, p.ready = p.targets[:0], p.ready[:0]
	if spawnSafe {
		p.targets, p.ready = b.energyPlan(p.targets, p.ready, 3)
	}
	n := 0
	for k, t := range p.targets {
		if b.zoneOK(t, p.ahead+cf.at(t)/2, p.margin) {
			p.targets[n], p.ready[n] = t, p.ready[k]
			n++
		}
	}
	p.targets, p.ready = p.targets[:n], p.ready[:n]
	nc := int(p.share*float64(len(p.idx)) + 0.5)
	if r := b.zoneRadius(b.turn + 1 + p.ahead); r >= 0 && r <= 6 {
		nc = len(p.idx)
	}
	b.assign(&p.a, p.idx[nc:], p.targets, p.ready, b.g.rows+b.g.cols)
	rf := b.zoneRadius(b.turn+1+p.ahead) - p.margin
	for k, i := range p.idx {
		u := b.own[i]
		var sc [5]float64
		cf = b.checkTile(u, c)
		gk := k - nc
		// Urgent: walking the shortest path to the centre, one step a
		// turn, would barely keep ahead of the storm of a few turns
		// ahead (steps bound the straight-line distance from above).
		urgent := rf >= 0 && cf.at(u) >= rf-1
		if !urgent && gk >= 0 && p.a.unitTarget[gk] >= 0 {
			b.towardTile(u, p.targets[p.a.unitTarget[gk]], 1, &sc)
		} else {
			// To the centre, loosely packed.
			b.maxDist(u, cf, 2, 1, &sc)
			b.spread(u, &sc, 0.3)
		}
		if urgent {
			b.toward(u, cf, 10, &sc)
		}
		if !spawnSafe {
			for k2 := 1; k2 < 5; k2++ {
				if t := b.opt(u, k2); b.mem.isEnergy(t) && b.mem.energy[b.mem.eslot[t]-1].full {
					sc[k2] -= 3 // collecting would pay for a unit the storm kills
				}
			}
		}
		// The storm outweighs any fight: certain death next turn, nearly
		// certain the turn after, and a margin a few turns ahead.
		r1, r2 := b.zoneRadius(b.turn+1), b.zoneRadius(b.turn+2)
		for k2 := 0; k2 < 5; k2++ {
			t := b.opt(u, k2)
			d2 := b.g.dist2(t, c)
			switch {
			case r1 >= 0 && d2 > r1*r1:
				sc[k2] -= 1000 + float64(d2-r1*r1)
			case r2 >= 0 && d2 > r2*r2:
				sc[k2] -= 100
			case !b.zoneOK(t, p.ahead, p.margin):
				sc[k2] -= 15
			}
		}
		b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, 0)
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}
