package acbstrat

import (
	"math"

	"crucible/engine/acb"
)

// The storm, read once for every strategy. With the zone on, a unit dies
// when it ends a turn's move farther than the safe radius from the nearest
// zone centre, and the radius only shrinks. So every tile has a last turn
// it is safe (forever for tiles within the minimum radius), and from that
// follows the last turn a unit may stand on it and still walk to safety in
// time, stepping one tile a turn around the walls it knows: the tile's
// deadline. A unit's slack is its deadline minus the turn its move
// executes; bot.rank penalises options whose slack falls below a margin
// that grows with the shrink rate, so every strategy keeps its units
// inside the circle of the coming turns without a rule of its own.

// never is the deadline of a tile the storm never reaches.
const never = math.MaxInt32

// stormField holds the deadlines of one match.
type stormField struct {
	on bool
	// safeTill[t] is the last turn tile t is inside the safe circle
	// (never when it always is); deadline[t] the last turn a unit may
	// stand on t and still reach tiles the storm never covers (-1 on
	// walls).
	safeTill, deadline []int32
	// lastTurn[ρ] is the last turn the radius is at least ρ, for ρ up to
	// the initial radius; never for ρ up to the minimum radius.
	lastTurn []int32
	// home[t] is the steps from t to the nearest tile the storm never
	// covers (a field, walls known).
	home    field
	safe    []int32     // the tiles the storm never covers
	heap    []heapEntry // scratch: tiles queued by deadline
	wallVer int
	centres []int32 // the centres the fields were built for
	// margin is the slack, in turns, a unit keeps (see stormMargin);
	// extra is a strategy's own addition to it.
	margin, extra int
	built         bool
}

// stormMargin is the slack in turns the bot keeps ahead of the storm at
// the edge of the safe tiles: two turns plus two per tile the radius
// shrinks a turn, so a fast storm (one tile a turn) is given four turns of
// room and a slow one two or three. Farther out a unit keeps a turn more
// for every four steps it has to go (see stormTerm): the deadlines assume
// the tiles not yet seen are open, and a wall found on the way costs a
// detour.
func stormMargin(cfg acb.Config) int {
	rate := float64(cfg.ZoneShrinkStep) / float64(max(cfg.ZoneShrinkInterval, 1))
	return 2 + int(math.Ceil(2*rate))
}

// refreshStorm rebuilds the storm fields when the zone is on and the walls
// or the centres changed since they were built.
func (b *bot) refreshStorm() {
	s := &b.storm
	s.on = b.cfg.ZoneEnabled
	if !s.on {
		return
	}
	if s.built && s.wallVer == b.mem.wallVer && sameTiles(s.centres, b.centres) {
		return
	}
	n := b.g.n
	if s.safeTill == nil {
		s.safeTill = make([]int32, n)
		s.deadline = make([]int32, n)
		s.home = make(field, n)
		s.heap = make([]heapEntry, 0, 4*n)
		s.margin = stormMargin(b.cfg)
		s.lastTurn = lastTurns(b.cfg)
	}
	s.centres = append(s.centres[:0], b.centres...)
	s.wallVer = b.mem.wallVer
	s.built = true
	for t := int32(0); t < int32(n); t++ {
		_, d2 := b.nearestOf(b.centres, t)
		rho := int(math.Sqrt(float64(d2))) // the least radius that covers t
		if rho*rho < d2 {
			rho++
		}
		if rho < len(s.lastTurn) {
			s.safeTill[t] = s.lastTurn[rho]
		} else {
			s.safeTill[t] = int32(b.cfg.ZoneStartTurn - 1)
		}
	}
	b.deadlines()
	s.safe = s.safe[:0]
	for t, d := range s.deadline {
		if d == never {
			s.safe = append(s.safe, int32(t))
		}
	}
	search(b.g, b.mem, s.home, b.q, s.safe, 0)
}

