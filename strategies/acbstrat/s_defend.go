package acbstrat

import (
	"slices"

	"crucible/strategies"
)

// Defensive strategies: guardian, defender and phalanx keep their units
// near their own cores. Guardian holds a territory that grows with its
// army and intercepts intruders inside it; defender holds a fixed ring,
// mounts a core when an enemy comes near and banks energy once it has
// enough units (it never marches; once no enemy unit has come in sight
// for 40 turns, or it far outnumbers all it has seen, it sends single
// units onto enemy cores left empty, which ends a won game); phalanx
// packs its units into one tight block before its cores and marches the
// block only when it is large, or once it far outnumbers the enemy.

// -------------------------------------------------------------- guardian

func guardianDef() def {
	return def{
		name: "guardian",
		desc: "Defends cores, cautious expansion",
		params: []strategies.Param{
			iparam("radius", "steps from the own cores that make up the territory at the start", 3, 20, 8),
			param("expand", "steps the territory grows per unit the player has", 0, 1, 0.3),
			iparam("sentries", "units kept next to each own core once there are units to spare", 0, 3, 1),
			iparam("min_tiles", "known energy tiles the territory always reaches, however small the army", 0, 8, 4),
		},
		build: func(d strategies.Decoder) policy {
			return &guardianP{radius: d.Int("radius"), expand: d.Float("expand"), sentries: d.Int("sentries"), minTiles: d.Int("min_tiles"), margin: 1}
		},
		fin: finishing{reach: 10, strike: true},
	}
}

type guardianP struct {
	radius, sentries, minTiles, margin int
	expand                             float64
	oc                                 multiCache
	eco                                gatherCore
	a                                  assignment
	idx, rest, intruders, cores        []int32
	targets, ready                     []int32
	dists                              []int
}

func (p *guardianP) decide(b *bot) {
	if len(b.ownCores) == 0 {
		p.idx = b.unitIdx(p.idx[:0])
		p.eco.run(b, p.idx, 6, 1)
		return
	}
	of := b.cached(&p.oc, b.ownCores)
	R := p.radius + int(p.expand*float64(len(b.own)))
	// The territory reaches at least the min_tiles nearest energy tiles.
	p.dists = p.dists[:0]
	for _, e := range b.mem.energy {
		p.dists = append(p.dists, of.at(e.tile))
	}
	if k := min(p.minTiles, len(p.dists)); k > 0 {
		slices.Sort(p.dists)
		R = max(R, p.dists[k-1])
	}
	p.idx = b.unitIdx(p.idx[:0])
	// Enemy cores the territory has swallowed are razed when open.
	o0 := moveOpts{wLose: -40, wTrade: -8, wWin: 3}
	p.cores = b.realEnemyCores(p.cores[:0])
	n := 0
	for _, c := range p.cores {
		if of.at(c) <= R {
			p.cores[n] = c
			n++
		}
	}
	p.idx = razeCores(b, p.idx, 8, p.cores[:n], &o0)
	// Sentries: the units nearest each core hold beside it.
	for _, c := range b.ownCores {
		// Sentries only once there are units to spare for the economy.
		if p.sentries == 0 || len(b.own) < (p.sentries+1)*len(b.ownCores)+2 {
			break
		}
		b.assignMany(&p.a, p.idx, c, p.sentries)
		p.rest = p.rest[:0]
		for k, i := range p.idx {
			if p.a.unitTarget[k] < 0 {
				p.rest = append(p.rest, i)
				continue
			}
			u := b.own[i]
			var sc [5]float64
			b.towardTile(u, c, 1, &sc)
			// Beside the core, on it only when an enemy is close.
			threatened := b.enemyNext(c) > 0
			for k2 := 0; k2 < 5; k2++ {
				t := b.opt(u, k2)
				if t == c && !threatened {
					sc[k2] -= 3
				}
				if t != c && threatened {
					sc[k2] -= 2
				}
			}
			b.danger(u, &sc, -5, 0, 2, 0)
			b.rank(int(i), &sc)
		}
		p.idx = append(p.idx[:0], p.rest...)
	}
	// Intruders inside the territory are attacked when we can win.
	p.intruders = p.intruders[:0]
	for _, e := range b.enemy {
		if of.at(e) <= R {
			p.intruders = append(p.intruders, e)
		}
	}
	var inf *lazy
	if len(p.intruders) > 0 {
		inf = b.multiLazy(0, p.intruders, b.mem.wallT, R+2)
	}
	// Energy inside the territory; the rest patrol half way out.
	p.targets, p.ready = b.energyPlan(p.targets[:0], p.ready[:0], 6)
	p.targets, p.ready = within(p.targets, p.ready, of, R)
	b.assign(&p.a, p.idx, p.targets, p.ready, 2*R)
	o := moveOpts{wLose: -40, wTrade: -8, wWin: 3, margin: p.margin, coreStay: 4}
	for k, i := range p.idx {
		u := b.own[i]
		var sc [5]float64
		of = b.checkCached(u, &p.oc)
		switch {
		case inf != nil && inf.at(u) <= 6 && b.allies(u) > b.enemyNext(u)+p.margin-1:
			b.towardLazy(u, inf, 1, &sc)
		case p.a.unitTarget[k] >= 0:
			b.towardTile(u, p.a.targets[p.a.unitTarget[k]], 1, &sc)
		default:
			b.atDist(u, of, R/2, 0.5, &sc)
			b.spread(u, &sc, 0.7)
		}
		b.maxDist(u, of, R, 3, &sc) // never leave the territory
		b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, o.margin)
		b.coreStay(u, &sc, o.coreStay)
		b.rank(int(i), &sc)
	}
}

