package acbstrat

import (
	"crucible/engine/acb"
)

// memory is what one player remembers of the map, as a real bot would:
// walls, energy tiles and cores stay known once seen, energy tiles out of
// sight are assumed to refill on time, and each sector of the map carries
// the last turn one of the player's units stood in it.
type memory struct {
	g        *grid
	vision2  int
	interval int

	wall    []bool
	wallT   field // search template: -1 on remembered walls
	wallVer int
	// wallSet is the remembered walls as a bitset, wallHash the XOR of
	// their wallKeys: what the store of searches knows them by.
	wallSet  []uint64
	wallHash uint64

	// Energy tiles ever seen, by slot; eslot maps tile -> slot+1.
	energy []energyInfo
	eslot  []int16

	// Cores ever seen, plus suspected enemy cores derived from the map's
	// rotational symmetry; cslot maps tile -> slot+1.
	cores []coreInfo
	cslot []int16

	// Sectors are sectorSize x sectorSize blocks; seen holds the last turn
	// an own unit stood in each (-1: never).
	secRows, secCols int
	secSeen          []int32
	centres          []int32 // sector -> the tile at its middle

	hyps, ruledOut int // bit n: suspects for n seats added / ruled out
	maxOwner       int
	listed         []int32 // energy slot -> last turn it was listed full
	ownUnits       []int32 // this turn's own units (for visibility checks)
	ownCores       []int32 // this turn's own active cores

	// The rows (columns) within the vision radius of a unit or core are
	// the bits of rowSight (colSight), drawn on the turn's first visible
	// (sightOK); a tile outside either is out of sight. sightR and sightC
	// are the vision disc's reach along the rows and the columns.
	rowSight, colSight []uint64
	sightR, sightC     int
	sightOK            bool
}

const sectorSize = 5

type energyInfo struct {
	tile int32
	// full is the belief that the tile holds energy now: seen full, or out
	// of sight past the turn it should have refilled.
	full bool
	// eta is the view turn by which an emptied tile is expected full again.
	eta int
}

type coreInfo struct {
	hyp     int // for a suspect, the seat count of the hypothesis
	tile    int32
	owner   int // for a suspect, the seat the map's symmetry gives it
	active  bool
	suspect bool
	seen    int // last turn seen
}

func newMemory(g *grid, cfg acb.Config, p *bufs) *memory {
	m := &memory{
		g: g, vision2: cfg.VisionRadius2, interval: cfg.EnergyInterval,
		wall:    p.bools(g.n),
		wallT:   p.int16s(g.n),
		wallSet: p.uint64s((g.n + 63) / 64),
		eslot:   p.int16s(g.n),
		cslot:   p.int16s(g.n),
	}
	for dr := 0; dr < g.rows; dr++ {
		for dc := 0; dc < g.cols; dc++ {
			if int(g.d2[dr*g.cols+dc]) <= m.vision2 {
				m.sightR = max(m.sightR, min(dr, g.rows-dr))
				m.sightC = max(m.sightC, min(dc, g.cols-dc))
			}
		}
	}
	m.rowSight, m.colSight = p.uint64s((g.rows+63)/64), p.uint64s((g.cols+63)/64)
	m.secRows = (g.rows + sectorSize - 1) / sectorSize
	m.secCols = (g.cols + sectorSize - 1) / sectorSize
	m.secSeen = p.int32s(m.secRows * m.secCols)
	m.centres = p.int32s(m.secRows * m.secCols)
	for i := range m.secSeen {
		m.secSeen[i] = -1
		m.centres[i] = m.sectorCentre(i)
	}
	return m
}

// sector returns the sector of tile i.
func (m *memory) sector(i int32) int {
	return int(m.g.row[i])/sectorSize*m.secCols + int(m.g.col[i])/sectorSize
}

// sectorCentre returns the tile at the middle of sector s.
func (m *memory) sectorCentre(s int) int32 {
	r := (s/m.secCols)*sectorSize + sectorSize/2
	c := (s%m.secCols)*sectorSize + sectorSize/2
	if r >= m.g.rows {
		r = m.g.rows - 1
	}
	if c >= m.g.cols {
		c = m.g.cols - 1
	}
	return int32(r*m.g.cols + c)
}

