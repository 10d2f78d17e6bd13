package acb

// Phase 2, Combat (focus fire): "For every living unit u, enemies(u) =
// enemy units within attack_radius2 of u (same tile included), counted
// before anyone dies. u dies if some enemy e in enemies(u) has
// |enemies(e)| <= |enemies(u)|. All deaths are simultaneous. For each unit
// that died in combat, every other player that had a unit within
// attack_radius2 of it when combat began (dying or not) scores kill_score."

// phaseCombat applies focus fire: u dies when some enemy e within
// attack_radius2 has |enemies(e)| <= |enemies(u)|, all counted before any
// death; each other player with a unit in range of a unit that died scores
// kill_score for it.
func (m *Match) phaseCombat(int) {
	ar2 := int32(m.cfg.AttackRadius2)
	R, C := int32(m.rows), int32(m.cols)
	m.pairs = m.pairs[:0]
	for i := range m.units {
		u := &m.units[i]
		u.enemies, u.minEnem, u.killers = 0, 1<<30, 0
	}
	if rad := isqrt(int(ar2)); 2*rad+1 <= m.rows {
		m.combatPairsByRow(rad)
	} else {
		for i := range m.units {
			if m.units[i].cause != "" {
				continue
			}
			for j := i + 1; j < len(m.units); j++ {
				m.combatPair(i, j, ar2, R, C)
			}
		}
	}
	if len(m.pairs) == 0 {
		return
	}
	for k := 0; k < len(m.pairs); k += 2 {
		u, e := &m.units[m.pairs[k]], &m.units[m.pairs[k+1]]
		u.minEnem = min(u.minEnem, e.enemies)
		e.minEnem = min(e.minEnem, u.enemies)
		u.killers |= 1 << e.owner
		e.killers |= 1 << u.owner
	}
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" || u.enemies == 0 || u.minEnem > u.enemies {
			continue
		}
		m.died(i, CauseCombat)
		for p := 0; p < m.np; p++ {
			if u.killers&(1<<p) != 0 {
				m.players[p].score += m.cfg.KillScore
				m.players[p].stats.Kills++
			}
		}
	}
}

// combatPair records i and j as enemies in range of each other when they
// are of different owners, alive and within ar2.
func (m *Match) combatPair(i, j int, ar2, R, C int32) {
	u, e := &m.units[i], &m.units[j]
	if e.owner == u.owner || e.cause != "" {
		return
	}
	dr := u.row - e.row
	if dr < 0 {
		dr = -dr
	}
	if 2*dr > R {
		dr = R - dr
	}
	d2 := dr * dr
	if d2 > ar2 {
		return
	}
	dc := u.col - e.col
	if dc < 0 {
		dc = -dc
	}
	if 2*dc > C {
		dc = C - dc
	}
	if d2+dc*dc > ar2 {
		return
	}
	u.enemies++
	e.enemies++
	m.pairs = append(m.pairs, int32(i), int32(j))
}

// combatPairsByRow finds the pairs in range with per-owner, per-row unit
// lists: each unit looks at the rows within rad of its own in the lists of
// the players with a higher id than its owner's, so every pair of enemies
// within reach is seen exactly once when 2*rad+1 <= rows, and units never
// look at their own side.
func (m *Match) combatPairsByRow(rad int) {
	ar2, R, C := int32(m.cfg.AttackRadius2), int32(m.rows), int32(m.cols)
	// rowHead is all -1 between turns: the lists are undone at the end,
	// so a turn costs the units, not the rows.
	if cap(m.rowNext) < len(m.units) {
		m.rowNext = make([]int32, len(m.units), 2*len(m.units))
	}
	m.rowNext = m.rowNext[:len(m.units)]
	for i := len(m.units) - 1; i >= 0; i-- {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		head := &m.rowHead[int(u.owner)*m.rows+int(u.row)]
		m.rowNext[i] = *head
		*head = int32(i)
	}
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		for q := int(u.owner) + 1; q < m.np; q++ {
			base := q * m.rows
			for dr := -rad; dr <= rad; dr++ {
				rr := int(u.row) + dr
				if rr < 0 {
					rr += m.rows
				} else if rr >= m.rows {
					rr -= m.rows
				}
				for j := m.rowHead[base+rr]; j >= 0; j = m.rowNext[j] {
					m.combatPair(i, int(j), ar2, R, C)
				}
			}
		}
	}
	for i := range m.units {
		u := &m.units[i]
		m.rowHead[int(u.owner)*m.rows+int(u.row)] = -1
	}
}
