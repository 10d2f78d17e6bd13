package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/renameio/v2"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/strategies"
)

// execRoot runs the root command with args and returns stdout, stderr
// and the error; every command's tests go through it.
func execRoot(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	root := newRootCmd()
	var out, errb bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&errb)
	root.SetArgs(args)
	err := root.Execute()
	return out.String(), errb.String(), err
}

// resultLines returns a results file's lines without the wall-clock
// duration, sorted.
func resultLines(t *testing.T, path string) []string {
	t.Helper()
	res, err := arena.LoadResults(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, r := range res.Records {
		r.DurationMS = 0
		b, _ := json.Marshal(r)
		out = append(out, string(b))
	}
	slices.Sort(out)
	return out
}

// kindlingPlayers returns n Kindling strategy names, the house bots normal
// and easy first, joined by commas.
func kindlingPlayers(t *testing.T, n int) string {
	t.Helper()
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"normal", "easy"}
	for _, s := range reg.Names("kindling") {
		if len(names) < n && !slices.Contains(names, s) {
			names = append(names, s)
		}
	}
	if len(names) < n {
		t.Fatalf("kindling has only %d strategies, the test needs %d", len(names), n)
	}
	return strings.Join(names[:n], ",")
}

// TestArenaKindlingRoundRobin plays a small Kindling round robin through
// the command: the file holds n(n-1) lines per seed, the JSON leaderboard
// lists every player with its games, and one worker gives the same lines
// as two.
func TestArenaKindlingRoundRobin(t *testing.T) {
	dir := t.TempDir()
	out1, out2 := filepath.Join(dir, "w1.jsonl"), filepath.Join(dir, "w2.jsonl")
	stdout, _, err := execRoot(t, "arena", "--game", "kindling", "--players", kindlingPlayers(t, 3),
		"--seeds", "4", "--seed", "9", "--workers", "2", "--out", out2, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var sum rating.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatalf("--format json printed %q: %v", stdout, err)
	}
	if len(sum.Standings) != 3 {
		t.Fatalf("leaderboard has %d players, want 3", len(sum.Standings))
	}
	for _, s := range sum.Standings {
		if s.Games != 2*2*4 || s.Wins+s.Draws+s.Losses != s.Games {
			t.Fatalf("%s played %d games (%d-%d-%d), want 16", s.Name, s.Games, s.Wins, s.Draws, s.Losses)
		}
	}
	if _, _, err := execRoot(t, "arena", "--game", "kindling", "--players", kindlingPlayers(t, 3),
		"--seeds", "4", "--seed", "9", "--workers", "1", "--out", out1, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	a, b := resultLines(t, out1), resultLines(t, out2)
	if len(a) != 3*2*4 {
		t.Fatalf("%d result lines, want 24", len(a))
	}
	if !slices.Equal(a, b) {
		t.Fatal("1 and 2 workers wrote different results")
	}
}

// TestArenaTableOutput checks the terminal table: the leaderboard header,
// every player and the matrix.
func TestArenaTableOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	stdout, stderr, err := execRoot(t, "arena", "--players", "normal,easy", "--seeds", "2", "--out", out, "--pairs")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Leaderboard, ordered by Bradley–Terry Elo (maximum likelihood)", "Elo (BT)", "units", "W-D-L", "normal", "easy",
		"Score % of row against column", "Pairs", "rounds", "Intervals: 95%, clustered by seed over 2 seeds"} {
		if !strings.Contains(stdout, want) {
			t.Fatalf("table lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr, "played 4 matches") {
		t.Fatalf("stderr %q does not report the matches", stderr)
	}
}

// TestArenaBadInput checks that bad flags give clear errors naming the
// flag and its range, before any results file is written.
func TestArenaBadInput(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.jsonl")
	os.WriteFile(existing, []byte("precious\n"), 0o644)
	acbVariant := filepath.Join(dir, "acb.json")
	os.WriteFile(acbVariant, []byte(`{"game":"acb","base":"gatherer","params":{}}`), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown player lists the known ones", []string{"--players", "normal,nosuch"}, `unknown kindling strategy "nosuch" (known: `},
		{"unknown game", []string{"--game", "chess"}, `--game: unknown game "chess"`},
		{"seeds below range", []string{"--seeds", "0"}, "--seeds 0 is outside its range [1, 1000000]"},
		{"workers below range", []string{"--workers", "0"}, "--workers 0 is outside its range [1, 1024]"},
		{"workers above range", []string{"--workers", "5000"}, "--workers 5000 is outside its range [1, 1024]"},
		{"unknown format", []string{"--format", "html"}, `--format: format "html" is not one of table, json, csv, markdown`},
		{"unknown schedule", []string{"--schedule", "swiss"}, `--schedule "swiss" is not one of round-robin, gauntlet, ffa`},
		{"seats outside ffa", []string{"--seats", "3"}, "--seats applies to --schedule ffa only"},
		{"ffa seats out of range", []string{"--schedule", "ffa", "--seats", "5"}, "--seats 5 is outside its range [3, 4]"},
		{"ffa with too few players", []string{"--schedule", "ffa", "--seats", "4", "--players", kindlingPlayers(t, 3)}, "needs at least 4 players, got 3"},
		{"gauntlet without pool", []string{"--schedule", "gauntlet", "--players", "normal"}, "--schedule gauntlet needs --pool"},
		{"round robin of one", []string{"--players", "normal"}, "needs at least 2 players"},
		{"player twice", []string{"--players", "normal,normal"}, "player normal is listed twice"},
		{"empty item", []string{"--players", "normal,,easy"}, "has an empty item"},
		{"missing variant file", []string{"--players", "normal," + filepath.Join(dir, "none.json")}, "no such file"},
		{"variant of another game", []string{"--players", "normal," + acbVariant}, "a variant of game acb, but the game played is kindling"},
		{"existing out without resume", []string{"--players", "normal,easy", "--out", existing}, "refusing to overwrite it: add --resume"},
		{"corrupt out on resume", []string{"--players", "normal,easy", "--out", existing, "--resume"}, existing + ":1: not a result record"},
		{"missing config", []string{"--players", "normal,easy", "--config", filepath.Join(dir, "none.json")}, "--config: open"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"arena", "--seeds", "1"}, tt.args...)
			if !slices.Contains(tt.args, "--out") {
				args = append(args, "--out", filepath.Join(dir, "new.jsonl"))
			}
			_, _, err := execRoot(t, args...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want it to contain %q", err, tt.want)
			}
			if _, err := os.Stat(filepath.Join(dir, "new.jsonl")); err == nil {
				t.Fatal("a failed run left a results file behind")
			}
			if data, _ := os.ReadFile(existing); string(data) != "precious\n" {
				t.Fatalf("the existing file was changed to %q", data)
			}
		})
	}
}