// sight sets the units and active cores the player sees with this turn.
func (m *memory) sight(own, ownCores []int32) {
	m.ownUnits, m.ownCores = own, ownCores
	m.sightOK = false
}

// visible reports whether tile t is in sight this turn: within the vision
// radius of an own unit or an own active core.
func (m *memory) visible(t int32) bool {
	if !m.sightOK {
		clear(m.rowSight)
		clear(m.colSight)
		for _, set := range [2][]int32{m.ownUnits, m.ownCores} {
			band(m.rowSight, m.g.rows, set, m.g.row, m.sightR)
			band(m.colSight, m.g.cols, set, m.g.col, m.sightC)
		}
		m.sightOK = true
	}
	if !inBand(m.rowSight, m.g.row[t]) || !inBand(m.colSight, m.g.col[t]) {
		return false
	}
	for _, u := range m.ownUnits {
		if m.g.dist2(u, t) <= m.vision2 {
			return true
		}
	}
	for _, c := range m.ownCores {
		if m.g.dist2(c, t) <= m.vision2 {
			return true
		}
	}
	return false
}

// update folds this turn's view into the memory. own and ownCores are the
// player's unit tiles and active core tiles of this turn.
func (m *memory) update(v *acb.View, own, ownCores []int32) {
	g := m.g
	turn := v.Turn
	m.sight(own, ownCores)
	for _, w := range v.Walls {
		i := g.idx(w)
		if !m.wall[i] {
			m.wall[i] = true
			m.wallT[i] = -1
			m.wallVer++
			m.wallSet[i>>6] |= 1 << (i & 63)
			m.wallHash ^= wallKey(i)
		}
	}
	// Energy: listed tiles are full; known tiles in sight but not listed
	// are empty; tiles out of sight refill on their expected turn.
	for _, p := range v.Energy {
		i := g.idx(p)
		s := m.eslot[i]
		if s == 0 {
			m.energy = append(m.energy, energyInfo{tile: i})
			m.listed = append(m.listed, -1)
			s = int16(len(m.energy))
			m.eslot[i] = s
		}
		m.energy[s-1].full = true
		m.listed[s-1] = int32(turn)
	}
	for k := range m.energy {
		e := &m.energy[k]
		if m.listed[k] == int32(turn) || !e.full && turn < e.eta {
			continue // listed full, or still refilling in sight or not
		}
		if m.visible(e.tile) {
			if e.full || turn >= e.eta {
				e.eta = turn + m.interval
			}
			e.full = false
		} else if !e.full && turn >= e.eta {
			e.full = true
		}
	}
	// Cores.
	for _, c := range v.Cores {
		if c.Owner > m.maxOwner {
			m.maxOwner = c.Owner
		}
		i := g.idx(c.Position)
		s := m.cslot[i]
		if s == 0 {
			m.cores = append(m.cores, coreInfo{tile: i})
			s = int16(len(m.cores))
			m.cslot[i] = s
		}
		ci := &m.cores[s-1]
		ci.owner, ci.active, ci.suspect, ci.seen = c.Owner, c.Active, false, turn
		// A real core seen near a suspect settles it.
		for k := range m.cores {
			o := &m.cores[k]
			if o.suspect && o.active && g.dist2(o.tile, i) <= 8 {
				o.active = false
			}
		}
	}
	for _, u := range v.Bots {
		if u.Owner > m.maxOwner {
			m.maxOwner = u.Owner
		}
	}
	// Remembered cores (real or suspected) in sight but not listed are gone.
	for k := range m.cores {
		ci := &m.cores[k]
		if ci.seen == turn || !ci.active {
			continue
		}
		if m.visible(ci.tile) {
			ci.active = false
			ci.seen = turn
		}
	}
	// Suspected cores: one hypothesis per possible seat count, the two-seat
	// one first; a hypothesis the owners seen rule out (a seat id at or
	// above its count) is dropped and the next ones are added.
	if len(ownCores) > 0 {
		for _, n := range [...]int{2, 3, 4, 6} {
			bit := 1 << n
			if n <= m.maxOwner {
				if m.hyps&bit != 0 {
					m.dropHypothesis(n)
					m.hyps &^= bit
				}
				m.ruledOut |= bit
				continue
			}
			if m.hyps&bit == 0 && m.ruledOut&bit == 0 && (n == 2 || m.maxOwner >= 2) {
				m.hyps |= bit
				m.addSuspects(ownCores, n, v.You.ID)
			}
		}
	}
	for _, u := range own {
		m.secSeen[m.sector(u)] = int32(turn)
	}
}

