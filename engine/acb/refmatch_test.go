package acb

import (
	"slices"
)

// refMatch is a plain reading of the turn rules of shared/specs/acb.md,
// written for clarity and nothing else: maps and sorts where the engine
// uses bitsets and stamps. TestEngineMatchesTheReference re-plays recorded
// matches through it and compares every turn.
type refMatch struct {
	cfg        Config
	rows, cols int
	centres    []Pos // the map's zone centres, or its centre when it lists none
	np         int
	wall       map[Pos]bool
	energy     []Pos // energy tiles, sorted
	full       map[Pos]bool
	emptied    map[Pos]int // turn a tile was last emptied
	cores      []refCore   // by id
	units      []refUnit   // living, by id
	nextID     int
	score      []int
	stock      []int // energy held
	eliminated []bool
	events     []ReplayEvent
}

type refCore struct {
	id, owner, lastSpawn int
	pos                  Pos
	active               bool
}

type refUnit struct {
	id, owner int
	pos       Pos
}

func newRefMatch(cfg Config, mp *Map, np int) *refMatch {
	r := &refMatch{cfg: cfg, rows: mp.Rows, cols: mp.Cols, np: np, centres: mp.ZoneCenters,
		wall: map[Pos]bool{}, full: map[Pos]bool{}, emptied: map[Pos]int{},
		score: make([]int, np), stock: make([]int, np), eliminated: make([]bool, np)}
	for _, w := range mp.Walls {
		r.wall[w] = true
	}
	r.energy = slices.Clone(mp.Energy)
	slices.SortFunc(r.energy, cmpPos)
	for _, e := range r.energy {
		r.full[e] = true
	}
	cores := slices.Clone(mp.Cores)
	slices.SortFunc(cores, func(a, b Core) int { return a.ID - b.ID })
	for _, c := range cores {
		r.cores = append(r.cores, refCore{id: c.ID, owner: c.Owner, pos: c.Pos(), active: true})
		r.units = append(r.units, refUnit{id: r.nextID, owner: c.Owner, pos: c.Pos()})
		r.nextID++
	}
	return r
}

// noEvent is an event of type typ with no fields set (-1, as ParseReplay
// reads the fields an event type does not have).
func noEvent(typ string) ReplayEvent {
	return ReplayEvent{Type: typ, Unit: -1, Owner: -1, Player: -1, Core: -1, Row: -1, Col: -1}
}

func (r *refMatch) died(u refUnit, cause string) {
	e := noEvent(EventDied)
	e.Unit, e.Cause = u.id, cause
	r.events = append(r.events, e)
}

