package acb

import (
	"reflect"
	"testing"
)

func TestEndgame(t *testing.T) {
	t.Run("elimination when the last core falls", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, nil), nil, nil)
		m.setUnits(u(0, 15, 15), u(1, 1, 1), u(0, 12, 3))
		if !step(t, m) {
			t.Fatal("match not over after player 0's only core fell")
		}
		if m.Reason() != ReasonElimination || m.Winner() != 1 || m.Turn() != 1 {
			t.Fatalf("reason %q winner %d turn %d; want elimination, 1, 1", m.Reason(), m.Winner(), m.Turn())
		}
		if got := causes(m); !reflect.DeepEqual(got, map[int]string{0: CauseEliminated, 2: CauseEliminated}) {
			t.Fatalf("deaths %v; want player 0's units removed as eliminated", got)
		}
		res := m.Result()
		if !reflect.DeepEqual(res.Ranks, []int{2, 1}) || res.Detail.(Detail).Players[0].EliminatedTurn != 1 {
			t.Fatalf("ranks %v detail %+v", res.Ranks, res.Detail)
		}
	})
	t.Run("annihilation when nobody is left is a draw", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, nil), nil, nil)
		m.setUnits(u(1, 1, 1), u(0, 1, 7)) // each on the other's only core
		step(t, m)
		if m.Reason() != ReasonAnnihilation || m.Winner() != -1 {
			t.Fatalf("reason %q winner %d; want annihilation and no winner", m.Reason(), m.Winner())
		}
		if r := m.Result().Ranks; !reflect.DeepEqual(r, []int{1, 1}) {
			t.Fatalf("ranks %v, want a shared first place", r)
		}
	})
	t.Run("an eliminated player ranks below the survivors", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(3, 1, nil, nil), nil, nil, nil)
		m.cfg.MaxTurns = 1
		m.setUnits(u(1, 1, 1), u(2, 15, 15))
		m.players[0].score = 50
		step(t, m)
		if r := m.Result().Ranks; !reflect.DeepEqual(r, []int{3, 1, 2}) {
			t.Fatalf("ranks %v; want the eliminated high scorer last: [3 1 2]", r)
		}
	})
}

func TestTieBreaksAtMaxTurns(t *testing.T) {
	tests := []struct {
		name          string
		score, energy [2]int
		units         [2]int
		winner        int
		ranks         []int
	}{
		{"the higher score wins", [2]int{3, 5}, [2]int{9, 0}, [2]int{3, 1}, 1, []int{2, 1}},
		{"equal scores: more energy wins", [2]int{4, 4}, [2]int{2, 1}, [2]int{1, 3}, 0, []int{1, 2}},
		{"equal score and energy: more living units win", [2]int{4, 4}, [2]int{2, 2}, [2]int{1, 3}, 1, []int{2, 1}},
		{"all equal is a draw", [2]int{4, 4}, [2]int{2, 2}, [2]int{2, 2}, -1, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.MaxTurns = 1
			cfg.SpawnCost = 1000
			m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
			var us []UnitInfo
			for p := 0; p < 2; p++ {
				for k := 0; k < tt.units[p]; k++ {
					us = append(us, u(p, 8+2*k, 2+12*p))
				}
				m.players[p].score, m.players[p].energy = tt.score[p], tt.energy[p]
			}
			m.setUnits(us...)
			if !step(t, m) {
				t.Fatal("match not over at max_turns")
			}
			if m.Reason() != ReasonTurns || m.Winner() != tt.winner || !reflect.DeepEqual(m.Result().Ranks, tt.ranks) {
				t.Fatalf("reason %q winner %d ranks %v; want turns, %d, %v", m.Reason(), m.Winner(), m.Result().Ranks, tt.winner, tt.ranks)
			}
		})
	}
}

