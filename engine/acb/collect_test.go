package acb

import (
	"reflect"
	"slices"
	"testing"
)

func TestCollect(t *testing.T) {
	e := Pos{Row: 10, Col: 10}
	t.Run("one player on a full energy tile gains 1 and it empties", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, []Pos{e}), nil, nil)
		m.setUnits(u(0, 10, 10))
		step(t, m)
		if m.Energy(0) != 1 || len(m.EnergyFull()) != 0 || m.Stats(0).EnergyCollected != 1 {
			t.Fatalf("energy %d, full tiles %v; want 1 and none", m.Energy(0), m.EnergyFull())
		}
	})
}

// TestPhaseCollect calls the collect phase on boards. Rule
// (shared/specs/acb.md, "One turn, in order", 5): "An energy tile holding
// energy with units of exactly one player standing on it gives that player
// +1 energy and empties. Units of two or more players on it: it empties,
// nobody gains."
func TestPhaseCollect(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		energy        []int
		events        []Event
	}{
		{name: "one player's unit on a full tile gains 1 and the tile empties",
			before: `*0 . * 1`, after: `o0 . * 1`, energy: []int{1, 0},
			events: []Event{{Type: EventCollected, Unit: -1, Owner: -1, Player: 0, Core: -1, Pos: Pos{0, 0}}}},
		{name: "units of two players on it: it empties and nobody gains",
			before: `*01 . * .`, after: `o01 . * .`, energy: []int{0, 0}},
		{name: "an emptied tile gives nothing",
			before: `o0 . * 1`, after: `o0 . * 1`, energy: []int{0, 0}},
		{name: "a full tile with nobody on it stays full",
			before: `* 0 * 1`, after: `* 0 * 1`, energy: []int{0, 0}},
		{name: "every tile is collected in the same turn",
			before: `*1 . *1 . *0`, after: `o1 . o1 . o0`, energy: []int{1, 2},
			events: []Event{
				{Type: EventCollected, Unit: -1, Owner: -1, Player: 1, Core: -1, Pos: Pos{0, 0}},
				{Type: EventCollected, Unit: -1, Owner: -1, Player: 1, Core: -1, Pos: Pos{0, 2}},
				{Type: EventCollected, Unit: -1, Owner: -1, Player: 0, Core: -1, Pos: Pos{0, 4}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := board(t, DefaultConfig(), 1, tt.before)
			wasFull := slices.Clone(m.energyFull)
			m.phaseCollect(1)
			wantBoard(t, m, false, tt.after)
			if got := energyOf(m); !reflect.DeepEqual(got, tt.energy) {
				t.Errorf("energy held %v, want %v", got, tt.energy)
			}
			if len(m.events)+len(tt.events) > 0 && !reflect.DeepEqual(m.events, tt.events) {
				t.Errorf("events %+v, want %+v", m.events, tt.events)
			}
			for ei := range m.energyTiles {
				if wasFull[ei] && !m.energyFull[ei] && m.energyEmpty[ei] != 1 {
					t.Errorf("energy tile %d emptied in turn %d, want 1 (the refill counts from it)", ei, m.energyEmpty[ei])
				}
			}
		})
	}
}
