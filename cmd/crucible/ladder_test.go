package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"crucible/arena/rating"
	"crucible/internal/pgtest"
	"crucible/ladder"
	"crucible/stats"
	"crucible/strategies"
)

// childArgs is the environment variable that turns the test binary into
// crucible itself: its value is the JSON list of arguments to run. The
// kill -9 tests run the ladder in such child processes.
const childArgs = "CRUCIBLE_TEST_CHILD_ARGS"

// childArgv is the environment variable that turns the test binary into
// crucible called with its own arguments (when it is 1), for shell
// scripts that call crucible (the README's nightly examples).
const childArgv = "CRUCIBLE_TEST_ARGV"

func TestMain(m *testing.M) {
	if os.Getenv(childArgv) == "1" {
		root := newRootCmd()
		root.SetArgs(os.Args[1:])
		if err := root.Execute(); err != nil {
			fmt.Fprintln(os.Stderr, "crucible:", err)
			os.Exit(exitStatus(err))
		}
		os.Exit(0)
	}
	if args := os.Getenv(childArgs); args != "" {
		var list []string
		if err := json.Unmarshal([]byte(args), &list); err != nil {
			fmt.Fprintln(os.Stderr, "bad", childArgs, err)
			os.Exit(2)
		}
		// Interrupted as main is: SIGINT and SIGTERM cancel the command's
		// context (the outside bots' tests send them).
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		root := newRootCmd()
		root.SetArgs(list)
		err := root.ExecuteContext(ctx)
		stop()
		if err != nil {
			fmt.Fprintln(os.Stderr, "crucible:", err)
			if errors.Is(err, context.Canceled) {
				os.Exit(130)
			}
			os.Exit(exitStatus(err))
		}
		os.Exit(0)
	}
	os.Exit(pgtest.Main(m))
}

// ladderDBs gives a test an SQLite file and a PostgreSQL database.
var ladderDBs = []struct {
	name string
	make func(t *testing.T) string
}{
	{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "ladder.db") }},
	{"postgres", func(t *testing.T) string { return pgtest.DB(t) }},
}

// lad runs crucible ladder SUB ARGS... --db db and fails the test on error.
func lad(t *testing.T, db string, args ...string) string {
	t.Helper()
	out, errOut, err := execRoot(t, append(append([]string{"ladder"}, args...), "--db", db)...)
	if err != nil {
		t.Fatalf("ladder %s: %v\n%s", strings.Join(args, " "), err, errOut)
	}
	return out
}

// setupLadder makes a Kindling ladder of the given strategies in db.
func setupLadder(t *testing.T, db string, names ...string) {
	t.Helper()
	lad(t, db, "init", "--game", "kindling", "--seed", "5")
	for _, n := range names {
		lad(t, db, "add", n, "--strategy", n)
	}
}