// addSuspects records where the other seats' cores would be if the map
// were a generated one for players seats, as suspected cores with their
// owners: generated maps are invariant under a group of symmetries
// (engine/acb.MapSymmetries) whose element j carries seat 0's cores onto
// seat j's, so seat j's cores are the images of the own cores (seat me's)
// under S_j after the inverse of S_me. Tiles already known are skipped.
// It is a guess: a map loaded from a file need not be symmetric, and a
// suspect is dropped as soon as its tile is seen without a core.
func (m *memory) addSuspects(ownCores []int32, players, me int) {
	g := m.g
	syms, err := acb.MapSymmetries(players, g.rows, g.cols)
	if err != nil || me >= len(syms) {
		return
	}
	inv, ok := inverse(syms, syms[me], g.rows, g.cols)
	if !ok {
		return
	}
	for j, s := range syms {
		if j == me {
			continue
		}
		for _, c := range ownCores {
			p := s.Apply(inv.Apply(g.pos(c), g.rows, g.cols), g.rows, g.cols)
			t := g.idx(p)
			if m.wall[t] {
				continue
			}
			if s := m.cslot[t]; s != 0 {
				// Reuse a suspect of a dropped hypothesis, never seen.
				if o := &m.cores[s-1]; o.suspect && !o.active && o.seen < 0 {
					o.owner, o.active, o.hyp = j, true, players
				}
				continue
			}
			near := false
			for _, o := range ownCores {
				if g.dist2(o, t) <= 8 {
					near = true
				}
			}
			if near {
				continue
			}
			m.cores = append(m.cores, coreInfo{tile: t, owner: j, active: true, suspect: true, seen: -1, hyp: players})
			m.cslot[t] = int16(len(m.cores))
		}
	}
}

// dropHypothesis deactivates the unseen suspects of the n-seat hypothesis.
func (m *memory) dropHypothesis(n int) {
	for k := range m.cores {
		if c := &m.cores[k]; c.suspect && c.hyp == n && c.seen < 0 {
			c.active = false
		}
	}
}

// inverse finds the element of the group syms that undoes s, testing
// candidates on a few probe tiles.
func inverse(syms []acb.Symmetry, s acb.Symmetry, rows, cols int) (acb.Symmetry, bool) {
	probes := [...]acb.Pos{{Row: 0, Col: 0}, {Row: 1, Col: 2}, {Row: rows / 3, Col: cols - 1}, {Row: rows - 2, Col: cols / 2}}
	for _, c := range syms {
		ok := true
		for _, p := range probes {
			if c.Apply(s.Apply(p, rows, cols), rows, cols) != p {
				ok = false
				break
			}
		}
		if ok {
			return c, true
		}
	}
	return acb.Symmetry{}, false
}

// enemyCores appends the tiles of active enemy cores, known or suspected,
// to dst.
func (m *memory) enemyCores(dst []int32, me int) []int32 {
	for _, c := range m.cores {
		if c.active && c.owner != me {
			dst = append(dst, c.tile)
		}
	}
	return dst
}

// suspect reports whether tile t holds a suspected (never seen) core.
func (m *memory) suspect(t int32) bool {
	s := m.cslot[t]
	return s != 0 && m.cores[s-1].suspect
}

// isEnergy reports whether tile t is a known energy tile.
func (m *memory) isEnergy(t int32) bool { return m.eslot[t] != 0 }
