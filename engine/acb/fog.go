package acb

// Fog of war (shared/specs/acb.md, "Fog of war"): "A player sees every tile
// within vision_radius2 of any of its living units or active cores." Vision
// is a bitset per player; buildView fills the state a player receives.

import "math/bits"

// rowSpan is one row of the vision disc: the row offset and the index of
// its column mask set.
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
		m.spans = append(m.spans, rowSpan{dr: dr, mask: idx})
	}
	m.vis = make([][]uint64, m.np)
	m.visTurn = make([]int, m.np)
	for p := range m.vis {
		m.vis[p] = make([]uint64, m.rows*W)
		m.visTurn[p] = -1
	}
}

// computeVision fills player p's visibility bitset for the current state.
func (m *Match) computeVision(p int) []uint64 {
	vis := m.vis[p]
	if m.visTurn[p] == m.turn {
		return vis
	}
	m.visTurn[p] = m.turn
	clear(vis)
	for i := range m.units {
		u := &m.units[i]
		if int(u.owner) == p {
			m.stamp(vis, int(u.row), int(u.col))
		}
	}
	for _, ci := range m.players[p].cores {
		if c := &m.cores[ci]; c.active {
			m.stamp(vis, c.row, c.col)
		}
	}
	return vis
}

// stamp ORs the vision disc around (r, c) into vis.
func (m *Match) stamp(vis []uint64, r, c int) {
	W := m.words
	R := m.rows
	if W == 1 {
		for _, s := range m.spans {
			rr := r + s.dr
			if rr < 0 || rr >= R {
				rr = wrap(rr, R)
			}
			vis[rr] |= m.masks[s.mask*m.cols+c]
		}
		return
	}
	for _, s := range m.spans {
		rr := r + s.dr
		if rr < 0 || rr >= R {
			rr = wrap(rr, R)
		}
		mask := m.masks[(s.mask*m.cols+c)*W : (s.mask*m.cols+c+1)*W]
		row := vis[rr*W : (rr+1)*W]
		for k := range row {
			row[k] |= mask[k]
		}
	}
}

func (m *Match) visible(vis []uint64, r, c int) bool {
	return vis[r*m.words+c>>6]&(1<<(c&63)) != 0
}

// buildView fills player p's view of the current state.
func (m *Match) buildView(p int) *View {
	vis := m.computeVision(p)
	v := &m.views[p]
	ps := &m.players[p]
	v.Turn = m.turn
	v.You = PlayerInfo{ID: p, Energy: ps.energy, Score: ps.score}
	v.Bots, v.Energy, v.Walls = v.Bots[:0], v.Energy[:0], v.Walls[:0]
	v.Cores, v.Dead = v.Cores[:0], v.Dead[:0]
	W := m.words
	for r := 0; r < m.rows; r++ {
		for k := 0; k < W; k++ {
			i := r*W + k
			see := vis[i]
			if see == 0 {
				continue
			}
			for x := see & m.wallBits[i]; x != 0; x &= x - 1 {
				v.Walls = append(v.Walls, Pos{Row: r, Col: k<<6 | bits.TrailingZeros64(x)})
			}
			for x := see & m.energyBits[i]; x != 0; x &= x - 1 {
				v.Energy = append(v.Energy, Pos{Row: r, Col: k<<6 | bits.TrailingZeros64(x)})
			}
			for x := see & m.occBits[i]; x != 0; x &= x - 1 {
				c := k<<6 | bits.TrailingZeros64(x)
				t := r*m.cols + c
				for o := 0; o < m.np; o++ {
					if m.occStamp[o][t] == m.occGen {
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
