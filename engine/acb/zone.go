package acb

// Phase 3, Zone (only when zone_enabled): from zone_start_turn on, every
// unit farther than the safe radius from the centre dies (storm). The radius
// is ZoneRadius; the centre is zoneCenter.

// ZoneRadius is the safe radius of the storm in turn (a turn as executed,
// 1 for the first): from zone_start_turn on,
// max(zone_min_radius, R0 - zone_shrink_step*floor((turn-zone_start_turn)/zone_shrink_interval))
// with R0 = max(rows, cols)/2; before zone_start_turn it is R0 (and the
// storm does not strike).
func ZoneRadius(cfg Config, turn int) int {
	r0 := max(cfg.Rows, cfg.Cols) / 2
	if turn < cfg.ZoneStartTurn {
		return r0
	}
	interval := cfg.ZoneShrinkInterval
	if interval < 1 {
		interval = 1
	}
	return max(cfg.ZoneMinRadius, r0-cfg.ZoneShrinkStep*((turn-cfg.ZoneStartTurn)/interval))
}

// zoneCenter is the centre of the storm: (rows/2, cols/2).
func (m *Match) zoneCenter() Pos { return MapCenter(m.rows, m.cols) }

// phaseZone kills every unit outside the safe circle, from zone_start_turn
// on, when the zone is enabled.
func (m *Match) phaseZone(t int) {
	m.zoneR = 0
	if !m.cfg.ZoneEnabled || t < m.cfg.ZoneStartTurn {
		return
	}
	r := ZoneRadius(m.cfg, t)
	m.zoneR = r
	centre := m.zoneCenter()
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		if Dist2(Pos{Row: int(u.row), Col: int(u.col)}, centre, m.rows, m.cols) > r*r {
			m.died(i, CauseStorm)
		}
	}
}
