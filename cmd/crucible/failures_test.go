package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/reports"
)

// playArenaWith plays a round robin of entrants on seeds into out through
// the arena command's play step, as --resume when resume is set.
func playArenaWith(t *testing.T, out string, resume bool, entrants []arena.Entrant, seeds int) (string, error) {
	t.Helper()
	cmd := newArenaCmd()
	var stdout, stderr bytes.Buffer
	cmd.SetOut(&stdout)
	cmd.SetErr(&stderr)
	cmd.SetContext(context.Background())
	f := arenaFlags{out: out, resume: resume, workers: 2, matrix: true}
	jobs := arena.RoundRobin(len(entrants), arena.Seeds(1, seeds))
	err := playArena(cmd, f, kindling.Game{}, nil, entrants, jobs, reports.Table)
	return stderr.String(), err
}

// kindlingEntrants returns the named Kindling strategies as entrants; a
// name in broken gets a constructor that fails, as an unreachable remote
// bot's does.
func kindlingEntrants(t *testing.T, names string, broken ...string) []arena.Entrant {
	t.Helper()
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	es, err := resolvePlayers(reg, "kindling", names, "", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range es {
		for _, b := range broken {
			if es[i].Name == b {
				es[i].New = func(context.Context, uint64, int) (engine.Player, error) {
					return nil, errors.New("bot http://127.0.0.1:1 did not answer 200 on GET /health")
				}
			}
		}
	}
	return es
}

// TestArenaFailedMatches checks defect 1 of issue 10 from the outside: an
// arena in which every match fails exits with an error and leaves error
// lines that name every seat; rate and report skip them with a count;
// --resume plays them again, after which the readers count the failures
// as played again, not as failed.
func TestArenaFailedMatches(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	stderr, err := playArenaWith(t, out, false, kindlingEntrants(t, "normal,easy", "easy"), 2)
	if err == nil || !strings.Contains(err.Error(), "every one of the 4 matches played failed") {
		t.Fatalf("an arena whose matches all failed: %v\n%s", err, stderr)
	}
	res, err := arena.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 4 {
		t.Fatalf("%d records, want 4 error lines", len(res.Records))
	}
	for _, r := range res.Records {
		if r.Error == "" || r.Players[0].Name == "" || r.Players[1].Name == "" {
			t.Fatalf("record %+v: want an error naming both seats", r)
		}
	}
	_, stderr, err = execRoot(t, "rate", "--results", out, "--format", "csv")
	if err != nil || !strings.Contains(stderr, "4 of 4 matches in "+out+" failed and are left out") || !strings.Contains(stderr, "holds no finished match") {
		t.Fatalf("rate of a file of failed matches: %v\n%s", err, stderr)
	}
	// A partly failed arena still rates, and says how many failed.
	part := filepath.Join(t.TempDir(), "part.jsonl")
	stderr, err = playArenaWith(t, part, false, kindlingEntrants(t, "normal,easy,greedy", "greedy"), 1)
	if err != nil || !strings.Contains(stderr, "4 of 6 matches failed and are left out of the ratings") {
		t.Fatalf("a partly failed arena: %v\n%s", err, stderr)
	}

	// The bot is back: --resume plays the failed matches again.
	stderr, err = playArenaWith(t, out, true, kindlingEntrants(t, "normal,easy"), 2)
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "0 of 4 matches done (4 failed matches skipped: their jobs are played again), 4 to play") {
		t.Fatalf("resume message:\n%s", stderr)
	}
	res, err = arena.LoadResults(out)
	if err != nil || len(res.Records) != 8 {
		t.Fatalf("after resume: %d records, %v; want 4 error lines and 4 finished", len(res.Records), err)
	}
	_, stderr, err = execRoot(t, "rate", "--results", out, "--format", "csv")
	if err != nil || !strings.Contains(stderr, "4 failed records in "+out+" were played again by a resumed run") || strings.Contains(stderr, "matches in "+out+" failed") {
		t.Fatalf("rate after resume: %v\n%s", err, stderr)
	}
	page, err := reportFile(t, filepath.Join(t.TempDir(), "r.html"), "--results", out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "failed and left out") {
		t.Fatal("the report counts failed matches that were played again")
	}
	// Resuming again plays nothing.
	if stderr, err := playArenaWith(t, out, true, kindlingEntrants(t, "normal,easy"), 2); err != nil || !strings.Contains(stderr, "4 of 4 matches done") {
		t.Fatalf("second resume: %v\n%s", err, stderr)
	}
}

// TestReadersRefuseWhatResumeRefuses checks defect 6 of issue 10: rate and
// report refuse a file that holds a match twice (they used to count it
// twice), records of two games, or a negative round, as --resume does.
func TestReadersRefuseWhatResumeRefuses(t *testing.T) {
	good, err := os.ReadFile(rateFixture(t))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(good), "\n"), "\n")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	twice := write("twice.jsonl", string(good)+lines[0])
	games := write("games.jsonl", string(good)+strings.Replace(lines[0], `"game":"kindling"`, `"game":"acb"`, 1))
	negative := write("negative.jsonl", strings.Replace(string(good), `"round":0`, `"round":-1`, 1))
	tests := []struct {
		name, file, want string
	}{
		{"a match recorded twice", twice, "is recorded twice"},
		{"two games", games, "is a match of acb, but the file's first record is of kindling"},
		{"a negative round", negative, "round -1 is negative"},
	}
	for _, tt := range tests {
		for _, command := range []string{"rate", "report"} {
			t.Run(command+" "+tt.name, func(t *testing.T) {
				args := []string{command, "--results", tt.file}
				if command == "report" {
					args = append(args, "--out", filepath.Join(t.TempDir(), "r.html"))
				}
				_, _, err := execRoot(t, args...)
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("error %v, want %q", err, tt.want)
				}
			})
		}
	}
}