// The commands, on each store: entrants and versions, two nights, the
// standings and history in every format, export and import.
func TestLadderCommands(t *testing.T) {
	for _, b := range ladderDBs {
		t.Run(b.name, func(t *testing.T) {
			db := b.make(t)
			setupLadder(t, db, "normal", "sniper", "easy")
			if out := lad(t, db, "add", "easy", "--strategy", "easy"); !strings.Contains(out, "nothing changed") {
				t.Fatalf("adding the same again: %q", out)
			}
			out := lad(t, db, "run", "--night", "d1", "--seeds-per-night", "3", "--budget", "0", "--format", "json")
			var sum rating.Summary
			if err := json.Unmarshal([]byte(out), &sum); err != nil || len(sum.Standings) != 3 {
				t.Fatalf("night 1 standings: %v\n%s", err, out)
			}
			// 3 new entrants: 3 pairs x 3x2 seeds x 2 seat orders = 36
			// matches, 24 games each.
			for _, st := range sum.Standings {
				if st.Games != 24 {
					t.Fatalf("%s played %d games in night 1, want 24", st.Name, st.Games)
				}
			}
			if _, errOut, err := execRoot(t, "ladder", "run", "--night", "d1", "--db", db); err != nil || !strings.Contains(errOut, "was closed") {
				t.Fatalf("night d1 again: %v %q", err, errOut)
			}

			// A new version of sniper, from a variant file.
			reg, _ := newRegistry()
			s, _ := reg.Lookup("kindling", "sniper")
			g := s.Schema.Defaults()
			g[0] = s.Schema[0].Max
			v := strategies.NewVariant(s, g)
			vf := filepath.Join(t.TempDir(), "sniper2.json")
			if err := v.Save(vf); err != nil {
				t.Fatal(err)
			}
			if out := lad(t, db, "add", "sniper", "--variant", vf); !strings.Contains(out, "version 2 of sniper as sniper@v2") {
				t.Fatalf("new version: %q", out)
			}
			var list []ladder.Entrant
			if err := json.Unmarshal([]byte(lad(t, db, "list", "--format", "json")), &list); err != nil || len(list) != 3 || list[2].Current.Label != "sniper@v2" {
				t.Fatalf("list: %v %+v", err, list)
			}
			lad(t, db, "run", "--night", "d2", "--seeds-per-night", "3", "--budget", "0", "--sprt-pairs", "5")
			// The regression test of sniper@v2 against sniper: listed,
			// and beside the standings.
			var listed []struct {
				Name string                 `json:"name"`
				Test *ladder.RegressionTest `json:"regression_test"`
			}
			if err := json.Unmarshal([]byte(lad(t, db, "list", "--format", "json")), &listed); err != nil {
				t.Fatal(err)
			}
			if tt := listed[2].Test; listed[2].Name != "sniper" || tt == nil || tt.BaselineLabel != "sniper" || tt.Counts.Pairs() != 5 || tt.Nights != 1 {
				t.Fatalf("list after night 2: %+v", listed[2])
			}
			if out := lad(t, db, "list"); !strings.Contains(out, "against sniper") {
				t.Fatalf("list table lacks the regression test:\n%s", out)
			}
			var stj struct {
				Standings []rating.Standing       `json:"standings"`
				Tests     []ladder.RegressionTest `json:"regression_tests"`
			}
			if err := json.Unmarshal([]byte(lad(t, db, "standings", "--format", "json")), &stj); err != nil || len(stj.Standings) != 3 || len(stj.Tests) != 1 || stj.Tests[0].Label != "sniper@v2" {
				t.Fatalf("standings json: %v %+v", err, stj)
			}

			var hist []ladder.HistoryPoint
			if err := json.Unmarshal([]byte(lad(t, db, "history", "sniper", "--format", "json")), &hist); err != nil {
				t.Fatal(err)
			}
			if len(hist) != 2 || hist[1].Label != "sniper@v2" || !hist[1].NewVersion || hist[1].Games != 2*12 {
				t.Fatalf("history of sniper: %+v", hist)
			}
			if out := lad(t, db, "history", "sniper"); !strings.Contains(out, "2 *") || !strings.Contains(out, "d2") {
				t.Fatalf("history table does not mark the new version:\n%s", out)
			}
			if out := lad(t, db, "history", "sniper", "--format", "csv"); !strings.HasPrefix(out, "night,closed,version,rating") || strings.Count(out, "\n") != 3 {
				t.Fatalf("history csv:\n%s", out)
			}
			md := lad(t, db, "standings", "--format", "markdown", "--matrix")
			if !strings.Contains(md, "after night d2") || !strings.Contains(md, "| sniper@v2") || !strings.Contains(md, "Score %") {
				t.Fatalf("standings markdown:\n%s", md)
			}
			if out := lad(t, db, "standings", "--format", "csv"); strings.Count(out, "\n") != 4 {
				t.Fatalf("standings csv:\n%s", out)
			}

			// Export, import into a fresh ladder, export again: the same
			// bytes (the import is one night of its own).
			exp := lad(t, db, "export")
			// Night 2: sniper@v2's two pairs play 6 seeds, the other pair
			// 3, in both seat orders: 30 matches; and the 5 game pairs of
			// the regression test.
			if n := strings.Count(exp, "\n"); n != 36+30+10 {
				t.Fatalf("exported %d lines", n)
			}
			file := filepath.Join(t.TempDir(), "all.jsonl")
			lad(t, db, "export", "--out", file)
			if data, _ := os.ReadFile(file); string(data) != exp {
				t.Fatal("export --out differs from export to stdout")
			}
			fresh := filepath.Join(t.TempDir(), "fresh.db")
			lad(t, fresh, "init", "--game", "kindling")
			if out := lad(t, fresh, "import", file); !strings.Contains(out, "imported 76 matches") {
				t.Fatalf("import: %q", out)
			}
			if got := lad(t, fresh, "export"); got != exp {
				t.Fatalf("export after import differs:\n%s\nwant\n%s", got, exp)
			}
			if _, _, err := execRoot(t, "ladder", "import", file, "--db", fresh); err == nil || !strings.Contains(err.Error(), "import-") {
				t.Fatalf("importing the same file twice: %v", err)
			}
			lad(t, db, "remove", "easy")
			if out := lad(t, db, "list"); strings.Contains(out, "easy") {
				t.Fatalf("removed entrant listed:\n%s", out)
			}
			if out := lad(t, db, "list", "--all", "--format", "csv"); !strings.Contains(out, "easy") {
				t.Fatalf("list --all lacks the removed entrant:\n%s", out)
			}
		})
	}
}

