package acb

import (
	"reflect"
	"testing"
)

func TestEnergyRefillTiming(t *testing.T) {
	for _, interval := range []int{0, 1, 10} {
		cfg := DefaultConfig()
		cfg.EnergyInterval = interval
		cfg.SpawnCost = 1000 // no spawns
		m := newTestMatch(t, cfg, testMap(2, 1, nil, []Pos{{Row: 10, Col: 10}}), nil, nil)
		m.setUnits(u(0, 10, 10)) // stands on the tile: collects whenever it is full
		var got []int
		for turn := 1; turn <= 25; turn++ {
			before := m.Energy(0)
			step(t, m)
			if m.Energy(0) > before {
				got = append(got, turn)
			}
		}
		// Emptied in turn t, full at the end of t+interval, collected in t+interval+1.
		var want []int
		for turn := 1; turn <= 25; turn += interval + 1 {
			want = append(want, turn)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("interval %d: collected in turns %v, want %v", interval, got, want)
		}
	}
}

// TestPhaseEnergy calls the energy tick on boards. Rule (shared/specs/acb.md,
// "One turn, in order", 7): "An energy tile emptied in turn t is full again
// at the end of turn t + energy_interval."
func TestPhaseEnergy(t *testing.T) {
	tests := []struct {
		name          string
		interval      int
		emptied, turn int
		before, after string
	}{
		{name: "not yet full at the end of turn t + energy_interval - 1",
			interval: 10, emptied: 3, turn: 12, before: `o . * 0 1`, after: `o . * 0 1`},
		{name: "full again at the end of turn t + energy_interval",
			interval: 10, emptied: 3, turn: 13, before: `o . * 0 1`, after: `* . * 0 1`},
		{name: "a unit standing on the tile does not stop the refill",
			interval: 2, emptied: 3, turn: 5, before: `o0 . * . 1`, after: `*0 . * . 1`},
		{name: "energy_interval 0 refills the tile in the turn it was emptied",
			interval: 0, emptied: 4, turn: 4, before: `o . o 0 1`, after: `* . * 0 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.EnergyInterval = tt.interval
			m := board(t, cfg, tt.turn, tt.before)
			for ei := range m.energyTiles {
				if !m.energyFull[ei] {
					m.energyEmpty[ei] = tt.emptied
				}
			}
			m.phaseEnergy(tt.turn)
			wantBoard(t, m, false, tt.after)
			for ei, tile := range m.energyTiles {
				r, c := int(tile)/m.cols, int(tile)%m.cols
				if bit := m.energyBits[r*m.words+c>>6]&(1<<(c&63)) != 0; bit != m.energyFull[ei] {
					t.Errorf("energy tile (%d,%d): full %v but the views' bitset says %v", r, c, m.energyFull[ei], bit)
				}
			}
		})
	}
}
