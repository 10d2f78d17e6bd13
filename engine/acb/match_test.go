package acb

import (
	"reflect"
	"testing"
)

func TestInitialState(t *testing.T) {
	m := newTestMatch(t, DefaultConfig(), testMap(3, 2, nil, nil), nil, nil, nil)
	us := m.Units()
	if len(us) != 6 {
		t.Fatalf("%d initial units, want one per core (6)", len(us))
	}
	for i, c := range m.Cores() {
		if us[i].ID != c.ID || us[i].Owner != c.Owner || us[i].Pos != c.Pos || !c.Active || c.LastSpawn != 0 {
			t.Fatalf("unit %+v core %+v: want unit id = core id, on it, core active, last spawn 0", us[i], c)
		}
	}
	for p := 0; p < 3; p++ {
		if m.Score(p) != 0 || m.Energy(p) != 0 {
			t.Fatalf("player %d starts with score %d energy %d", p, m.Score(p), m.Energy(p))
		}
	}
}

// TestPhaseRemoveDead calls the removal between the zone and capture
// phases. Rule (shared/specs/acb.md, "One turn, in order"): the deaths of
// the move, combat and zone phases are simultaneous ("All deaths are
// simultaneous"), and capture, collect and spawn see only living units: a
// unit that died on a core neither defends nor razes it, one that died on
// energy does not collect it, and its tile is free for a spawn.
func TestPhaseRemoveDead(t *testing.T) {
	m := board(t, DefaultConfig(), 1, `A0 *1 0 B1`)
	m.died(0, CauseCombat)
	m.died(1, CauseStorm)
	m.phaseRemoveDead(1)
	wantBoard(t, m, false, `A * 0 B1`)
	if got, want := m.Units(), []UnitInfo{{2, 0, Pos{0, 2}}, {3, 1, Pos{0, 3}}}; !reflect.DeepEqual(got, want) {
		t.Fatalf("units %v, want %v (the living, in id order)", got, want)
	}
	if m.unitAt(0, 0) >= 0 || m.unitAt(1, 1) >= 0 || m.unitAt(0, 2) != 0 || m.unitAt(1, 3) != 1 {
		t.Fatal("the occupancy still holds the dead or lost the living")
	}
	m.players[0].energy = 5
	m.phaseCapture(1)
	m.phaseCollect(1)
	m.phaseSpawn(1)
	wantBoard(t, m, false, `A0 * 0 B1`)
	if m.players[1].energy != 0 || m.players[1].score != 0 {
		t.Fatalf("player 1 energy %d score %d: its dead unit collected or captured", m.players[1].energy, m.players[1].score)
	}
}
