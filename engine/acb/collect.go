package acb

// Phase 5, Collect: "An energy tile holding energy with units of exactly
// one player standing on it gives that player +1 energy and empties. Units
// of two or more players on it: it empties, nobody gains."

// phaseCollect gives a full energy tile to the one player standing on it;
// with two or more players on it, it empties and nobody gains.
func (m *Match) phaseCollect(t int) {
	for ei, tile := range m.energyTiles {
		if !m.energyFull[ei] {
			continue
		}
		r, c := int(tile)/m.cols, int(tile)%m.cols
		if m.occBits[r*m.words+c>>6]&(1<<(c&63)) == 0 {
			continue
		}
		who, n := -1, 0
		for p := 0; p < m.np; p++ {
			if m.occStamp[p][tile] == m.occGen {
				who = p
				n++
			}
		}
		m.energyFull[ei] = false
		m.energyEmpty[ei] = t
		m.energyBits[r*m.words+c>>6] &^= 1 << (c & 63)
		if n == 1 {
			ps := &m.players[who]
			ps.energy++
			ps.stats.EnergyCollected++
			m.events = append(m.events, Event{Type: EventCollected, Unit: -1, Owner: -1, Player: who, Core: -1, Pos: Pos{Row: r, Col: c}})
		}
	}
}
