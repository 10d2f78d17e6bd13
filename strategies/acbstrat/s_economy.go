package acbstrat

import "crucible/strategies"

// Economy strategies besides gatherer: economist, farmer and pacifist.
// Economist times its collectors to refills, leaves tiles an enemy will
// reach first and stops spawning (banking energy on its cores, which
// breaks score ties) once it has enough units for its tiles. Farmer holds
// a territory of tiles around its cores that grows with time, one camper
// per tile and guards beside it, and banks energy in the late game.
// Pacifist collects while keeping every unit out of any enemy's reach;
// it never fights, but it walks onto an enemy core that stands empty with
// no enemy unit near (razing is no fight), and once no enemy unit has been
// in sight for 40 turns it sends single units, out of every enemy's
// reach, to the cores it knows or suspects: a won game ends.

// ------------------------------------------------------------- economist

func economistDef() def {
	return def{
		name: "economist",
		desc: "Maximizes energy efficiency",
		params: []strategies.Param{
			param("units_per_tile", "units per known energy tile beyond which cores are kept occupied to bank energy instead of spawning", 0.5, 4, 2),
			iparam("contest_margin", "steps an enemy unit may be nearer to a tile than our collector before the tile is left to it", 0, 6, 2),
			iparam("wait", "turns ahead a refilling tile counts as a target (its collector waits on it)", 0, 20, 10),
		},
		build: func(d strategies.Decoder) policy {
			return &economistP{perTile: d.Float("units_per_tile"), contest: d.Int("contest_margin"), wait: d.Int("wait")}
		},
		fin: finishing{reach: 12, strike: true},
	}
}

type economistP struct {
	perTile        float64
	contest, wait  int
	a, ax          assignment
	idx, rest      []int32
	targets, ready []int32
	sectors        []int32
}

func (p *economistP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	// Bank: enough units for the known tiles (and enough tiles known for
	// the count to mean something).
	if len(b.mem.energy) >= 4 && float64(len(b.own)) >= p.perTile*float64(len(b.mem.energy))+float64(len(b.ownCores)) {
		for _, c := range b.ownCores {
			p.idx = b.sendNearest(&p.a, p.idx, c, 1, nil)
		}
	}
	// Targets: refill-timed, minus contested ones.
	p.targets, p.ready = b.energyPlan(p.targets[:0], p.ready[:0], p.wait)
	b.assign(&p.a, p.idx, p.targets, p.ready, b.g.rows+b.g.cols)
	o := moveOpts{wLose: -60, wTrade: -20, wWin: 1, margin: 1, coreStay: 5}
	p.rest = p.rest[:0]
	for k, i := range p.idx {
		j := p.a.unitTarget[k]
		if j >= 0 && len(b.enemy) > 0 {
			// Contested: a visible enemy unit is nearer by more than the
			// margin (its steps counted on an open map, a lower bound).
			t := p.targets[j]
			near := far
			for _, e := range b.enemy {
				near = min(near, b.g.manhattan(e, t))
			}
			if int(p.a.unitCost[k]) > near+p.contest {
				j = -1
			}
		}
		if j < 0 {
			p.rest = append(p.rest, i)
			continue
		}
		b.goTo(int(i), p.targets[j], &o)
	}
	// Spare units explore for more tiles, then escort: they stand by the
	// nearest tile, ready to fight off intruders.
	p.sectors = b.staleSectors(p.sectors[:0], 60, 8)
	b.assign(&p.ax, p.rest, p.sectors, nil, 2*(b.g.rows+b.g.cols))
	for k, i := range p.rest {
		u := b.own[i]
		var sc [5]float64
		if j := p.ax.unitTarget[k]; j >= 0 && k%2 == 0 {
			b.towardTile(u, p.sectors[j], 1, &sc)
		} else if len(b.ownCores) > 0 {
			oc, _ := b.nearestOwnCore(u)
			d := b.fieldTo(oc).at(u)
			if d > 5 {
				b.towardTile(u, oc, 0.5, &sc)
			}
			b.spread(u, &sc, 0.8)
		}
		b.danger(u, &sc, -50, -10, 3, 0)
		b.coreStay(u, &sc, 2)
		b.rank(int(i), &sc)
	}
}

