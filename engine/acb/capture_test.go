package acb

import (
	"reflect"
	"testing"
)

func TestCapture(t *testing.T) {
	// Player 0's cores are 0 (1,1) and 1 (4,1); player 1's are 2 (1,7) and 3 (4,7).
	t.Run("an enemy on an undefended core razes it and scores 2", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 2, nil, nil), nil, nil)
		m.setUnits(u(1, 1, 1), u(0, 15, 15))
		step(t, m)
		if c := m.Cores()[0]; c.Active {
			t.Fatal("core 0 with only an enemy on it is still active")
		}
		if m.Score(1) != 2 || m.Stats(1).CoresRazed != 1 || m.Stats(1).FirstRazeTurn != 1 || m.Stats(0).CoresLost != 1 {
			t.Fatalf("capturer score %d, stats %+v; want score 2, one raze in turn 1", m.Score(1), m.Stats(1))
		}
		evs := m.Events()
		if len(evs) != 1 || evs[0].Type != EventCaptured || evs[0].Core != 0 || evs[0].Player != 1 {
			t.Fatalf("events %+v, want one capture of core 0 by player 1", evs)
		}
	})
	t.Run("a defended core is not razed (the attacker loses the fight)", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 2, nil, nil), nil, nil)
		m.setUnits(u(0, 1, 1), u(0, 2, 1), u(1, 1, 1))
		step(t, m)
		if !m.Cores()[0].Active || m.Score(1) != 0 {
			t.Fatalf("defended core razed: active=%v, attacker score %d", m.Cores()[0].Active, m.Score(1))
		}
	})
}

// TestPhaseCapture calls the capture phase on boards. Rule
// (shared/specs/acb.md, "One turn, in order", 4): "An active core with an
// enemy unit on it and no unit of its owner is razed. The capturer (the
// lowest player id among enemies on it) scores 2."
func TestPhaseCapture(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		scores        []int
		events        []Event
	}{
		{name: "an enemy on an undefended core razes it and scores 2",
			before: `A1 . B`, after: `a1 . B`, scores: []int{0, 2},
			events: []Event{{Type: EventCaptured, Unit: -1, Owner: 0, Player: 1, Core: 0, Pos: Pos{0, 0}}}},
		{name: "a unit of the owner on its core keeps it",
			before: `A01 . B`, after: `A01 . B`, scores: []int{0, 0}},
		{name: "a core without an enemy on it stays",
			before: `A . B1`, after: `A . B1`, scores: []int{0, 0}},
		{name: "the lowest enemy player id on the core is the capturer",
			before: `A . B02 . C`, after: `A . b02 . C`, scores: []int{2, 0, 0},
			events: []Event{{Type: EventCaptured, Unit: -1, Owner: 1, Player: 0, Core: 1, Pos: Pos{0, 2}}}},
		{name: "a razed core is not razed again",
			before: `a1 . B`, after: `a1 . B`, scores: []int{0, 0}},
		{name: "every undefended core with an enemy on it falls in the same turn, in id order",
			before: `A1 A1 B0`, after: `a1 a1 b0`, scores: []int{2, 4},
			events: []Event{
				{Type: EventCaptured, Unit: -1, Owner: 0, Player: 1, Core: 0, Pos: Pos{0, 0}},
				{Type: EventCaptured, Unit: -1, Owner: 0, Player: 1, Core: 1, Pos: Pos{0, 1}},
				{Type: EventCaptured, Unit: -1, Owner: 1, Player: 0, Core: 2, Pos: Pos{0, 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := board(t, DefaultConfig(), 1, tt.before)
			m.phaseCapture(1)
			wantBoard(t, m, false, tt.after)
			if got := scoresOf(m); !reflect.DeepEqual(got, tt.scores) {
				t.Errorf("scores %v, want %v", got, tt.scores)
			}
			if len(m.events)+len(tt.events) > 0 && !reflect.DeepEqual(m.events, tt.events) {
				t.Errorf("events %+v, want %+v", m.events, tt.events)
			}
		})
	}
}