// turn plays turn t with the given orders (unit id -> direction) and
// reports whether the match is over, with the winner (-1: draw) and reason.
func (r *refMatch) turn(t int, orders map[int]Dir) (over bool, winner int, reason string) {
	r.events = nil
	// 1. Move; a move into a wall stays. Then self-collision.
	for i := range r.units {
		d, ok := orders[r.units[i].id]
		if !ok {
			continue
		}
		to := Step(r.units[i].pos, d, r.rows, r.cols)
		if !r.wall[to] {
			r.units[i].pos = to
		}
	}
	type key struct {
		owner int
		pos   Pos
	}
	count := map[key]int{}
	for _, u := range r.units {
		count[key{u.owner, u.pos}]++
	}
	var alive []refUnit
	for _, u := range r.units {
		if count[key{u.owner, u.pos}] >= 2 {
			r.died(u, CauseCollision)
		} else {
			alive = append(alive, u)
		}
	}
	// 2. Combat, counted before anyone dies.
	enemies := func(u refUnit) []refUnit {
		var out []refUnit
		for _, e := range alive {
			if e.owner != u.owner && Dist2(u.pos, e.pos, r.rows, r.cols) <= r.cfg.AttackRadius2 {
				out = append(out, e)
			}
		}
		return out
	}
	var survivors []refUnit
	for _, u := range alive {
		eu := enemies(u)
		dies := false
		for _, e := range eu {
			if len(enemies(e)) <= len(eu) {
				dies = true
			}
		}
		if !dies {
			survivors = append(survivors, u)
			continue
		}
		r.died(u, CauseCombat)
		scored := map[int]bool{}
		for _, e := range eu {
			scored[e.owner] = true
		}
		for p := range scored {
			r.score[p] += r.cfg.KillScore
		}
	}
	alive = survivors
	// 3. Zone.
	if r.cfg.ZoneEnabled && t >= r.cfg.ZoneStartTurn {
		r0 := max(r.rows, r.cols) / 2
		rad := max(r.cfg.ZoneMinRadius, r0-r.cfg.ZoneShrinkStep*((t-r.cfg.ZoneStartTurn)/r.cfg.ZoneShrinkInterval))
		centres := r.centres
		if len(centres) == 0 {
			centres = []Pos{{Row: r.rows / 2, Col: r.cols / 2}}
		}
		survivors = nil
		for _, u := range alive {
			safe := false
			for _, c := range centres {
				safe = safe || Dist2(u.pos, c, r.rows, r.cols) <= rad*rad
			}
			if !safe {
				r.died(u, CauseStorm)
			} else {
				survivors = append(survivors, u)
			}
		}
		alive = survivors
	}
	r.units = alive
	on := func(p Pos) map[int]bool {
		owners := map[int]bool{}
		for _, u := range r.units {
			if u.pos == p {
				owners[u.owner] = true
			}
		}
		return owners
	}
	// 4. Capture.
	for i := range r.cores {
		c := &r.cores[i]
		owners := on(c.pos)
		if !c.active || owners[c.owner] || len(owners) == 0 {
			continue
		}
		capturer := r.np
		for p := range owners {
			capturer = min(capturer, p)
		}
		c.active = false
		r.score[capturer] += 2
		e := noEvent(EventCaptured)
		e.Core, e.Owner, e.Player = c.id, c.owner, capturer
		r.events = append(r.events, e)
	}
	// 5. Collect.
	for _, e := range r.energy {
		owners := on(e)
		if !r.full[e] || len(owners) == 0 {
			continue
		}
		r.full[e] = false
		r.emptied[e] = t
		if len(owners) == 1 {
			for p := range owners {
				r.stock[p]++
				ev := noEvent(EventCollected)
				ev.Player, ev.Row, ev.Col = p, e.Row, e.Col
				r.events = append(r.events, ev)
			}
		}
	}
	// 6. Spawn: players in id order, each one's cores by longest since
	// spawning, then lowest id.
	for p := 0; p < r.np; p++ {
		var mine []*refCore
		for i := range r.cores {
			if c := &r.cores[i]; c.owner == p && c.active {
				mine = append(mine, c)
			}
		}
		slices.SortStableFunc(mine, func(a, b *refCore) int {
			if a.lastSpawn != b.lastSpawn {
				return a.lastSpawn - b.lastSpawn
			}
			return a.id - b.id
		})
		for _, c := range mine {
			if r.stock[p] < r.cfg.SpawnCost || len(on(c.pos)) > 0 {
				continue
			}
			r.stock[p] -= r.cfg.SpawnCost
			c.lastSpawn = t
			r.units = append(r.units, refUnit{id: r.nextID, owner: p, pos: c.pos})
			e := noEvent(EventSpawned)
			e.Unit, e.Owner, e.Core = r.nextID, p, c.id
			r.events = append(r.events, e)
			r.nextID++
		}
	}
	// 7. Energy tick.
	for _, e := range r.energy {
		if !r.full[e] && r.emptied[e]+r.cfg.EnergyInterval <= t {
			r.full[e] = true
		}
	}
	// 8. Endgame.
	for p := 0; p < r.np; p++ {
		if r.eliminated[p] {
			continue
		}
		hasCore := false
		for _, c := range r.cores {
			hasCore = hasCore || (c.owner == p && c.active)
		}
		if hasCore {
			continue
		}
		r.eliminated[p] = true
		var keep []refUnit
		for _, u := range r.units {
			if u.owner == p {
				r.died(u, CauseEliminated)
			} else {
				keep = append(keep, u)
			}
		}
		r.units = keep
	}
	var left []int
	for p := 0; p < r.np; p++ {
		if !r.eliminated[p] {
			left = append(left, p)
		}
	}
	switch {
	case len(left) == 1:
		return true, left[0], ReasonElimination
	case len(left) == 0:
		return true, -1, ReasonAnnihilation
	case t >= r.cfg.MaxTurns:
		// Highest score, then energy held, then living units; still tied
		// is a draw.
		keyOf := func(p int) [3]int {
			n := 0
			for _, u := range r.units {
				if u.owner == p {
					n++
				}
			}
			return [3]int{r.score[p], r.stock[p], n}
		}
		best, tied := left[0], false
		for _, p := range left[1:] {
			a, b := keyOf(p), keyOf(best)
			switch {
			case slices.Compare(a[:], b[:]) > 0:
				best, tied = p, false
			case a == b:
				tied = true
			}
		}
		if tied {
			return true, -1, ReasonTurns
		}
		return true, best, ReasonTurns
	}
	return false, 0, ""
}
