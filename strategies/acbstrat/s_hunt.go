package acbstrat

import "crucible/strategies"

// Hunting strategies: hunter sends packs after isolated enemy units;
// opportunist strikes wherever it has a momentary edge and razes any core
// left open; leader-targeter throws its army at the opponent it believes
// leads; raider raids the energy on the enemy's side and runs from any
// fight it cannot win.

// ---------------------------------------------------------------- hunter

func hunterDef() def {
	return def{
		name: "hunter",
		desc: "Targets isolated enemy units",
		params: []strategies.Param{
			iparam("pack", "hunters sent after each prey, beyond the prey's own group size", 1, 5, 2),
			iparam("isolation_radius2", "squared distance within which other enemy units make a unit not isolated", 4, 100, 36),
			iparam("max_group", "largest enemy group (the prey included) still hunted", 1, 4, 2),
			iparam("hunt_range", "steps a hunter goes after prey", 5, 40, 18),
			iparam("gatherers", "units always collecting energy", 0, 8, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &hunterP{pack: d.Int("pack"), iso: d.Int("isolation_radius2"), maxGroup: d.Int("max_group"), rng: d.Int("hunt_range"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type hunterP struct {
	pack, iso, maxGroup, rng, gatherers int
	eco, scout                          gatherCore
	idx, rest, free                     []int32
	prey                                []int32
	preyD                               []int
	one                                 [1]int32
	used                                []bool
}

func (p *hunterP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	p.free = p.eco.pick(b, p.idx, p.gatherers, 6, 1, p.free[:0])
	// Prey: isolated enemy units, the three nearest to one of ours.
	p.prey, p.preyD = p.prey[:0], p.preyD[:0]
	for _, e := range b.enemy {
		if b.isolation(e, p.iso) <= p.maxGroup {
			_, d := b.nearestOf(b.own, e)
			// Insertion keeps the list sorted by distance.
			k := len(p.prey)
			p.prey, p.preyD = append(p.prey, e), append(p.preyD, d)
			for ; k > 0 && p.preyD[k-1] > d; k-- {
				p.prey[k], p.preyD[k] = p.prey[k-1], p.preyD[k-1]
			}
			p.prey[k], p.preyD[k] = e, d
		}
	}
	p.used = resizeBool(p.used, len(p.free))
	for k := range p.used {
		p.used[k] = false
	}
	hunts := 0
	for _, e := range p.prey {
		if hunts == 3 {
			break
		}
		p.one[0] = e
		f := b.multiLazy(hunts, p.one[:], b.mem.wallT, p.rng)
		need := b.isolation(e, p.iso) + p.pack
		got := 0
		for got < need {
			best, bd := -1, p.rng+1
			for k, i := range p.free {
				if !p.used[k] {
					if d := f.at(b.own[i]); d < bd {
						best, bd = k, d
					}
				}
			}
			if best < 0 {
				break
			}
			p.used[best] = true
			got++
			i := p.free[best]
			u := b.own[i]
			var sc [5]float64
			b.towardLazy(u, f, 1, &sc)
			b.danger(u, &sc, -30, -4, 4, 0)
			b.coreStay(u, &sc, 5)
			b.rank(int(i), &sc)
		}
		if got > 0 {
			hunts++
		}
	}
	// The others roam to find prey (and energy on the way).
	p.rest = p.rest[:0]
	for k, i := range p.free {
		if !p.used[k] {
			p.rest = append(p.rest, i)
		}
	}
	p.scout.explore, p.scout.exploreSet = 0.8, true
	p.scout.run(b, p.rest, 6, 0)
}

// ----------------------------------------------------------- opportunist

func opportunistDef() def {
	return def{
		name: "opportunist",
		desc: "Exploits momentary advantages",
		params: []strategies.Param{
			iparam("edge", "own units beyond the enemy's count needed near a target to strike it", 0, 3, 1),
			iparam("strike_range", "steps within which units join a strike", 2, 12, 6),
			iparam("raze_range", "steps within which an undefended enemy core is razed", 0, 30, 12),
		},
		build: func(d strategies.Decoder) policy {
			return &opportunistP{edge: d.Int("edge"), strike: d.Int("strike_range"), raze: d.Int("raze_range")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type opportunistP struct {
	edge, strike, raze int
	eco                gatherCore
	idx, rest, cores   []int32
	targets            []int32
}

func (p *opportunistP) decide(b *bot) {
	o := moveOpts{wLose: -50, wTrade: -10, wWin: 4, coreStay: 4}
	p.idx = b.unitIdx(p.idx[:0])
	p.idx = razeReflex(b, p.idx, p.raze, &p.cores, &o)
	// Targets: enemy units our units near them outnumber by the edge.
	p.targets = p.targets[:0]
	r2 := (p.strike + 2) * (p.strike + 2)
	for _, e := range b.enemy {
		mine := 0
		for _, i := range p.idx {
			if b.g.dist2(b.own[i], e) <= r2 {
				mine++
			}
		}
		if mine >= b.isolation(e, b.cfg.AttackRadius2)+p.edge {
			p.targets = append(p.targets, e)
		}
	}
	if len(p.targets) > 0 {
		f := b.multiLazy(0, p.targets, b.mem.wallT, p.strike)
		p.rest = p.rest[:0]
		for _, i := range p.idx {
			u := b.own[i]
			if f.at(u) > p.strike {
				p.rest = append(p.rest, i)
				continue
			}
			var sc [5]float64
			b.towardLazy(u, f, 1, &sc)
			b.danger(u, &sc, -20, -2, 5, 0)
			b.coreStay(u, &sc, 5)
			b.rank(int(i), &sc)
		}
		p.idx = append(p.idx[:0], p.rest...)
	}
	p.eco.run(b, p.idx, 6, 1)
}

// ------------------------------------------------------- leader-targeter

func leaderTargeterDef() def {
	return def{
		name: "leader-targeter",
		desc: "Focuses fire on the strongest opponent",
		params: []strategies.Param{
			param("commit", "share of the units sent against the leader once the economy is running", 0, 1, 0.8),
			param("unit_weight", "weight of an opponent's remembered unit count in its strength estimate", 0, 3, 0.2),
			param("core_weight", "weight of an opponent's known active cores in its strength estimate", 0, 10, 1),
			iparam("gatherers", "units always collecting energy", 0, 8, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &leaderP{commit: d.Float("commit"), unitW: d.Float("unit_weight"), coreW: d.Float("core_weight"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

// leaderP estimates who leads from what it can see, since the view shows
// only its own score. Scores come from kills (kill_score for every enemy
// death a player had a unit in range of) and razes, so the estimate of
// opponent o is
//
//	kills(o) + unit_weight * units(o) + core_weight * cores(o)
//
// where kills(o) counts the visible deaths (View.Dead, of any owner but o)
// that had a visible unit of o within attack range, plus 2 for every core
// seen razed with a unit of o on or beside it, units(o) is the most
// units of o seen at once, decaying 1% a turn, and cores(o) is o's active
// cores the memory knows. The opponent with the highest estimate is the
// target; with nothing seen yet, any enemy is.
type leaderP struct {
	commit, unitW, coreW float64
	gatherers            int
	kills, units         []float64
	striking             bool
	wasActive            []bool // per memory core slot, last known state
	leader               int
	eco                  gatherCore
	idx, army            []int32
	targets              []int32
	others               []uint16 // reach of enemies that are not the leader
}

func (p *leaderP) observe(b *bot) {
	need := b.mem.maxOwner + 1
	for len(p.kills) < need {
		p.kills = append(p.kills, 0)
		p.units = append(p.units, 0)
	}
	r2 := b.cfg.AttackRadius2
	for _, d := range b.v.Dead {
		dt := b.g.idx(d.Position)
		for o := range p.kills {
			if o == d.Owner || o == b.me {
				continue
			}
			for k, e := range b.enemy {
				if int(b.enemyOwner[k]) == o && b.g.dist2(e, dt) <= r2 {
					p.kills[o]++
					break
				}
			}
		}
	}
	// A core seen razed scores 2 for the capturer: credit the owner of
	// the enemy unit standing on it (or nearest within two tiles).
	for k, c := range b.mem.cores {
		for len(p.wasActive) <= k {
			p.wasActive = append(p.wasActive, c.active)
		}
		if p.wasActive[k] && !c.active && !c.suspect && c.seen == b.turn {
			bestD, who := 5, -1
			for j, e := range b.enemy {
				if o := int(b.enemyOwner[j]); o != c.owner {
					if d := b.g.dist2(e, c.tile); d < bestD {
						bestD, who = d, o
					}
				}
			}
			if who >= 0 && who < len(p.kills) {
				p.kills[who] += 2
			}
		}
		p.wasActive[k] = c.active
	}
	for o := range p.units {
		p.units[o] *= 0.99
	}
	// Count visible units per owner.
	for o := range p.units {
		n := 0
		for k := range b.enemy {
			if int(b.enemyOwner[k]) == o {
				n++
			}
		}
		if float64(n) > p.units[o] {
			p.units[o] = float64(n)
		}
	}
	p.leader = -1
	best := -1.0
	for o := range p.kills {
		if o == b.me {
			continue
		}
		est := p.kills[o] + p.unitW*p.units[o]
		for _, c := range b.mem.cores {
			if c.active && !c.suspect && c.owner == o {
				est += p.coreW
			}
		}
		if est > best {
			p.leader, best = o, est
		}
	}
}

func (p *leaderP) decide(b *bot) {
	p.observe(b)
	// Fights with the other opponents only feed them: every unit keeps out
	// of their reach.
	if p.others == nil {
		p.others = make([]uint16, b.g.n)
	}
	clear(p.others)
	for k, e := range b.enemy {
		if int(b.enemyOwner[k]) != p.leader {
			b.g.stamp(p.others, e, b.thr.reach)
		}
	}
	p.eco.avoid, p.eco.avoidW = p.others, 6
	p.idx = b.unitIdx(p.idx[:0])
	if len(p.idx) < p.gatherers+2 {
		p.eco.run(b, p.idx, 6, 1)
		return
	}
	p.army = p.eco.pick(b, p.idx, p.gatherers, 6, 1, p.army[:0])
	keep := len(p.army) - int(p.commit*float64(len(p.army))+0.5)
	// The army strikes together: it forms at home (collecting) until it
	// is four strong, and falls back when it is down to one.
	if n := len(p.army) - keep; n >= 4 {
		p.striking = true
	} else if n <= 1 {
		p.striking = false
	}
	if !p.striking {
		keep = len(p.army)
	}
	if keep > 0 {
		p.eco.run(b, p.army[:keep], 6, 1)
		p.army = p.army[keep:]
	}
	if len(p.army) == 0 {
		return
	}
	// Targets: the leader's visible units, else its cores (known, or
	// suspected from the map's symmetry).
	p.targets = b.enemiesOf(p.targets[:0], p.leader)
	var f *lazy
	if len(p.targets) > 0 {
		f = b.multiLazy(0, p.targets, b.mem.wallT, 0)
	} else {
		for _, c := range b.mem.cores {
			if c.active && c.owner == p.leader {
				p.targets = append(p.targets, c.tile)
			}
		}
		if len(p.targets) == 0 {
			p.targets = append(p.targets, b.enemyCores...)
		}
		if len(p.targets) > 0 {
			f = b.multiLazy(0, p.targets, b.mem.wallT, 0)
		}
	}
	for _, i := range p.army {
		u := b.own[i]
		var sc [5]float64
		if f != nil {
			b.towardLazy(u, f, 1, &sc)
		}
		if b.waited(u) < patience {
			for k := 0; k < 5; k++ {
				if n := p.others[b.opt(u, k)]; n > 0 {
					sc[k] -= 15 + 3*float64(n)
				}
			}
		}
		// No reward for fights as such: the field already leads to the
		// leader's units, and a won fight against another opponent helps
		// nobody but the leader.
		b.danger(u, &sc, -30, -3, 0, 0)
		b.coreStay(u, &sc, 5)
		b.rank(int(i), &sc)
	}
}

// ---------------------------------------------------------------- raider

func raiderDef() def {
	return def{
		name: "raider",
		desc: "Hit-and-run energy denial",
		params: []strategies.Param{
			param("raider_share", "share of the units (beyond the home gatherers) sent raiding", 0, 1, 0.6),
			iparam("retreat_margin", "extra enemies assumed when judging whether to stay in a fight", 0, 3, 1),
			param("depth", "how deep a tile may lie in enemy land to be raided: its steps to enemy cores over steps to ours at most this", 0.3, 1.5, 0.9),
			iparam("gatherers", "units always collecting energy at home", 0, 8, 3),
		},
		build: func(d strategies.Decoder) policy {
			return &raiderP{share: d.Float("raider_share"), margin: d.Int("retreat_margin"), depth: d.Float("depth"), gatherers: d.Int("gatherers")}
		},
		fin: finishing{reach: -1, strike: true},
	}
}

type raiderP struct {
	share, depth      float64
	margin, gatherers int
	oc, ec            multiCache
	eco               gatherCore
	a                 assignment
	idx, rest, raid   []int32
	targets, ready    []int32
	cores             []int32
}

func (p *raiderP) decide(b *bot) {
	p.idx = b.unitIdx(p.idx[:0])
	nf := p.gatherers
	if len(p.idx) <= 2 {
		nf = len(p.idx)
	}
	p.rest = p.eco.pick(b, p.idx, nf, 6, 1, p.rest[:0])
	if len(b.ownCores) == 0 || len(b.enemyCores) == 0 {
		p.eco.run(b, p.rest, 6, 1)
		return
	}
	of := b.cached(&p.oc, b.ownCores)
	ef := b.cached(&p.ec, b.enemyCores)
	nr := int(p.share*float64(len(p.rest)) + 0.5)
	p.raid = append(p.raid[:0], p.rest[:nr]...)
	home := p.rest[nr:]
	o := moveOpts{wLose: -60, wTrade: -25, wWin: 3, margin: p.margin, coreStay: 5}
	// An open enemy core close to a raider is razed.
	p.raid = razeReflex(b, p.raid, 4, &p.cores, &o)
	// Raid targets: energy on the enemy's side, full or due soon.
	p.targets, p.ready = p.targets[:0], p.ready[:0]
	for k, e := range b.mem.energy {
		r := b.readyIn(k)
		if r > 3 {
			continue
		}
		if float64(ef.at(e.tile)) <= p.depth*float64(of.at(e.tile)) {
			p.targets = append(p.targets, e.tile)
			p.ready = append(p.ready, int32(r))
		}
	}
	b.assign(&p.a, p.raid, p.targets, p.ready, 2*(b.g.rows+b.g.cols))
	for k, i := range p.raid {
		u := b.own[i]
		var sc [5]float64
		if j := p.a.unitTarget[k]; j >= 0 {
			b.towardTile(u, p.targets[j], 1, &sc)
		} else {
			// No tile to raid: prowl towards the enemy's side, stopping
			// short of its cores.
			ef = b.checkCached(u, &p.ec)
			b.maxDist(u, ef, 8, 1, &sc)
			b.spread(u, &sc, 0.5)
		}
		// Hit and run: in a fight we are not winning, run home.
		if b.oddsAt(u).class() >= fightTrade {
			b.toward(u, of, 1.5, &sc)
		}
		b.danger(u, &sc, o.wLose, o.wTrade, o.wWin, o.margin)
		b.coreStay(u, &sc, o.coreStay)
		b.rank(int(i), &sc)
	}
	p.eco.run(b, home, 6, 1)
}
