package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"crucible/strategies"
)

// evolveExec runs `crucible evolve` with args and returns stdout, stderr
// and the error.
func evolveExec(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	return execRoot(t, append([]string{"evolve"}, args...)...)
}

// small keeps a command-line run to a fraction of a second on Kindling.
var small = []string{"--generations", "2", "--population", "4", "--seeds", "2", "--pool", "easy,normal,even",
	"--tournament-seeds", "2", "--holdout", "4", "--top", "2"}

func TestEvolveBadInput(t *testing.T) {
	full := t.TempDir()
	os.WriteFile(filepath.Join(full, "notes.txt"), []byte("mine"), 0o644)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown base lists the known ones", []string{"--game", "kindling", "--base", "nosuch", "--out", t.TempDir() + "/r"},
			[]string{`--base: unknown kindling strategy "nosuch"`, "known:", "easy", "normal"}},
		{"unknown algorithm lists the known ones", []string{"--base", "easy", "--algo", "annealing", "--out", t.TempDir() + "/r"},
			[]string{`--algo: unknown algorithm "annealing"`, "cmaes, ga, llm"}},
		{"unknown game lists the known ones", []string{"--game", "chess", "--base", "easy", "--out", t.TempDir() + "/r"},
			[]string{`unknown game "chess"`, "acb, kindling"}},
		{"budget below its range", []string{"--base", "easy", "--budget", "1s", "--out", t.TempDir() + "/r"},
			[]string{"--budget 1s is outside its range [5s, 168h0m0s]"}},
		{"budget above its range", []string{"--base", "easy", "--budget", "200h", "--out", t.TempDir() + "/r"},
			[]string{"--budget 200h0m0s is outside its range"}},
		{"population below its range", []string{"--base", "easy", "--population", "2", "--out", t.TempDir() + "/r"},
			[]string{"--population 2 is outside its range [4, 256]"}},
		{"population above its range", []string{"--base", "easy", "--population", "1000", "--out", t.TempDir() + "/r"},
			[]string{"--population 1000 is outside its range [4, 256]"}},
		{"seeds out of range", []string{"--base", "easy", "--seeds", "0", "--out", t.TempDir() + "/r"},
			[]string{"--seeds 0 is outside its range [1, 256]"}},
		{"one held-out seed gives no interval", []string{"--base", "easy", "--holdout", "1", "--out", t.TempDir() + "/r"},
			[]string{"--holdout 1 cannot give an interval"}},
		{"generations out of range", []string{"--base", "easy", "--generations", "0", "--out", t.TempDir() + "/r"},
			[]string{"--generations 0 is outside its range [1, 100000]"}},
		{"unknown pool member", []string{"--base", "easy", "--pool", "easy,nosuch", "--out", t.TempDir() + "/r"},
			[]string{`--pool: unknown kindling strategy "nosuch"`}},
		{"pool naming a strategy twice", []string{"--base", "easy", "--pool", "easy,even,easy", "--out", t.TempDir() + "/r"},
			[]string{"--pool: pool names easy twice"}},
		{"non-empty output directory without --resume", []string{"--base", "easy", "--generations", "1", "--out", full},
			[]string{"--out " + full + ": the directory is not empty and holds no run"}},
		{"non-empty output directory without a checkpoint", []string{"--base", "easy", "--generations", "1", "--out", full, "--resume"},
			[]string{"holds no checkpoint.json"}},
		{"missing --out", []string{"--base", "easy"}, []string{"--out is required"}},
		{"missing --base", []string{"--out", t.TempDir() + "/r"}, []string{"--base is required"}},
		{"hall opponents above their range, named in the flag's own terms", []string{"--base", "easy", "--hall", "2", "--hall-opponents", "9", "--out", t.TempDir() + "/r"},
			[]string{"--hall-opponents 9 is outside its range [0, 8]"}},
		{"islands with another algorithm", []string{"--base", "easy", "--algo", "cmaes", "--islands", "2", "--out", t.TempDir() + "/r"},
			[]string{"--islands applies to --algo ga only"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := evolveExec(t, tc.args...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			// The evolver names Config fields; the command its flags.
			for _, field := range []string{"Population", "Seeds", "Budget", "Holdout", "Algorithm", "Base", "Pool", "Out "} {
				if strings.Contains(err.Error(), field) {
					t.Errorf("error %q names the field %s, not its flag", err, field)
				}
			}
		})
	}
	if data, _ := os.ReadFile(filepath.Join(full, "notes.txt")); string(data) != "mine" {
		t.Errorf("a refused run touched the existing directory")
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("a refused run left %d entries in the existing directory", len(entries))
	}
}