// Every bad input is refused with the flag or argument and its value.
func TestLadderBadInput(t *testing.T) {
	db := filepath.Join(t.TempDir(), "l.db")
	if _, _, err := execRoot(t, "ladder", "list", "--db", db); err == nil || !strings.Contains(err.Error(), "ladder init") {
		t.Fatalf("list before init: %v", err)
	}
	setupLadder(t, db, "normal", "easy")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"init"}, `--game: unknown game ""`},
		{[]string{"init", "--game", "chess"}, `--game: unknown game "chess"`},
		{[]string{"init", "--game", "acb"}, "--game: game acb: the ladder in"},
		{[]string{"add", "x"}, "exactly one of --strategy"},
		{[]string{"add", "x", "--strategy", "normal", "--url", "http://h:1"}, "exactly one of"},
		{[]string{"add", "x", "--strategy", "nope"}, `--strategy: unknown kindling strategy "nope"`},
		{[]string{"add", "x", "--variant", "/nonexistent/v.json"}, "--variant: open /nonexistent/v.json"},
		{[]string{"add", "x", "--url", "ftp://h"}, `--url "ftp://h"`},
		{[]string{"add", "x", "--url", "http://h:1"}, "--url http://h:1: remote bots play acb"},
		{[]string{"add", "bad name", "--strategy", "normal"}, `NAME: name "bad name"`},
		{[]string{"remove", "ghost"}, `NAME: entrant "ghost" is not in the ladder`},
		{[]string{"run", "--workers", "0"}, "--workers 0 is outside"},
		{[]string{"run", "--seeds-per-night", "0"}, "--seeds-per-night 0 is outside"},
		{[]string{"run", "--new-version-factor", "101"}, "--new-version-factor 101 is outside"},
		{[]string{"run", "--budget", "-1s"}, "--budget -1s is negative"},
		{[]string{"run", "--format", "xml"}, `--format: format "xml"`},
		{[]string{"run", "--config", "/nonexistent.json"}, "--config: open /nonexistent.json"},
		{[]string{"standings", "--format", "yaml"}, `--format: format "yaml"`},
		{[]string{"history", "ghost"}, `NAME: entrant "ghost" is not in the ladder`},
		{[]string{"history", "normal", "--format", "pdf"}, `--format: format "pdf"`},
		{[]string{"export", "--night", "zz"}, `--night "zz": no such night`},
		{[]string{"import", "/nonexistent.jsonl"}, "RESULTS: open /nonexistent.jsonl"},
	}
	for _, tt := range tests {
		_, _, err := execRoot(t, append(append([]string{"ladder"}, tt.args...), "--db", db)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ladder %s: error %v, want one containing %q", strings.Join(tt.args, " "), err, tt.want)
		}
	}
	if _, _, err := execRoot(t, "ladder", "list", "--db", "http://x/y"); err == nil || !strings.Contains(err.Error(), "--db http://x/y") {
		t.Errorf("--db http://: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, []byte("{\"job\":\"a\"}\nnot json\n"), 0o644)
	if _, _, err := execRoot(t, "ladder", "import", bad, "--db", db); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1") {
		t.Errorf("import of a bad file: %v", err)
	}
	out := filepath.Join(t.TempDir(), "o.jsonl")
	os.WriteFile(out, []byte("x\n"), 0o644)
	if _, _, err := execRoot(t, "ladder", "export", "--out", out, "--db", db); err == nil || !strings.Contains(err.Error(), "--out "+out) {
		t.Errorf("export over a non-empty file: %v", err)
	}
}