// -------------------------------------------------------------- defender

func defenderDef() def {
	return def{
		name: "defender",
		desc: "Pure defensive posture",
		params: []strategies.Param{
			iparam("ring", "steps from the own cores at which defenders stand", 1, 8, 3),
			param("alert_radius2", "squared distance from a core at which an enemy makes a defender mount the core", 9, 144, 64),
			iparam("bank_units", "units after which every core is kept occupied, banking energy instead of spawning", 4, 80, 24),
			iparam("gather_radius", "steps from the own cores within which energy is collected", 4, 24, 10),
		},
		build: func(d strategies.Decoder) policy {
			return &defenderP{ring: d.Int("ring"), alert: int(d.Float("alert_radius2")), bank: d.Int("bank_units"), gather: d.Int("gather_radius")}
		},
		fin: finishing{quiet: 40},
	}
}

type defenderP struct {
	ring, alert, bank, gather int
	oc                        multiCache
	a                         assignment
	idx, sectors              []int32
	targets, ready            []int32
	dists                     []int
}

func (p *defenderP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	if len(b.ownCores) == 0 {
		for _, i := range p.idx {
			b.goTo(int(i), b.own[i], &moveOpts{wLose: -40, wTrade: -10})
		}
		return
	}
	of := b.cached(&p.oc, b.ownCores)
	banking := len(b.own) >= p.bank
	// Mount cores that are threatened (or all of them when banking).
	for _, c := range b.ownCores {
		_, d := b.nearestOf(b.enemy, c)
		if !banking && d > p.alert {
			continue
		}
		p.idx = b.sendNearest(&p.a, p.idx, c, 1, nil)
	}
	// Energy within the gather radius, stretched to reach the two nearest
	// known tiles (a home without energy would starve).
	R := p.gather
	p.dists = p.dists[:0]
	for _, e := range b.mem.energy {
		p.dists = append(p.dists, of.at(e.tile))
	}
	if len(p.dists) >= 2 {
		slices.Sort(p.dists)
		R = max(R, p.dists[1])
	}
	p.targets, p.ready = b.energyPlan(p.targets[:0], p.ready[:0], 4)
	p.targets, p.ready = within(p.targets, p.ready, of, R)
	b.assign(&p.a, p.idx, p.targets, p.ready, 2*R)
	// Fewer than two tiles known: one unit looks for more.
	scout := int32(-1)
	if len(p.dists) < 2 && len(p.idx) > 0 {
		p.sectors = b.staleSectors(p.sectors[:0], 1000, 1)
		for k, i := range p.idx {
			if p.a.unitTarget[k] < 0 && len(p.sectors) > 0 {
				scout = i
				break
			}
		}
	}
	for k, i := range p.idx {
		u := b.own[i]
		var sc [5]float64
		of = b.checkCached(u, &p.oc)
		if i == scout {
			b.goTo(int(i), p.sectors[0], &moveOpts{wLose: -40, wTrade: -10, coreStay: 4})
			continue
		}
		if p.a.unitTarget[k] >= 0 {
			b.towardTile(u, p.a.targets[p.a.unitTarget[k]], 1, &sc)
		} else {
			// Hold the ring, spread along it.
			b.atDist(u, of, p.ring, 1, &sc)
			b.spread(u, &sc, 0.6)
		}
		b.maxDist(u, of, R, 4, &sc) // stay home: nothing beyond the gather radius
		b.danger(u, &sc, -40, -6, 2, 0)
		b.coreStay(u, &sc, 4)
		b.avoidOwnCores(u, &sc, 2)
		b.rank(int(i), &sc)
	}
}

