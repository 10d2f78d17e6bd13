package acb

// The orders: what a player's reply to /turn does before the rules run
// (shared/specs/acb.md, "Bot protocol (engine side)").

// MaxFailures is the number of consecutive failed turns after which a
// remote bot becomes inactive.
const MaxFailures = 10

// phaseOrders turns the players' replies into orders. A remote player whose
// turn failed (its err is set) orders nothing, and after MaxFailures
// failures in a row becomes inactive for the rest of the match (a
// bot_inactive event, crashed in the result). Then every active player's
// moves are validated: a move counts when a unit of that player stands on
// its position and has no order yet this turn, and its direction is one of
// the five. The replay records the orders that count.
func (m *Match) phaseOrders(t int) {
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated || ps.inactive {
			continue
		}
		if ps.remote {
			if ps.err == nil {
				ps.fails = 0
			} else {
				ps.moves = ps.moves[:0]
				ps.fails++
				if ps.fails >= MaxFailures {
					ps.inactive = true
					ps.stats.Crashed = true
					m.events = append(m.events, Event{Type: EventBotInactive, Unit: -1, Owner: -1, Player: p, Core: -1})
					continue
				}
			}
		}
		for _, mv := range ps.moves {
			r, c := mv.Position.Row, mv.Position.Col
			if r < 0 || r >= m.rows || c < 0 || c >= m.cols || mv.Direction > West {
				continue
			}
			i := m.unitAt(p, r*m.cols+c)
			if i < 0 || m.units[i].ordered == int32(t) {
				continue
			}
			m.units[i].ordered = int32(t)
			m.units[i].dir = mv.Direction
		}
	}
	if m.rec != nil {
		m.rec.orders(t)
	}
}
