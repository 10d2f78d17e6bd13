package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// playReport is the JSON of a played test.
type playReport struct {
	Play        sprtPlay `json:"play"`
	Pentanomial [5]int   `json:"pentanomial"`
	LLR         float64  `json:"llr"`
	Verdict     string   `json:"verdict"`
}

// sprtPlayJSON runs a play-mode sprt with --format json.
func sprtPlayJSON(t *testing.T, args ...string) (playReport, string) {
	t.Helper()
	out, stderr, err := execRoot(t, append([]string{"sprt", "--format", "json"}, args...)...)
	if err != nil {
		t.Fatalf("sprt %v: %v\n%s", args, err, stderr)
	}
	var rep playReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("sprt printed %q: %v", out, err)
	}
	return rep, stderr
}

// TestSPRTPlaysKindling is the done-when: the test of normal
// against contrarian stops by itself with a verdict, long before the cap,
// with the same counts at 1 and 2 workers; the table says who played and
// why it stopped.
func TestSPRTPlaysKindling(t *testing.T) {
	args := []string{"--game", "kindling", "--a", "contrarian", "--b", "normal", "--elo0", "0", "--elo1", "20"}
	one, _ := sprtPlayJSON(t, append(args, "--workers", "1")...)
	two, _ := sprtPlayJSON(t, append(args, "--workers", "2")...)
	if !one.Play.Decided || one.Verdict == "continue" || one.Play.Pairs >= one.Play.MaxPairs {
		t.Fatalf("the test did not decide by itself: %+v", one)
	}
	if one.Pentanomial != two.Pentanomial || one.Play.Pairs != two.Play.Pairs || one.LLR != two.LLR {
		t.Fatalf("1 worker: %v after %d pairs; 2 workers: %v after %d", one.Pentanomial, one.Play.Pairs, two.Pentanomial, two.Play.Pairs)
	}
	sum := 0
	for _, c := range one.Pentanomial {
		sum += c
	}
	if sum != one.Play.Pairs || one.Play.A != "contrarian" || one.Play.B != "normal" || one.Play.Seats != 2 {
		t.Fatalf("report %+v", one)
	}
	table, _, err := execRoot(t, append([]string{"sprt"}, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"B normal against A contrarian (kindling, 2 seats)", "by itself after", "counted, on seeds derived from --seed 1", "verdict"} {
		if !strings.Contains(table, want) {
			t.Fatalf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestSPRTResumeContinuesTheTest interrupts a played test two ways and
// resumes it with --resume: a real cancellation (the context ends once
// ten matches are in --out) and a killed run (the file cut after some
// lines, the last one half-written). Both resumed runs end with the counts
// and verdict of an uninterrupted run, and do not play again the matches
// the file holds.
func TestSPRTResumeContinuesTheTest(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--game", "acb", "--a", "rusher", "--b", "siege", "--elo0", "0", "--elo1", "40", "--max-pairs", "400", "--workers", "2"}
	full := filepath.Join(dir, "full.jsonl")
	whole, _ := sprtPlayJSON(t, append(args, "--out", full)...)
	if !whole.Play.Decided || whole.Play.Pairs < 10 {
		t.Fatalf("the uninterrupted test: %+v", whole)
	}

	// Cancelled once ten matches are written.
	cut := filepath.Join(dir, "cut.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for ctx.Err() == nil {
			if data, err := os.ReadFile(cut); err == nil && bytes.Count(data, []byte("\n")) >= 10 {
				cancel()
				return
			}
			time.Sleep(time.Millisecond)
		}
	}()
	root := newRootCmd()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs(append([]string{"sprt", "--format", "json", "--out", cut}, args...))
	err := root.ExecuteContext(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the cancelled test ended with %v (stderr %q)", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "run the same command with --resume to continue the test from "+cut) {
		t.Fatalf("stderr %q does not say how to continue", stderr.String())
	}
	data, _ := os.ReadFile(cut)
	kept := bytes.Count(data, []byte("\n"))
	if kept < 10 || kept >= 2*whole.Play.Pairs {
		t.Fatalf("the cancelled run wrote %d matches; the whole test plays %d pairs", kept, whole.Play.Pairs)
	}
	resumed, _ := sprtPlayJSON(t, append(args, "--out", cut, "--resume")...)
	if resumed.Pentanomial != whole.Pentanomial || resumed.Play.Pairs != whole.Play.Pairs || resumed.LLR != whole.LLR || resumed.Verdict != whole.Verdict {
		t.Fatalf("resumed after cancel: %v after %d pairs (%s); uninterrupted: %v after %d (%s)",
			resumed.Pentanomial, resumed.Play.Pairs, resumed.Verdict, whole.Pentanomial, whole.Play.Pairs, whole.Verdict)
	}
	if resumed.Play.Resumed != kept {
		t.Fatalf("resumed %d matches of the %d in the file", resumed.Play.Resumed, kept)
	}

	// Killed: the first 7 lines and half of the 8th.
	lines := strings.SplitAfter(string(mustRead(t, full)), "\n")
	killed := filepath.Join(dir, "killed.jsonl")
	os.WriteFile(killed, []byte(strings.Join(lines[:7], "")+lines[7][:len(lines[7])/2]), 0o644)
	again, warn := sprtPlayJSON(t, append(args, "--out", killed, "--resume")...)
	if again.Pentanomial != whole.Pentanomial || again.Play.Pairs != whole.Play.Pairs || again.Play.Resumed != 7 {
		t.Fatalf("resumed after a kill: %v after %d pairs, %d resumed; uninterrupted %v after %d", again.Pentanomial, again.Play.Pairs, again.Play.Resumed, whole.Pentanomial, whole.Play.Pairs)
	}
	if !strings.Contains(warn, "half-written") {
		t.Fatalf("stderr %q does not warn of the half-written line", warn)
	}
	// A decided test resumed plays nothing more.
	done, _ := sprtPlayJSON(t, append(args, "--out", full, "--resume")...)
	if done.Play.Played != 0 || done.Pentanomial != whole.Pentanomial {
		t.Fatalf("resuming a decided test: %+v", done)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestSPRTPlaySeatsAndRefusals checks an N-seat test (A, B and the fixed
// opponents, every rotation on one seed) and the refused flags, each
// naming its flag, before --out is touched.
func TestSPRTPlaySeatsAndRefusals(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "three.jsonl")
	rep, _ := sprtPlayJSON(t, "--game", "kindling", "--seats", "3", "--a", "easy", "--b", "normal", "--opponents", "random",
		"--elo0", "0", "--elo1", "20", "--max-pairs", "30", "--out", out)
	if rep.Play.Seats != 3 || len(rep.Play.Opponents) != 1 || rep.Play.Pairs == 0 {
		t.Fatalf("three seats: %+v", rep)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(mustRead(t, out))), "\n")[:3] {
		if !strings.Contains(line, `"name":"random"`) || !strings.Contains(line, `"name":"easy"`) || !strings.Contains(line, `"name":"normal"`) {
			t.Fatalf("a three-seat match lacks a player: %s", line)
		}
	}

	existing := filepath.Join(dir, "existing.jsonl")
	os.WriteFile(existing, []byte("precious\n"), 0o644)
	base := []string{"--elo0", "0", "--elo1", "20"}
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--a", "easy", "--b", "normal"}, "--game is required"},
		{[]string{"--game", "kindling", "--b", "normal"}, "--a and --b are required"},
		{[]string{"--game", "chess", "--a", "easy", "--b", "normal"}, "--game"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "nobody"}, "--b: player nobody"},
		{[]string{"--game", "kindling", "--a", "all", "--b", "normal"}, `--a "all" names`},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "easy"}, "--a and --b are the same player, easy"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--max-pairs", "0"}, "--max-pairs 0 is outside its range"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--workers", "0"}, "--workers 0 is outside its range"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--resume"}, "--resume needs --out"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--seats", "3"}, "--seats 3 needs --opponents"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--seats", "9", "--opponents", "random"}, "--seats 9 is outside its range"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--opponents", "random"}, "--opponents applies to --seats 3 or more"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--seats", "4", "--opponents", "random"}, "--seats 4 needs 2"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--seats", "3", "--opponents", "easy"}, "--opponents lists easy, which is A or B"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--trinomial", "1,2,3"}, "the play mode (--game, --a, --b) counts its own pairs"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--out", existing}, "refusing to overwrite it: add --resume"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--out", existing, "--resume"}, "not a result record"},
		{[]string{"--game", "kindling", "--a", "easy", "--b", "normal", "--out", out, "--resume"}, "is not in this schedule (the results come from other players"},
	}
	for _, tc := range tests {
		_, _, err := execRoot(t, append(append([]string{"sprt"}, base...), tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
	if data := mustRead(t, existing); string(data) != "precious\n" {
		t.Fatalf("a refused test changed --out: %q", data)
	}
}