// --------------------------------------------------------------- phalanx

func phalanxDef() def {
	return def{
		name: "phalanx",
		desc: "Tight defensive formation",
		params: []strategies.Param{
			iparam("anchor", "steps from the own core, towards the enemy, at which the block forms", 2, 10, 4),
			iparam("advance_size", "units in the block before it marches on the enemy", 4, 80, 20),
			iparam("pace", "turns per step of the block when marching", 1, 6, 2),
			iparam("foragers", "units sent collecting energy outside the block", 0, 8, 4),
		},
		build: func(d strategies.Decoder) policy {
			return &phalanxP{anchorDist: d.Int("anchor"), advance: d.Int("advance_size"), pace: d.Int("pace"), foragers: d.Int("foragers"), anchor: -1}
		},
		fin: finishing{reach: 10},
	}
}

type phalanxP struct {
	anchorDist, advance, pace, foragers int
	anchor                              int32
	lastStep                            int
	ec                                  multiCache
	eco                                 gatherCore
	idx, block                          []int32
	hist                                []int32
	histAnchor                          int32
	start, ball, free                   []int32
	tmpl                                field
	histField                           field
	histVer                             int
}

// home returns the tile anchorDist steps from the first own core along
// the shortest path towards the nearest enemy core.
func (p *phalanxP) home(b *bot, ef field) int32 {
	t := b.ownCores[0]
	for s := 0; s < p.anchorDist; s++ {
		t = downhill(b, ef, t)
	}
	return t
}

// radius returns the block's radius: the smallest distance around the
// anchor (field af) that holds n open tiles. The histogram of distances is
// kept until the anchor or its field changes.
func (p *phalanxP) radius(b *bot, af field, n int) int {
	if p.histAnchor != p.anchor || len(p.hist) == 0 || &p.histField[0] != &af[0] || p.histVer != b.fc.builds {
		p.histAnchor, p.histField, p.histVer = p.anchor, af, b.fc.builds
		p.hist = p.hist[:0]
		for i := range af {
			if d := af.at(int32(i)); d < 64 {
				for len(p.hist) <= d {
					p.hist = append(p.hist, 0)
				}
				p.hist[d]++
			}
		}
		// The tiles by distance (a counting sort), for the free slots.
		p.start = append(p.start[:0], 0)
		for d := range p.hist {
			p.start = append(p.start, p.start[d]+p.hist[d])
		}
		p.ball = resizeI32(p.ball, int(p.start[len(p.hist)]))
		for i := range af {
			if d := af.at(int32(i)); d < 64 {
				p.ball[p.start[d]] = int32(i)
				p.start[d]++
			}
		}
	}
	rad, acc := 0, int32(0)
	for d, c := range p.hist {
		acc += c
		rad = d
		if int(acc) >= n {
			break
		}
	}
	return rad
}