// TestArenaResume checks resuming through the command: a file cut in the
// middle of a line is continued with a warning, --seeds can grow a
// finished run, and the result equals a run done in one go.
func TestArenaResume(t *testing.T) {
	dir := t.TempDir()
	whole, part := filepath.Join(dir, "whole.jsonl"), filepath.Join(dir, "part.jsonl")
	base := []string{"arena", "--players", kindlingPlayers(t, 3), "--format", "csv"}
	if _, _, err := execRoot(t, append(base, "--seeds", "3", "--out", whole)...); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execRoot(t, append(base, "--seeds", "2", "--out", part)...); err != nil {
		t.Fatal(err)
	}
	// Cut the last line in half, as a crash would.
	data, _ := os.ReadFile(part)
	os.WriteFile(part, data[:len(data)-20], 0o644)
	_, stderr, err := execRoot(t, append(base, "--seeds", "3", "--out", part, "--resume")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "skipping a half-written last line") || !strings.Contains(stderr, "11 of 18 matches done, 7 to play") {
		t.Fatalf("stderr %q lacks the warning or the resume count", stderr)
	}
	if !slices.Equal(resultLines(t, whole), resultLines(t, part)) {
		t.Fatal("the resumed file differs from the one played in one go")
	}
	// Resuming with another seed is refused: the file is another schedule.
	_, _, err = execRoot(t, append(base, "--seeds", "3", "--seed", "2", "--out", part, "--resume")...)
	if err == nil || !strings.Contains(err.Error(), "was --seed different?") {
		t.Fatalf("resuming with another --seed gave %v", err)
	}
}

