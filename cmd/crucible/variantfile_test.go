package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/arena"
)

// handVariant writes a hand-written Kindling variant file that leaves out
// its id and all parameters but one, as the variant format allows.
func handVariant(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hand.json")
	if err := os.WriteFile(path, []byte(`{"game": "kindling", "base": "sniper", "params": {"margin": 2}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Defect 20.9: ladder add --variant refused a hand-written variant without
// an id ("variant: needs its strategy, id and content") that crucible arena
// plays. It is read as the arena reads it: the same id, and the entrant
// plays under it.
func TestLadderAddsHandWrittenVariant(t *testing.T) {
	vf := handVariant(t)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if _, _, err := execRoot(t, "arena", "--players", "normal,"+vf, "--seeds", "1", "--out", out, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	res, err := arena.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	var id string
	for _, p := range res.Records[0].Players {
		if p.Strategy == "sniper" {
			id = p.VariantID
		}
	}
	if id == "" {
		t.Fatalf("the arena recorded no variant id: %+v", res.Records[0].Players)
	}
	db := filepath.Join(t.TempDir(), "ladder.db")
	lad(t, db, "init", "--game", "kindling")
	lad(t, db, "add", "normal", "--strategy", "normal")
	if got := lad(t, db, "add", "champ", "--variant", vf); !strings.Contains(got, "variant:"+id) {
		t.Fatalf("ladder add: %q, want the arena's id %s", got, id)
	}
	lad(t, db, "run", "--night", "n1", "--seeds-per-night", "1", "--budget", "0")
	export := filepath.Join(t.TempDir(), "e.jsonl")
	lad(t, db, "export", "--out", export)
	data, _ := os.ReadFile(export)
	if !strings.Contains(string(data), `"variant":"`+id+`"`) {
		t.Fatalf("the night's matches do not play variant %s:\n%.400s", id, data)
	}
}

// Defect 20.9: crucible match kindling took no variant files; it reads one
// as crucible arena does, and the seat plays under the variant's name.
func TestMatchKindlingPlaysVariantFile(t *testing.T) {
	vf := handVariant(t)
	out, _, err := execRoot(t, "match", "kindling", "--players", vf+",normal", "--seed", "3")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "0 sniper#") {
		t.Fatalf("the variant's seat is not named base#id:\n%.300s", out)
	}
	bad := filepath.Join(t.TempDir(), "acb.json")
	os.WriteFile(bad, []byte(`{"game": "acb", "base": "gatherer"}`), 0o644)
	if _, _, err := execRoot(t, "match", "kindling", "--players", bad+",normal"); err == nil || !strings.Contains(err.Error(), "a variant of game acb, but the game played is kindling") {
		t.Fatalf("a variant of the other game: %v", err)
	}
}