// downhill returns the open neighbour of t lowest on f (t itself when none
// is lower).
func downhill(b *bot, f field, t int32) int32 {
	best, bd := t, f.at(t)
	for k := 0; k < 4; k++ {
		nb := b.g.nbr[int(t)*4+k]
		if !b.mem.wall[nb] && f.at(nb) < bd {
			best, bd = nb, f.at(nb)
		}
	}
	return best
}

func (p *phalanxP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	if len(b.ownCores) == 0 || len(b.enemyCores) == 0 {
		p.eco.run(b, p.idx, 6, 1)
		return
	}
	ef := b.cached(&p.ec, b.enemyCores)
	nf := p.foragers
	if len(p.idx) <= 2 {
		nf = len(p.idx) // the first units all forage
	}
	p.block = p.eco.pick(b, p.idx, nf, 6, 1, p.block[:0])
	// The block marches once it is large, or once the player far
	// outnumbers what it has seen (its way of finishing a won game: the
	// block itself, at its pace, rather than a strike force).
	marching := len(p.block) >= p.advance || (b.dominant() && len(p.block) >= 6)
	if !marching || p.anchor < 0 {
		p.anchor = p.home(b, ef)
	}
	af := b.fieldTo(p.anchor)
	rad := p.radius(b, af, len(p.block))
	if marching && b.turn-p.lastStep >= p.pace {
		// Step the block only when it is together.
		out := 0
		for _, i := range p.block {
			if af.at(b.own[i]) > rad+1 {
				out++
			}
		}
		if out*4 <= len(p.block) {
			next := downhill(b, ef, p.anchor)
			if next == p.anchor && ef.at(p.anchor) > 0 {
				// Stuck: the field predates walls found since.
				b.rebuildCached(&p.ec)
				next = downhill(b, ef, p.anchor)
			}
			p.anchor = next
			p.lastStep = b.turn
			af = b.fieldTo(p.anchor)
			rad = p.radius(b, af, len(p.block))
		}
	}
	// Units outside the block walk to its nearest free slot (around the
	// block, not into its back); units inside close up on the anchor.
	p.free = p.free[:0]
	for _, t := range p.ball {
		if af.at(t) > rad {
			break
		}
		if b.ownAt[t] != b.stamp && !b.wall(t) && !b.onOwnCore(t) {
			p.free = append(p.free, t)
		}
	}
	var sf *lazy // read only by the units outside the block, near it
	if len(p.free) > 0 {
		// Own units block this search: a path through the packed block
		// leads nowhere.
		if p.tmpl == nil {
			p.tmpl = make(field, b.g.n)
		}
		copy(p.tmpl, b.mem.wallT)
		for _, u := range b.own {
			p.tmpl[u] = -1
		}
		sf = b.multiLazy(0, p.free, p.tmpl, 4*rad+30)
	}
	for _, i := range p.block {
		u := b.own[i]
		var sc [5]float64
		af = b.checkTile(u, p.anchor)
		if af.at(u) > rad && sf != nil {
			b.towardLazy(u, sf, 1, &sc)
		} else {
			for k := 0; k < 5; k++ {
				d := af.at(b.opt(u, k))
				if d > rad {
					sc[k] -= 2 * float64(d-rad)
				}
				sc[k] -= 0.1 * float64(d)
			}
		}
		b.danger(u, &sc, -20, -2, 2, 0)
		b.coreStay(u, &sc, 4)
		b.avoidOwnCores(u, &sc, 2)
		b.rank(int(i), &sc)
	}
}
