package acbstrat

import (
	"context"
	"crucible/engine/acb"
)

// Behaviours shared by the strategies: cached multi-source fields, energy
// and exploration targets, the zone, and small scoring terms. A strategy
// combines them with its own weights; none of them decides alone.

// multiCache holds a multi-source field whose sources rarely change (the
// own cores, the enemy cores, every known energy tile). It is rebuilt when
// the sources change, or when walls were found and the field is older than
// the refresh period.
type multiCache struct {
	src     []int32
	f       field
	wallVer int
	built   int
	ok      bool
}

// cached returns the field of sources through c.
func (b *bot) cached(c *multiCache, sources []int32) field {
	same := c.ok && len(c.src) == len(sources)
	if same {
		for i := range sources {
			if c.src[i] != sources[i] {
				same = false
				break
			}
		}
	}
	if same && (c.wallVer == b.mem.wallVer || b.turn-c.built < b.fc.refresh) {
		return c.f
	}
	c.src = append(c.src[:0], sources...)
	b.rebuildCached(c)
	return c.f
}

// rebuildCached recomputes c's field from its sources now.
func (b *bot) rebuildCached(c *multiCache) {
	if c.f == nil {
		c.f = make(field, b.g.n)
	}
	search(b.g, b.mem, c.f, b.q, c.src, 0) // in place, as fieldCache.build
	c.wallVer, c.built, c.ok = b.mem.wallVer, b.turn, true
}

// checkTile returns the cached field of tile t, rebuilt first when it
// misleads the unit at u (see misleads). Use it for fields read directly
// in a unit's scoring.
func (b *bot) checkTile(u, t int32) field {
	f := b.fieldTo(t)
	if b.misleads(u, f) {
		b.fc.rebuild(t, b.mem.wallT, b.mem.wallVer, b.turn)
	}
	return f
}

// checkCached returns c's field (fetched this turn with cached), rebuilt
// first when it misleads the unit at u.
func (b *bot) checkCached(u int32, c *multiCache) field {
	if b.misleads(u, c.f) {
		b.rebuildCached(c)
	}
	return c.f
}

// towardCached is toward on the cached multi-source field c (already
// fetched this turn with cached), rebuilding it first when it misleads the
// unit (see checkCached).
func (b *bot) towardCached(u int32, c *multiCache, w float64, sc *[5]float64) {
	b.toward(u, b.checkCached(u, c), w, sc)
}

// allEnergy appends every known energy tile, full or not, to dst.
func (b *bot) allEnergy(dst []int32) []int32 {
	for _, e := range b.mem.energy {
		dst = append(dst, e.tile)
	}
	return dst
}

// readyIn returns in how many turns energy tile slot k is expected full
// (0 when full now).
func (b *bot) readyIn(k int) int {
	e := b.mem.energy[k]
	if e.full || e.eta <= b.turn {
		return 0
	}
	return e.eta - b.turn
}

// staleSectors appends to dst the centres of at most max sectors no own
// unit has stood in for at least age turns, the stalest first (never
// visited counts as stalest; ties by sector order).
func (b *bot) staleSectors(dst []int32, age, max int) []int32 {
	return b.staleSectorsOf(dst, b.mem.secSeen, age, max)
}

// staleSectorsOf is staleSectors on another record of the last turn each
// sector was seen (-1: never).
func (b *bot) staleSectorsOf(dst []int32, secSeen []int32, age, max int) []int32 {
	start := len(dst)
	// kept[k] is the last turn the sector of dst[start+k] was seen.
	kept := b.staleSeen[:0]
	for s, seen := range secSeen {
		if seen >= 0 && b.turn-int(seen) < age {
			continue
		}
		c := b.mem.centres[s]
		if b.mem.wall[c] {
			continue
		}
		// Insert by staleness into the kept list of at most max.
		k := len(kept)
		if k < max {
			dst = append(dst, c)
			kept = append(kept, seen)
		} else if kept[k-1] <= seen {
			continue
		} else {
			k--
		}
		for ; k > 0 && kept[k-1] > seen; k-- {
			dst[start+k], kept[k] = dst[start+k-1], kept[k-1]
		}
		dst[start+k], kept[k] = c, seen
	}
	b.staleSeen = kept
	return dst
}

// undefended reports whether enemy core tile c has no unit standing on it
// as far as the player can see (its owner's unit on it would defend it).
func (b *bot) undefended(c int32) bool {
	return b.enemyAt[c] != b.stamp
}

// realEnemyCores appends the enemy cores actually seen (not suspected) to
// dst.
func (b *bot) realEnemyCores(dst []int32) []int32 {
	for _, c := range b.mem.cores {
		if c.active && !c.suspect && c.owner != b.me {
			dst = append(dst, c.tile)
		}
	}
	return dst
}

