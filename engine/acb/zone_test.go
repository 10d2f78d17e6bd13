package acb

import (
	"reflect"
	"testing"
)

func TestZoneRadiusFormula(t *testing.T) {
	cfg := DefaultConfig() // 40x40: R0 = 20, start 10, interval 1, step 1, min 2
	tests := []struct {
		name                  string
		start, interval, step int
		min                   int
		turn, want            int
	}{
		{"before the start the radius is R0", 10, 1, 1, 2, 9, 20},
		{"at the start the radius is R0", 10, 1, 1, 2, 10, 20},
		{"one turn later it shrinks by one step", 10, 1, 1, 2, 11, 19},
		{"it shrinks by step per interval", 10, 1, 1, 2, 27, 3},
		{"it stops at the minimum radius", 10, 1, 1, 2, 28, 2},
		{"and stays there", 10, 1, 1, 2, 400, 2},
		{"interval 3 shrinks every third turn (floor)", 10, 3, 2, 2, 12, 20},
		{"interval 3, turn 13 is one interval in", 10, 3, 2, 2, 13, 18},
		{"interval 3, turn 21 is three intervals in", 10, 3, 2, 2, 21, 14},
		{"a minimum of 0 lets it close", 0, 1, 5, 0, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			c.ZoneStartTurn, c.ZoneShrinkInterval, c.ZoneShrinkStep, c.ZoneMinRadius = tt.start, tt.interval, tt.step, tt.min
			if got := ZoneRadius(c, tt.turn); got != tt.want {
				t.Fatalf("ZoneRadius(turn %d) = %d, want %d", tt.turn, got, tt.want)
			}
		})
	}
}

func TestStormKillsOutsideTheSafeCircle(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		cfg := DefaultConfig()
		cfg.ZoneEnabled = enabled
		cfg.ZoneStartTurn = 1 // 20x20: R0 = 10, centre (10,10)
		m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
		// dist2 to (10,10): 200 (out), 100 (on the circle: safe), 101 (out).
		m.setUnits(u(0, 0, 0), u(1, 10, 0), u(0, 0, 9))
		step(t, m)
		want := map[int]string{0: CauseStorm, 2: CauseStorm}
		if !enabled {
			want = map[int]string{}
		}
		if got := causes(m); !reflect.DeepEqual(got, want) {
			t.Errorf("zone enabled=%v: deaths %v, want %v", enabled, got, want)
		}
		if enabled && m.ZoneRadiusNow() != 10 {
			t.Errorf("radius in turn 1 = %d, want 10", m.ZoneRadiusNow())
		}
		if enabled && m.Stats(0).LostStorm != 2 {
			t.Errorf("player 0 lost %d units to the storm, want 2", m.Stats(0).LostStorm)
		}
	}
}

func TestStormWaitsForZoneStartTurn(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 3
	m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
	m.setUnits(u(0, 0, 0), u(1, 10, 10))
	for turn := 1; turn <= 3; turn++ {
		step(t, m)
		_, dead := causes(m)[0]
		if dead != (turn == 3) {
			t.Fatalf("turn %d: unit outside the circle dead=%v, want %v (storm from turn 3)", turn, dead, turn == 3)
		}
	}
}

