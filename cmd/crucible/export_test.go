package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// startExportedBot starts the exported ACB bot in dir as its own process
// on a free port and returns its URL; the bot is stopped (SIGTERM) after
// the test.
func startExportedBot(t *testing.T, dir, secret string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("./bot", "-host", "127.0.0.1")
	cmd.Dir = dir
	cmd.Env = []string{"SHARED_SECRET=" + secret, "PORT=" + strconv.Itoa(port)}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("bot log of %s:\n%s", dir, logs.String())
		}
	})
	return "http://127.0.0.1:" + strconv.Itoa(port)
}

// replayTurns reads a replay file as JSON without its players (their
// names say who played the seat: a variant file or a bot's URL).
func replayTurns(t *testing.T, path string) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	delete(doc, "players")
	return doc
}

// sameMatch fails unless two replays are the same match: every field but
// the players' names byte for byte, naming the first turn that differs.
func sameMatch(t *testing.T, what, gotPath, wantPath string) {
	t.Helper()
	got, want := replayTurns(t, gotPath), replayTurns(t, wantPath)
	for k, w := range want {
		if bytes.Equal(got[k], w) {
			continue
		}
		if k != "turns" {
			t.Errorf("%s: the replays' %s differ:\n got %.300s\nwant %.300s", what, k, got[k], w)
			continue
		}
		var gt, wt []json.RawMessage
		json.Unmarshal(got[k], &gt)
		json.Unmarshal(w, &wt)
		for i := range max(len(gt), len(wt)) {
			if i >= len(gt) || i >= len(wt) || !bytes.Equal(gt[i], wt[i]) {
				t.Errorf("%s: the exported bot played %d turns, in-process %d; first difference at turn record %d", what, len(gt), len(wt), i)
				break
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: replay fields %d, want %d", what, len(got), len(want))
	}
}

// What we export must play unchanged: a program variant and a parametric
// one, exported with `crucible export` and run as their own processes,
// play `crucible match acb` over HTTP with HMAC (as the platform does)
// exactly as the variant files play in-process: the same replay, turn for
// turn, in either seat.
func TestExportedVariantsPlayMatchesAsInProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the export builds")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("export builds with the go command, which is not on PATH")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the export is a linux/amd64 binary; this %s/%s machine cannot run it", runtime.GOOS, runtime.GOARCH)
	}
	dir := t.TempDir()
	parametric := filepath.Join(dir, "hunter.json")
	if err := os.WriteFile(parametric, []byte(`{"game":"acb","base":"hunter","params":{"pack":3,"hunt_range":25}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	variants := map[string]string{
		"program":    filepath.Join("..", "..", "examples", "programs", "hunter.variant.json"),
		"parametric": parametric,
	}
	const secret = "export-match-secret"
	for name, file := range variants {
		out := filepath.Join(dir, name)
		if _, stderr, err := execRoot(t, "export", "--variant", file, "--out", out); err != nil {
			t.Fatalf("export %s: %v\n%s", file, err, stderr)
		}
		url := startExportedBot(t, out, secret)
		for _, seed := range []string{"5", "9"} {
			for _, seats := range [][2]string{{"%s", "gatherer"}, {"rusher", "%s"}} {
				players := func(p string) string { return fmt.Sprintf(seats[0]+","+seats[1], p) }
				want := filepath.Join(dir, fmt.Sprintf("%s-%s-%s-in.json", name, seed, seats[0]))
				got := filepath.Join(dir, fmt.Sprintf("%s-%s-%s-http.json", name, seed, seats[0]))
				if _, stderr, err := execRoot(t, "match", "acb", "--players", players(file), "--seed", seed, "--replay", want); err != nil {
					t.Fatalf("in-process match: %v\n%s", err, stderr)
				}
				if _, stderr, err := execRoot(t, "match", "acb", "--players", players(url), "--seed", seed, "--replay", got, "--secret", secret); err != nil {
					t.Fatalf("match against the exported bot: %v\n%s", err, stderr)
				}
				sameMatch(t, fmt.Sprintf("%s, seed %s, players %s", name, seed, players(name)), got, want)
			}
		}
	}
}