// zoneOK reports whether tile t is inside the safe circle (around the
// nearest centre) of the turn ahead turns after the coming one, shrunk by
// margin tiles.
func (b *bot) zoneOK(t int32, ahead, margin int) bool {
	r := b.zoneRadius(b.turn + 1 + ahead)
	if r < 0 {
		return true
	}
	r -= margin
	if r < 0 {
		r = 0
	}
	_, d2 := b.nearestCentre(t)
	return d2 <= r*r
}

// coreStay penalises staying on an own core by w, so spawns are not
// blocked: a core spawns only when no unit stands on it.
func (b *bot) coreStay(u int32, sc *[5]float64, w float64) {
	if b.onOwnCore(u) {
		sc[0] -= w
	}
}

// avoidOwnCores penalises stepping onto own cores (other than staying) by w.
func (b *bot) avoidOwnCores(u int32, sc *[5]float64, w float64) {
	for k := 1; k < 5; k++ {
		if b.onOwnCore(b.opt(u, k)) {
			sc[k] -= w
		}
	}
}

// maxDist penalises options more than r steps down field f by w per step
// beyond r: it keeps a unit within r of the field's sources.
func (b *bot) maxDist(u int32, f field, r int, w float64, sc *[5]float64) {
	for k := 0; k < 5; k++ {
		if d := f.at(b.opt(u, k)); d > r {
			sc[k] -= w * float64(d-r)
		}
	}
}

// minDist penalises options fewer than r steps down field f by w per step
// short of r: it keeps a unit at least r from the field's sources.
func (b *bot) minDist(u int32, f field, r int, w float64, sc *[5]float64) {
	for k := 0; k < 5; k++ {
		if d := f.at(b.opt(u, k)); d < r {
			sc[k] -= w * float64(r-d)
		}
	}
}

// atDist penalises options by w per step their distance down field f is
// off r: it keeps a unit on the ring r steps from the field's sources.
func (b *bot) atDist(u int32, f field, r int, w float64, sc *[5]float64) {
	for k := 0; k < 5; k++ {
		d := f.at(b.opt(u, k)) - r
		if d < 0 {
			d = -d
		}
		sc[k] -= w * float64(d)
	}
}

// spread penalises options next to other own units by w per neighbour,
// to keep units from bunching (for scouts and nomads).
func (b *bot) spread(u int32, sc *[5]float64, w float64) {
	for k := 0; k < 5; k++ {
		t := b.opt(u, k)
		n := 0
		for d := 0; d < 4; d++ {
			nb := b.g.nbr[int(t)*4+d]
			if nb != u && b.ownAt[nb] == b.stamp {
				n++
			}
		}
		sc[k] -= w * float64(n)
	}
}

// enemiesOf appends the tiles of visible enemy units of owner o (or of
// every enemy when o < 0) to dst.
func (b *bot) enemiesOf(dst []int32, o int) []int32 {
	for i, e := range b.enemy {
		if o < 0 || int(b.enemyOwner[i]) == o {
			dst = append(dst, e)
		}
	}
	return dst
}

// isolation returns how many enemy units (e itself included) stand within
// r2 of enemy tile e.
func (b *bot) isolation(e int32, r2 int) int {
	n := 0
	for _, x := range b.enemy {
		if b.g.dist2(x, e) <= r2 {
			n++
		}
	}
	return n
}

// nearestOf returns the element of tiles nearest to t in straight-line
// distance, and that squared distance (-1, far when tiles is empty).
func (b *bot) nearestOf(tiles []int32, t int32) (int32, int) {
	best, bd := int32(-1), far
	for _, x := range tiles {
		if d := b.g.dist2(x, t); d < bd {
			best, bd = x, d
		}
	}
	return best, bd
}

// dangerTemplate returns a search template (reused) blocking walls and
// every tile where more than tolerate enemy units could be in range after
// their step: the tiles a cautious path keeps out of.
func (b *bot) dangerTemplate(tolerate int) field {
	if b.mask == nil {
		b.mask = b.bufs.field(b.g.n) // overwritten whole below
	}
	copy(b.mask, b.mem.wallT)
	for i, n := range b.enemyNextGrid() {
		if int(n) > tolerate {
			b.mask[i] = -1
		}
	}
	return b.mask
}

// unitIdx appends 0..len(own)-1 to dst: every own unit's index.
func (b *bot) unitIdx(dst []int32) []int32 {
	for i := range b.own {
		dst = append(dst, int32(i))
	}
	return dst
}

// controller adapts a strategy's per-turn decision to acb.Controller.
type controller struct {
	b   *bot
	p   policy
	fin finishing
	fs  finishState
}

// policy is a strategy's decision for one turn: it sets every unit's
// wishes on the bot between begin and finish.
type policy interface {
	decide(b *bot)
}

// MatchOver hands the bot's buffers back for the bots of later matches
// (see acb.MatchEnder): the controller is not asked for this match again.
func (c *controller) MatchOver() { c.b.release() }