// child starts the test binary as crucible with args.
func child(t *testing.T, args ...string) *exec.Cmd {
	t.Helper()
	data, _ := json.Marshal(args)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childArgs+"="+string(data))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	cmd.Stdout = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd
}

// A night killed with SIGKILL at random moments and run again until it
// finishes ends exactly as an uninterrupted night: the same matches (all
// fields but the wall-clock time), none twice, the same ratings, and the
// same state of the regression test the night plays (even has a second
// version).
func TestLadderKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 tests play about 100,000 matches; -short leaves them out")
	}
	names := []string{"normal", "sniper", "greedy", "contrarian", "easy", "even"}
	even2 := variantFile(t, "even", map[string]float64{"width": 2})
	// 15 pairs x 2x100 seeds x 2 seat orders = 6,000 rated matches a
	// night, and 600 pairs of the regression test of even@v2: 7,200
	// matches. Chunks of 200 jobs (not the default of about 150 ms of
	// play, which is the whole night at most) so that the kills fall
	// between 36 of them. (The night was 46,000 matches once: at load 40
	// on 2 cores the campaign alone took most of the package's 10-minute
	// limit; the kills see as many chunk boundaries with a sixth of it.)
	// The two stores' campaigns run side by side.
	const seeds, sprtPairs = 100, 600
	run := []string{"ladder", "run", "--night", "n", "--seeds-per-night", strconv.Itoa(seeds), "--budget", "0", "--workers", "2", "--format", "csv",
		"--chunk", "200", "--sprt-pairs", strconv.Itoa(sprtPairs)}
	const planned = 15*2*seeds*2 + 2*sprtPairs
	// stepLimit bounds one run of the night, so that a hung run fails
	// here, naming itself, rather than at the package's limit: an idle
	// machine plays the whole night in a few seconds, load 40 on 2 cores
	// in under a minute.
	const stepLimit = 4 * time.Minute
	for _, b := range ladderDBs {
		t.Run(b.name, func(t *testing.T) {
			t.Parallel()
			seed := uint64(time.Now().UnixNano())
			rng := rand.New(rand.NewPCG(seed, 1))
			t.Logf("kill moments drawn with seed %d", seed)
			ref, killed := b.make(t), b.make(t)
			setupLadder(t, ref, names...)
			setupLadder(t, killed, names...)
			lad(t, ref, "add", "even", "--variant", even2)
			lad(t, killed, "add", "even", "--variant", even2)

			// The reference night, timed, uninterrupted.
			start := time.Now()
			c := child(t, append(run, "--db", ref)...)
			if err := nightEnd(waitChild(t, c, stepLimit)); err != nil {
				t.Fatalf("reference night: %v\n%s", err, c.Stderr)
			}
			whole := time.Since(start)

			// Kills at random moments: one while the process starts (opens
			// the database, plans the night), four when a random share of
			// the night is recorded (watched from here), one once every
			// match is recorded (around the closing); then a run to the
			// end.
			watch, err := ladder.Open(context.Background(), killed)
			if err != nil {
				t.Fatal(err)
			}
			defer watch.Close()
			targets := []float64{0}
			for i := 0; i < 4; i++ {
				targets = append(targets, rng.Float64())
			}
			slices.Sort(targets)
			targets = append(targets, 1)
			kills, lastCount, midway := 0, 0, 0
			for i := 0; i <= len(targets); i++ {
				c := child(t, append(run, "--db", killed)...)
				if i == len(targets) {
					if err := nightEnd(waitChild(t, c, stepLimit)); err != nil {
						t.Fatalf("last run: %v\n%s", err, c.Stderr)
					}
					break
				}
				done := make(chan error, 1)
				go func() { done <- c.Wait() }()
				limit := time.After(stepLimit)
				target := int(targets[i] * planned)
				finished := false
				if target == 0 {
					time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond)
				}
				for target > 0 && !finished {
					select {
					case err := <-done:
						if err := nightEnd(err); err != nil {
							t.Fatalf("run %d: %v\n%s", i, err, c.Stderr)
						}
						finished = true
						done <- nil
					case <-limit:
						c.Process.Kill()
						t.Fatalf("run %d did not reach %d recorded matches in %s:\n%s", i, target, stepLimit, c.Stderr)
					case <-time.After(2 * time.Millisecond):
						n, err := watch.MatchCount(context.Background(), 0)
						if err != nil {
							t.Fatal(err)
						}
						if n >= target {
							target = 0
						}
					}
				}
				c.Process.Signal(syscall.SIGKILL)
				err := <-done
				var ee *exec.ExitError
				if errors.As(err, &ee) && !ee.Success() {
					kills++
				}
				// What the kill left: matches recorded only while the
				// night is open, never fewer than before.
				n, state := recordedState(t, killed)
				if n < lastCount {
					t.Fatalf("after kill %d: %d matches recorded, fewer than the %d before", kills, n, lastCount)
				}
				if n > 0 && n < planned {
					midway++
				}
				lastCount = n
				t.Logf("run %d killed at %.0f%% of the night: %d matches recorded, night %s", i, 100*targets[i], n, state)
				if state == "closed" {
					break
				}
			}
			if kills < 3 || midway == 0 {
				t.Fatalf("only %d runs were killed before the night ended, %d of them with the night half recorded; the night is too short to test", kills, midway)
			}
			t.Logf("night finished after %d kill -9 (uninterrupted night: %s)", kills, whole.Round(time.Millisecond))
			compareLadders(t, ref, killed, names)
		})
	}
}

