package acb

import (
	"crucible/engine"
)

// UnitInfo is a living unit as the Match accessors report it.
type UnitInfo struct {
	ID    int
	Owner int
	Pos   Pos
}

// CoreInfo is a core as the Match accessors report it.
type CoreInfo struct {
	ID     int
	Owner  int
	Pos    Pos
	Active bool
	// LastSpawn is the turn the core last spawned a unit; the initial units
	// count as spawned in turn 0.
	LastSpawn int
}

// Adjudicated reports whether the match ended before max_turns because the
// rest of it could not change the result (see adjudicate.go).
func (m *Match) Adjudicated() bool { return m.adjudicated }

// resultTurns is the turns the result lists: those played, or max_turns
// for an adjudicated match (the result of playing on).
func (m *Match) resultTurns() int {
	if m.adjudicated {
		return m.cfg.MaxTurns
	}
	return m.turn
}

// Turn is the number of turns played so far (the turn the state sent to
// bots carries).
func (m *Match) Turn() int { return m.turn }

// Config is the match's effective configuration (rows and cols are the
// map's).
func (m *Match) Config() Config { return m.cfg }

// Units returns the living units sorted by id.
func (m *Match) Units() []UnitInfo {
	out := make([]UnitInfo, len(m.units))
	for i, u := range m.units {
		out[i] = UnitInfo{ID: int(u.id), Owner: int(u.owner), Pos: Pos{Row: int(u.row), Col: int(u.col)}}
	}
	return out
}

// unitCount returns the number of living units of player p.
func (m *Match) unitCount(p int) int {
	n := 0
	for i := range m.units {
		if int(m.units[i].owner) == p {
			n++
		}
	}
	return n
}

// Cores returns every core sorted by id.
func (m *Match) Cores() []CoreInfo {
	out := make([]CoreInfo, len(m.cores))
	for i, c := range m.cores {
		out[i] = CoreInfo{ID: c.id, Owner: c.owner, Pos: Pos{Row: c.row, Col: c.col}, Active: c.active, LastSpawn: c.lastSpawn}
	}
	return out
}

// Score returns player p's score.
func (m *Match) Score(p int) int { return m.players[p].score }

// Events returns the events of the last turn played, in phase order. The
// slice is reused by the next Step.
func (m *Match) Events() []Event { return m.events }

// VisibleTiles returns the tiles player p sees in the current state, sorted
// by (row, col).
func (m *Match) VisibleTiles(p int) []Pos {
	vis := m.computeVision(p)
	var out []Pos
	for r := 0; r < m.rows; r++ {
		for c := 0; c < m.cols; c++ {
			if m.visible(vis, r, c) {
				out = append(out, Pos{Row: r, Col: c})
			}
		}
	}
	return out
}

// View returns the fog-filtered view player p would receive now as the
// protocol's state has it: every wall in sight, whether or not p's
// controller remembers walls (see WallMemory). It is reused by later calls.
func (m *Match) View(p int) *View { return m.buildView(p, true) }

// stats returns player p's figures so far (final ones once the match is
// over).
func (m *Match) stats(p int) PlayerStats {
	st := m.players[p].stats
	if !m.done {
		st.Score, st.Energy, st.Units = m.players[p].score, m.players[p].energy, m.unitCount(p)
		st.Cores = 0
		for _, ci := range m.players[p].cores {
			if m.cores[ci].active {
				st.Cores++
			}
		}
	}
	return st
}

// Result is the match's outcome in the engine's terms: per-seat scores,
// ranks (survival, then score, energy, living units; a draw shares first
// place), turns, reason, crashed seats, and a Detail with the per-player
// statistics.
func (m *Match) Result() engine.Result {
	res := engine.Result{Turns: m.resultTurns(), Reason: m.reason, Ranks: append([]int(nil), m.ranks...), Adjudicated: m.adjudicated}
	det := Detail{Winner: m.winner}
	crashed := false
	for p := range m.players {
		st := m.stats(p)
		res.Scores = append(res.Scores, float64(st.Score))
		det.Players = append(det.Players, st)
		crashed = crashed || st.Crashed
	}
	if crashed {
		for p := range m.players {
			res.Crashed = append(res.Crashed, m.players[p].stats.Crashed)
		}
	}
	res.Detail = det
	return res
}

// Replay returns the recorded replay document once the match is over; nil
// when the match was built without Record or is still running.
func (m *Match) Replay() []byte {
	if m.rec == nil || !m.done || m.err != nil {
		return nil
	}
	return m.rec.buf
}
