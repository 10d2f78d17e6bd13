package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/engine/acb"
)

// runACBCmd runs the root command with args and returns stdout and the
// error.
func runACBCmd(t *testing.T, args ...string) (string, error) {
	t.Helper()
	out, _, err := execRoot(t, args...)
	return out, err
}

func TestMatchACBPlaysAndWritesAReplay(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "r.json")
	out, err := runACBCmd(t, "match", "acb", "--players", "random,idle", "--seed", "5", "--replay", replay)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"acb match, seed 5, 2 players", "winner: ", "reason: ", "turns: ", "SCORE", "ENERGY", "UNITS", "CORES", "random", "idle", "replay written to " + replay} {
		if !strings.Contains(out, want) {
			t.Fatalf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(replay)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Format string `json:"format"`
		Seed   uint64 `json:"seed"`
		Result struct {
			Reason string `json:"reason"`
			Turns  int    `json:"turns"`
		} `json:"result"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("replay is not JSON: %v", err)
	}
	if doc.Format != acb.ReplayFormat || doc.Seed != 5 || !strings.Contains(out, "reason: "+doc.Result.Reason) {
		t.Fatalf("replay header %+v does not match the printed result:\n%s", doc, out)
	}
	// The same command gives the same bytes.
	replay2 := filepath.Join(dir, "r2.json")
	if _, err := runACBCmd(t, "match", "acb", "--players", "random,idle", "--seed", "5", "--replay", replay2); err != nil {
		t.Fatal(err)
	}
	data2, _ := os.ReadFile(replay2)
	if !bytes.Equal(data, data2) {
		t.Fatal("two runs with the same seed wrote different replays")
	}
}

func TestMatchACBWithConfigAndMap(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(cfg, []byte(`{"max_turns": 25}`), 0o644); err != nil {
		t.Fatal(err)
	}
	mapPath := filepath.Join(dir, "m.json")
	if _, err := runACBCmd(t, "map", "--players", "3", "--seed", "4", "--out", mapPath); err != nil {
		t.Fatal(err)
	}
	out, err := runACBCmd(t, "match", "acb", "--players", "idle,idle,idle", "--config", cfg, "--map", mapPath)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "winner: none (draw)   reason: turns   turns: 25") {
		t.Fatalf("three idle players over 25 turns should draw:\n%s", out)
	}
	if strings.Contains(out, "fair") {
		t.Fatalf("a generated map is fair, yet the output says:\n%s", out)
	}
}

// TestMatchACBRefusesUnfairMaps: a --map that is not fair (defect 12 of
// issue 10: an asymmetric map, one without energy, one with unreachable
// pockets played as if valid) is refused with the reason, and played with
// a note under --allow-unfair-map.
func TestMatchACBRefusesUnfairMaps(t *testing.T) {
	dir := t.TempDir()
	cores := `"cores":[{"id":0,"owner":0,"row":2,"col":2},{"id":1,"owner":1,"row":14,"col":14}]`
	maps := []struct {
		name, json, reason string
	}{
		{"asymmetric", `{"rows":16,"cols":16,"walls":[[5,5]],"energy":[[8,8]],` + cores + `}`, "seat(s) 1 not equivalent to seat 0"},
		{"no energy", `{"rows":16,"cols":16,"walls":[[5,5],[11,11]],` + cores + `}`, "has no energy tile"},
		{"pockets", `{"rows":16,"cols":16,"walls":[[4,5],[6,5],[5,4],[5,6],[12,11],[10,11],[11,12],[11,10]],"energy":[[8,8]],` + cores + `}`,
			"2 open tile(s) cannot be reached from the cores, the first at (5,5)"},
	}
	for _, m := range maps {
		t.Run(m.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(m.name, " ", "-")+".json")
			if err := os.WriteFile(path, []byte(m.json), 0o644); err != nil {
				t.Fatal(err)
			}
			args := []string{"match", "acb", "--players", "idle,idle", "--map", path, "--config", writeConfig(t, dir, `{"max_turns": 5}`)}
			_, err := runACBCmd(t, args...)
			if err == nil || !strings.Contains(err.Error(), m.reason) || !strings.Contains(err.Error(), "is not a fair map (--allow-unfair-map plays it anyway)") {
				t.Fatalf("err = %v, want a refusal naming %q and the flag", err, m.reason)
			}
			out, err := runACBCmd(t, append(args, "--allow-unfair-map")...)
			if err != nil {
				t.Fatalf("with --allow-unfair-map: %v", err)
			}
			if !strings.Contains(out, "note: "+path+" is not a fair map") || !strings.Contains(out, m.reason) || !strings.Contains(out, "turns: 5") {
				t.Fatalf("with --allow-unfair-map the match plays with a note saying why:\n%s", out)
			}
		})
	}
	fair := filepath.Join(dir, "fair.json")
	os.WriteFile(fair, []byte(`{"rows":16,"cols":16,"walls":[[5,5],[11,11]],"energy":[[8,8]],`+cores+`}`), 0o644)
	if out, err := runACBCmd(t, "match", "acb", "--players", "idle,idle", "--map", fair); err != nil || strings.Contains(out, "fair") {
		t.Fatalf("a fair hand-made map: err %v, output:\n%s", err, out)
	}
}

// writeConfig writes a config file into dir and returns its path.
func writeConfig(t *testing.T, dir, json string) string {
	t.Helper()
	path := filepath.Join(dir, "cfg.json")
	if err := os.WriteFile(path, []byte(json), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestMatchACBErrors(t *testing.T) {
	dir := t.TempDir()
	badCfg := filepath.Join(dir, "bad.json")
	os.WriteFile(badCfg, []byte(`{"attack_radius2": 0}`), 0o644)
	mapPath := filepath.Join(dir, "m.json")
	if _, err := runACBCmd(t, "map", "--players", "2", "--out", mapPath); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown player lists the known ones", []string{"--players", "random,wizard"}, `unknown acb player "wizard" (known: `},
		{"one player", []string{"--players", "random"}, "--players needs 2..6 comma-separated names, got 1"},
		{"seven players", []string{"--players", "idle,idle,idle,idle,idle,idle,idle"}, "got 7"},
		{"five players without a map", []string{"--players", "idle,idle,idle,idle,idle"}, "5 players need a --map"},
		{"bad config names field and range", []string{"--players", "idle,idle", "--config", badCfg}, "attack_radius2 = 0 is outside its allowed range 1..10000"},
		{"missing config file", []string{"--players", "idle,idle", "--config", filepath.Join(dir, "none.json")}, "no such file"},
		{"map for another player count", []string{"--players", "idle,idle,idle", "--map", mapPath}, "has cores for 2 players but --players names 3"},
		{"players flag required", nil, `required flag(s) "players" not set`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := runACBCmd(t, append([]string{"match", "acb"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := runACBCmd(t, "match", "acb", "--players", "random,wizard"); err == nil || !strings.Contains(err.Error(), "idle") || !strings.Contains(err.Error(), "random") {
		t.Fatalf("the known list must include the built-ins: %v", err)
	}
}

func TestMapCommand(t *testing.T) {
	out, err := runACBCmd(t, "map", "--players", "4", "--seed", "9")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "map 40x40, 4 players, seed 9: ") {
		t.Fatalf("summary line %q", lines[0])
	}
	grid := lines[1:41]
	cores := 0
	for _, l := range grid {
		if len(l) != 40 || strings.Trim(l, ".#*C") != "" {
			t.Fatalf("preview line %q is not 40 of . # * C", l)
		}
		cores += strings.Count(l, "C")
	}
	if cores != 8 || !strings.HasPrefix(lines[41], "player 0: core 0 (") || !strings.HasPrefix(lines[44], "player 3: core 6 (") {
		t.Fatalf("%d cores drawn; legend %q", cores, lines[41:45])
	}
	// --out writes a map file that loads and equals the generated map.
	path := filepath.Join(t.TempDir(), "m.json")
	if out, err = runACBCmd(t, "map", "--players", "6", "--seed", "2", "--rows", "45", "--cols", "45", "--cores", "1", "--out", path); err != nil {
		t.Fatal(err)
	}
	m, err := acb.LoadMap(path)
	if err != nil {
		t.Fatal(err)
	}
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.CoresPerPlayer = 45, 45, 1
	want, _ := acb.GenerateMap(cfg, 6, 2)
	if m.ASCII() != want.ASCII() || m.Players() != 6 || !strings.Contains(out, "written to "+path) {
		t.Fatalf("saved map differs from the generated one (%d players):\n%s", m.Players(), out)
	}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--players", "5"}, "maps exist for 2, 3, 4 or 6 players, not 5"},
		{[]string{"--rows", "8"}, "rows = 8 is outside its allowed range 16..200"},
		{[]string{"--cores", "9"}, "cores_per_player = 9 is outside its allowed range 1..8"},
	} {
		if _, err := runACBCmd(t, append([]string{"map"}, tt.args...)...); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("map %v: err = %v, want %q", tt.args, err, tt.want)
		}
	}
}
