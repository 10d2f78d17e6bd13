package acb

// Phase 7, Energy tick: "An energy tile emptied in turn t is full again at
// the end of turn t + energy_interval."

// phaseEnergy refills each tile emptied in turn e at the end of turn
// e + energy_interval. It visits the empty tiles alone (m.empty).
func (m *Match) phaseEnergy(t int) {
	keep := m.empty[:0]
	for _, ei := range m.empty {
		if m.energyEmpty[ei]+m.cfg.EnergyInterval > t {
			keep = append(keep, ei)
			continue
		}
		m.energyFull[ei] = true
		tile := m.energyTiles[ei]
		r, c := int(tile)/m.cols, int(tile)%m.cols
		m.energyBits[r*m.words+c>>6] |= 1 << (c & 63)
	}
	m.empty = keep
}
