package acbview

// playerState is one player's summary at the end of a turn: what the
// legend shows and what the win-probability model reads.
type playerState struct {
	Units, Energy, Score, Cores int
	// Inactive marks a bot that went inactive (bot_inactive) at or before
	// this turn: its units hold for the rest of the match.
	Inactive bool
}

// Alive reports whether the player still has an active core (a player
// without one is eliminated in that turn's endgame).
func (s playerState) Alive() bool { return s.Cores > 0 }

// statesOf summarises a replay turn by turn: states[t][p] is player p at
// the end of turn t, states[0] the initial position.
func statesOf(r *replay) [][]playerState {
	np := len(r.Players)
	out := make([][]playerState, len(r.Turns)+1)
	flat := make([]playerState, np*(len(r.Turns)+1))
	owned := make([]int, np)
	for _, c := range r.Map.Cores {
		owned[c.Owner]++
	}
	for t := range out {
		out[t] = flat[t*np : (t+1)*np : (t+1)*np]
	}
	for p := range np {
		out[0][p].Cores = owned[p]
	}
	for _, u := range r.Initial.Units {
		out[0][u.Owner].Units++
	}
	inactive := make([]bool, np)
	for k := range r.Turns {
		tr := &r.Turns[k]
		st := out[k+1]
		for p := range np {
			st[p].Cores = owned[p]
			st[p].Score = tr.Players[p].Score
			st[p].Energy = tr.Players[p].Energy
		}
		for _, c := range tr.CoresRazed {
			st[r.Map.Cores[c].Owner].Cores--
		}
		for _, u := range tr.Units {
			st[u.Owner].Units++
		}
		for _, e := range tr.Events {
			if e.Type == "bot_inactive" && e.Player >= 0 && e.Player < np {
				inactive[e.Player] = true
			}
		}
		for p := range np {
			st[p].Inactive = inactive[p]
		}
	}
	return out
}
