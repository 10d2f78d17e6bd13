package acb

// Fog of war (shared/specs/acb.md, "Fog of war"): "A player sees every tile
// within vision_radius2 of any of its living units or active cores." Vision
// is a bitset per player; buildView fills the state a player receives.

import "math/bits"

// rowSpan is one row of the vision disc: the row offset (reduced into
// 0..rows-1, so the row of a disc is found with one subtraction) and the
// index of its column mask set.
type rowSpan struct {
	dr   int
	mask int
}

// setupVision precomputes the vision disc as row spans and, for every
// half-width and column, the bit mask of the wrapped column span.
func (m *Match) setupVision() {
	r2 := m.cfg.VisionRadius2
	rad := isqrt(r2)
	W := m.words
	widthIdx := map[int]int{} // setup only
	for dr := -rad; dr <= rad; dr++ {
		w := isqrt(r2 - dr*dr)
		if 2*w+1 > m.cols {
			w = m.cols // full row
		}
		idx, ok := widthIdx[w]
		if !ok {
			idx = len(widthIdx)
			widthIdx[w] = idx
			base := len(m.masks)
			m.masks = append(m.masks, make([]uint64, m.cols*W)...)
			for c := 0; c < m.cols; c++ {
				row := m.masks[base+c*W : base+(c+1)*W]
				if w >= m.cols {
					for cc := 0; cc < m.cols; cc++ {
						row[cc>>6] |= 1 << (cc & 63)
					}
					continue
				}
				for d := -w; d <= w; d++ {
					cc := wrap(c+d, m.cols)
					row[cc>>6] |= 1 << (cc & 63)
				}
			}
		}
		m.spans = append(m.spans, rowSpan{dr: wrap(dr, m.rows), mask: idx})
	}
	// The non-zero words of every mask, so a disc on a wide grid touches
	// only the words it covers.
	m.maskAt = make([]int32, len(m.masks)/W+1)
	for mc := 0; mc < len(m.masks)/W; mc++ {
		for k, x := range m.masks[mc*W : (mc+1)*W] {
			if x != 0 {
				m.maskWord = append(m.maskWord, int32(k))
				m.maskBits = append(m.maskBits, x)
			}
		}
		m.maskAt[mc+1] = int32(len(m.maskWord))
	}
	m.visWords = (m.rows*W + 63) / 64
	if W > 1 {
		m.wordRow = make([]uint16, m.rows*W)
		for i := range m.wordRow {
			m.wordRow[i] = uint16(i / W)
		}
	}
	if W == 1 {
		m.rowCover = make([]uint64, m.rows*m.visWords)
		for r := 0; r < m.rows; r++ {
			for _, s := range m.spans {
				rr := wrap(r+s.dr, m.rows)
				m.rowCover[r*m.visWords+rr>>6] |= 1 << (rr & 63)
			}
		}
	}
	m.vis = make([][]uint64, m.np)
	m.visUsed = make([][]uint64, m.np)
	m.visTurn = make([]int, m.np)
	m.coreVis = make([][]uint64, m.np)
	m.coreUsed = make([][]uint64, m.np)
	m.coreVisOf = make([]uint64, m.np)
	m.seenWalls = make([][]uint64, m.np)
	for p := range m.vis {
		m.vis[p] = make([]uint64, m.rows*W)
		m.visUsed[p] = make([]uint64, m.visWords)
		m.visTurn[p] = -1
		m.coreVis[p] = make([]uint64, m.rows*W)
		m.coreUsed[p] = make([]uint64, m.visWords)
		m.coreVisOf[p] = ^uint64(0) // no set of active cores yet
		if m.players[p].wallMemory {
			m.seenWalls[p] = make([]uint64, m.rows*W)
		}
	}
}

// denseWords is the size of a visibility bitset up to which clearing and
// copying it whole is cheaper than visiting the words in use (a 40x40 or
// 63x63 grid has one word a row).
const denseWords = 128

// computeVision fills player p's visibility bitset for the current state.
// Only the words of vis some vision disc covers are touched: visUsed[p]
// marks them (a bitset over the words of vis), every other word is zero,
// and the next call clears those words alone, so the cost follows the
// units, not the grid. The cores' discs change only when a core is razed:
// they are stamped once into coreVis[p] for the set of active cores and
// copied from there.
func (m *Match) computeVision(p int) []uint64 {
	vis := m.vis[p]
	if m.visTurn[p] == m.turn {
		return vis
	}
	m.visTurn[p] = m.turn
	used := m.visUsed[p]
	dense := len(vis) <= denseWords
	if dense {
		clear(vis)
		clear(used)
	} else {
		for k, x := range used {
			for ; x != 0; x &= x - 1 {
				vis[k<<6|bits.TrailingZeros64(x)] = 0
			}
			used[k] = 0
		}
	}
	var active uint64
	for j, ci := range m.players[p].cores {
		if m.cores[ci].active {
			active |= 1 << j
		}
	}
	cv, cu := m.coreVis[p], m.coreUsed[p]
	if m.coreVisOf[p] != active {
		m.coreVisOf[p] = active
		clear(cv)
		clear(cu)
		for _, ci := range m.players[p].cores {
			if c := &m.cores[ci]; c.active {
				m.stamp(cv, cu, c.row, c.col)
			}
		}
	}
	if dense {
		copy(vis, cv)
		copy(used, cu)
	} else {
		for k, x := range cu {
			used[k] = x
			for ; x != 0; x &= x - 1 {
				i := k<<6 | bits.TrailingZeros64(x)
				vis[i] = cv[i]
			}
		}
	}
	for i := range m.units {
		u := &m.units[i]
		if int(u.owner) == p {
			m.stamp(vis, used, int(u.row), int(u.col))
		}
	}
	return vis
}

