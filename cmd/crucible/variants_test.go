package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/strategies"
)

// TestArenaVariantIDs checks defect 11 of issue 10 from the outside: a
// partial variant file and the same variant written out in full play under
// one name, and a file whose id an earlier version computed over the
// parameters it spells out is played under its full-genome id with a
// warning naming both.
func TestArenaVariantIDs(t *testing.T) {
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := reg.Lookup("kindling", "sniper")
	if err != nil {
		t.Fatal(err)
	}
	p := s.Schema[0]
	g := s.Schema.Defaults()
	g[0] = p.Max
	full := strategies.NewVariant(s, g)
	dir := t.TempDir()
	partial := filepath.Join(dir, "partial.json")
	data, _ := json.Marshal(map[string]any{"game": "kindling", "base": "sniper", "params": map[string]float64{p.Name: p.Max}})
	os.WriteFile(partial, data, 0o644)
	out := filepath.Join(dir, "r.jsonl")
	if _, _, err := execRoot(t, "arena", "--players", "normal,"+partial, "--seeds", "1", "--out", out); err != nil {
		t.Fatal(err)
	}
	res, _ := arena.LoadResults(out)
	if got := res.Records[0].Players; got[0].Name != full.Label() && got[1].Name != full.Label() {
		t.Fatalf("the partial file played as %v, want %s (the full variant's name)", got, full.Label())
	}

	legacy := strategies.Variant{Game: "kindling", Base: "sniper", Params: map[string]float64{p.Name: p.Max}}
	legacy.ID = strategies.VariantID(legacy.Game, legacy.Base, legacy.Params)
	old := filepath.Join(dir, "old.json")
	if err := legacy.Save(old); err != nil {
		t.Fatal(err)
	}
	_, stderr, err := execRoot(t, "arena", "--players", "normal,"+old, "--seeds", "1", "--out", filepath.Join(dir, "r2.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "warning: "+old+": variant sniper#"+legacy.ID) || !strings.Contains(stderr, full.ID) {
		t.Fatalf("no warning about the recomputed id:\n%s", stderr)
	}
}

// TestVariantFileMessages checks defect 7 of issue 10 through the
// commands: an empty variant file says it is empty (it said EOF), and a
// parameter of the wrong type is named (it was not).
func TestVariantFileMessages(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.json")
	os.WriteFile(empty, nil, 0o644)
	typed := filepath.Join(dir, "typed.json")
	os.WriteFile(typed, []byte(`{"game":"kindling","base":"sniper","params":{"margin":"2"}}`), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"arena, empty file", []string{"arena", "--players", "normal," + empty}, "variant " + empty + ": the file is empty"},
		{"arena, a string for a number", []string{"arena", "--players", "normal," + typed}, `variant ` + typed + `: parameter margin: "2" is not a number`},
		{"export, empty file", []string{"export", "--variant", empty, "--out", filepath.Join(dir, "x")}, "the file is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append(tt.args, "--out", filepath.Join(t.TempDir(), "r.jsonl"))
			if tt.args[0] == "export" {
				args = tt.args
			}
			_, _, err := execRoot(t, args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}
