package acb

// Accessors of a Match that only the tests use (the package's API keeps
// those other packages call: Turn, Config, Units, Cores, Score, Events,
// VisibleTiles, View, Result, Replay).

// Done reports whether the match is over.
func (m *Match) Done() bool { return m.done }

// Map is the match's terrain (do not modify it).
func (m *Match) Map() *Map { return m.mp }

// Players is the number of seats.
func (m *Match) Players() int { return m.np }

// Energy returns player p's energy.
func (m *Match) Energy(p int) int { return m.players[p].energy }

// Eliminated reports whether player p has lost all its cores.
func (m *Match) Eliminated(p int) bool { return m.players[p].eliminated }

// EnergyFull returns the full energy tiles sorted by (row, col).
func (m *Match) EnergyFull() []Pos {
	var out []Pos
	for ei, t := range m.energyTiles {
		if m.energyFull[ei] {
			out = append(out, Pos{Row: int(t) / m.cols, Col: int(t) % m.cols})
		}
	}
	return out
}

// ZoneRadiusNow is the safe radius the storm applied in the last turn, 0
// when the zone is off or has not started.
func (m *Match) ZoneRadiusNow() int { return m.zoneR }

// Visible reports whether player p sees tile pos in the current state.
func (m *Match) Visible(p int, pos Pos) bool {
	return m.visible(m.computeVision(p), wrap(pos.Row, m.rows), wrap(pos.Col, m.cols))
}

// Winner is the winning seat once the match is over, NoWinner for a draw or
// while it is running.
func (m *Match) Winner() int { return m.winner }

// Reason says why the match ended: ReasonElimination, ReasonAnnihilation
// or ReasonTurns; empty while it is running.
func (m *Match) Reason() string { return m.reason }

// UnitCount returns the number of living units of player p.
func (m *Match) UnitCount(p int) int { return m.unitCount(p) }

// Stats returns player p's figures so far (final ones once the match is
// over).
func (m *Match) Stats(p int) PlayerStats { return m.stats(p) }
