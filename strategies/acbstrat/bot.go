package acbstrat

import (
	"math/rand/v2"

	"crucible/engine/acb"
)

// bot is the machinery every strategy shares: the grid, the map memory,
// per-turn lists of units and cores, lazily built combat counts and
// distance fields, and the move resolver. A strategy calls begin with the
// view, sets each unit's wishes (usually through rank), and calls finish.
//
// Everything is allocated when the first view arrives (the grid size comes
// from View.Config) and reused every turn after.
type bot struct {
	cfg  acb.Config
	g    *grid
	mem  *memory
	thr  *threat
	res  *resolver
	fc   *fieldCache
	rng  *rand.Rand
	me   int
	turn int
	v    *acb.View

	own        []int32 // own unit tiles, in view order
	enemy      []int32 // enemy unit tiles
	enemyOwner []int32
	ownCores   []int32 // own active cores
	enemyCores []int32 // known and suspected active enemy cores

	stamp   int32
	ownAt   []int32 // tile -> stamp when an own unit stands there
	enemyAt []int32 // tile -> stamp when an enemy unit stands there
	eClaim  []int32 // tile -> stamp when a collector was sent to it

	q       []int32
	scratch []field
	lazies  []*lazy
	mask    field
	wishBuf [5]int32
	// pairCost is assign's table of the costs of its pairs, pairOpen its
	// list of the targets still open.
	pairCost, pairOpen []int32
	// staleSeen is staleSectorsOf's scratch.
	staleSeen []int32

	// arrived[t] is 1 + the turn the unit now on tile t stepped onto it
	// (kept across turns); a unit that stands still keeps its value.
	arrived []int32

	thrNow, thrNext, thrAlly, thrGrid int32 // stamps of the lazily built counts
	built                             bool
	bufs                              *bufs // where the grid buffers come from
	jitter                            float64

	// centres are the zone's centres this turn (see zoneCentres); storm
	// the deadlines they give every tile when the zone is on.
	centres []int32
	storm   stormField

	// foes is the peak number of enemy units seen at once, decaying 2% a
	// turn; foeSeen the last turn any enemy unit was in sight (-1: never).
	foes    float64
	foeSeen int
	// lastGain is the last turn the player's energy or unit count rose;
	// prevEnergy and prevUnits are last turn's figures.
	lastGain, prevEnergy, prevUnits int
}

// newBot creates the shared machinery; the grid is built on the first view.
func newBot(seed uint64) *bot {
	return &bot{rng: rand.New(rand.NewPCG(seed, 0x61636221)), jitter: 1e-3, foeSeen: -1}
}

func (b *bot) build(v *acb.View) {
	b.cfg = v.Config
	g := sharedGrid(v.Config.Rows, v.Config.Cols)
	b.g = g
	if b.bufs != nil {
		b.bufs.release() // the grid changed size
	}
	p := getBufs(g.rows, g.cols)
	b.bufs = p
	b.mem = newMemory(g, v.Config, p)
	b.thr = newThreat(g, v.Config.AttackRadius2, p)
	b.res = newResolver(g.n, p)
	b.q = p.int32s(g.n + 8)
	b.fc = newFieldCache(g, b.q, 128, p)
	b.fc.mem = b.mem
	b.ownAt = p.int32s(g.n)
	b.enemyAt = p.int32s(g.n)
	b.arrived = p.int32s(g.n)
	b.eClaim = p.int32s(g.n)
	b.scratch, b.mask, b.lazies = b.scratch[:0], nil, b.lazies[:0]
	if b.pairCost == nil {
		// Room for most matches' assignments, so that a turn seldom
		// allocates (they grow when it is not).
		b.pairCost, b.pairOpen = make([]int32, 0, 4096), make([]int32, 0, 256)
		b.staleSeen = make([]int32, 0, 64)
	}
	b.built = true
}

