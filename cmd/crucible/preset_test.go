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

// match acb reads a config the way arena does: "adjudicate": false is
// accepted and plays every turn (the replay has no "adjudicated" mark),
// while the zone preset's match of two players who cannot score ends early
// and says so; both give the turn limit's result.
func TestMatchAdjudicateConfig(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full.json")
	if err := os.WriteFile(full, []byte(`{"zone_enabled": true, "zone_start_turn": 10, "zone_shrink_interval": 1, "zone_min_radius": 2, "adjudicate": false}`), 0o644); err != nil {
		t.Fatal(err)
	}
	outs := map[string]string{}
	replays := map[string]string{}
	for name, cfg := range map[string]string{"zone": "zone", "full": full} {
		replays[name] = filepath.Join(dir, name+"-replay.json")
		out, errOut, err := execRoot(t, "match", "acb", "--players", "random,idle", "--seed", "1", "--config", cfg, "--replay", replays[name])
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, errOut)
		}
		outs[name] = out
	}
	if !strings.Contains(outs["zone"], "adjudicated: the rest of the match could not change the result") {
		t.Errorf("zone preset's match not reported as adjudicated:\n%s", outs["zone"])
	}
	if strings.Contains(outs["full"], "adjudicated") {
		t.Errorf(`"adjudicate": false still adjudicated:\n%s`, outs["full"])
	}
	for name, adjudicated := range map[string]bool{"zone": true, "full": false} {
		data, err := os.ReadFile(replays[name])
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(data), `"adjudicated":true`); got != adjudicated {
			t.Errorf("%s replay: adjudicated mark %v, want %v", name, got, adjudicated)
		}
	}
	line := func(s string) string { return strings.SplitN(strings.SplitN(s, "\n", 3)[1], "\n", 2)[0] }
	if line(outs["zone"]) != line(outs["full"]) {
		t.Errorf("results differ: %q against %q", line(outs["zone"]), line(outs["full"]))
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"adjudicate": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execRoot(t, "match", "acb", "--players", "random,idle", "--seed", "1", "--config", bad); err == nil || !strings.Contains(err.Error(), "config field adjudicate = 3 is not true or false") {
		t.Errorf("a non-boolean adjudicate: %v", err)
	}
}
