package acb

// Phase 4, Capture: "An active core with an enemy unit on it and no unit of
// its owner is razed. The capturer (the lowest player id among enemies on
// it) scores 2."

// CaptureScore is what razing a core scores for its capturer.
const CaptureScore = 2

// phaseCapture razes every active core with an enemy unit on it and no unit
// of its owner; the lowest enemy player id on it scores CaptureScore.
func (m *Match) phaseCapture(t int) {
	for ci := range m.cores {
		c := &m.cores[ci]
		if !c.active || m.occBits[c.row*m.words+c.col>>6]&(1<<(c.col&63)) == 0 || m.occStamp[c.owner][c.tile] == m.occGen {
			continue
		}
		for p := 0; p < m.np; p++ {
			if p != c.owner && m.occStamp[p][c.tile] == m.occGen {
				c.active = false
				ps := &m.players[p]
				ps.score += CaptureScore
				ps.stats.CoresRazed++
				if ps.stats.FirstRazeTurn == 0 {
					ps.stats.FirstRazeTurn = t
				}
				m.players[c.owner].stats.CoresLost++
				m.events = append(m.events, Event{Type: EventCaptured, Unit: -1, Owner: c.owner, Player: p, Core: c.id, Pos: Pos{Row: c.row, Col: c.col}})
				break
			}
		}
	}
}