// ---------------------------------------------------------------- farmer

func farmerDef() def {
	return def{
		name: "farmer",
		desc: "Long-term energy farming strategy",
		params: []strategies.Param{
			iparam("farm_radius", "steps from the own cores within which energy tiles are farmed at the start", 4, 30, 10),
			param("growth", "steps the farm radius grows every 100 turns", 0, 20, 6),
			iparam("guards", "units standing guard beside each farmed tile", 0, 3, 1),
			param("bank_from", "share of max_turns after which cores are kept occupied to bank energy", 0.5, 1, 0.85),
		},
		build: func(d strategies.Decoder) policy {
			return &farmerP{radius: d.Int("farm_radius"), growth: d.Float("growth"), guards: d.Int("guards"), bankFrom: d.Float("bank_from")}
		},
		fin: finishing{reach: 12, strike: true},
	}
}

type farmerP struct {
	radius, guards int
	growth         float64
	bankFrom       float64
	oc             multiCache
	a, ag          assignment
	idx, rest      []int32
	farms          []int32
	sectors        []int32
	ax             assignment
}

func (p *farmerP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	if len(b.ownCores) == 0 {
		for _, i := range p.idx {
			b.goTo(int(i), b.own[i], &moveOpts{wLose: -40})
		}
		return
	}
	of := b.cached(&p.oc, b.ownCores)
	if float64(b.turn) >= p.bankFrom*float64(b.cfg.MaxTurns) {
		for _, c := range b.ownCores {
			p.idx = b.sendNearest(&p.a, p.idx, c, 1, nil)
		}
	}
	R := p.radius + int(p.growth*float64(b.turn)/100)
	p.farms = p.farms[:0]
	for _, e := range b.mem.energy {
		if of.at(e.tile) <= R {
			p.farms = append(p.farms, e.tile)
		}
	}
	// One camper per farm: it stays on the tile and collects each refill.
	b.assign(&p.a, p.idx, p.farms, nil, 2*R+10)
	o := moveOpts{wLose: -40, wTrade: -5, wWin: 3, coreStay: 5}
	p.rest = p.rest[:0]
	for k, i := range p.idx {
		if j := p.a.unitTarget[k]; j >= 0 {
			b.goTo(int(i), p.farms[j], &o)
			continue
		}
		p.rest = append(p.rest, i)
	}
	// Guards: the next nearest units stand beside each farm.
	for g := 0; g < p.guards && len(p.rest) > 0; g++ {
		b.assign(&p.ag, p.rest, p.farms, nil, 2*R+10)
		n := 0
		for k, i := range p.rest {
			j := p.ag.unitTarget[k]
			if j < 0 {
				p.rest[n] = i
				n++
				continue
			}
			u := b.own[i]
			var sc [5]float64
			f := b.checkTile(u, p.farms[j])
			for k2 := 0; k2 < 5; k2++ {
				d := f.at(b.opt(u, k2))
				if d == 0 {
					sc[k2] -= 3 // leave the tile to the camper
				} else {
					sc[k2] -= float64(d)
				}
			}
			b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, 0)
			b.coreStay(u, &sc, 5)
			b.rank(int(i), &sc)
		}
		p.rest = p.rest[:n]
	}
	// The rest: scouts while no farm is known, then keepers of the land
	// between the farms and the cores.
	if len(p.farms) < 2 {
		p.sectors = b.staleSectors(p.sectors[:0], 40, 8)
		b.assign(&p.ax, p.rest, p.sectors, nil, 4*R)
		p.rest = b.sendAssigned(&p.ax, p.rest, &o, p.rest[:0])
	}
	for _, i := range p.rest {
		u := b.own[i]
		var sc [5]float64
		of = b.checkCached(u, &p.oc)
		b.atDist(u, of, R/2, 0.5, &sc)
		b.spread(u, &sc, 0.7)
		b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, 0)
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// -------------------------------------------------------------- pacifist

