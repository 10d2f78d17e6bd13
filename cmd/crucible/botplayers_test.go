package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// botMarker is the variable a test puts in a crucible child's
// environment, which the bots it starts inherit, so that /proc tells
// which processes are theirs.
const botMarker = "CRUCIBLE_BOTTEST_MARKER"

// botRun is one crucible child run of a test of outside bots.
type botRun struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
}

// startBotRun starts the test binary as crucible with args, marked with
// marker.
func startBotRun(t *testing.T, marker string, args ...string) *botRun {
	t.Helper()
	data, _ := json.Marshal(args)
	r := &botRun{cmd: exec.Command(os.Args[0], "-test.run=^$")}
	r.cmd.Env = append(os.Environ(), childArgs+"="+string(data), botMarker+"="+marker)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return r
}

// newMarker returns a fresh random marker.
func newMarker(t *testing.T) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// markedProcs lists the live processes whose environment holds the
// marker, leaving out skip (the crucible child itself); zombies have an
// empty environment and do not count.
func markedProcs(t *testing.T, marker string, skip int) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("scanning /proc: %v", err)
	}
	want := []byte(botMarker + "=" + marker)
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == skip {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue
		}
		for _, kv := range bytes.Split(data, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// awaitNoBots polls /proc until no process carries marker, failing after a
// bound that holds on a loaded machine.
func awaitNoBots(t *testing.T, marker, when string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		left := markedProcs(t, marker, 0)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %d bot processes left running: %v", when, len(left), left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// awaitCond polls cond for a generous while.
func awaitCond(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(120 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// needPython fails a test of the example bots when python3 is missing.
func needPython(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("this test runs examples/acb-python and needs python3 on PATH: %v", err)
	}
}

// examplePath is the path of an example bot's file from cmd/crucible.
func examplePath(parts ...string) string {
	return filepath.Join(append([]string{"..", "..", "examples"}, parts...)...)
}

// An arena with a bot manifest among its players starts the bot, plays it,
// writes its processes' logs beside --out, and leaves no bot process
// behind: after a normal end, after Ctrl-C (SIGINT), and after kill -9 of
// crucible itself (the bots die with it), and a run killed with -9 then
// resumed prints the same leaderboard as an uninterrupted one.
func TestArenaBotManifestLeavesNoProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Python bot as a real process")
	}
	needPython(t)
	bot := examplePath("acb-python", "bot.json")
	args := func(out string, more ...string) []string {
		return append([]string{"arena", "--game", "acb", "--players", bot + ",guardian", "--seeds", "3", "--workers", "2", "--out", out}, more...)
	}
	dir := t.TempDir()

	// A normal end.
	marker := newMarker(t)
	full := startBotRun(t, marker, args(filepath.Join(dir, "full.jsonl"))...)
	if err := full.cmd.Wait(); err != nil {
		t.Fatalf("arena: %v\n%s", err, full.stderr.String())
	}
	awaitNoBots(t, marker, "after a normal end")
	if !strings.Contains(full.stdout.String(), "acb-python#") {
		t.Fatalf("the leaderboard does not list the bot:\n%s", full.stdout.String())
	}
	logs, _ := filepath.Glob(filepath.Join(dir, "full-bots", "acb-python_*.log"))
	if len(logs) == 0 {
		t.Fatalf("no log file of the bot in %s; stderr:\n%s", filepath.Join(dir, "full-bots"), full.stderr.String())
	}
	if !strings.Contains(full.stderr.String(), "0 restarts") {
		t.Errorf("the summary does not report the bot's restarts:\n%s", full.stderr.String())
	}

	// Interrupted (SIGINT, Ctrl-C) and killed (SIGKILL) while the bot runs.
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGKILL} {
		marker := newMarker(t)
		out := filepath.Join(dir, sig.String()[:4]+".jsonl")
		r := startBotRun(t, marker, args(out)...)
		awaitCond(t, "a bot process and a first result", func() bool {
			data, _ := os.ReadFile(out)
			return len(markedProcs(t, marker, r.cmd.Process.Pid)) > 0 && bytes.Count(data, []byte("\n")) > 1
		})
		if err := r.cmd.Process.Signal(sig); err != nil {
			t.Fatal(err)
		}
		err := r.cmd.Wait()
		if err == nil {
			t.Logf("the run ended before the %v arrived", sig)
		}
		awaitNoBots(t, marker, "after "+sig.String())
		if sig == syscall.SIGINT && err != nil && !strings.Contains(r.stderr.String(), "interrupted") {
			t.Errorf("SIGINT: stderr does not say the run was interrupted:\n%s", r.stderr.String())
		}
		if sig != syscall.SIGKILL {
			continue
		}
		res := startBotRun(t, marker, args(out, "--resume")...)
		if err := res.cmd.Wait(); err != nil {
			t.Fatalf("resume: %v\n%s", err, res.stderr.String())
		}
		awaitNoBots(t, marker, "after the resumed run")
		if got, want := res.stdout.String(), full.stdout.String(); got != want {
			t.Errorf("the resumed run's leaderboard differs from the uninterrupted one:\n%s\nwant\n%s", got, want)
		}
	}
}
