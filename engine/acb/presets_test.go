package acb

import "testing"

// Every preset parses as a config, enables the zone, and the zone preset
// keeps the seed's example values (spec: zone_start_turn 10,
// zone_shrink_interval 1, zone_shrink_step 1, zone_min_radius 2).
func TestPresets(t *testing.T) {
	want := map[string][4]int{
		"zone":      {10, 1, 1, 2},
		"zone-mild": {100, 10, 1, 8},
	}
	seen := map[string]bool{}
	for _, p := range Presets() {
		if seen[p.Name] {
			t.Errorf("preset %s listed twice", p.Name)
		}
		seen[p.Name] = true
		c, err := ParseConfig([]byte(p.JSON))
		if err != nil {
			t.Fatalf("preset %s: %v", p.Name, err)
		}
		got := [4]int{c.ZoneStartTurn, c.ZoneShrinkInterval, c.ZoneShrinkStep, c.ZoneMinRadius}
		if !c.ZoneEnabled || got != want[p.Name] {
			t.Errorf("preset %s: zone %v %v, want enabled %v", p.Name, c.ZoneEnabled, got, want[p.Name])
		}
		if c.Rows != DefaultConfig().Rows || c.MaxTurns != DefaultConfig().MaxTurns {
			t.Errorf("preset %s changes more than the zone: %+v", p.Name, c)
		}
	}
	if len(seen) != len(want) {
		t.Errorf("presets %v, want %v", seen, want)
	}
}
