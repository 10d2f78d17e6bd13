package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Issue 20 (low): no command listed past local arena or evolve runs (runs
// list covers only the queue). runs list --local DIR finds the results
// files and evolve run directories under DIR, says which evolve runs are
// complete, and leaves out what is neither.
func TestRunsListLocal(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "k.jsonl")
	if _, _, err := execRoot(t, "arena", "--players", "normal,easy", "--seeds", "3", "--format", "csv", "--out", results); err != nil {
		t.Fatal(err)
	}
	evo := filepath.Join(dir, "runs", "evo")
	os.MkdirAll(filepath.Dir(evo), 0o755)
	if _, stderr, err := evolveExec(t, append([]string{"--game", "kindling", "--base", "easy", "--algo", "ga", "--out", evo}, small...)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	os.WriteFile(filepath.Join(dir, "notes.jsonl"), []byte(`{"not":"a result"}`+"\n"), 0o644)
	out, _, err := execRoot(t, "runs", "list", "--local", dir)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 {
		t.Fatalf("want a header and 2 runs:\n%s", out)
	}
	var arenaLine, evoLine string
	for _, l := range lines[1:] {
		switch {
		case strings.HasSuffix(l, results):
			arenaLine = l
		case strings.HasSuffix(l, evo):
			evoLine = l
		}
	}
	if !strings.Contains(arenaLine, " arena ") || !strings.Contains(arenaLine, " kindling ") || !strings.Contains(arenaLine, "6 result lines") {
		t.Errorf("the results file: %q", arenaLine)
	}
	if !strings.Contains(evoLine, " evolve ") || !strings.Contains(evoLine, " kindling ") || !strings.Contains(evoLine, "ga over easy") || !strings.Contains(evoLine, "complete") {
		t.Errorf("the evolve run: %q", evoLine)
	}
	if _, _, err := execRoot(t, "runs", "list", "--local", results); err == nil || !strings.Contains(err.Error(), "is not a directory") {
		t.Errorf("--local on a file: %v", err)
	}
	if _, _, err := execRoot(t, "runs", "list", "--local", dir, "--db", "postgres://x@127.0.0.1/db"); err == nil || !strings.Contains(err.Error(), "not both") {
		t.Errorf("--local with --db: %v", err)
	}
}