// TestPhaseZone calls the zone phase on 7x7 boards: R0 = 3, centre (3,3).
// Rule (shared/specs/acb.md, "One turn, in order", 3): "Zone (only when
// zone_enabled). From zone_start_turn on, the safe radius is r =
// max(zone_min_radius, R0 - zone_shrink_step * floor((turn - zone_start_turn)
// / zone_shrink_interval)) with R0 = max(rows, cols) / 2. ... Every unit
// whose dist2 to the nearest centre is > r*r dies (storm)." The centre is
// (rows/2, cols/2) until the zone-centre rule changes.
func TestPhaseZone(t *testing.T) {
	const ring = `
		0 1 . 0 . . .
		. 0 . . . . .
		. . . . . . .
		0 . . 1 . . .
		. . . . . . .
		. . . . . . .
		. . . . . . .`
	tests := []struct {
		name        string
		enabled     bool
		start, turn int
		step, min   int
		before      string
		prep        func(m *Match)
		after       string
		died        []string
		radius      int // ZoneRadiusNow after the phase
	}{
		{name: "units beyond the radius die; on the circle is safe",
			enabled: true, start: 1, turn: 1, step: 1, before: ring,
			after: `. . . 0 . . .
			        . 0 . . . . .
			        . . . . . . .
			        0 . . 1 . . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .`,
			died: []string{"p0 (0,0) storm", "p1 (0,1) storm"}, radius: 3},
		{name: "before zone_start_turn the storm does not strike",
			enabled: true, start: 5, turn: 4, step: 1, before: ring, after: ring, died: []string{}},
		{name: "a disabled zone never strikes",
			enabled: false, start: 1, turn: 9, step: 1, before: ring, after: ring, died: []string{}},
		{name: "the radius shrinks by zone_shrink_step per interval",
			enabled: true, start: 1, turn: 3, step: 1, before: `
				. . . . . . .
				. . . . . . .
				. . 0 . . . .
				. . . 1 0 . .
				. . . . . . .
				. . . . . . .
				. . . . . . .`,
			after: `. . . . . . .
			        . . . . . . .
			        . . . . . . .
			        . . . 1 0 . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .`,
			died: []string{"p0 (2,2) storm"}, radius: 1},
		{name: "the radius stops at zone_min_radius",
			enabled: true, start: 1, turn: 3, step: 1, min: 2, before: `
				. . . . . . .
				. . . . . . .
				. . 0 . . . .
				. . . 1 0 . .
				. . . . . . .
				. . . . . . .
				. . . . . . .`,
			after: `. . . . . . .
			        . . . . . . .
			        . . 0 . . . .
			        . . . 1 0 . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .`,
			died: []string{}, radius: 2},
		{name: "a unit that already died this turn does not die again",
			enabled: true, start: 1, turn: 1, step: 1, before: ring,
			prep: func(m *Match) { m.units[0].cause = CauseCombat },
			after: `. . . 0 . . .
			        . 0 . . . . .
			        . . . . . . .
			        0 . . 1 . . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .`,
			died: []string{"p1 (0,1) storm"}, radius: 3},
		// Zone: "a unit dies when it is outside r of the nearest centre".
		{name: "with several centres a unit within the radius of any of them is safe",
			enabled: true, start: 1, turn: 1, step: 1, before: ring,
			prep:  func(m *Match) { m.mp.ZoneCenters = []Pos{{Row: 0, Col: 0}, {Row: 3, Col: 3}} },
			after: ring, died: []string{}, radius: 3},
		{name: "a unit outside the radius of every centre dies, the grid wrapping",
			enabled: true, start: 1, turn: 1, step: 1, before: `
				. . . . . . .
				. . . . . . .
				. . . . . . .
				. . . . . . .
				. . . . . . .
				. . . . 0 . .
				. . . . . 1 .`,
			prep: func(m *Match) { m.mp.ZoneCenters = []Pos{{Row: 0, Col: 0}, {Row: 2, Col: 2}} },
			// (6,6) is within the radius of (0,0) across the wrap.
			after: `. . . . . . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . . .
			        . . . . . 1 .`,
			died: []string{"p0 (5,4) storm"}, radius: 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.ZoneEnabled, cfg.ZoneStartTurn = tt.enabled, tt.start
			cfg.ZoneShrinkStep, cfg.ZoneShrinkInterval, cfg.ZoneMinRadius = tt.step, 1, tt.min
			m := board(t, cfg, tt.turn, tt.before)
			if tt.prep != nil {
				tt.prep(m)
			}
			m.phaseZone(tt.turn)
			wantBoard(t, m, false, tt.after)
			if got := deathList(m); !reflect.DeepEqual(got, tt.died) {
				t.Errorf("deaths %q, want %q", got, tt.died)
			}
			if m.ZoneRadiusNow() != tt.radius {
				t.Errorf("radius applied %d, want %d", m.ZoneRadiusNow(), tt.radius)
			}
		})
	}
}
