package queue

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"crucible/arena"
)

// gatedWorker plays no matches: each attempt reports that it started and
// waits for the test's go-ahead, then completes as batchWorker does
// (first, for attempt 1, trying River's JobCompleteTx alone in a
// transaction rolled back).
type gatedWorker struct {
	river.WorkerDefaults[BatchArgs]
	inner   *batchWorker
	started chan int
	release map[int]chan struct{}
	// rawState is the state River's JobCompleteTx returned for the stale
	// attempt 1, rawErr its error.
	rawState rivertype.JobState
	rawErr   error
	results  chan error
}

func (g *gatedWorker) Work(ctx context.Context, job *river.Job[BatchArgs]) error {
	g.started <- job.Attempt
	<-g.release[job.Attempt]
	if job.Attempt == 1 {
		tx, err := g.inner.db.Pool.Begin(ctx)
		if err != nil {
			g.results <- err
			return err
		}
		done, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job)
		g.rawErr = err
		if done != nil {
			g.rawState = done.State
		}
		tx.Rollback(ctx)
	}
	err := g.inner.complete(ctx, job, played{}, time.Millisecond)
	g.results <- err
	if errors.Is(err, errStale) {
		g.inner.waitSuperseded(ctx, job)
	}
	return err
}

// River's JobCompleteTx checks only that the job is running: the stale
// attempt of a rescued batch that runs again elsewhere would complete it.
// The worker's completion checks the attempt under a row lock and rejects
// it; the running attempt's completion then records the batch once.
func TestLateCompletionOfRescuedBatch(t *testing.T) {
	db, _ := openTestDB(t)
	ctx := context.Background()
	g, _ := testGames.Lookup("kindling")
	id, err := submitBatches(ctx, db, Run{Label: "gated", Game: g.Rules, BatchSize: 1}, [][]arena.Job{nil})
	if err != nil {
		t.Fatal(err)
	}
	gw := &gatedWorker{inner: &batchWorker{db: db, cfg: WorkerConfig{Games: testGames, RescueAfter: 2 * time.Second}},
		started: make(chan int, 2), results: make(chan error, 2),
		release: map[int]chan struct{}{1: make(chan struct{}), 2: make(chan struct{})}}
	workers := river.NewWorkers()
	river.AddWorker(workers, gw)
	driver := riverpgxv5.New(db.Pool)
	client, err := river.NewClient(driver, &river.Config{
		Queues:     map[string]river.QueueConfig{DefaultQueue: {MaxWorkers: 2}},
		Workers:    workers,
		JobTimeout: -1, FetchCooldown: FetchCooldown, FetchPollInterval: FetchPollInterval,
	})
	if err != nil {
		t.Fatal(err)
	}
	gw.inner.clientID = client.ID()
	if err := client.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer client.Stop(ctx)
	wait := func(want int) {
		t.Helper()
		select {
		case got := <-gw.started:
			if got != want {
				t.Fatalf("attempt %d started, want %d", got, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("attempt %d never started", want)
		}
	}
	wait(1)
	// Attempt 1 stalls; the rescue (with a horizon of now) hands the
	// batch out again.
	time.Sleep(10 * time.Millisecond)
	n, err := rescueOnce(ctx, driver.GetExecutor(), 0)
	if err != nil || n != 1 {
		t.Fatalf("rescued %d batches (err %v), want 1", n, err)
	}
	wait(2)
	close(gw.release[1])
	err = <-gw.results
	if gw.rawErr != nil || gw.rawState != rivertype.JobStateCompleted {
		t.Errorf("River's JobCompleteTx on the stale attempt: state %q, error %v; want it to complete the job (the behaviour the guard exists for)", gw.rawState, gw.rawErr)
	}
	if !errors.Is(err, errStale) {
		t.Fatalf("the stale attempt's completion: %v, want a rejection", err)
	}
	close(gw.release[2])
	if err := <-gw.results; err != nil {
		t.Fatalf("the running attempt's completion: %v", err)
	}
	var rows, attempt int
	if err := db.Pool.QueryRow(ctx, "SELECT count(*), max(attempt) FROM queue_results WHERE run = $1", id).Scan(&rows, &attempt); err != nil {
		t.Fatal(err)
	}
	if rows != 1 || attempt != 2 {
		t.Errorf("%d result rows, by attempt %d; want 1, by attempt 2", rows, attempt)
	}
	// A second completion of the same batch (attempt 2 again) is refused
	// by the job's state, and the primary key stands behind it.
	if _, err := db.Pool.Exec(ctx, `INSERT INTO queue_results (run, batch, river_job, attempt, worker, matches, failed, seconds, records)
		VALUES ($1, 0, 0, 3, 'x', 0, 0, 0, '')`, id); err == nil {
		t.Error("a second result row of one batch was accepted")
	}
}