// RemembersWalls reports true: the bot's memory keeps every wall it is
// shown (see acb.WallMemory), so the engine lists each wall once.
func (c *controller) RemembersWalls() bool { return true }

// Turn reads the view, lets the policy decide, lets the shared finishing
// take over the units it needs (unless the strategy never finishes) and
// returns the moves.
func (c *controller) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	c.b.begin(v)
	if len(c.b.own) > 0 {
		c.p.decide(c.b)
		if c.fin != (finishing{}) {
			c.b.convert(&c.fin, &c.fs)
		}
	}
	return c.b.finish(buf), nil
}

// moveOpts are the weights a unit's walk to a target is scored with.
type moveOpts struct {
	// wLose, wTrade and wWin score stepping into a fight we expect to lose,
	// trade evenly or win (see bot.danger); margin is added to the enemy
	// count first (caution).
	wLose, wTrade, wWin float64
	margin              int
	// coreStay penalises staying on an own core (which blocks its spawns).
	coreStay float64
	// avoid, when set, penalises options by avoidW for every count it
	// holds on their tile (tiles a strategy keeps away from), unless the
	// unit has stood still for patience turns.
	avoid  []uint16
	avoidW float64
}

// settle adds the common terms of o to a unit's scores and ranks them.
func (b *bot) settle(i int, sc *[5]float64, o *moveOpts) {
	u := b.own[i]
	b.danger(u, sc, o.wLose, o.wTrade, o.wWin, o.margin)
	b.coreStay(u, sc, o.coreStay)
	if o.avoid != nil && b.waited(u) < patience {
		for k := 0; k < 5; k++ {
			if n := o.avoid[b.opt(u, k)]; n > 0 {
				sc[k] -= o.avoidW * float64(n)
			}
		}
	}
	b.rank(i, sc)
}

// goTo ranks unit i's options toward tile t with the fight weights of o.
func (b *bot) goTo(i int, t int32, o *moveOpts) {
	var sc [5]float64
	b.towardTile(b.own[i], t, 1, &sc)
	b.settle(i, &sc, o)
}

// energyPlan appends to targets the known energy tiles that are full or
// refill within horizon turns, hold no enemy unit (a shared tile gives
// nobody energy), have no collector sent this turn already and leave a
// collector some slack before the storm, and to ready the turns each
// still needs.
func (b *bot) energyPlan(targets, ready []int32, horizon int) ([]int32, []int32) {
	return b.energyTargets(targets, ready, horizon, true)
}

// energyTargets is energyPlan, keeping the tiles a collector was sent to
// when claims is false.
func (b *bot) energyTargets(targets, ready []int32, horizon int, claims bool) ([]int32, []int32) {
	for k, e := range b.mem.energy {
		r := b.readyIn(k)
		if r > horizon || b.enemyAt[e.tile] == b.stamp || (claims && b.eClaim[e.tile] == b.stamp) {
			continue
		}
		if b.storm.on && b.slack(e.tile) < 1+r {
			continue // the storm gets there first
		}
		targets = append(targets, e.tile)
		ready = append(ready, int32(r))
	}
	return targets, ready
}

// sendNearest sends the n units of idx nearest by steps to tile t straight
// towards it (weighing fights by o, or not at all when o is nil) and
// returns idx without them, compacted in place.
func (b *bot) sendNearest(a *assignment, idx []int32, t int32, n int, o *moveOpts) []int32 {
	b.assignMany(a, idx, t, n)
	rest := idx[:0]
	for k, i := range idx {
		if a.unitTarget[k] < 0 {
			rest = append(rest, i)
			continue
		}
		if o != nil {
			b.goTo(int(i), t, o)
			continue
		}
		var sc [5]float64
		b.towardTile(b.own[i], t, 1, &sc)
		b.rank(int(i), &sc)
	}
	return rest
}

// within keeps the targets (and their ready turns) at most r steps down
// field f, in place.
func within(targets, ready []int32, f field, r int) ([]int32, []int32) {
	n := 0
	for k, t := range targets {
		if f.at(t) <= r {
			targets[n], ready[n] = t, ready[k]
			n++
		}
	}
	return targets[:n], ready[:n]
}

// sendAssigned ranks the options of every unit of idx that a assigned to a
// target toward that target, and appends the others to rest.
func (b *bot) sendAssigned(a *assignment, idx []int32, o *moveOpts, rest []int32) []int32 {
	for k, i := range idx {
		j := a.unitTarget[k]
		if j < 0 {
			rest = append(rest, i)
			continue
		}
		var sc [5]float64
		t := a.targets[j]
		if b.mem.isEnergy(t) {
			b.eClaim[t] = b.stamp
		}
		b.towardTile(b.own[i], t, 1, &sc)
		b.settle(int(i), &sc, o)
	}
	return rest
}