// waitChild waits for the child process c to end, at most limit: past it
// the child is killed and the test fails, naming the limit.
func waitChild(t *testing.T, c *exec.Cmd, limit time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		c.Process.Kill()
		<-done
		t.Fatalf("%s did not end within %s:\n%s", strings.Join(c.Args, " "), limit, c.Stderr)
		return nil
	}
}

// nightEnd is nil for the end of a ladder run that closed its night: exit
// status 0, or 3 when the night's regression test found even@v2 weaker.
func nightEnd(err error) error {
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == exitRegression {
		return nil
	}
	return err
}

// compareLadders checks that two ladders recorded the same matches, each
// once, and rated them the same.
func compareLadders(t *testing.T, a, b string, names []string) {
	t.Helper()
	strip := func(export string) []string {
		lines := strings.Split(strings.TrimSpace(export), "\n")
		seen := map[string]bool{}
		for i, l := range lines {
			var rec map[string]any
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatal(err)
			}
			if seen[rec["job"].(string)] {
				t.Fatalf("job %s recorded twice", rec["job"])
			}
			seen[rec["job"].(string)] = true
			delete(rec, "duration_ms")
			out, _ := json.Marshal(rec)
			lines[i] = string(out)
		}
		return lines
	}
	ea, eb := strip(lad(t, a, "export")), strip(lad(t, b, "export"))
	if len(ea) != len(eb) {
		t.Fatalf("%d matches against %d uninterrupted", len(eb), len(ea))
	}
	for i := range ea {
		if ea[i] != eb[i] {
			t.Fatalf("match %d differs:\n%s\n%s", i, eb[i], ea[i])
		}
	}
	ta, tb := listTests(t, a), listTests(t, b)
	for _, n := range names {
		x, y := ta[n], tb[n]
		if (x == nil) != (y == nil) || x != nil && (x.Counts != y.Counts || x.LLR != y.LLR || x.Verdict != y.Verdict || x.Nights != y.Nights) {
			t.Fatalf("regression test of %s: %+v, uninterrupted %+v", n, y, x)
		}
		if x != nil && x.Counts.Pairs() == 0 {
			t.Fatalf("regression test of %s counted no pair", n)
		}
	}
	for _, n := range names {
		ha, hb := lad(t, a, "history", n, "--format", "csv"), lad(t, b, "history", n, "--format", "csv")
		// The closing time differs; everything else must not.
		cut := func(s string) string {
			var out []string
			for _, l := range strings.Split(s, "\n") {
				f := strings.Split(l, ",")
				if len(f) > 2 {
					f[1] = ""
				}
				out = append(out, strings.Join(f, ","))
			}
			return strings.Join(out, "\n")
		}
		if cut(ha) != cut(hb) {
			t.Fatalf("ratings of %s differ:\n%s\nuninterrupted:\n%s", n, hb, ha)
		}
	}
}