// release hands the bot's grid buffers back to the pool (see bufs) once
// its match is over; a later view builds the bot afresh.
func (b *bot) release() {
	if !b.built {
		return
	}
	b.bufs.release()
	b.bufs = nil
	b.mem, b.thr, b.res, b.fc = nil, nil, nil, nil
	b.q, b.ownAt, b.enemyAt, b.arrived, b.eClaim = nil, nil, nil, nil, nil
	b.scratch, b.mask, b.lazies = b.scratch[:0], nil, b.lazies[:0]
	b.built = false
}

// begin reads the view: it splits units and cores by owner, updates the
// memory and readies the resolver with every own unit wishing to stay.
func (b *bot) begin(v *acb.View) {
	if !b.built || v.Config.Rows != b.g.rows || v.Config.Cols != b.g.cols {
		b.build(v)
	}
	b.v = v
	b.me = v.You.ID
	b.turn = v.Turn
	b.stamp++
	b.own, b.enemy, b.enemyOwner = b.own[:0], b.enemy[:0], b.enemyOwner[:0]
	g := b.g
	for _, u := range v.Bots {
		t := g.idx(u.Position)
		if u.Owner == b.me {
			b.own = append(b.own, t)
			b.ownAt[t] = b.stamp
			continue
		}
		b.enemy = append(b.enemy, t)
		b.enemyOwner = append(b.enemyOwner, int32(u.Owner))
		b.enemyAt[t] = b.stamp
	}
	b.ownCores = b.ownCores[:0]
	for _, c := range v.Cores {
		if c.Owner == b.me {
			t := g.idx(c.Position)
			if c.Active {
				b.ownCores = append(b.ownCores, t)
			}
		}
	}
	b.mem.update(v, b.own, b.ownCores)
	b.enemyCores = b.mem.enemyCores(b.enemyCores[:0], b.me)
	b.res.reset(b.own)
	b.centres = b.zoneCentres(b.centres[:0])
	b.refreshStorm()
	b.foes *= 0.98
	if n := float64(len(b.enemy)); n > 0 {
		b.foes = max(b.foes, n)
		b.foeSeen = b.turn
	}
	if v.You.Energy > b.prevEnergy || len(b.own) > b.prevUnits {
		b.lastGain = b.turn
	}
	b.prevEnergy, b.prevUnits = v.You.Energy, len(b.own)
}

// finish settles all wishes and appends the moves of units that step.
func (b *bot) finish(buf []acb.Move) []acb.Move {
	targets := b.res.resolve()
	for i, t := range targets {
		u := b.own[i]
		if t == u || t < 0 {
			if b.arrived[u] == 0 {
				b.arrived[u] = int32(b.turn + 1)
			}
			continue
		}
		b.arrived[t] = int32(b.turn + 2)
		if d := b.g.dirTo(u, t); d != acb.Stay {
			buf = append(buf, acb.Move{Position: b.g.pos(u), Direction: d})
		}
	}
	return buf
}

func containsTile(s []int32, t int32) bool {
	for _, x := range s {
		if x == t {
			return true
		}
	}
	return false
}

// opt returns the tile unit tile u reaches with option k: 0 stays, 1..4
// step North, East, South, West.
func (b *bot) opt(u int32, k int) int32 {
	if k == 0 {
		return u
	}
	return b.g.nbr[int(u)*4+k-1]
}

// wall reports a remembered wall.
func (b *bot) wall(t int32) bool { return b.mem.wall[t] }

// stay makes unit i wish to stay where it is, unless the storm presses
// it (then its options are ranked on the storm alone).
func (b *bot) stay(i int) {
	if b.storm.on && b.stormPressed(b.own[i]) {
		var sc [5]float64
		b.rank(i, &sc)
		return
	}
	b.wishBuf[0] = b.own[i]
	b.res.setWishes(i, b.wishBuf[:1])
}