// Rule: a short run prints the ranked table and leaves the run directory's
// files; resuming it with more generations continues from the checkpoint.
func TestEvolveCommandWritesRunDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := evolveExec(t, append([]string{"--game", "kindling", "--base", "easy", "--algo", "ga", "--out", dir}, small...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"Selection against the field", "Leaderboard", "Elo (BT)", "easy#", "normal", "champion easy#", "held-out:", "head-to-head", "the behaviour cache saved"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if n := strings.Count(stderr, "gen "); n != 2 {
		t.Errorf("stderr has %d progress lines, want one per generation (2):\n%s", n, stderr)
	}
	for _, f := range []string{"checkpoint.json", "generations.jsonl", "champion.json", "leaderboard.json", "report.json", "hall", "ranked"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("run directory lacks %s", f)
		}
	}
	v, err := strategies.LoadVariant(filepath.Join(dir, "champion.json"))
	if err != nil {
		t.Fatal(err)
	}
	if v.Game != "kindling" || v.Base != "easy" {
		t.Errorf("champion is %s/%s, want kindling/easy", v.Game, v.Base)
	}

	// Same directory again without --resume: refused.
	if _, _, err := evolveExec(t, append([]string{"--base", "easy", "--out", dir}, small...)...); err == nil || !strings.Contains(err.Error(), "--resume") {
		t.Errorf("re-running into a finished run's directory: %v, want a refusal naming --resume", err)
	}
	// Resume with a different seed: refused, naming the flag.
	if _, _, err := evolveExec(t, "--out", dir, "--resume", "--seed", "9", "--generations", "3"); err == nil || !strings.Contains(err.Error(), "--seed 9 differs from the run's 1") {
		t.Errorf("resume with another seed: %v", err)
	}
	// Resume taking everything else from the checkpoint, one generation more.
	_, stderr, err = evolveExec(t, "--out", dir, "--resume", "--generations", "3", "--tournament-seeds", "2", "--holdout", "4", "--top", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "resuming") || strings.Count(stderr, "gen ") != 1 {
		t.Errorf("resume did not continue with the one missing generation:\n%s", stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "generations.jsonl"))
	if n := strings.Count(string(data), "\n"); n != 3 {
		t.Errorf("generations.jsonl has %d lines after resuming to 3 generations", n)
	}
}

// Rule: an unreachable model server does not stop an llm run: it goes on
// by mutation and says so.
func TestEvolveLLMUnreachable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"--base", "easy", "--algo", "llm", "--llm-base-url", "http://127.0.0.1:1/v1", "--llm-attempts", "1", "--out", dir}, small...)
	stdout, stderr, err := evolveExec(t, args...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "model server unreachable") || !strings.Contains(stderr, "proposed by mutation of the elite") {
		t.Errorf("stderr does not say the model was unreachable and mutation took over:\n%s", stderr)
	}
	if !strings.Contains(stdout, "Leaderboard") {
		t.Errorf("the run did not finish with its leaderboard:\n%s", stdout)
	}
}