// stamp ORs the vision disc around (r, c) into vis and marks the words it
// sets in used.
func (m *Match) stamp(vis, used []uint64, r, c int) {
	W := m.words
	R := m.rows
	if W == 1 {
		// A word is a row: the rows the disc covers are tabulated.
		cover := m.rowCover[r*m.visWords : (r+1)*m.visWords]
		for k := range cover {
			used[k] |= cover[k]
		}
		for _, s := range m.spans {
			rr := r + s.dr
			if rr >= R {
				rr -= R
			}
			vis[rr] |= m.masks[s.mask*m.cols+c]
		}
		return
	}
	for _, s := range m.spans {
		rr := r + s.dr
		if rr >= R {
			rr -= R
		}
		mc := s.mask*m.cols + c
		lo, hi := m.maskAt[mc], m.maskAt[mc+1]
		for j, k := range m.maskWord[lo:hi] {
			i := rr*W + int(k)
			vis[i] |= m.maskBits[int(lo)+j]
			used[i>>6] |= 1 << (i & 63)
		}
	}
}

func (m *Match) visible(vis []uint64, r, c int) bool {
	return vis[r*m.words+c>>6]&(1<<(c&63)) != 0
}

// buildView fills player p's view of the current state. With allWalls
// false and a player that remembers walls (WallMemory), Walls lists only
// the walls p sees for the first time in the match; otherwise every wall in
// sight, as the protocol's state does.
func (m *Match) buildView(p int, allWalls bool) *View {
	vis := m.computeVision(p)
	v := &m.views[p]
	ps := &m.players[p]
	v.Turn = m.turn
	v.You = PlayerInfo{ID: p, Energy: ps.energy, Score: ps.score}
	v.Bots, v.Energy, v.Walls = v.Bots[:0], v.Energy[:0], v.Walls[:0]
	v.Cores, v.Dead = v.Cores[:0], v.Dead[:0]
	seen := m.seenWalls[p]
	if allWalls {
		seen = nil
	}
	W := m.words
	for ku, xu := range m.visUsed[p] {
		for ; xu != 0; xu &= xu - 1 {
			i := ku<<6 | bits.TrailingZeros64(xu)
			r, k := i, 0
			if W > 1 {
				r = int(m.wordRow[i])
				k = i - r*W
			}
			see := vis[i]
			walls := see & m.wallBits[i]
			if seen != nil {
				walls &^= seen[i]
				seen[i] |= walls
			}
			for x := walls; x != 0; x &= x - 1 {
				v.Walls = append(v.Walls, Pos{Row: r, Col: k<<6 | bits.TrailingZeros64(x)})
			}
			for x := see & m.energyBits[i]; x != 0; x &= x - 1 {
				v.Energy = append(v.Energy, Pos{Row: r, Col: k<<6 | bits.TrailingZeros64(x)})
			}
			for x := see & m.occBits[i]; x != 0; x &= x - 1 {
				bit := x & -x
				c := k<<6 | bits.TrailingZeros64(x)
				for o := 0; o < m.np; o++ {
					if m.occOwner[o][i]&bit != 0 {
						v.Bots = append(v.Bots, Unit{Position: Pos{Row: r, Col: c}, Owner: o})
					}
				}
			}
		}
	}
	for _, ci := range m.coreOrder {
		c := &m.cores[ci]
		if m.visible(vis, c.row, c.col) {
			v.Cores = append(v.Cores, CoreView{Position: Pos{Row: c.row, Col: c.col}, Owner: c.owner, Active: c.active})
		}
	}
	for _, d := range m.deaths {
		r, c := int(d.tile)/m.cols, int(d.tile)%m.cols
		if m.visible(vis, r, c) {
			v.Dead = append(v.Dead, Unit{Position: Pos{Row: r, Col: c}, Owner: int(d.owner)})
		}
	}
	if m.cfg.ZoneEnabled {
		z := &m.zones[p]
		z.Centers = m.mp.Centers()
		z.Center = z.Centers[0]
		z.Radius = ZoneRadius(m.cfg, m.turn+1)
		v.Zone = z
	} else {
		v.Zone = nil
	}
	return v
}

// sortDeaths orders this turn's deaths by (tile, owner) for the views.
func (m *Match) sortDeaths() {
	d := m.deaths
	for i := 1; i < len(d); i++ {
		for j := i; j > 0 && (d[j].tile < d[j-1].tile || d[j].tile == d[j-1].tile && d[j].owner < d[j-1].owner); j-- {
			d[j], d[j-1] = d[j-1], d[j]
		}
	}
}