// TestArenaResumeRefusesOtherConfig checks that --resume refuses a results
// file played with another game configuration (here --config left out on
// resume, so the defaults), and accepts the same configuration however
// it is spelled.
func TestArenaResumeRefusesOtherConfig(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.json")
	os.WriteFile(small, []byte(`{"rows": 16, "cols": 16, "max_turns": 10}`), 0o644)
	same := filepath.Join(dir, "same.json")
	os.WriteFile(same, []byte(`{"max_turns":10,"cols":16,"rows":16}`), 0o644)
	out := filepath.Join(dir, "r.jsonl")
	base := []string{"arena", "--game", "acb", "--players", "random,gatherer", "--format", "csv", "--out", out}
	if _, _, err := execRoot(t, append(base, "--seeds", "1", "--config", small)...); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(out)
	_, _, err := execRoot(t, append(base, "--seeds", "2", "--resume")...)
	if err == nil || !strings.Contains(err.Error(), "(was --config different?)") {
		t.Fatalf("resuming without the run's --config gave %v", err)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Fatal("a refused resume changed the results file")
	}
	if _, stderr, err := execRoot(t, append(base, "--seeds", "2", "--resume", "--config", same)...); err != nil || !strings.Contains(stderr, "2 of 4 matches done") {
		t.Fatalf("resuming with the same configuration: %v\n%s", err, stderr)
	}
}

// TestArenaVariantAndReplays checks that a variant file plays under its
// label base#id and that --replays keeps one log per match.
func TestArenaVariantAndReplays(t *testing.T) {
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := reg.Lookup("kindling", "normal")
	if err != nil {
		t.Fatal(err)
	}
	g := s.Schema.Defaults()
	if len(g) > 0 {
		g[0] = s.Schema[0].Min
	}
	v := strategies.NewVariant(s, g)
	dir := t.TempDir()
	vfile := filepath.Join(dir, "v.json")
	if err := v.Save(vfile); err != nil {
		t.Fatal(err)
	}
	replays := filepath.Join(dir, "replays")
	out := filepath.Join(dir, "r.jsonl")
	stdout, _, err := execRoot(t, "arena", "--players", "normal,"+vfile, "--seeds", "2", "--out", out,
		"--replays", replays, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, `"name": "`+v.Label()+`"`) {
		t.Fatalf("leaderboard lacks the variant %s:\n%s", v.Label(), stdout)
	}
	res, _ := arena.LoadResults(out)
	for _, r := range res.Records {
		for _, p := range r.Players {
			if p.Name == v.Label() && (p.VariantID != v.ID || p.Strategy != "normal") {
				t.Fatalf("variant recorded as %+v", p)
			}
		}
		if _, err := os.Stat(filepath.Join(replays, r.Job+".json")); err != nil {
			t.Fatalf("no replay for %s: %v", r.Job, err)
		}
	}
	if n, pages := countReplays(t, replays); n != 4 || pages != 4 {
		t.Fatalf("%d replays and %d viewer pages, want 4 of each", n, pages)
	}
}

// TestArenaKeepsExistingReplays checks that a fresh run never overwrites
// the replays of an earlier run in --replays: it is refused before
// anything is written, while --resume of that run may go on.
func TestArenaKeepsExistingReplays(t *testing.T) {
	dir := t.TempDir()
	replays := filepath.Join(dir, "replays")
	first := filepath.Join(dir, "first.jsonl")
	args := []string{"arena", "--players", "normal,easy", "--format", "csv", "--replays", replays}
	if _, _, err := execRoot(t, append(args, "--seeds", "1", "--out", first)...); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(replays, "r0-0v1.json")
	os.WriteFile(kept, []byte("precious"), 0o644)
	second := filepath.Join(dir, "second.jsonl")
	_, _, err := execRoot(t, append(args, "--seeds", "2", "--out", second)...)
	if err == nil || !strings.Contains(err.Error(), "--replays "+replays+" already holds r0-0v1.json") {
		t.Fatalf("a fresh run into a replay directory of another run gave %v", err)
	}
	if data, _ := os.ReadFile(kept); string(data) != "precious" {
		t.Fatalf("the refused run overwrote a replay with %q", data)
	}
	if _, err := os.Stat(second); err == nil {
		t.Fatal("the refused run left a results file")
	}
	if _, _, err := execRoot(t, append(args, "--seeds", "2", "--out", first, "--resume")...); err != nil {
		t.Fatalf("resuming the run that owns the replays: %v", err)
	}
	if n, _ := countReplays(t, replays); n != 4 {
		t.Fatalf("%d replays after the resume, want 4", n)
	}
}

