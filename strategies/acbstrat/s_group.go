package acbstrat

import "crucible/strategies"

// Group strategies: swarm moves its army as one cohesive blob behind a
// leader; coordinator splits its units into roles every turn (defence
// squads sized to each threat, an attack group that musters at a staging
// line before it strikes, collectors).

// ----------------------------------------------------------------- swarm

func swarmDef() def {
	return def{
		name: "swarm",
		desc: "Formation cohesion, advances as a group",
		params: []strategies.Param{
			iparam("min_swarm", "units the swarm needs before it advances (fewer: it gathers energy together)", 2, 30, 8),
			iparam("cohesion", "steps from the leader within which a member counts as with the swarm", 1, 8, 3),
			param("advance_frac", "share of members that must be with the swarm for the leader to step forward", 0.3, 1, 0.7),
			iparam("gatherers", "units kept collecting energy outside the swarm", 0, 8, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &swarmP{minSwarm: d.Int("min_swarm"), cohesion: d.Int("cohesion"), frac: d.Float("advance_frac"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type swarmP struct {
	minSwarm, cohesion, gatherers int
	frac                          float64
	formed                        bool
	ec                            multiCache
	eco                           gatherCore
	idx, members                  []int32
	targets, ready                []int32
	one                           [1]int32
}

// decide moves the swarm: one blob behind a leader. While it is smaller
// than min_swarm it grazes, the leader walking to the energy tile nearest
// it; once formed it marches on enemy units near it or on enemy cores.
// The leader steps only when enough members keep up; members hold within
// cohesion of it and take energy tiles they pass.
func (p *swarmP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	nf := p.gatherers
	if len(p.idx) <= 2 {
		nf = len(p.idx)
	}
	p.members = p.eco.pick(b, p.idx, nf, 6, 1, p.members[:0])
	if len(p.members) == 0 {
		return
	}
	if len(p.members) >= p.minSwarm {
		p.formed = true
	} else if len(p.members) < p.minSwarm/2 {
		p.formed = false
	}
	var gf field
	if len(b.enemyCores) > 0 {
		gf = b.cached(&p.ec, b.enemyCores)
	}
	// Leader: the member nearest the goal (or the first).
	lead := p.members[0]
	if gf != nil && p.formed {
		for _, i := range p.members {
			if gf.at(b.own[i]) < gf.at(b.own[lead]) {
				lead = i
			}
		}
	}
	lt := b.own[lead]
	p.one[0] = lt
	lf := b.multiLazy(0, p.one[:], b.mem.wallT, 3*p.cohesion+24)
	with := 0
	for _, i := range p.members {
		if lf.at(b.own[i]) <= p.cohesion {
			with++
		}
	}
	ready := float64(with) >= p.frac*float64(len(p.members))
	// While grazing, the goal is the energy tile nearest the leader.
	graze := int32(-1)
	if !p.formed {
		p.targets, p.ready = b.energyPlan(p.targets[:0], p.ready[:0], 4)
		bd := far
		for _, t := range p.targets {
			if d := lf.at(t); d < bd {
				graze, bd = t, d
			}
		}
	}
	var ef *lazy
	if len(b.enemy) > 0 && p.formed {
		ef = b.multiLazy(1, b.enemy, b.mem.wallT, 12)
	}
	for _, i := range p.members {
		u := b.own[i]
		var sc [5]float64
		if i == lead {
			switch {
			case !ready:
				// Wait for the others.
			case ef != nil && ef.at(u) <= 10:
				b.towardLazy(u, ef, 1, &sc)
			case p.formed && gf != nil:
				b.towardCached(u, &p.ec, 1, &sc)
			case graze >= 0:
				b.towardTile(u, graze, 1, &sc)
			}
			b.danger(u, &sc, -30, -6, 3, 0)
		} else {
			// Members keep within cohesion of the leader, lean towards
			// the goal with it and take energy on the way.
			for k := 0; k < 5; k++ {
				t := b.opt(u, k)
				d := lf.at(t)
				if d > p.cohesion {
					sc[k] -= 2 * float64(d-p.cohesion)
				}
				if d == 0 {
					sc[k] -= 5
				}
				if b.mem.isEnergy(t) && b.mem.energy[b.mem.eslot[t]-1].full {
					sc[k] += 2
				}
			}
			if gf != nil {
				gf = b.checkCached(u, &p.ec)
			}
			if lf.at(u) >= far && gf != nil {
				// Lost touch: walk towards the front.
				b.toward(u, gf, 1, &sc)
			} else if p.formed && gf != nil {
				b.toward(u, gf, 0.3, &sc)
			}
			b.danger(u, &sc, -30, -4, 3, 0)
		}
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// ----------------------------------------------------------- coordinator

func coordinatorDef() def {
	return def{
		name: "coordinator",
		desc: "Coordinates unit actions across the field",
		params: []strategies.Param{
			param("attack_share", "share of the units given to the attack group once the economy is running", 0, 1, 0.45),
			iparam("rally_size", "attack-group units that must stand at the staging line before they strike", 2, 20, 6),
			iparam("defense_margin", "defenders sent to a threatened core beyond the number of attackers seen", 0, 3, 1),
			iparam("stage", "steps from the target core at which the attack group stages", 4, 14, 8),
		},
		build: func(d strategies.Decoder) policy {
			return &coordinatorP{share: d.Float("attack_share"), rally: d.Int("rally_size"), margin: d.Int("defense_margin"), stage: d.Int("stage"), target: -1}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type coordinatorP struct {
	share                float64
	rally, margin, stage int
	target               int32
	eco                  gatherCore
	oc                   multiCache
	a                    assignment
	idx, rest, attack    []int32
}

func (p *coordinatorP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	// Defence: each threatened core gets a squad one larger than the
	// attackers near it.
	for _, c := range b.ownCores {
		n := 0
		for _, e := range b.enemy {
			if b.g.dist2(e, c) <= 100 {
				n++
			}
		}
		if n == 0 {
			continue
		}
		p.idx = b.sendNearest(&p.a, p.idx, c, n+p.margin, &moveOpts{wLose: -15, wWin: 4})
	}
	// Attack group: a share of the units, those nearest the target.
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
	na := 0
	if len(p.idx) >= 6 && p.target >= 0 {
		na = int(p.share * float64(len(p.idx)))
	}
	p.attack = p.attack[:0]
	if na > 0 {
		b.assignMany(&p.a, p.idx, p.target, na)
		p.rest = p.rest[:0]
		for k, i := range p.idx {
			if p.a.unitTarget[k] >= 0 {
				p.attack = append(p.attack, i)
			} else {
				p.rest = append(p.rest, i)
			}
		}
		p.idx = append(p.idx[:0], p.rest...)
		p.strike(b)
	}
	p.eco.run(b, p.idx, 6, 1)
}

// strike moves the attack group: it stages at the staging line and goes
// in together once rally_size of it stands there.
func (p *coordinatorP) strike(b *bot) {
	tf := b.fieldTo(p.target)
	staged := 0
	for _, i := range p.attack {
		if tf.at(b.own[i]) <= p.stage+1 {
			staged++
		}
	}
	goIn := staged >= p.rally
	for _, i := range p.attack {
		u := b.own[i]
		var sc [5]float64
		tf = b.checkTile(u, p.target)
		b.toward(u, tf, 1, &sc)
		if !goIn {
			b.minDist(u, tf, p.stage, 3, &sc)
			b.danger(u, &sc, -30, -5, 3, 0)
		} else {
			b.danger(u, &sc, -10, 0, 4, 0)
		}
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}