// lastTurns tabulates, for every radius ρ from 0 to the initial radius,
// the last turn the safe radius is at least ρ (acb.ZoneRadius): never
// once the radius stops shrinking (at the minimum, or with a step of 0)
// or the match ends first.
func lastTurns(cfg acb.Config) []int32 {
	r0 := max(cfg.Rows, cfg.Cols) / 2
	out := make([]int32, r0+1)
	for rho := range out {
		out[rho] = int32(cfg.ZoneStartTurn - 1)
	}
	for turn := cfg.ZoneStartTurn; ; turn++ {
		r := min(acb.ZoneRadius(cfg, turn), r0)
		last := int32(turn)
		if r <= cfg.ZoneMinRadius || cfg.ZoneShrinkStep <= 0 || turn >= cfg.MaxTurns {
			last = never
		}
		for rho := 0; rho <= r; rho++ {
			out[rho] = last
		}
		if last == never {
			return out
		}
	}
}

// deadlines computes deadline[t] = min(safeTill[t], max over the
// neighbours nb of deadline[nb] - 1), with deadline = never on tiles the
// storm never covers: a search from the safe tiles outward, taking tiles
// in order of falling deadline (a binary heap; a tile whose deadline
// rose after it was queued is queued again and its stale entry skipped).
func (b *bot) deadlines() {
	s := &b.storm
	dl := s.deadline
	s.heap = s.heap[:0]
	for t := range dl {
		switch {
		case b.mem.wall[t]:
			dl[t] = -1
		case s.safeTill[t] == never:
			dl[t] = never
			s.push(int32(t), never)
		default:
			dl[t] = math.MinInt32
		}
	}
	for len(s.heap) > 0 {
		e := s.pop()
		if e.d != dl[e.t] {
			continue // stale
		}
		d := e.d
		if d != never {
			d--
		}
		for k := 0; k < 4; k++ {
			y := b.g.nbr[int(e.t)*4+k]
			if b.mem.wall[y] || dl[y] == never {
				continue
			}
			if c := min(d, s.safeTill[y]); c > dl[y] {
				dl[y] = c
				s.push(y, c)
			}
		}
	}
}

// heapEntry is a tile queued with its deadline.
type heapEntry struct{ t, d int32 }

// push queues tile t with deadline d (latest first).
func (s *stormField) push(t, d int32) {
	s.heap = append(s.heap, heapEntry{t, d})
	h := s.heap
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p].d >= h[i].d {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

// pop removes and returns the entry with the latest deadline.
func (s *stormField) pop() heapEntry {
	h := s.heap
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		l := 2*i + 1
		if l >= len(h) {
			break
		}
		m := l
		if r := l + 1; r < len(h) && h[r].d > h[l].d {
			m = r
		}
		if h[i].d >= h[m].d {
			break
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
	s.heap = h
	return top
}

// slack returns how many turns a unit standing on t when the coming move
// executes could still wait before it must walk straight to safety
// (negative: it cannot escape the storm), or never with the zone off or
// on tiles the storm never covers.
func (b *bot) slack(t int32) int {
	if !b.storm.on {
		return never
	}
	d := b.storm.deadline[t]
	if d == never {
		return never
	}
	return int(d) - (b.turn + 1)
}

// stormTerm is the score of ending the coming move on t: nothing with
// slack to spare, a penalty growing by 8 a turn of slack short of the
// margin, and a prohibitive one where the storm kills at once.
func (b *bot) stormTerm(t int32) float64 {
	sl := b.slack(t)
	m := b.stormNeed(t)
	switch {
	case sl >= m:
		return 0
	case int(b.storm.safeTill[t]) < b.turn+1:
		return -1000
	case sl < 0:
		return -300 + 8*float64(sl)
	}
	return -8 * float64(m-sl)
}

// stormNeed is the slack a unit on t keeps: the margin, a strategy's
// extra, and a turn for every four steps to the safe tiles.
func (b *bot) stormNeed(t int32) int {
	s := &b.storm
	h := s.home.at(t)
	if h >= far {
		h = 0
	}
	return s.margin + s.extra + h/4
}

// stormPressed reports whether the unit on t is short of the slack it
// keeps.
func (b *bot) stormPressed(t int32) bool { return b.slack(t) < b.stormNeed(t) }

func sameTiles(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