func pacifistDef() def {
	return def{
		name: "pacifist",
		desc: "Avoids combat entirely",
		params: []strategies.Param{
			iparam("safety", "extra tiles of clearance kept beyond the reach of any enemy unit", 0, 4, 1),
			iparam("horizon", "turns ahead a refilling tile counts as a target", 0, 20, 6),
			iparam("home_range", "steps from the own cores within which energy is collected", 5, 80, 30),
		},
		build: func(d strategies.Decoder) policy {
			return &pacifistP{safety: d.Int("safety"), horizon: d.Int("horizon"), home: d.Int("home_range")}
		},
		fin: finishing{quiet: 40, clear: true},
	}
}

type pacifistP struct {
	safety, horizon, home int
	oc, ec                multiCache
	a                     assignment
	idx                   []int32
	targets, ready        []int32
	zone                  []offset
	unsafe                []uint16
}

// buildUnsafe marks, for this turn, every tile within the pacifist's
// clearance of a visible enemy unit (p.unsafe counts the enemies).
func (p *pacifistP) buildUnsafe(b *bot) {
	if p.zone == nil {
		r := isqrt(b.cfg.AttackRadius2) + 1 + p.safety
		p.zone = b.g.disc(r * r)
		p.unsafe = make([]uint16, b.g.n)
	}
	clear(p.unsafe)
	for _, e := range b.enemy {
		b.g.stamp(p.unsafe, e, p.zone)
	}
}

func (p *pacifistP) decide(b *bot) {
	p.buildUnsafe(b)
	p.idx = b.unitIdx(p.idx[:0])
	var of field
	if len(b.ownCores) > 0 {
		of = b.cached(&p.oc, b.ownCores)
	}
	var ecf field
	if len(b.enemyCores) > 0 {
		ecf = b.cached(&p.ec, b.enemyCores)
	}
	p.targets, p.ready = b.energyPlan(p.targets[:0], p.ready[:0], p.horizon)
	n := 0
	for k, t := range p.targets {
		if p.unsafe[t] == 0 && (of == nil || of.at(t) <= p.home) {
			p.targets[n], p.ready[n] = t, p.ready[k]
			n++
		}
	}
	p.targets, p.ready = p.targets[:n], p.ready[:n]
	b.assign(&p.a, p.idx, p.targets, p.ready, b.g.rows+b.g.cols)
	// Distance from the enemy, for units that must run.
	var away *lazy
	if len(b.enemy) > 0 {
		away = b.multiLazy(0, b.enemy, b.mem.wallT, 16)
	}
	for k, i := range p.idx {
		u := b.own[i]
		var sc [5]float64
		switch j := p.a.unitTarget[k]; {
		case away != nil && p.unsafe[u] > 0:
			// Run: as far from every enemy as the next step allows.
			for k2 := 0; k2 < 5; k2++ {
				if d := away.at(b.opt(u, k2)); d < far {
					sc[k2] += 3 * float64(d)
				} else {
					sc[k2] += 60
				}
			}
		case j >= 0:
			b.towardTile(u, p.targets[j], 1, &sc)
		case of != nil:
			of = b.checkCached(u, &p.oc)
			// Idle at home, spread out, off the cores.
			b.maxDist(u, of, 4, 0.5, &sc)
			b.spread(u, &sc, 0.6)
		}
		for k2 := 0; k2 < 5; k2++ {
			t := b.opt(u, k2)
			if p.unsafe[t] > 0 && (k2 > 0 || p.unsafe[u] == 0) {
				sc[k2] -= 100 + 10*float64(p.unsafe[t])
			}
			// Never near an enemy core: stepping on it would be an attack.
			if ecf != nil && ecf.at(t) <= 2 {
				sc[k2] -= 50
			}
		}
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// isqrt returns the integer square root of x (floor).
func isqrt(x int) int {
	r := 0
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}
