package arena_test

import (
	"context"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/engine"
)

// mustParse parses results lines.
func mustParse(t *testing.T, data string) []arena.Record {
	t.Helper()
	res, err := arena.ParseResults([]byte(data), "res.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return res.Records
}

// TestTally checks what the readers that rate a results file accept
// (defects 1 and 6 of issue 10): failed matches are skipped and counted, a
// failed match that a resumed run finished is not counted as failed, a
// match finished twice and records of two games are refused, and files of
// runs on other seeds may be joined.
func TestTally(t *testing.T) {
	otherSeed := strings.Replace(goodLine, `"seed":5`, `"seed":9`, 1)
	errOfGood := strings.Replace(strings.Replace(errLine, `"job":"r1-0v1"`, `"job":"r0-0v1"`, 1), `"seed":6`, `"seed":5`, 1)
	errOfGood = strings.Replace(errOfGood, `"round":1`, `"round":0`, 1)
	tests := []struct {
		name             string
		data             string
		finished, failed int
		retried          int
		err              string
	}{
		{"finished and failed", goodLine + "\n" + goodLine2 + "\n" + errLine + "\n", 2, 1, 0, ""},
		{"a failed match finished by a resumed run", errOfGood + "\n" + goodLine + "\n", 1, 0, 1, ""},
		{"a match finished twice", goodLine + "\n" + goodLine2 + "\n" + goodLine + "\n", 0, 0, 0,
			"job r0-0v1 (seed 5) is recorded twice"},
		{"the same job on another seed is another match", goodLine + "\n" + otherSeed + "\n", 2, 0, 0, ""},
		{"two games", goodLine + "\n" + strings.Replace(goodLine2, `"game":"toy"`, `"game":"chess"`, 1) + "\n", 0, 0, 0,
			"job r0-1v0 is a match of chess, but the file's first record is of toy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tally, err := arena.NewTally(mustParse(t, tt.data))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tally.Finished) != tt.finished || len(tally.Failed) != tt.failed || tally.Retried != tt.retried {
				t.Fatalf("%d finished, %d failed, %d retried; want %d, %d, %d",
					len(tally.Finished), len(tally.Failed), tally.Retried, tt.finished, tt.failed, tt.retried)
			}
			if tally.Game != "toy" {
				t.Fatalf("game %q", tally.Game)
			}
			note := tally.Note("res.jsonl")
			if (note == "") != (tt.failed == 0 && tt.retried == 0) {
				t.Fatalf("note %q for %d failed and %d retried", note, tt.failed, tt.retried)
			}
		})
	}
	tally, _ := arena.NewTally(mustParse(t, goodLine+"\n"+errLine+"\n"))
	if want := "1 of 2 matches in res.jsonl failed and are left out (see \"error\" in the file); first: r1-0v1: seed 6: player a failed"; tally.Note("res.jsonl") != want {
		t.Fatalf("note %q, want %q", tally.Note("res.jsonl"), want)
	}
}

// TestRemainingReplaysFailedMatches checks that --resume plays a failed
// match again (its record is not a finished match) and still checks that
// the failed record belongs to the run, including one of an earlier
// version that left the seats after the failing one unnamed.
func TestRemainingReplaysFailedMatches(t *testing.T) {
	es := toyEntrants(3)
	es[2].New = failingNew
	jobs := arena.RoundRobin(3, arena.Seeds(1, 1))
	recs, err := runAll(t, context.Background(), toyGame{}, es, jobs, arena.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range recs {
		if r.Error != "" {
			failed++
		}
	}
	if failed != 4 {
		t.Fatalf("%d failed matches, want the 4 of p2", failed)
	}
	good := toyEntrants(3)
	todo, err := arena.Remaining(toyGame{}, nil, jobs, good, recs)
	if err != nil {
		t.Fatal(err)
	}
	if len(todo) != 4 {
		t.Fatalf("resume plays %d jobs, want the 4 failed ones", len(todo))
	}
	for _, j := range todo {
		if !strings.Contains(j.ID, "2") {
			t.Fatalf("resume replays %s, which did not fail", j.ID)
		}
	}
	// A failed record of an earlier version: the seats were left unnamed.
	old := recs[len(recs)-1]
	for _, r := range recs {
		if r.Error != "" {
			old = r
			break
		}
	}
	old.Players = []arena.PlayerRef{{Name: old.Players[0].Name, Strategy: "toy"}, {}}
	if _, err := arena.Remaining(toyGame{}, nil, jobs, good, []arena.Record{old}); err != nil {
		t.Fatalf("a failed record with an unnamed seat is refused: %v", err)
	}
	// A failed record of another schedule is still refused.
	other := old
	other.Seed++
	if _, err := arena.Remaining(toyGame{}, nil, jobs, good, []arena.Record{other}); err == nil || !strings.Contains(err.Error(), "seed") {
		t.Fatalf("a failed record of other seeds: %v", err)
	}
}

// failingNew is a constructor that cannot build its player.
func failingNew(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
	return nil, errBoom
}
