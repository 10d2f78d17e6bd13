package queue

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Two and four worker processes play a run whose result lines equal the
// local arena's, timing aside.
func TestWorkerProcessesMatchLocalArena(t *testing.T) {
	s := schedules["kindling"]()
	want := localLines(t, s)
	for _, n := range []int{2, 4} {
		t.Run(fmt.Sprintf("%d workers", n), func(t *testing.T) {
			db, url := openTestDB(t)
			ctx := context.Background()
			id, err := submitSchedule(ctx, db, s, 16)
			if err != nil {
				t.Fatal(err)
			}
			var workers []*proc
			for range n {
				workers = append(workers, startWorker(t, url, time.Minute))
			}
			out := t.TempDir() + "/db.jsonl"
			written, err := FollowToFile(ctx, db, id, out, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if written != len(s.jobs) {
				t.Errorf("followed %d records, want %d", written, len(s.jobs))
			}
			sameLines(t, fileLines(t, out), want)
			// Every worker took part (30 batches for n workers).
			rows, err := db.Pool.Query(ctx, "SELECT DISTINCT worker FROM queue_results WHERE run = $1", id)
			if err != nil {
				t.Fatal(err)
			}
			distinct := 0
			for rows.Next() {
				distinct++
			}
			rows.Close()
			if distinct < 2 {
				t.Errorf("results came from %d workers of %d", distinct, n)
			}
			// SIGTERM stops a worker cleanly (once it serves: on a loaded
			// machine the run can end before a worker is ready, and one
			// stopped while it upgrades the schema fails instead).
			workers[0].waitFor(t, "ready", 2*time.Minute)
			workers[0].cmd.Process.Signal(syscall.SIGTERM)
			workers[0].waitFor(t, "stopped", 20*time.Second)
		})
	}
}

// Workers killed with SIGKILL at random moments mid-batch, and the
// submitting process killed while it writes the results file: the run
// completes, and the file, finished by following the run again, holds
// every result once.
func TestKilledWorkersAndSubmitter(t *testing.T) {
	if testing.Short() {
		// make test runs it without -race; under the race detector on a
		// loaded machine a batch outlasts the 2 s rescue and is rescued again
		// and again.
		t.Skip("-short (the race run): its rescue timing is covered by the run without -race")
	}
	const rescue = 2 * time.Second
	s := schedules["acb"]()
	want := localLines(t, s)
	db, url := openTestDB(t)
	out := t.TempDir() + "/db.jsonl"
	sub := start(t, "submit", envDB+"="+url, envSched+"=acb", envBatch+"=12", envOut+"="+out)
	workers := []*proc{startWorker(t, url, rescue), startWorker(t, url, rescue), startWorker(t, url, rescue)}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	subKilled := false
	kills, midBatch := 0, 0
	deadline := time.Now().Add(60 * time.Second)
	for kills < 4 && time.Now().Before(deadline) {
		// The submitter dies once its file holds some results.
		if !subKilled {
			if info, err := os.Stat(out); err == nil && info.Size() > 0 {
				sub.cmd.Process.Kill()
				subKilled = true
			}
		}
		i := rng.IntN(len(workers))
		w := workers[i]
		if !w.playing() {
			time.Sleep(5 * time.Millisecond)
			continue
		}
		time.Sleep(time.Duration(rng.IntN(20)) * time.Millisecond)
		if w.playing() {
			midBatch++
		}
		w.cmd.Process.Kill()
		<-w.done
		kills++
		workers[i] = startWorker(t, url, rescue)
	}
	if kills < 4 {
		t.Fatalf("only %d workers killed in 60 s", kills)
	}
	if !subKilled {
		sub.cmd.Process.Kill()
	}
	<-sub.done
	var id int64
	if err := db.Pool.QueryRow(context.Background(), "SELECT max(id) FROM queue_runs").Scan(&id); err != nil {
		t.Fatal(err)
	}
	st := waitComplete(t, db, id, 60*time.Second)
	if st.DoneMatches != len(s.jobs) {
		t.Errorf("%d matches recorded, want %d", st.DoneMatches, len(s.jobs))
	}
	var rescued int
	if err := db.Pool.QueryRow(context.Background(), "SELECT count(*) FROM queue_results WHERE run = $1 AND attempt > 1", id).Scan(&rescued); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d kills, %d seen mid-batch; %d batches recorded by a later attempt", kills, midBatch, rescued)
	if midBatch > 0 && rescued == 0 {
		t.Errorf("%d workers were killed mid-batch but no batch was recorded by a later attempt", midBatch)
	}
	// Re-attach: the file the killed submitter left is finished.
	if _, err := FollowToFile(context.Background(), db, id, out, nil, nil); err != nil {
		t.Fatal(err)
	}
	got := fileLines(t, out)
	sameLines(t, got, want)
	// Following again appends nothing.
	n, err := FollowToFile(context.Background(), db, id, out, nil, nil)
	if err != nil || n != 0 {
		t.Errorf("following a finished file again appended %d records (err %v)", n, err)
	}
}

// A worker stopped with SIGSTOP mid-batch has its batch rescued and
// played by another; when it resumes, its late completion is rejected and
// the batch counts once.
func TestStalledWorkerLateCompletionRejected(t *testing.T) {
	if testing.Short() {
		// make test runs it without -race; under the race detector on a
		// loaded machine a batch outlasts the 3 s rescue and is rescued again
		// and again.
		t.Skip("-short (the race run): its rescue timing is covered by the run without -race")
	}
	const rescue = 3 * time.Second
	s := schedules["acb-slow"]()
	want := localLines(t, s)
	db, url := openTestDB(t)
	ctx := context.Background()
	id, err := submitSchedule(ctx, db, s, 40)
	if err != nil {
		t.Fatal(err)
	}
	stalled := startWorker(t, url, rescue)
	line := stalled.waitFor(t, ": playing", 30*time.Second)
	stalled.cmd.Process.Signal(syscall.SIGSTOP)
	// "run 1 batch 2/3 (40 matches) attempt 1: playing"
	var run, batch, of, matches, attempt int
	if _, err := fmt.Sscanf(line, "run %d batch %d/%d (%d matches) attempt %d: playing", &run, &batch, &of, &matches, &attempt); err != nil {
		t.Fatalf("parsing %q: %v", line, err)
	}
	other := startWorker(t, url, rescue)
	st := waitComplete(t, db, id, 60*time.Second)
	other.waitFor(t, fmt.Sprintf("run %d batch %d/%d attempt 2: recorded", run, batch, of), 10*time.Second)
	stalled.cmd.Process.Signal(syscall.SIGCONT)
	rejected := stalled.waitFor(t, "late completion rejected", 30*time.Second)
	t.Log(rejected)
	if !strings.Contains(rejected, fmt.Sprintf("run %d batch %d attempt 1", run, batch)) {
		t.Errorf("rejection %q is not of the stalled batch %d", rejected, batch)
	}
	var attemptRecorded int
	if err := db.Pool.QueryRow(ctx, "SELECT attempt FROM queue_results WHERE run = $1 AND batch = $2", id, batch-1).Scan(&attemptRecorded); err != nil {
		t.Fatal(err)
	}
	if attemptRecorded != 2 {
		t.Errorf("the stalled batch was recorded by attempt %d, want 2", attemptRecorded)
	}
	if st.DoneMatches != len(s.jobs) {
		t.Errorf("%d matches recorded, want %d", st.DoneMatches, len(s.jobs))
	}
	out := t.TempDir() + "/db.jsonl"
	if _, err := FollowToFile(ctx, db, id, out, nil, nil); err != nil {
		t.Fatal(err)
	}
	sameLines(t, fileLines(t, out), want)
	// The stalled worker's batch is not recorded twice and the run stays
	// complete after its late report.
	time.Sleep(200 * time.Millisecond)
	st, err = Status(ctx, db, id)
	if err != nil || !st.Complete() || st.DoneMatches != len(s.jobs) {
		t.Errorf("after the late completion: %+v, %v", st, err)
	}
}

// A worker stopped by SIGTERM in the middle of a long batch waits
// --stop-timeout, then hands the batch back: available at once, no
// attempt spent, and another worker plays it whole.
func TestStoppedWorkerHandsBatchBack(t *testing.T) {
	s := schedules["acb-slow"]()
	want := localLines(t, s)
	db, url := openTestDB(t)
	ctx := context.Background()
	id, err := submitSchedule(ctx, db, s, len(s.jobs))
	if err != nil {
		t.Fatal(err)
	}
	w := start(t, "worker", envDB+"="+url, envRescue+"=1m", envWorkers+"=1", envStop+"=100ms")
	w.waitFor(t, ": playing", 30*time.Second)
	w.cmd.Process.Signal(syscall.SIGTERM)
	w.waitFor(t, "handed back to the queue", 20*time.Second)
	<-w.done
	var state string
	var attempt int
	if err := db.Pool.QueryRow(ctx, "SELECT state::text, attempt FROM river_job WHERE args->>'run' = $1", fmt.Sprint(id)).Scan(&state, &attempt); err != nil {
		t.Fatal(err)
	}
	if state != "available" || attempt != 0 {
		t.Errorf("the handed-back batch is %s at attempt %d, want available at attempt 0", state, attempt)
	}
	startWorker(t, url, time.Minute)
	out := t.TempDir() + "/db.jsonl"
	if _, err := FollowToFile(ctx, db, id, out, nil, nil); err != nil {
		t.Fatal(err)
	}
	sameLines(t, fileLines(t, out), want)
}
