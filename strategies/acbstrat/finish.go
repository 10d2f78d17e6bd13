package acbstrat

// Finishing and unfreezing, shared by every strategy but random. After a
// strategy's policy has set its units' wishes, the controller runs
// bot.convert, which may take over a few units:
//
//   - an enemy core in sight with no unit on it, where the fight is not
//     lost, gets the nearest unit within the strategy's reach sent onto it
//     (razing scores 2 and removes a spawner; the last core eliminates);
//   - a dominant player (at least 8 units and three times the most enemy
//     units it has seen at once, plus two) sends a unit to every enemy core
//     it knows or suspects and, if the strategy strikes, half its units
//     against the nearest one, defended or not, stepping into fights they
//     win: a won game ends by elimination instead of at the turn limit;
//   - a player whose energy and units have not grown for stallTurns sends
//     its free units out to unexplored sectors: a map whose energy lies out
//     of sight of the cores does not freeze a strategy that waits for it.
//
// Each strategy says how far it goes (finishing); the two that never
// attack finish only what needs no fight.

// finishing is how a strategy converts a won position.
type finishing struct {
	// reach is how many steps a unit walks to an open enemy core in sight
	// while the player is not dominant: 0 never, anywhere when negative.
	reach int
	// strike sends half the units against the nearest enemy core when the
	// player is dominant; without it a dominant player only sends single
	// units onto cores (defended ones are left alone).
	strike bool
	// quiet, when positive, is how many turns without any enemy unit in
	// sight make the player send single units onto the enemy cores it
	// knows or suspects, whatever its reach.
	quiet int
	// clear keeps the units sent out of every enemy unit's reach and
	// takes only cores with no enemy unit near (pacifist: razing an empty
	// core is no fight).
	clear bool
}

// finishState is the per-match scratch of convert.
type finishState struct {
	used             []bool
	target           int32 // the strike's target core, kept until it falls
	idx, ex, sectors []int32
	ready            []int32
	a                assignment
}

// stallTurns is how long a player's energy and units may stay flat before
// its idle units go exploring.
const stallTurns = 30

// dominant reports whether the player far outnumbers every enemy unit it
// has seen lately (see finishing).
func (b *bot) dominant() bool {
	n := float64(len(b.own))
	return n >= 8 && n >= 3*b.foes+2
}

// open reports whether enemy core c is in sight with no unit on it and no
// fight there that we would lose.
func (b *bot) open(c int32) bool {
	return b.mem.visible(c) && b.undefended(c) && b.oddsAt(c).class() != fightLose
}

// convert runs the shared finishing and unfreezing after the policy (see
// the file comment).
func (b *bot) convert(f *finishing, s *finishState) {
	if len(b.own) == 0 {
		return
	}
	s.used = resizeBool(s.used, len(b.own))
	clear(s.used)
	if n := len(b.own); cap(s.idx) < n {
		// Sized once for the army, so a turn that first strikes or
		// explores does not allocate.
		s.idx = make([]int32, 0, 2*n)
		s.ex = make([]int32, 0, 2*n)
		s.sectors = make([]int32, 0, 2*n+2)
		s.ready = make([]int32, 0, 2*n+2)
		s.a.unitTarget = resizeI32(s.a.unitTarget, n)
		s.a.unitCost = resizeI32(s.a.unitCost, n)
		s.a.taken = resizeBool(s.a.taken, n)
	}
	dom := b.dominant()
	quiet := f.quiet > 0 && b.turn >= f.quiet && b.turn-b.foeSeen >= f.quiet
	for _, c := range b.enemyCores {
		rng := -1
		switch {
		case f.clear:
			if quiet || (b.open(c) && b.isolation(c, clearance(b.cfg.AttackRadius2)) == 0) {
				rng = far
			}
		case b.open(c):
			switch {
			case dom || quiet || f.reach < 0:
				rng = far
			case f.reach > 0:
				rng = f.reach
			}
		case (dom || quiet) && !b.mem.visible(c):
			rng = far // go and look
		}
		if rng < 0 {
			continue
		}
		i := b.nearestFree(s, c, rng, f.clear)
		if i < 0 {
			continue
		}
		s.used[i] = true
		if f.clear {
			b.sneakTo(i, c)
		} else {
			b.goTo(i, c, &moveOpts{wLose: -40, wTrade: -6, wWin: 2, coreStay: 4})
		}
	}
	if dom && f.strike {
		b.strike(s)
	}
	if b.turn-b.lastGain >= stallTurns && !b.storm.on {
		b.unfreeze(s)
	}
}

