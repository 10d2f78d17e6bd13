package acb

// Phase 8, Endgame: "A player with no active core is eliminated: its units
// are removed (cause eliminated). The match ends when one player remains
// (reason elimination), when none remains (reason annihilation, a draw), or
// after max_turns (reason turns): the highest score wins, ties by energy
// held, then by living units; still tied is a draw." Ranks and their
// tie-breaks are here too.

// Sentinels of Match.winner (and Detail.Winner).
const (
	// NoWinner is the winner of a draw, and of a match still running.
	NoWinner = -1
	// winnerByRanks asks end to pick the winner from the ranks: the one
	// player ranked first, else NoWinner (a match that ran to max_turns).
	winnerByRanks = -2
)

// phaseEndgame eliminates players without an active core and decides
// whether the match is over.
func (m *Match) phaseEndgame(t int) {
	eliminated := false
	for p := range m.players {
		ps := &m.players[p]
		if ps.eliminated {
			continue
		}
		alive := false
		for _, ci := range ps.cores {
			if m.cores[ci].active {
				alive = true
				break
			}
		}
		if alive {
			continue
		}
		ps.eliminated = true
		ps.stats.EliminatedTurn = t
		eliminated = true
		for i := range m.units {
			if int(m.units[i].owner) == p {
				m.died(i, CauseEliminated)
			}
		}
	}
	if eliminated {
		m.compact()
	}
	left := 0
	last := -1
	for p := range m.players {
		if !m.players[p].eliminated {
			left++
			last = p
		}
	}
	switch {
	case left == 1:
		m.end(ReasonElimination, t, last)
	case left == 0:
		m.end(ReasonAnnihilation, t, NoWinner)
	case t >= m.cfg.MaxTurns:
		m.end(ReasonTurns, t, winnerByRanks)
	}
}

// end finishes the match with its reason, the final figures and the ranks.
// winner is the winning seat, NoWinner, or winnerByRanks to decide by
// score, energy and living units among the players left.
func (m *Match) end(reason string, t, winner int) {
	m.done = true
	m.reason = reason
	units := make([]int, m.np)
	for i := range m.units {
		units[m.units[i].owner]++
	}
	for p := range m.players {
		ps := &m.players[p]
		st := &ps.stats
		st.Score, st.Energy, st.Units = ps.score, ps.energy, units[p]
		st.Cores = 0
		for _, ci := range ps.cores {
			if m.cores[ci].active {
				st.Cores++
			}
		}
	}
	// Rank key: how long a player survived, then score, energy, units.
	key := func(p int) [4]int {
		st := &m.players[p].stats
		surv := t + 1
		if m.players[p].eliminated {
			surv = st.EliminatedTurn
		}
		if reason == ReasonAnnihilation && surv == t {
			return [4]int{t, 0, 0, 0} // a draw among the last ones standing
		}
		return [4]int{surv, st.Score, st.Energy, st.Units}
	}
	better := func(a, b [4]int) bool {
		for i := range a {
			if a[i] != b[i] {
				return a[i] > b[i]
			}
		}
		return false
	}
	m.ranks = make([]int, m.np)
	for p := range m.ranks {
		m.ranks[p] = 1
		for q := range m.ranks {
			if q != p && better(key(q), key(p)) {
				m.ranks[p]++
			}
		}
	}
	if winner == winnerByRanks {
		winner = NoWinner
		firsts := 0
		for p, r := range m.ranks {
			if r == 1 {
				firsts++
				winner = p
			}
		}
		if firsts != 1 {
			winner = NoWinner
		}
	}
	m.winner = winner
}