// Rule: a run without hall opponents resumes with the flag left out.
func TestEvolveResumeWithoutHallOpponents(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"--base", "easy", "--algo", "cmaes", "--hall-opponents", "0", "--out", dir}, small...)
	if _, stderr, err := evolveExec(t, args...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	// Another count is refused in the flag's own terms (0 for none, not
	// the evolver's -1).
	if _, _, err := evolveExec(t, "--out", dir, "--resume", "--hall-opponents", "2"); err == nil || !strings.Contains(err.Error(), "--hall-opponents 2 differs from the run's 0") {
		t.Errorf("resume with other hall opponents: %v", err)
	}
	_, stderr, err := evolveExec(t, "--out", dir, "--resume", "--generations", "3", "--tournament-seeds", "2", "--holdout", "4", "--top", "2")
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	if strings.Count(stderr, "gen ") != 1 {
		t.Errorf("resume did not play the one missing generation:\n%s", stderr)
	}
}

// cancelAfter cancels a context once its n-th progress line is written.
type cancelAfter struct {
	buf    bytes.Buffer
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.buf.Write(p)
	if strings.Count(c.buf.String(), "gen ") >= c.n {
		c.cancel()
	}
	return len(p), nil
}

// Rule: a run interrupted and resumed with nothing but --out and --resume
// ends exactly as the run left alone: the checkpoint carries the stopping
// rule and the final stages' settings too.
func TestEvolveInterruptedAndResumedMatchesWhole(t *testing.T) {
	args := []string{"--base", "contrarian", "--algo", "cmaes", "--generations", "12", "--seeds", "2", "--pool", "easy,normal,even,contrarian",
		"--seed", "5", "--tournament-seeds", "3", "--holdout", "10", "--top", "2"}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, stderr, err := evolveExec(t, append(args, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}

	cut := filepath.Join(t.TempDir(), "cut")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	root := newRootCmd()
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&cancelAfter{n: 5, cancel: cancel})
	root.SetArgs(append([]string{"evolve", "--out", cut}, args...))
	if err := root.ExecuteContext(ctx); err == nil || !strings.Contains(err.Error(), "context canceled") {
		t.Fatalf("interrupted run returned %v", err)
	}
	if _, err := os.Stat(filepath.Join(cut, "champion.json")); err == nil {
		t.Fatal("the interrupted run got to its final stages; interrupt it earlier")
	}
	if _, stderr, err := evolveExec(t, "--out", cut, "--resume"); err != nil {
		t.Fatalf("resume: %v\n%s", err, stderr)
	}
	for _, f := range []string{"champion.json", "leaderboard.json"} {
		a, _ := os.ReadFile(filepath.Join(whole, f))
		b, _ := os.ReadFile(filepath.Join(cut, f))
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the resumed and the uninterrupted run", f)
		}
	}
	var ra, rb map[string]any
	for _, p := range []struct {
		dir string
		m   *map[string]any
	}{{whole, &ra}, {cut, &rb}} {
		data, _ := os.ReadFile(filepath.Join(p.dir, "report.json"))
		if err := json.Unmarshal(data, p.m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"dir", "elapsed_s", "elapsed_total_s"} {
			delete(*p.m, k)
		}
	}
	ja, _ := json.Marshal(ra)
	jb, _ := json.Marshal(rb)
	if !bytes.Equal(ja, jb) {
		t.Errorf("report.json differs:\nwhole   %s\nresumed %s", ja, jb)
	}
}

// runFiles returns the files that must be identical between a resumed and
// an uninterrupted run: champion.json, leaderboard.json and
// generations.jsonl without its wall times.
func runFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, f := range []string{"champion.json", "leaderboard.json"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		out[f] = string(data)
	}
	data, err := os.ReadFile(filepath.Join(dir, "generations.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("generations.jsonl line %q: %v", l, err)
		}
		delete(m, "wall_ms")
		delete(m, "elapsed_ms")
		b, _ := json.Marshal(m)
		lines = append(lines, string(b))
	}
	out["generations.jsonl"] = strings.Join(lines, "\n")
	return out
}

