package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"crucible/ladder"
)

// killMidway runs crucible with args in a child process and kills it with
// SIGKILL once db holds at least target matches; it fails the test when
// the night closed first.
func killMidway(t *testing.T, db string, target int, args ...string) {
	t.Helper()
	watch, err := ladder.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	c := child(t, args...)
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	limit := time.After(4 * time.Minute)
	for reached := false; !reached; {
		select {
		case err := <-done:
			t.Fatalf("the night ended (%v) before %d matches were recorded: too short to kill midway\n%s", err, target, c.Stderr)
		case <-limit:
			c.Process.Kill()
			t.Fatalf("the night did not reach %d matches:\n%s", target, c.Stderr)
		case <-time.After(time.Millisecond):
			n, err := watch.MatchCount(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			reached = n >= target
		}
	}
	c.Process.Signal(syscall.SIGKILL)
	<-done
	nights, err := watch.Nights(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if last := nights[len(nights)-1]; last.ClosedAt != "" {
		t.Fatalf("after the kill: night %s closed; want it open", last.Label)
	}
}

// raceView is what the tests read of a race in the standings' JSON.
type raceView struct {
	Winner     string `json:"winner"`
	Saved      int    `json:"saved"`
	Candidates []struct {
		Outcome string `json:"outcome"`
	} `json:"candidates"`
}

// racesOf reads the races of the standings' JSON: as text without their
// time stamps, and decoded.
func racesOf(t *testing.T, db string) (string, []raceView) {
	t.Helper()
	var st struct {
		Races []map[string]any `json:"races"`
	}
	if err := json.Unmarshal([]byte(lad(t, db, "standings", "--format", "json")), &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Races {
		delete(r, "created_at")
	}
	text := mustJSONText(t, st.Races)
	var views []raceView
	if err := json.Unmarshal([]byte(text), &views); err != nil {
		t.Fatal(err)
	}
	return text, views
}

// A ladder night racing three candidate versions of normal (random, dump
// and the strong tuned, given as one ladder add) promotes tuned and
// retires the others; the same night at 2 workers, killed with SIGKILL in
// the middle of the race and continued, ends identical to an
// uninterrupted one at 1 worker. Then an adaptive night, killed midway
// and continued, ends identical too, settled or at its match budget.
func TestLadderRaceAndAdaptiveNights(t *testing.T) {
	names := []string{"normal", "sniper", "greedy"}
	for _, b := range ladderDBs {
		t.Run(b.name, func(t *testing.T) {
			ref, killed := b.make(t), b.make(t)
			for _, db := range []string{ref, killed} {
				setupLadder(t, db, names...)
				out := lad(t, db, "add", "normal", "--strategy", "random", "--strategy", "dump", "--strategy", "tuned")
				if !strings.Contains(out, "race 1: 3 candidate versions of normal against normal") {
					t.Fatalf("ladder add of candidates said:\n%s", out)
				}
			}
			run := []string{"ladder", "run", "--night", "n1", "--seeds-per-night", "1", "--budget", "0", "--chunk", "8", "--format", "csv"}
			lad(t, ref, append(run[1:], "--workers", "1")...)
			killMidway(t, killed, 100, append(run, "--workers", "2", "--db", killed)...)
			lad(t, killed, append(run[1:], "--workers", "2")...)
			compareLadders(t, ref, killed, names)
			ta, ra := racesOf(t, ref)
			if tb, _ := racesOf(t, killed); ta != tb {
				t.Fatalf("race after a kill:\n%s\nuninterrupted:\n%s", tb, ta)
			}
			if len(ra) != 1 || ra[0].Winner != "normal@v4" || ra[0].Candidates[0].Outcome != ladder.OutcomeRetired ||
				ra[0].Candidates[2].Outcome != ladder.OutcomeWinner ||
				ra[0].Candidates[1].Outcome != ladder.OutcomeRetired || ra[0].Saved <= 0 {
				t.Fatalf("race: %+v", ra)
			}
			table := lad(t, ref, "standings")
			for _, want := range []string{"Race 1 of candidate versions of normal against normal", "normal@v4 is better than normal (H1), promoted", "winner", "retired", "saved against testing each candidate alone"} {
				if !strings.Contains(table, want) {
					t.Fatalf("standings lack %q:\n%s", want, table)
				}
			}
			if list := lad(t, ref, "list"); !strings.Contains(list, "normal@v4") {
				t.Fatalf("ladder list after the race:\n%s", list)
			}
			page := filepath.Join(t.TempDir(), "ladder.html")
			lad(t, ref, "report", "--out", page)
			html, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(html), "race 1 (normal against normal)") || !strings.Contains(string(html), "normal@v4 H1 after") {
				t.Fatal("the report does not show the race")
			}

			// An adaptive night over the current versions and two more.
			for _, db := range []string{ref, killed} {
				lad(t, db, "add", "easy", "--strategy", "easy")
				lad(t, db, "add", "contrarian", "--strategy", "contrarian")
			}
			arun := []string{"ladder", "run", "--night", "a1", "--schedule", "adaptive", "--top", "4", "--confidence", "0.999", "--max-matches", "600",
				"--budget", "0", "--chunk", "8", "--format", "csv"}
			lad(t, ref, append(arun[1:], "--workers", "1")...)
			killMidway(t, killed, lastCount(t, killed)+150, append(arun, "--workers", "2", "--db", killed)...)
			// Continued with other flags: the night keeps its own.
			lad(t, killed, "run", "--workers", "2", "--budget", "0")
			compareLadders(t, ref, killed, names)
			s, err := ladder.Open(context.Background(), ref)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			nights, err := s.Nights(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			a := nights[len(nights)-1]
			if a.Config.Schedule != ladder.ScheduleAdaptive || !(strings.Contains(a.Note, "settled") || strings.Contains(a.Note, "match budget spent")) {
				t.Fatalf("adaptive night: schedule %q, note %q", a.Config.Schedule, a.Note)
			}
			if n, _ := s.MatchCount(context.Background(), a.ID); n > 600 {
				t.Fatalf("adaptive night played %d matches, over its budget of 600", n)
			}
		})
	}
}

func lastCount(t *testing.T, db string) int {
	n, _ := recordedState(t, db)
	return n
}

func mustJSONText(t *testing.T, v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