// rank sets unit i's wishes from the scores of its five options (higher is
// better), dropping steps into remembered walls. With the zone on, every
// option also carries the storm's term (stormTerm), so no strategy needs
// a rule of its own to stay alive. A small random jitter breaks ties so
// units do not all favour one direction.
func (b *bot) rank(i int, sc *[5]float64) {
	u := b.own[i]
	nb := b.g.nbr[int(u)*4 : int(u)*4+4 : int(u)*4+4]
	wall := b.mem.wall
	jitter := b.jitter
	// Insertion sort of at most five options, best first, each put in
	// as it is scored: wish holds the tiles, val their scores.
	wish := &b.wishBuf
	var val [5]float64
	n := 0
	r := b.rng.Uint64() // 12 random bits per option
	for k := 0; k < 5; k++ {
		t := u
		if k > 0 {
			if t = nb[k-1]; wall[t] {
				continue
			}
		}
		if b.storm.on {
			sc[k] += b.stormTerm(t)
		}
		sc[k] += jitter * float64((r>>(12*k))&0xfff) / 4096
		v, y := sc[k], n
		for ; y > 0 && v > val[y-1]; y-- {
			val[y], wish[y] = val[y-1], wish[y-1]
		}
		val[y], wish[y] = v, t
		n++
	}
	b.res.setWishes(i, wish[:n])
}

// toward adds -w times the field distance of each option to sc: positive w
// pulls the unit down the field, negative w pushes it away. Unreached tiles
// score as a long way off.
func (b *bot) toward(u int32, f field, w float64, sc *[5]float64) {
	for k := 0; k < 5; k++ {
		d := f.at(b.opt(u, k))
		if d >= far {
			d = 2 * (b.g.rows + b.g.cols)
		}
		sc[k] -= w * float64(d)
	}
}

// misleads reports whether field f, built before some walls were known,
// leads the unit at u into a remembered wall: no open option goes down the
// field, but a wall neighbour does.
func (b *bot) misleads(u int32, f field) bool {
	d := f.at(u)
	if d == 0 || d >= far {
		return false
	}
	stale := false
	for k := 0; k < 4; k++ {
		nb := b.g.nbr[int(u)*4+k]
		if f.at(nb) < d {
			if !b.mem.wall[nb] {
				return false
			}
			stale = true
		}
	}
	return stale
}

// towardTile is toward on the cached field of tile t, rebuilding the field
// first when it misleads the unit (see checkTile).
func (b *bot) towardTile(u, t int32, w float64, sc *[5]float64) {
	b.toward(u, b.checkTile(u, t), w, sc)
}

// fieldTo returns the cached distance field to the single tile t.
func (b *bot) fieldTo(t int32) field {
	return b.fc.get(t, b.mem.wallT, b.mem.wallVer, b.turn)
}

// multi fills the k-th scratch field with a search from sources (walls
// block, depth limited by maxD when positive) and returns it.
func (b *bot) multi(k int, sources []int32, maxD int) field {
	return b.multiAvoid(k, sources, b.mem.wallT, maxD)
}

// multiAvoid is multi with another search template (see dangerTemplate),
// for paths that keep out of danger.
func (b *bot) multiAvoid(k int, sources []int32, tmpl field, maxD int) field {
	for len(b.scratch) <= k {
		b.scratch = append(b.scratch, b.bufs.field(b.g.n))
	}
	if &tmpl[0] == &b.mem.wallT[0] {
		search(b.g, b.mem, b.scratch[k], b.q, sources, maxD)
	} else {
		b.g.bfs(b.scratch[k], b.q, sources, tmpl, maxD)
	}
	return b.scratch[k]
}

// enemyNow returns how many enemy units are within attack range of t now.
func (b *bot) enemyNow(t int32) int {
	if b.thrNow != b.stamp {
		b.thrNow = b.stamp
		b.thr.now.build(b.enemy)
	}
	return b.thr.now.count(t)
}

// enemyNext returns how many enemy units could be within attack range of t
// after their next step.
func (b *bot) enemyNext(t int32) int {
	if b.thrNext != b.stamp {
		b.thrNext = b.stamp
		b.thr.next.build(b.enemy)
	}
	return b.thr.next.count(t)
}

// enemyNextGrid fills and returns the enemyNext count of every tile (for
// searches that must know all of them at once).
func (b *bot) enemyNextGrid() []uint16 {
	if b.thrGrid != b.stamp {
		b.thrGrid = b.stamp
		clear(b.thr.enemyNext)
		for _, e := range b.enemy {
			b.g.stamp(b.thr.enemyNext, e, b.thr.reach)
		}
	}
	return b.thr.enemyNext
}