// clearance is the squared distance within which an enemy unit makes a
// core unsafe to take without a fight: three tiles beyond attack range.
func clearance(attack2 int) int {
	r := isqrt(attack2) + 3
	return r * r
}

// nearestFree returns the unit not yet taken nearest to tile c by steps,
// at most rng away (out of every enemy's reach when safe), or -1.
func (b *bot) nearestFree(s *finishState, c int32, rng int, safe bool) int {
	f := b.fieldTo(c)
	best, bd := -1, rng+1
	for i, u := range b.own {
		if s.used[i] || (safe && b.enemyNext(u) > 0) {
			continue
		}
		if d := f.at(u); d < bd {
			best, bd = i, d
		}
	}
	return best
}

// sneakTo walks unit i towards c without ever stepping where an enemy
// unit could reach it.
func (b *bot) sneakTo(i int, c int32) {
	u := b.own[i]
	var sc [5]float64
	b.towardTile(u, c, 1, &sc)
	for k := 0; k < 5; k++ {
		if b.enemyNext(b.opt(u, k)) > 0 {
			sc[k] -= 200
		}
	}
	b.rank(i, &sc)
}

// strike sends the half of the units nearest the target core (kept until
// it falls: real cores first, the nearest to the own cores or units)
// against it, weighing fights to step in where they win.
func (b *bot) strike(s *finishState) {
	if s.target >= 0 && !containsTile(b.enemyCores, s.target) {
		s.target = -1
	}
	if s.target < 0 {
		s.target = b.strikeTarget()
	}
	if s.target < 0 {
		return
	}
	s.idx = s.idx[:0]
	for i := range b.own {
		if !s.used[i] {
			s.idx = append(s.idx, int32(i))
		}
	}
	n := (len(b.own) + 1) / 2
	b.assignMany(&s.a, s.idx, s.target, n)
	o := moveOpts{wLose: -25, wTrade: -2, wWin: 5, coreStay: 4}
	for k, i := range s.idx {
		if s.a.unitTarget[k] < 0 {
			continue
		}
		s.used[i] = true
		b.goTo(int(i), s.target, &o)
	}
}

// strikeTarget picks the enemy core to strike: a real one before a
// suspected one, then the fewest steps from the nearest own unit.
func (b *bot) strikeTarget() int32 {
	best, bestD, bestReal := int32(-1), far+1, false
	for _, c := range b.enemyCores {
		real := !b.mem.suspect(c)
		f := b.fieldTo(c)
		d := far
		for _, u := range b.own {
			d = min(d, f.at(u))
		}
		if (real && !bestReal) || (real == bestReal && d < bestD) {
			best, bestD, bestReal = c, d, real
		}
	}
	return best
}

// unfreeze sends the units of a player whose economy is stalled (those
// not taken already, off energy tiles and own cores, out of any fight) to
// the known energy tiles and then the sectors it has seen least lately,
// one to a target, until income resumes: whatever its policy waits for is
// not coming.
func (b *bot) unfreeze(s *finishState) {
	s.ex = s.ex[:0]
	for i, u := range b.own {
		if s.used[i] || b.mem.isEnergy(u) || b.onOwnCore(u) || b.enemyNext(u) > 0 {
			continue
		}
		s.ex = append(s.ex, int32(i))
	}
	if len(s.ex) == 0 {
		return
	}
	// Known energy first (the policy may have no use for it), then the
	// stalest sectors.
	s.sectors, s.ready = b.energyTargets(s.sectors[:0], s.ready[:0], 10, false)
	s.sectors = b.staleSectors(s.sectors, 40, len(s.ex)+2)
	for len(s.ready) < len(s.sectors) {
		s.ready = append(s.ready, 0)
	}
	b.assign(&s.a, s.ex, s.sectors, s.ready, 4*(b.g.rows+b.g.cols))
	o := moveOpts{wLose: -40, wTrade: -10, coreStay: 4}
	for k, i := range s.ex {
		if j := s.a.unitTarget[k]; j >= 0 {
			s.used[i] = true
			b.goTo(int(i), s.sectors[j], &o)
		}
	}
}
