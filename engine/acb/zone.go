package acb

// Phase 3, Zone (only when zone_enabled): from zone_start_turn on, every
// unit farther than the safe radius from the nearest of the zone's centres
// dies (storm). The radius is ZoneRadius; the centres are the map's
// (Map.Centers: the orbit of the map centre under the map's symmetries, so
// every seat stands in the same relation to the storm).

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

// InZone reports whether p lies within the safe radius r of the nearest of
// centres on a rows x cols grid: dist2 <= r*r.
func InZone(p Pos, centres []Pos, r, rows, cols int) bool {
	for _, c := range centres {
		if Dist2(p, c, rows, cols) <= r*r {
			return true
		}
	}
	return false
}

// phaseZone kills every unit outside the safe circle, from zone_start_turn
// on, when the zone is enabled.
func (m *Match) phaseZone(t int) {
	m.zoneR = 0
	if !m.cfg.ZoneEnabled || t < m.cfg.ZoneStartTurn {
		return
	}
	r := ZoneRadius(m.cfg, t)
	m.zoneR = r
	centres := m.mp.Centers()
	for i := range m.units {
		u := &m.units[i]
		if u.cause != "" {
			continue
		}
		if !InZone(Pos{Row: int(u.row), Col: int(u.col)}, centres, r, m.rows, m.cols) {
			m.died(i, CauseStorm)
		}
	}
}
