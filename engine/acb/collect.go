package acb

// Phase 5, Collect: "An energy tile holding energy with units of exactly
// one player standing on it gives that player +1 energy and empties. Units
// of two or more players on it: it empties, nobody gains."

// phaseCollect gives a full energy tile to the one player standing on it;
// with two or more players on it, it empties and nobody gains. It visits
// the full energy tiles that units stand on (found from the units, so the
// cost follows them, not the map's energy tiles), in the map's order of
// energy tiles, the order of the collected events.
func (m *Match) phaseCollect(t int) {
	hit := m.collectBuf[:0]
	for i := range m.units {
		u := &m.units[i]
		if m.energyBits[int(u.row)*m.words+int(u.col)>>6]&(1<<(u.col&63)) == 0 {
			continue // no full energy tile here (the bitset is the full ones)
		}
		ei := m.energyIdx[int(u.row)*m.cols+int(u.col)]
		if ei < 0 || !m.energyFull[ei] {
			continue
		}
		k := len(hit)
		for k > 0 && hit[k-1] > ei {
			k--
		}
		if k > 0 && hit[k-1] == ei {
			continue // a second unit on the tile
		}
		hit = append(hit, 0)
		copy(hit[k+1:], hit[k:])
		hit[k] = ei
	}
	m.collectBuf = hit
	for _, ei := range hit {
		tile := m.energyTiles[ei]
		r, c := int(tile)/m.cols, int(tile)%m.cols
		who, n := -1, 0
		for p := 0; p < m.np; p++ {
			if m.occStamp[p][tile] == m.occGen {
				who = p
				n++
			}
		}
		m.energyFull[ei] = false
		m.energyEmpty[ei] = t
		m.empty = append(m.empty, ei)
		m.energyBits[r*m.words+c>>6] &^= 1 << (c & 63)
		if n == 1 {
			ps := &m.players[who]
			ps.energy++
			ps.stats.EnergyCollected++
			m.events = append(m.events, Event{Type: EventCollected, Unit: -1, Owner: -1, Player: who, Core: -1, Pos: Pos{Row: r, Col: c}})
		}
	}
}
