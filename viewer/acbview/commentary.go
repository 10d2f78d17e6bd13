package acbview

import (
	"cmp"
	"fmt"
	"slices"
)

// moment is one line of the commentary: a critical moment of the match.
type moment struct {
	// Turn is the turn the moment happened in (the page jumps there).
	Turn int `json:"t"`
	// Kind is "lead" (win-probability leader change), "score" (score
	// leader change), "raze", "elimination", "inactive" or "end".
	Kind string `json:"kind"`
	// Player is the player the moment is about (-1 for none).
	Player int `json:"p"`
	// Text says what happened.
	Text string `json:"text"`
}

// Commentary tunables.
const (
	// leadMargin is how far a new win-probability leader must be ahead of
	// the current one before the lead counts as changed.
	leadMargin = 0.05
	// leadHold is how many turns a new favourite must stay the favourite
	// to be mentioned.
	leadHold = 10
	// scoreLeadHold is how many turns a new strict score leader must keep
	// the lead to be mentioned.
	scoreLeadHold = 5
	// maxMoments caps the commentary; when over, score leader changes go
	// first, then win-probability ones, then razes (earliest kept).
	maxMoments = 40
)

// priority orders kinds for dropping when over maxMoments (higher stays).
var priority = map[string]int{"end": 5, "elimination": 4, "inactive": 4, "raze": 3, "lead": 2, "score": 1}

// within orders the moments of one turn: what happened, then what it
// does to the standings, the result last.
var within = map[string]int{"raze": 0, "elimination": 1, "inactive": 2, "lead": 3, "score": 4, "end": 5}

// playerLabel is how the commentary names a player: "P2 hunter".
func playerLabel(r *replay, p int) string {
	return fmt.Sprintf("P%d %s", p, r.Players[p].Name)
}

// commentary lists the critical moments of a match: win-probability lead
// changes, score lead changes, razes, eliminations, bots going inactive
// and the end, in turn order.
func commentary(r *replay, states [][]playerState, wp [][]float64) []moment {
	np := len(r.Players)
	var out []moment
	last := len(states) - 1

	// Win-probability leader: the player with the highest chance, once it
	// is leadMargin ahead of the previous leader (or of the runner-up,
	// for the first leader) and stays the favourite leadHold turns. The
	// final turn is the result, told by "end".
	favourite := func(t int) (best, second int) {
		best, second = -1, -1
		for p := range np {
			if best < 0 || wp[t][p] > wp[t][best] {
				best, second = p, best
			} else if second < 0 || wp[t][p] > wp[t][second] {
				second = p
			}
		}
		return best, second
	}
	leader := -1
	for t := 0; t < last; t++ {
		best, second := favourite(t)
		if best == leader || best < 0 {
			continue
		}
		ref := 0.0
		if leader >= 0 {
			ref = wp[t][leader]
		} else if second >= 0 {
			ref = wp[t][second]
		}
		if wp[t][best] < ref+leadMargin {
			continue
		}
		held := 1
		for held < leadHold && t+held < last {
			if b, _ := favourite(t + held); b != best {
				break
			}
			held++
		}
		if held < leadHold && t+held < last {
			continue
		}
		verb := "takes the lead"
		if leader < 0 {
			verb = "is the favourite"
		}
		out = append(out, moment{Turn: t, Kind: "lead", Player: best,
			Text: fmt.Sprintf("%s %s: %.0f%% to win", playerLabel(r, best), verb, 100*wp[t][best])})
		leader = best
	}

	// Score leader: a strict leader holding the lead scoreLeadHold turns.
	strict := func(t int) int {
		best, tie := -1, false
		for p := range np {
			s := states[t][p].Score
			switch {
			case best < 0 || s > states[t][best].Score:
				best, tie = p, false
			case s == states[t][best].Score:
				tie = true
			}
		}
		if tie || states[t][best].Score == 0 {
			return -1
		}
		return best
	}
	told := -1
	for t := 1; t <= last; t++ {
		p := strict(t)
		if p < 0 || p == told || (t > 1 && strict(t-1) == p) {
			continue
		}
		held := 1
		for held < scoreLeadHold && t+held <= last && strict(t+held) == p {
			held++
		}
		if held < scoreLeadHold && t+held <= last {
			continue
		}
		out = append(out, moment{Turn: t, Kind: "score", Player: p,
			Text: fmt.Sprintf("%s leads on score, %d", playerLabel(r, p), states[t][p].Score)})
		told = p
	}

	// Razes, inactive bots and eliminations, from the turns.
	for k := range r.Turns {
		t := k + 1
		for _, e := range r.Turns[k].Events {
			switch e.Type {
			case "captured":
				if e.Core < 0 || e.Core >= len(r.Map.Cores) || e.Player < 0 || e.Player >= np {
					continue
				}
				c := r.Map.Cores[e.Core]
				out = append(out, moment{Turn: t, Kind: "raze", Player: e.Player,
					Text: fmt.Sprintf("%s razes %s's core at (%d, %d)", playerLabel(r, e.Player), playerLabel(r, c.Owner), c.Row, c.Col)})
			case "bot_inactive":
				if e.Player < 0 || e.Player >= np {
					continue
				}
				out = append(out, moment{Turn: t, Kind: "inactive", Player: e.Player,
					Text: fmt.Sprintf("%s's bot goes inactive: its units hold from now on", playerLabel(r, e.Player))})
			}
		}
		for p := range np {
			if states[t-1][p].Alive() && !states[t][p].Alive() {
				out = append(out, moment{Turn: t, Kind: "elimination", Player: p,
					Text: fmt.Sprintf("%s is eliminated (no core left)", playerLabel(r, p))})
			}
		}
	}

	if res := r.Result; r.finished && last > 0 {
		m := moment{Turn: last, Kind: "end", Player: -1}
		if res.Winner != nil {
			m.Player = *res.Winner
			m.Text = fmt.Sprintf("%s wins (%s) after %d turns", playerLabel(r, *res.Winner), res.Reason, res.Turns)
		} else {
			m.Text = fmt.Sprintf("Draw (%s) after %d turns", res.Reason, res.Turns)
		}
		out = append(out, m)
	}

	if len(out) > maxMoments {
		// Keep the highest priorities, earliest first within a kind.
		slices.SortStableFunc(out, func(a, b moment) int {
			return cmp.Or(cmp.Compare(priority[b.Kind], priority[a.Kind]), cmp.Compare(a.Turn, b.Turn))
		})
		out = out[:maxMoments]
	}
	slices.SortStableFunc(out, func(a, b moment) int {
		return cmp.Or(cmp.Compare(a.Turn, b.Turn), cmp.Compare(within[a.Kind], within[b.Kind]))
	})
	return out
}