// allies returns how many own units are within attack range of t now.
func (b *bot) allies(t int32) int {
	if b.thrAlly != b.stamp {
		b.thrAlly = b.stamp
		b.thr.near.build(b.own)
	}
	return b.thr.near.count(t)
}

// oddsAt estimates a fight for one of our units moving to t: the enemies
// that could be in range after their step against our units in range now.
func (b *bot) oddsAt(t int32) odds {
	e := b.enemyNext(t)
	if e == 0 {
		return odds{}
	}
	return odds{enemies: e, allies: b.allies(t)}
}

// waited returns how many turns the unit on tile u has stood there.
func (b *bot) waited(u int32) int {
	if a := b.arrived[u]; a > 0 {
		return b.turn + 1 - int(a)
	}
	return 0
}

// patience is how many turns a unit stands still before it accepts an
// even trade to get on: without it, two players' units can face each other
// just out of reach for the rest of the match, neither willing to step in.
const patience = 6

// danger adds the weights of the expected fight outcome at each option:
// wLose for being outnumbered, wTrade for an even trade, wWin for a fight
// we win (usually a reward, so positive), nothing when no enemy can reach.
// margin is added to the enemy count first, to play safer (>0) or bolder.
// A unit that has stood still for patience turns weighs a trade by a step
// a tenth as much.
func (b *bot) danger(u int32, sc *[5]float64, wLose, wTrade, wWin float64, margin int) {
	bored := b.waited(u) >= patience
	for k := 0; k < 5; k++ {
		t := b.opt(u, k)
		e := b.enemyNext(t)
		if e == 0 {
			continue
		}
		e += margin
		a := b.allies(t)
		switch {
		case a > e:
			sc[k] += wWin
		case a == e:
			if bored && k > 0 {
				sc[k] += wTrade / 10
			} else {
				sc[k] += wTrade
			}
		default:
			sc[k] += wLose
		}
	}
}

// onOwnCore reports whether tile t holds one of the player's active cores.
func (b *bot) onOwnCore(t int32) bool { return containsTile(b.ownCores, t) }

// zoneRadius returns the safe radius the zone will have in the given turn
// (turn numbering as in the replay: the orders of view turn T execute as
// turn T+1), or -1 when the zone is off or not started.
func (b *bot) zoneRadius(turn int) int {
	if !b.cfg.ZoneEnabled || turn < b.cfg.ZoneStartTurn {
		return -1
	}
	return acb.ZoneRadius(b.cfg, turn)
}

// zoneCentres appends the tiles of the zone's centres to dst: every
// centre the view lists (zone.centers), or its one centre when a server
// sends only zone.center, or with the zone off the map's centre
// (acb.MapCenter), where the storm would close. It is the only place
// strategies learn the centres from; they use the nearest (see
// nearestCentre).
func (b *bot) zoneCentres(dst []int32) []int32 {
	if b.v != nil && b.v.Zone != nil {
		if len(b.v.Zone.Centers) == 0 {
			return append(dst, b.g.idx(b.v.Zone.Center))
		}
		for _, c := range b.v.Zone.Centers {
			dst = append(dst, b.g.idx(c))
		}
		return dst
	}
	return append(dst, b.g.idx(acb.MapCenter(b.g.rows, b.g.cols)))
}

// nearestCentre returns the zone centre nearest to t in straight-line
// distance, and that squared distance.
func (b *bot) nearestCentre(t int32) (int32, int) { return b.nearestOf(b.centres, t) }

// nearestOwnCore returns the own active core nearest to t by straight-line
// distance, and that squared distance; -1 when the player has none.
func (b *bot) nearestOwnCore(t int32) (int32, int) {
	best, bd := int32(-1), far
	for _, c := range b.ownCores {
		if d := b.g.dist2(c, t); d < bd {
			best, bd = c, d
		}
	}
	return best, bd
}
