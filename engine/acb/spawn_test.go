package acb

import (
	"fmt"
	"reflect"
	"testing"
)

// TestSpawnInTheTurnLoop checks that spawns come after collect in Step.
func TestSpawnInTheTurnLoop(t *testing.T) {
	t.Run("spawns happen in the turn loop after collect", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.SpawnCost = 1
		m := newTestMatch(t, cfg, testMap(2, 1, nil, []Pos{{Row: 10, Col: 10}}), nil, nil)
		m.setUnits(u(0, 10, 10), u(1, 1, 7))
		step(t, m)
		evs := m.Events()
		if len(evs) != 2 || evs[0].Type != EventCollected || evs[1].Type != EventSpawned || evs[1].Unit != 2 || evs[1].Core != 0 {
			t.Fatalf("events %+v; want collected then spawned unit 2 on core 0", evs)
		}
		if m.Stats(0).UnitsSpawned != 1 {
			t.Fatalf("units spawned %d, want 1", m.Stats(0).UnitsSpawned)
		}
	})
}

// TestPhaseSpawn calls the spawn phase on boards. Rule (shared/specs/acb.md,
// "One turn, in order", 6): "Each active core with no unit of any owner on
// it spawns one unit while the player's energy covers spawn_cost, deducted
// per unit; the core that spawned longest ago goes first, ties by lowest
// core id." "Replays": "each spawn takes the next unused id, players in id
// order, each player's cores in the spawn-priority order of phase 6."
func TestPhaseSpawn(t *testing.T) {
	tests := []struct {
		name          string
		cost          int
		before        string
		energy        []int
		lastSpawn     map[int]int // core id -> turn it last spawned (default 0)
		after         string
		energyAfter   []int
		spawned       []string // "unit <id> on core <id>", in order
		coreLastSpawn map[int]int
	}{
		{name: "a free active core spawns one unit and the cost is deducted",
			cost: 3, before: `A . B`, energy: []int{4, 0},
			after: `A0 . B`, energyAfter: []int{1, 0},
			spawned: []string{"unit 0 on core 0"}, coreLastSpawn: map[int]int{0: 5}},
		{name: "energy below spawn_cost spawns nothing",
			cost: 3, before: `A . B`, energy: []int{2, 2},
			after: `A . B`, energyAfter: []int{2, 2}, spawned: []string{}},
		{name: "energy is deducted per unit while it covers the cost; ties by lowest core id",
			cost: 3, before: `A A A B1`, energy: []int{7, 0},
			after: `A0 A0 A B1`, energyAfter: []int{1, 0},
			spawned: []string{"unit 1 on core 0", "unit 2 on core 1"}},
		{name: "the core that spawned longest ago goes first",
			cost: 3, before: `A A A B1`, energy: []int{3, 0}, lastSpawn: map[int]int{0: 4, 1: 2, 2: 3},
			after: `A A0 A B1`, energyAfter: []int{0, 0},
			spawned: []string{"unit 1 on core 1"}},
		{name: "a core with a unit of any owner on it does not spawn",
			cost: 1, before: `A0 A1 A B`, energy: []int{5, 0},
			after: `A0 A1 A0 B`, energyAfter: []int{4, 0},
			spawned: []string{"unit 2 on core 2"}},
		{name: "a razed core does not spawn",
			cost: 1, before: `a . B`, energy: []int{5, 5},
			after: `a . B1`, energyAfter: []int{5, 4},
			spawned: []string{"unit 0 on core 1"}},
		{name: "spawn_cost 0: every free core spawns one unit a turn",
			cost: 0, before: `A A B`, energy: []int{0, 0},
			after: `A0 A0 B1`, energyAfter: []int{0, 0},
			spawned: []string{"unit 0 on core 0", "unit 1 on core 1", "unit 2 on core 2"}},
		{name: "new units take the next unused ids, players in id order",
			cost: 1, before: `B . A 0 1`, energy: []int{1, 1},
			after: `B1 . A0 0 1`, energyAfter: []int{0, 0},
			spawned: []string{"unit 2 on core 1", "unit 3 on core 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.SpawnCost = tt.cost
			m := board(t, cfg, 5, tt.before)
			for p, e := range tt.energy {
				m.players[p].energy = e
			}
			for id, turn := range tt.lastSpawn {
				m.cores[id].lastSpawn = turn
			}
			m.phaseSpawn(5)
			wantBoard(t, m, false, tt.after)
			if got := energyOf(m); !reflect.DeepEqual(got, tt.energyAfter) {
				t.Errorf("energy after %v, want %v", got, tt.energyAfter)
			}
			spawned := []string{}
			for _, e := range m.events {
				if e.Type == EventSpawned {
					spawned = append(spawned, fmt.Sprintf("unit %d on core %d", e.Unit, e.Core))
				}
			}
			if !reflect.DeepEqual(spawned, tt.spawned) {
				t.Errorf("spawned %q, want %q", spawned, tt.spawned)
			}
			for id, want := range tt.coreLastSpawn {
				if got := m.cores[id].lastSpawn; got != want {
					t.Errorf("core %d last spawned in turn %d, want %d", id, got, want)
				}
			}
		})
	}
}
