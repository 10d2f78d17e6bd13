package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"crucible/internal/pgtest"
	"crucible/queue"
)

// startQueueWorker runs a worker on the queue at url in this process
// until the test ends.
func startQueueWorker(t *testing.T, url string) {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	db, err := queue.Open(ctx, url, 8)
	if err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- queue.Work(ctx, db, queue.WorkerConfig{Games: labGames, Workers: 2, Ready: func(string) { close(ready) }})
	}()
	<-ready
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("worker: %v", err)
		}
		db.Close()
	})
}

// crucible arena --db writes the local arena's result lines (timing
// aside) and prints the same leaderboard; runs list shows the run
// complete, runs watch finds nothing to add, and a complete run cannot be
// cancelled.
func TestArenaOnTheQueue(t *testing.T) {
	url := pgtest.DB(t)
	startQueueWorker(t, url)
	dir := t.TempDir()
	local, onQueue := filepath.Join(dir, "local.jsonl"), filepath.Join(dir, "queue.jsonl")
	players := kindlingPlayers(t, 5)
	args := []string{"arena", "--game", "kindling", "--players", players, "--seeds", "6", "--matrix=false"}
	wantOut, _, err := execRoot(t, append(args, "--out", local)...)
	if err != nil {
		t.Fatal(err)
	}
	gotOut, errOut, err := execRoot(t, append(args, "--out", onQueue, "--db", url, "--batch", "7")...)
	if err != nil {
		t.Fatalf("%v\n%s", err, errOut)
	}
	if !strings.Contains(errOut, "run 1: 120 matches in batches of 7") {
		t.Errorf("stderr does not announce the run:\n%s", errOut)
	}
	want, got := resultLines(t, local), resultLines(t, onQueue)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("result lines differ from the local arena's: %d lines, want %d", len(got), len(want))
	}
	if gotOut != wantOut {
		t.Errorf("leaderboard differs:\n%s\nwant\n%s", gotOut, wantOut)
	}
	list, _, err := execRoot(t, "runs", "list", "--db", url)
	if err != nil || !strings.Contains(list, "complete  120/120") || !strings.Contains(list, "18/18") {
		t.Errorf("runs list: %v\n%s", err, list)
	}
	_, errOut, err = execRoot(t, "runs", "watch", "1", "--db", url, "--out", onQueue)
	if err != nil || !strings.Contains(errOut, "appended 0 results") {
		t.Errorf("runs watch of a finished file: %v\n%s", err, errOut)
	}
	if _, _, err := execRoot(t, "runs", "cancel", "1", "--db", url); err == nil || !strings.Contains(err.Error(), "run 1 is complete") {
		t.Errorf("cancelling a complete run: %v", err)
	}
	// --resume with more seeds enqueues only the matches the file lacks.
	_, errOut, err = execRoot(t, "arena", "--game", "kindling", "--players", players, "--seeds", "7", "--matrix=false",
		"--out", onQueue, "--db", url, "--batch", "7", "--resume")
	if err != nil || !strings.Contains(errOut, "run 2: 20 matches") {
		t.Errorf("--resume on the queue: %v\n%s", err, errOut)
	}
	if n := len(resultLines(t, onQueue)); n != 140 {
		t.Errorf("%d lines after --resume, want 140", n)
	}
}

// A run enqueued with no worker is cancelled by runs cancel: its follower
// stops with the cancellation, and the list says so.
func TestRunsCancel(t *testing.T) {
	url := pgtest.DB(t)
	out := filepath.Join(t.TempDir(), "r.jsonl")
	done := make(chan error, 1)
	go func() {
		_, _, err := execRoot(t, "arena", "--game", "kindling", "--players", kindlingPlayers(t, 3), "--seeds", "2",
			"--out", out, "--db", url, "--batch", "2")
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for {
		_, errOut, err := execRoot(t, "runs", "cancel", "1", "--db", url)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("runs cancel: %v %s", err, errOut)
		}
		time.Sleep(50 * time.Millisecond)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "the run was cancelled") {
			t.Errorf("the arena following a cancelled run: %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the arena did not stop after its run was cancelled")
	}
	list, _, _ := execRoot(t, "runs", "list", "--db", url)
	if !strings.Contains(list, "cancelled  0/12") {
		t.Errorf("runs list:\n%s", list)
	}
}

