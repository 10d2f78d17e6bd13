package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --config takes a preset name where no file of that name exists: the
// replay of a match on zone-mild records the milder storm's settings; an
// unknown name lists the presets.
func TestConfigPreset(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "r.json")
	if _, errOut, err := execRoot(t, "match", "acb", "--players", "zone-driver,gatherer", "--seed", "3", "--config", "zone-mild", "--replay", replay); err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	data, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Config map[string]any `json:"config"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"zone_enabled": true, "zone_start_turn": 100.0, "zone_shrink_interval": 10.0, "zone_min_radius": 8.0} {
		if r.Config[k] != want {
			t.Errorf("replay config %s = %v, want %v", k, r.Config[k], want)
		}
	}
	_, _, err = execRoot(t, "arena", "--game", "acb", "--players", "gatherer,rusher", "--seeds", "1", "--config", "zone-milde", "--out", filepath.Join(dir, "a.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "--config zone-milde: no such file, and not a preset of acb (presets: zone, zone-mild)") {
		t.Errorf("unknown preset: %v", err)
	}
	_, _, err = execRoot(t, "arena", "--game", "kindling", "--players", "easy,normal", "--seeds", "1", "--config", "zone", "--out", filepath.Join(dir, "k.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "--config zone: no such file (kindling has no presets)") {
		t.Errorf("a preset of another game: %v", err)
	}
}