// leftovers lists the temporary files (names starting with a dot) in a
// run directory and its subdirectories.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), ".") && path != dir {
			out = append(out, path)
		}
		return nil
	})
	return out
}

// Defect 4: a run killed in its first generation, after generations.jsonl
// got its line and while the first champion was being written to hall/
// (before any checkpoint of a generation), left a directory that --resume
// refused ("holds no checkpoint.json") and a temporary file in hall/. The
// directory is rebuilt here as such a kill leaves it; resumed, the run
// must end as the uninterrupted one and leave no temporary file.
func TestEvolveResumeAfterKillInFirstGeneration(t *testing.T) {
	args := []string{"--base", "contrarian", "--algo", "ga", "--generations", "3", "--population", "4", "--seeds", "2",
		"--pool", "easy,normal,even", "--seed", "3", "--tournament-seeds", "2", "--holdout", "4", "--top", "2"}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, stderr, err := evolveExec(t, append(args, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}

	// What the kill leaves: the first generation's line, the first hall
	// file half-written (its temporary file), nothing else.
	cut := filepath.Join(t.TempDir(), "cut")
	if err := os.MkdirAll(filepath.Join(cut, "hall"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(whole, "generations.jsonl"))
	first := strings.SplitAfter(string(data), "\n")[0]
	os.WriteFile(filepath.Join(cut, "generations.jsonl"), []byte(first), 0o644)
	hall, _ := os.ReadDir(filepath.Join(whole, "hall"))
	os.WriteFile(filepath.Join(cut, "hall", "."+hall[0].Name()+".tmp1234567"), []byte(`{"game":"kin`), 0o600)

	if _, stderr, err := evolveExec(t, append(args, "--out", cut, "--resume")...); err != nil {
		t.Fatalf("resume after a kill in the first generation: %v\n%s", err, stderr)
	}
	want, got := runFiles(t, whole), runFiles(t, cut)
	for f := range want {
		if want[f] != got[f] {
			t.Errorf("%s differs between the resumed and the uninterrupted run:\nresumed       %s\nuninterrupted %s", f, got[f], want[f])
		}
	}
	if l := leftovers(t, cut); len(l) > 0 {
		t.Errorf("temporary files left behind: %v", l)
	}
}

// Defect 7: resuming a directory that does not exist says so (it said
// "--base is required").
func TestEvolveResumeMissingDirectory(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	_, _, err := evolveExec(t, "--out", missing, "--resume")
	if err == nil || !strings.Contains(err.Error(), "--out "+missing) || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("error %v, want one saying the run directory --out %s does not exist", err, missing)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Errorf("a refused resume created %s", missing)
	}
}

// Defect 8: an empty --pool meant "every strategy"; it is refused, naming
// the flag (leaving the flag out still means every strategy).
func TestEvolveEmptyPoolRefused(t *testing.T) {
	for _, pool := range []string{"", " , "} {
		dir := filepath.Join(t.TempDir(), "run")
		args := []string{"--base", "easy", "--generations", "1", "--population", "4", "--seeds", "1", "--tournament-seeds", "1",
			"--holdout", "0", "--top", "1", "--out", dir, "--pool", pool}
		_, _, err := evolveExec(t, args...)
		if err == nil || !strings.Contains(err.Error(), "--pool") || !strings.Contains(err.Error(), "empty") {
			t.Errorf("--pool %q: error %v, want a refusal naming --pool as empty", pool, err)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("--pool %q: a refused run created its directory", pool)
		}
	}
}

// TestEvolveHelperProcess is not a test: TestEvolveKilledAndResumed runs
// the test binary as a crucible evolve process through it, to kill it.
func TestEvolveHelperProcess(t *testing.T) {
	if os.Getenv("CRUCIBLE_EVOLVE_HELPER") != "1" {
		t.Skip("runs only as the child process of TestEvolveKilledAndResumed")
	}
	root := newRootCmd()
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	args := os.Args
	for len(args) > 0 && args[0] != "--" {
		args = args[1:]
	}
	if len(args) == 0 {
		t.Fatal("no -- before the arguments of crucible evolve")
	}
	root.SetArgs(append([]string{"evolve"}, args[1:]...))
	if err := root.Execute(); err != nil {
		os.Exit(1)
	}
	os.Exit(0)
}

// Defect 4, with real kills: a crucible evolve process killed (SIGKILL, no
// chance to clean up) at moments from its start to its final stages —
// each moment seen by watching the run directory — resumes and ends as the
// run left alone, leaving no temporary file. When the kill left a
// checkpoint, --out and --resume alone continue the run; before the first
// checkpoint the run's flags start it again in the same directory.
func TestEvolveKilledAndResumed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	args := []string{"--base", "contrarian", "--algo", "cmaes", "--generations", "8", "--population", "8", "--seeds", "8",
		"--pool", "easy,normal,even,greedy", "--seed", "9", "--tournament-seeds", "8", "--holdout", "8", "--top", "2", "--workers", "1"}
	whole := filepath.Join(t.TempDir(), "whole")
	if _, stderr, err := evolveExec(t, append(args, "--out", whole)...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	want := runFiles(t, whole)
	exists := func(name string) func(dir string) bool {
		return func(dir string) bool {
			_, err := os.Stat(filepath.Join(dir, name))
			return err == nil
		}
	}
	moments := []struct {
		name string
		now  func(dir string) bool
	}{
		{"at once", func(string) bool { return true }},
		{"when the run directory appears", exists("")},
		{"when the first checkpoint appears (in the first generation)", exists("checkpoint.json")},
		{"when the first generation's line appears", exists("generations.jsonl")},
		{"when the first champion reaches hall/", exists("hall")},
		{"when the final tournament's files begin", exists("champion.json")},
	}
	for _, m := range moments {
		t.Run(m.name, func(t *testing.T) {
			cut := filepath.Join(t.TempDir(), "cut")
			child := exec.Command(os.Args[0], append([]string{"-test.run=^TestEvolveHelperProcess$", "--"}, append(args, "--out", cut)...)...)
			child.Env = append(os.Environ(), "CRUCIBLE_EVOLVE_HELPER=1")
			if err := child.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan error, 1)
			go func() { exited <- child.Wait() }()
		watch:
			for !m.now(cut) {
				select {
				case err := <-exited:
					exited <- err
					break watch
				case <-time.After(100 * time.Microsecond):
				}
			}
			child.Process.Kill()
			if err := <-exited; err == nil {
				t.Logf("the run ended before the kill")
			}
			var cp struct{ Generations int }
			state := "no run directory"
			if data, err := os.ReadFile(filepath.Join(cut, "checkpoint.json")); err == nil {
				json.Unmarshal(data, &cp)
				state = fmt.Sprintf("%d generations checkpointed", cp.Generations)
			} else if _, err := os.Stat(cut); err == nil {
				state = "no checkpoint"
			}
			resume := []string{"--out", cut, "--resume"}
			switch state {
			case "no run directory":
				resume = append(args, "--out", cut)
			case "no checkpoint":
				resume = append(resume, args...)
			}
			t.Logf("killed with %s; resumed with %v", state, resume[:3])
			if _, stderr, err := evolveExec(t, resume...); err != nil {
				t.Fatalf("resume %v: %v\n%s", resume, err, stderr)
			}
			got := runFiles(t, cut)
			for f := range want {
				if want[f] != got[f] {
					t.Errorf("%s differs between the resumed and the uninterrupted run", f)
				}
			}
			if l := leftovers(t, cut); len(l) > 0 {
				t.Errorf("temporary files left behind: %v", l)
			}
		})
	}
}