// Flags the distributed arena refuses, each naming the flag.
func TestArenaDBFlagErrors(t *testing.T) {
	out := filepath.Join(t.TempDir(), "x.jsonl")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", "ladder.db"}, "--db \"ladder.db\": the arena's queue lives in PostgreSQL"},
		{[]string{"--db", "postgres://x/y", "--replays", "r"}, "--replays cannot be kept with --db"},
		{[]string{"--db", "postgres://x/y", "--workers", "2"}, "--workers applies to the local arena"},
		{[]string{"--db", "postgres://x/y", "--batch", "-1"}, "--batch -1 is outside its range"},
		{[]string{"--db", "postgres://x/y", "--queue", "Big Queue"}, `--queue: queue name "Big Queue"`},
	} {
		_, _, err := execRoot(t, append([]string{"arena", "--game", "kindling", "--players", "normal,easy", "--out", out}, c.args...)...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"worker"}, "--db must name the queue's PostgreSQL database"},
		{[]string{"worker", "--db", "postgres://x/y", "--rescue-after", "10ms"}, "--rescue-after 10ms is below its minimum of 1s"},
		{[]string{"worker", "--db", "postgres://x/y", "--workers", "0"}, "--workers 0 is outside its range"},
		{[]string{"worker", "--db", "postgres://x/y", "--queues", "a,,b"}, "--queues: queue name \"\""},
		{[]string{"runs", "watch", "x", "--db", "postgres://x/y", "--out", out}, `RUN "x" is not a run id`},
		{[]string{"runs", "list"}, "--db must name the queue's PostgreSQL database"},
	} {
		_, _, err := execRoot(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}

// Defect 20.8: a submitter killed with SIGKILL while its run plays is
// followed again by the same command with --resume: it re-attaches to the
// run still playing its matches instead of submitting them again, and the
// file ends as a local run's. Real processes: the worker and the killed
// submitter are crucible processes (this test binary), the database is
// PostgreSQL; the worker is paused (SIGSTOP) for the kill, so the run is
// unfinished whatever the machine's speed.
func TestArenaResumeReattachesToItsRun(t *testing.T) {
	url := pgtest.DB(t)
	dir := t.TempDir()
	local, out := filepath.Join(dir, "local.jsonl"), filepath.Join(dir, "queue.jsonl")
	// 3 pairs x 2 seat orders x 8 seeds = 48 matches, 24 batches.
	args := []string{"arena", "--game", "acb", "--players", "gatherer,swarm,random", "--seeds", "8", "--matrix=false", "--format", "csv"}
	if _, _, err := execRoot(t, append(args, "--out", local)...); err != nil {
		t.Fatal(err)
	}
	worker := child(t, "worker", "--db", url, "--workers", "1")
	t.Cleanup(func() {
		worker.Process.Signal(syscall.SIGCONT)
		worker.Process.Kill()
		worker.Wait()
	})
	sub := child(t, append(args, "--out", out, "--db", url, "--batch", "2")...)
	deadline := time.Now().Add(5 * time.Minute)
	for {
		if data, _ := os.ReadFile(out); bytes.Count(data, []byte("\n")) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the submitter wrote no result in 5 minutes:\n%s\nworker:\n%s", sub.Stderr, worker.Stderr)
		}
		time.Sleep(5 * time.Millisecond)
	}
	worker.Process.Signal(syscall.SIGSTOP)
	sub.Process.Signal(syscall.SIGKILL)
	sub.Wait()
	db, err := queue.Open(context.Background(), url, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st, err := queue.Status(context.Background(), db, 1)
	if err != nil {
		t.Fatal(err)
	}
	if st.Complete() {
		t.Logf("run 1 was complete when its submitter was killed (%d batches): the resume re-attaches to a finished run", st.Batches)
	}

	type result struct {
		errOut string
		err    error
	}
	done := make(chan result, 1)
	go func() {
		_, errOut, err := execRoot(t, append(args, "--out", out, "--db", url, "--batch", "2", "--resume")...)
		done <- result{errOut, err}
	}()
	worker.Process.Signal(syscall.SIGCONT)
	r := <-done
	if r.err != nil {
		t.Fatalf("--resume after the kill: %v\n%s", r.err, r.errOut)
	}
	if !strings.Contains(r.errOut, "run 1 already holds") || strings.Contains(r.errOut, "run 2:") {
		t.Errorf("--resume did not re-attach to run 1:\n%s", r.errOut)
	}
	runs, err := queue.List(context.Background(), db, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 1 || runs[0].Matches != 48 {
		t.Errorf("%d runs on the queue (the first of %d matches); want the one run of 48", len(runs), runs[0].Matches)
	}
	if got, want := resultLines(t, out), resultLines(t, local); !slices.Equal(got, want) {
		t.Errorf("the resumed file has %d result lines unlike the local run's %d", len(got), len(want))
	}
}
