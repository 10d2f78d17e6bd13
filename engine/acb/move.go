package acb

// Phase 1, Move (shared/specs/acb.md, "One turn, in order"): "Each living
// unit moves one tile N, E, S or W as ordered, or stays. A move into a wall
// stays. After all moves: if two or more units of one owner stand on one
// tile, all of them die (self-collision). Units of different owners may
// share a tile. Units may swap places."

// phaseMove moves every unit with an order (a move into a wall stays), then
// kills every unit that shares its tile with a unit of the same owner.
func (m *Match) phaseMove(t int) {
	for i := range m.units {
		u := &m.units[i]
		if u.ordered != int32(t) || u.dir == Stay {
			continue
		}
		dr, dc := u.dir.Delta()
		r, c := int(u.row)+dr, int(u.col)+dc
		if r < 0 {
			r += m.rows
		} else if r >= m.rows {
			r -= m.rows
		}
		if c < 0 {
			c += m.cols
		} else if c >= m.cols {
			c -= m.cols
		}
		if !m.wall[r*m.cols+c] {
			u.row, u.col = int32(r), int32(c)
		}
	}
	m.occGen++
	gen := m.occGen
	collided := false
	for i := range m.units {
		u := &m.units[i]
		tile := int(u.row)*m.cols + int(u.col)
		st := m.occStamp[u.owner]
		if st[tile] == gen {
			u.cause = CauseCollision
			m.units[m.occUnit[u.owner][tile]].cause = CauseCollision
			collided = true
			continue
		}
		st[tile] = gen
		m.occUnit[u.owner][tile] = int32(i)
	}
	if collided {
		for i := range m.units {
			if m.units[i].cause == CauseCollision {
				m.died(i, CauseCollision)
			}
		}
	}
}