// TestPhaseEndgame calls the endgame phase on boards, in turn 5. Rule
// (shared/specs/acb.md, "One turn, in order", 8): "A player with no active
// core is eliminated: its units are removed (cause eliminated). The match
// ends when one player remains (reason elimination), when none remains
// (reason annihilation, a draw), or after max_turns (reason turns): the
// highest score wins, ties by energy held, then by living units; still
// tied is a draw. A draw has winner: null." Ranks (doc.go): players still
// in the game rank above eliminated ones, those eliminated later above
// those eliminated earlier, then by score, energy held and living units;
// equal keys share a place. Players are eliminated in id order.
func TestPhaseEndgame(t *testing.T) {
	tests := []struct {
		name          string
		maxTurns      int
		before, after string
		score, energy []int
		eliminatedAt  map[int]int // players eliminated in an earlier turn
		died          []string
		done          bool
		reason        string
		winner        int
		ranks         []int
	}{
		{name: "a player with no active core is eliminated and its units removed",
			before: `A0 . b1 1 . C2`, after: `A0 . b . . C2`,
			died: []string{"p1 (0,2) eliminated", "p1 (0,3) eliminated"}, winner: NoWinner},
		{name: "when one player remains the match ends and it wins",
			before: `A0 . b1`, after: `A0 . b`, died: []string{"p1 (0,2) eliminated"},
			done: true, reason: ReasonElimination, winner: 0, ranks: []int{1, 2}},
		{name: "when none remains it is an annihilation, a draw",
			before: `a1 . b0`, after: `a . b`, died: []string{"p0 (0,2) eliminated", "p1 (0,0) eliminated"},
			done: true, reason: ReasonAnnihilation, winner: NoWinner, ranks: []int{1, 1}},
		{name: "before max_turns the match goes on",
			maxTurns: 6, before: `A0 . B1`, after: `A0 . B1`, score: []int{3, 5}, winner: NoWinner},
		{name: "after max_turns the highest score wins",
			maxTurns: 5, before: `A0 . B1`, after: `A0 . B1`, score: []int{3, 5}, energy: []int{9, 0},
			done: true, reason: ReasonTurns, winner: 1, ranks: []int{2, 1}},
		{name: "equal scores: more energy held wins",
			maxTurns: 5, before: `A0 . B1 1`, after: `A0 . B1 1`, score: []int{4, 4}, energy: []int{2, 1},
			done: true, reason: ReasonTurns, winner: 0, ranks: []int{1, 2}},
		{name: "equal score and energy: more living units win",
			maxTurns: 5, before: `A0 . B1 1`, after: `A0 . B1 1`, score: []int{4, 4}, energy: []int{2, 2},
			done: true, reason: ReasonTurns, winner: 1, ranks: []int{2, 1}},
		{name: "all equal is a draw",
			maxTurns: 5, before: `A0 . B1`, after: `A0 . B1`, score: []int{4, 4}, energy: []int{2, 2},
			done: true, reason: ReasonTurns, winner: NoWinner, ranks: []int{1, 1}},
		{name: "an eliminated player ranks below the survivors whatever its score",
			maxTurns: 5, before: `b0 . B1 . C2`, after: `b . B1 . C2`, score: []int{50, 0, 1},
			died: []string{"p0 (0,0) eliminated"},
			done: true, reason: ReasonTurns, winner: 2, ranks: []int{3, 2, 1}},
		{name: "a player eliminated later ranks above one eliminated earlier",
			before: `a . b1 . C2`, after: `a . b . C2`, score: []int{9, 5, 0}, eliminatedAt: map[int]int{0: 2},
			died: []string{"p1 (0,2) eliminated"},
			done: true, reason: ReasonElimination, winner: 2, ranks: []int{3, 2, 1}},
		{name: "in an annihilation the players eliminated last share first place",
			before: `a . b2 . c1`, after: `a . b . c`, score: []int{9, 5, 0}, eliminatedAt: map[int]int{0: 2},
			died: []string{"p1 (0,4) eliminated", "p2 (0,2) eliminated"},
			done: true, reason: ReasonAnnihilation, winner: NoWinner, ranks: []int{3, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.MaxTurns = 500
			if tt.maxTurns > 0 {
				cfg.MaxTurns = tt.maxTurns
			}
			m := board(t, cfg, 5, tt.before)
			for p := range tt.score {
				m.players[p].score = tt.score[p]
			}
			for p := range tt.energy {
				m.players[p].energy = tt.energy[p]
			}
			for p, turn := range tt.eliminatedAt {
				m.players[p].eliminated, m.players[p].stats.EliminatedTurn = true, turn
			}
			m.phaseEndgame(5)
			wantBoard(t, m, false, tt.after)
			if got := deathList(m); len(got)+len(tt.died) > 0 && !reflect.DeepEqual(got, tt.died) {
				t.Errorf("deaths %q, want %q", got, tt.died)
			}
			for _, u := range m.units {
				if u.cause != "" {
					t.Errorf("unit %d died (%s) but is still on the board", u.id, u.cause)
				}
			}
			if m.done != tt.done || m.reason != tt.reason || m.winner != tt.winner || !reflect.DeepEqual(m.ranks, tt.ranks) {
				t.Errorf("done %v reason %q winner %d ranks %v; want %v %q %d %v", m.done, m.reason, m.winner, m.ranks, tt.done, tt.reason, tt.winner, tt.ranks)
			}
		})
	}
}