// recordedState opens a ladder and says how many matches it holds and
// whether its night is open, closed or not started.
func recordedState(t *testing.T, db string) (int, string) {
	t.Helper()
	s, err := ladder.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	n, err := s.MatchCount(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	nights, err := s.Nights(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case len(nights) == 0:
		return n, "not started"
	case nights[0].ClosedAt == "":
		return n, "open"
	}
	return n, "closed"
}

// Without --db the ladder lives in $CRUCIBLE_DB.
func TestLadderDBFromEnvironment(t *testing.T) {
	db := filepath.Join(t.TempDir(), "env.db")
	t.Setenv(envDB, db)
	if _, _, err := execRoot(t, "ladder", "init", "--game", "acb"); err != nil {
		t.Fatal(err)
	}
	s, err := ladder.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if info, err := s.Info(context.Background()); err != nil || info.Game != "acb" {
		t.Fatalf("ladder in $%s: %+v %v", envDB, info, err)
	}
}

// variantFile writes a Kindling variant of base with the given parameters
// changed and returns its path.
func variantFile(t *testing.T, base string, params map[string]float64) string {
	t.Helper()
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := reg.Lookup("kindling", base)
	if err != nil {
		t.Fatal(err)
	}
	g := s.Schema.Defaults()
	for name, v := range params {
		found := false
		for i, p := range s.Schema {
			if p.Name == name {
				g[i], found = v, true
			}
		}
		if !found {
			t.Fatalf("%s has no parameter %s", base, name)
		}
	}
	path := filepath.Join(t.TempDir(), base+".json")
	if err := strategies.NewVariant(s, g).Save(path); err != nil {
		t.Fatal(err)
	}
	return path
}

// listTests returns each entrant's current regression test from ladder
// list --format json.
func listTests(t *testing.T, db string) map[string]*ladder.RegressionTest {
	t.Helper()
	var listed []struct {
		Name string                 `json:"name"`
		Test *ladder.RegressionTest `json:"regression_test"`
	}
	if err := json.Unmarshal([]byte(lad(t, db, "list", "--format", "json")), &listed); err != nil {
		t.Fatal(err)
	}
	out := map[string]*ladder.RegressionTest{}
	for _, l := range listed {
		out[l.Name] = l.Test
	}
	return out
}

// The regression alarm, on each store: a new version with bad parameters
// is found weaker than its predecessor (H0) and ladder run fails with exit
// status 3, on that night and the next, until the entrant gets a better
// version; a stronger new version (easy to normal) is accepted (H1) and a
// new version that plays as its predecessor does is not flagged, its test
// going on night after night with its counts adding up.
func TestLadderRegressionAlarm(t *testing.T) {
	weak := variantFile(t, "normal", map[string]float64{"sparkValue": 0, "emberValue": 0})
	same := variantFile(t, "normal", nil)
	for _, b := range ladderDBs {
		t.Run(b.name, func(t *testing.T) {
			db := b.make(t)
			setupLadder(t, db, "normal", "sniper", "greedy")
			lad(t, db, "add", "bot", "--strategy", "normal")
			lad(t, db, "add", "eq", "--strategy", "normal")
			lad(t, db, "add", "up", "--strategy", "easy")
			night := []string{"run", "--seeds-per-night", "2", "--budget", "0", "--sprt-pairs", "1000", "--db", db}
			lad(t, db, "run", "--night", "n1", "--seeds-per-night", "2", "--budget", "0")
			if tests := listTests(t, db); tests["bot"] != nil || tests["eq"] != nil {
				t.Fatalf("regression tests before any new version: %+v", tests)
			}

			lad(t, db, "add", "bot", "--variant", weak)
			lad(t, db, "add", "eq", "--variant", same)
			lad(t, db, "add", "up", "--strategy", "normal")
			out, errOut, err := execRoot(t, append([]string{"ladder"}, append(night, "--night", "n2")...)...)
			var re *regressionError
			if !errors.As(err, &re) || exitStatus(err) != 3 || !strings.Contains(err.Error(), "bot@v2 is weaker than bot") {
				t.Fatalf("night 2 with a weaker version: error %v (exit %d), want a regression of bot@v2 with exit status 3\n%s", err, exitStatus(err), errOut)
			}
			if len(re.tests) != 1 {
				t.Fatalf("regressions %+v, want bot@v2 alone", re.tests)
			}
			if !strings.Contains(out, "bot@v2"+regressionMark) || !strings.Contains(out, "H0: REGRESSION") || strings.Contains(out, "up@v2"+regressionMark) {
				t.Fatalf("standings do not mark the regression of bot@v2 alone:\n%s", out)
			}
			if !strings.Contains(errOut, "regression test of bot@v2: H0: weaker than bot") {
				t.Fatalf("night 2 does not report the verdict:\n%s", errOut)
			}
			tests := listTests(t, db)
			bot, eq, up := tests["bot"], tests["eq"], tests["up"]
			if bot == nil || bot.Verdict != ladder.VerdictH0 || bot.Counts.Pairs() != 1000 || bot.LLR > bot.Lower || bot.Elo == nil || bot.Elo.Elo >= 0 {
				t.Fatalf("bot's test after night 2: %+v, want H0 on 1000 pairs", bot)
			}
			if up == nil || up.Verdict != ladder.VerdictH1 || up.LLR < up.Upper || up.Elo.Elo <= 0 {
				t.Fatalf("up's test (easy to normal): %+v, want H1", up)
			}
			if eq == nil || eq.Verdict == ladder.VerdictH0 || eq.Nights != 1 {
				t.Fatalf("eq's test (the same play as a variant): %+v, want it not flagged", eq)
			}
			// The LLR is the statistics package's on the stored counts.
			test := stats.SPRT{Elo0: -1.75, Elo1: 0.25, Alpha: 0.05, Beta: 0.05, Model: stats.Normalized}
			for name, tt := range tests {
				if tt == nil {
					continue
				}
				if llr, _ := test.LLR(tt.Counts); math.Abs(llr-tt.LLR) > 1e-9 {
					t.Fatalf("%s: LLR %v, the stats package gives %v for %v", name, tt.LLR, llr, tt.Counts)
				}
			}

			// Night 3: the regression stands (exit 3 again); the decided
			// tests play no more pairs, the undecided one goes on.
			_, _, err = execRoot(t, append([]string{"ladder"}, append(night, "--night", "n3")...)...)
			if exitStatus(err) != 3 {
				t.Fatalf("night 3 while bot@v2 stands regressed: %v, want exit status 3", err)
			}
			tests3 := listTests(t, db)
			if b3 := tests3["bot"]; b3.Nights != 1 || b3.Counts != bot.Counts || b3.Verdict != ladder.VerdictH0 {
				t.Fatalf("a decided test changed: %+v", b3)
			}
			// The same play in both seat orders: every pair is a win and a
			// loss or two draws, which leaves the LLR near 0.
			eq3 := tests3["eq"]
			if eq.Verdict != ladder.VerdictRunning || eq.Counts != (stats.Pentanomial{0, 0, 1000, 0, 0}) {
				t.Fatalf("eq's test after night 2: %+v, want running on 1000 pairs of WL or DD", eq)
			}
			if eq3.Nights != 2 || eq3.Counts != (stats.Pentanomial{0, 0, 2000, 0, 0}) || eq3.Verdict != ladder.VerdictRunning || !(eq3.LLR > eq.LLR) {
				t.Fatalf("eq's test after night 3: %+v, want 2 nights, 2000 pairs, a higher LLR than %v", eq3, eq.LLR)
			}
			if exp := lad(t, db, "export", "--night", "n3"); strings.Contains(exp, "-t1-") || strings.Contains(exp, "-t3-") {
				t.Fatal("night 3 played pairs of a decided test")
			}

			// The real binary's exit status.
			c := child(t, "ladder", "standings", "--db", db)
			if err := c.Wait(); err != nil {
				t.Fatalf("standings: %v", err)
			}
			c = child(t, append([]string{"ladder"}, append(night, "--night", "n3")...)...)
			var ee *exec.ExitError
			if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 3 {
				t.Fatalf("crucible ladder run with a regression standing: %v, want exit status 3", err)
			}

			// A better version replaces the regressed one: its own test
			// (against bot@v2) accepts it, and the alarm is over.
			lad(t, db, "add", "bot", "--variant", same)
			if _, errOut, err := execRoot(t, append([]string{"ladder"}, append(night, "--night", "n4")...)...); err != nil {
				t.Fatalf("night 4 after a fix: %v\n%s", err, errOut)
			}
			if bot4 := listTests(t, db)["bot"]; bot4.Label != "bot@v3" || bot4.BaselineLabel != "bot@v2" || bot4.Verdict != ladder.VerdictH1 {
				t.Fatalf("bot's test after the fix: %+v", bot4)
			}
		})
	}
}

// Defects of issue 20 (low): ladder list, run and standings on a missing
// or empty --db created a database there before failing; they refuse it
// and leave the directory as it was. ladder init still creates one.
func TestLadderCommandsNeverCreateADatabase(t *testing.T) {
	dir := t.TempDir()
	missing, empty := filepath.Join(dir, "typo.db"), filepath.Join(dir, "empty.db")
	os.WriteFile(empty, nil, 0o644)
	for _, sub := range [][]string{{"list"}, {"run", "--budget", "0"}, {"standings"}, {"history", "x"}, {"export", "--out", filepath.Join(dir, "e.jsonl")}} {
		for _, db := range []string{missing, empty} {
			_, _, err := execRoot(t, append(append([]string{"ladder"}, sub...), "--db", db)...)
			if err == nil || !strings.Contains(err.Error(), "--db "+db) || !strings.Contains(err.Error(), "crucible ladder init") {
				t.Errorf("ladder %s on %s: %v", sub[0], filepath.Base(db), err)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "empty.db" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the commands left %v in the directory; want only empty.db", names)
	}
	if info, _ := os.Stat(empty); info.Size() != 0 {
		t.Fatalf("empty.db was written to (%d bytes)", info.Size())
	}
	lad(t, empty, "init", "--game", "kindling")
	lad(t, empty, "list")
}

// Defect of issue 20 (low): the --db help stated its default twice,
// "(default $CRUCIBLE_DB, else ladder.db) (default "ladder.db")"; and
// $CRUCIBLE_DB still names the database when --db is left out.
func TestLadderDBDefaultStatedOnce(t *testing.T) {
	help, _, err := execRoot(t, "ladder", "list", "--help")
	if err != nil {
		t.Fatal(err)
	}
	_, dbLine, _ := strings.Cut(help, "--db string")
	dbLine, _, _ = strings.Cut(dbLine, "\n")
	if n := strings.Count(dbLine, "default"); n != 1 || !strings.Contains(dbLine, "(default $CRUCIBLE_DB, else ladder.db)") {
		t.Fatalf("--db help states its default %d times:\n%s", n, help)
	}
	db := filepath.Join(t.TempDir(), "env.db")
	t.Setenv(envDB, db)
	if _, _, err := execRoot(t, "ladder", "init", "--game", "kindling"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(db); err != nil {
		t.Fatalf("ladder init without --db did not use $%s: %v", envDB, err)
	}
}

// Defect of issue 20 (low): ladder run said "night ... rated as one
// Glicko-2 period" and then, under the standings, "Rated by the Glicko-2
// ratings given, not updated by these matches". The standings now say
// whose ratings they are, after which night.
func TestLadderRunMessagesAgree(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ladder.db")
	setupLadder(t, db, "normal", "easy")
	out, errOut, err := execRoot(t, "ladder", "run", "--night", "n1", "--seeds-per-night", "1", "--budget", "0", "--db", db)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut, "rated as one Glicko-2 period") || strings.Contains(out, "not updated by these matches") ||
		!strings.Contains(out, "Rated by the ladder's Glicko-2 ratings, one rating period per night, as they stand after night n1") {
		t.Fatalf("the night's messages:\n%s\n%s", errOut, out)
	}
}