// TestArenaFreeForAllAndGauntlet checks the other two schedules through
// the command: match counts in the results file.
func TestArenaFreeForAllAndGauntlet(t *testing.T) {
	dir := t.TempDir()
	ffa := filepath.Join(dir, "ffa.jsonl")
	if _, _, err := execRoot(t, "arena", "--schedule", "ffa", "--seats", "3", "--players", kindlingPlayers(t, 4),
		"--seeds", "2", "--out", ffa, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	if n := len(resultLines(t, ffa)); n != 4*3*2 {
		t.Fatalf("ffa of 4 players in 3 seats on 2 seeds: %d matches, want C(4,3)*3*2 = 24", n)
	}
	gl := filepath.Join(dir, "g.jsonl")
	if _, _, err := execRoot(t, "arena", "--schedule", "gauntlet", "--players", "normal", "--pool", kindlingPlayers(t, 3),
		"--seeds", "2", "--out", gl, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	if n := len(resultLines(t, gl)); n != 2*2*2 {
		t.Fatalf("gauntlet of 1 player against 2 others on 2 seeds: %d matches, want 8", n)
	}
}

// TestArenaInterrupted checks the Ctrl-C path: a cancelled context ends the
// command with context.Canceled, says how to finish, and leaves no empty
// results file behind.
func TestArenaInterrupted(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	root := newRootCmd()
	var stdout, stderr bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(&stderr)
	root.SetArgs([]string{"arena", "--players", "normal,easy", "--seeds", "50", "--out", out})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := root.ExecuteContext(ctx)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if !strings.Contains(stderr.String(), "run the same command with --resume to finish") {
		t.Fatalf("stderr %q does not say how to finish", stderr.String())
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("an interrupted run that finished nothing left a results file")
	}
	if stdout.Len() != 0 {
		t.Fatalf("an interrupted run printed a leaderboard: %q", stdout.String())
	}
}

// countReplays counts the replays (<job>.json) and viewer pages
// (<job>.html) in dir.
func countReplays(t *testing.T, dir string) (replays, pages int) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".json":
			replays++
		case ".html":
			pages++
		default:
			t.Errorf("%s holds %s", dir, e.Name())
		}
	}
	return replays, pages
}

// Defect 20 (low): --resume of a missing results file started a fresh run
// without saying so.
func TestArenaResumeOfMissingFileSaysSo(t *testing.T) {
	out := filepath.Join(t.TempDir(), "typo.jsonl")
	_, stderr, err := execRoot(t, "arena", "--players", "normal,easy", "--seeds", "1", "--format", "csv", "--out", out, "--resume")
	if err != nil {
		t.Fatal(err)
	}
	if want := "--resume: " + out + " holds no results yet; starting a fresh run of 2 matches"; !strings.Contains(stderr, want) {
		t.Fatalf("stderr lacks %q:\n%s", want, stderr)
	}
}

// Defect 20 (low): a kill -9 leaves the temporary files of the replays
// and pages being written in --replays (renameio's ".<file><digits>",
// made here by renameio itself and left open as a killed process leaves
// them); --resume removes those of its jobs and says so, and leaves other
// files alone.
func TestArenaResumeRemovesReplayTemps(t *testing.T) {
	dir := t.TempDir()
	replays, out := filepath.Join(dir, "replays"), filepath.Join(dir, "r.jsonl")
	args := []string{"arena", "--players", "normal,easy", "--format", "csv", "--replays", replays, "--out", out}
	if _, _, err := execRoot(t, append(args, "--seeds", "1")...); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"r0-0v1.json", "r0-1v0.html", "notes.txt"} {
		f, err := renameio.NewPendingFile(filepath.Join(replays, name), renameio.WithTempDir(replays))
		if err != nil {
			t.Fatal(err)
		}
		f.Write([]byte("half"))
		f.File.Close()
	}
	_, stderr, err := execRoot(t, append(args, "--seeds", "2", "--resume")...)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stderr, "removed 2 temporary files a killed run left half-written in "+replays) {
		t.Fatalf("stderr does not report the removal:\n%s", stderr)
	}
	entries, _ := os.ReadDir(replays)
	var hidden []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			hidden = append(hidden, e.Name())
		}
	}
	if len(hidden) != 1 || !strings.HasPrefix(hidden[0], ".notes.txt") {
		t.Fatalf("hidden files left: %v; want only the one that is not a replay's", hidden)
	}
}
