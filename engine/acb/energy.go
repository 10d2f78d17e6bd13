package acb

// Phase 7, Energy tick: "An energy tile emptied in turn t is full again at
// the end of turn t + energy_interval."

// phaseEnergy refills each tile emptied in turn e at the end of turn
// e + energy_interval.
func (m *Match) phaseEnergy(t int) {
	for ei, tile := range m.energyTiles {
		if m.energyFull[ei] || m.energyEmpty[ei]+m.cfg.EnergyInterval > t {
			continue
		}
		m.energyFull[ei] = true
		r, c := int(tile)/m.cols, int(tile)%m.cols
		m.energyBits[r*m.words+c>>6] |= 1 << (c & 63)
	}
}
