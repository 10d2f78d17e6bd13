package queue

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"crucible/strategies"
)

// River's fetch settings for workers. A producer fetches at most its free
// slots once per FetchCooldown, and waits for LISTEN/NOTIFY or at most
// FetchPollInterval between fetches. A producer whose last fetch filled
// its slots fetches again as soon as a batch ends, and inserts notify, so
// the poll only picks up batches made available without a notification
// (rescued, handed back at shutdown): 1 s keeps those from waiting long
// and makes an idle worker cheaper (two idle workers, TestMeasureIdle:
// 15 ms of their own CPU time a second and 4.5 ms of PostgreSQL's, against
// 22 and 5.5 at a 200 ms poll). 20 ms of cooldown keeps
// short batches (an evolver's generation, the tests) from waiting on the
// queue. See README.md for the measured capacity and CPU time.
const (
	FetchCooldown     = 20 * time.Millisecond
	FetchPollInterval = time.Second
)

// DefaultRescueAfter is how long a batch may run before it is taken for
// stuck (its worker killed, stalled or cut off) and handed to another
// worker: 5 minutes, five times the work a batch is sized to.
const DefaultRescueAfter = 5 * time.Minute

// WorkerConfig configures a worker process.
type WorkerConfig struct {
	// Games are the games whose runs the worker plays (required).
	Games Games
	// Workers is the number of batches played at once (0: every core).
	Workers int
	// Queues are the River queues served (nil: DefaultQueue).
	Queues []string
	// RescueAfter is how long a batch may run before it is rescued
	// (0: DefaultRescueAfter). Batches are never cut short by time: one
	// that outlives it is replayed elsewhere and its own late completion
	// is rejected.
	RescueAfter time.Duration
	// StopTimeout is how long a stopping worker lets its batches finish
	// before it cancels them and hands them back to the queue.
	StopTimeout time.Duration
	// BotConcurrency is the most matches at once against one remote bot,
	// across every worker of the database (0: no limit).
	BotConcurrency int
	// Secret signs requests to remote bots ("": from the environment).
	Secret string
	// Log receives one line per batch and per event (nil: discarded).
	Log io.Writer
	// Metrics, when set, are updated as batches are played.
	Metrics *Metrics
	// Ready, when set, is called once the worker fetches batches.
	Ready func(id string)
}

// Work runs a worker on db until ctx ends, then stops: it takes no new
// batch, lets those in progress finish for up to cfg.StopTimeout, and
// hands the rest back to the queue (River's JobSnooze(0): immediately
// available, no attempt spent).
func Work(ctx context.Context, db *DB, cfg WorkerConfig) error {
	if cfg.Workers <= 0 {
		cfg.Workers = runtime.NumCPU()
	}
	if len(cfg.Queues) == 0 {
		cfg.Queues = []string{DefaultQueue}
	}
	if cfg.RescueAfter <= 0 {
		cfg.RescueAfter = DefaultRescueAfter
	}
	if cfg.Log == nil {
		cfg.Log = io.Discard
	}
	if cfg.Games == nil {
		return errors.New("queue: WorkerConfig.Games is nil: a worker needs the table of games")
	}
	reg, err := cfg.Games.Registry()
	if err != nil {
		return err
	}
	bw := &batchWorker{db: db, reg: reg, cfg: cfg, runs: map[int64]*loadedRun{},
		limiter: newBotLimiter(cfg.BotConcurrency, db.Pool)}
	workers := river.NewWorkers()
	if err := river.AddWorkerSafely(workers, bw); err != nil {
		return err
	}
	queues := map[string]river.QueueConfig{}
	for _, q := range cfg.Queues {
		if err := CheckQueue(q); err != nil {
			return err
		}
		queues[q] = river.QueueConfig{MaxWorkers: cfg.Workers}
	}
	driver := riverpgxv5.New(db.Pool)
	client, err := river.NewClient(driver, &river.Config{
		Queues:               queues,
		Workers:              workers,
		FetchCooldown:        FetchCooldown,
		FetchPollInterval:    FetchPollInterval,
		JobTimeout:           -1,
		RescueStuckJobsAfter: cfg.RescueAfter,
		MaxAttempts:          MaxAttempts,
		RetryPolicy:          retryPolicy{},
		SoftStopTimeout:      max(cfg.StopTimeout, time.Millisecond),
		Logger:               slog.New(slog.NewTextHandler(cfg.Log, &slog.HandlerOptions{Level: slog.LevelWarn})),
	})
	if err != nil {
		return err
	}
	bw.clientID = client.ID()
	if err := client.Start(context.WithoutCancel(ctx)); err != nil {
		return err
	}
	fmt.Fprintf(cfg.Log, "worker %s: serving queues %v with %d slots on %s; a batch running %s is rescued\n",
		client.ID(), cfg.Queues, cfg.Workers, db.Where(), cfg.RescueAfter)
	if cfg.Ready != nil {
		cfg.Ready(client.ID())
	}
	rescueDone := make(chan struct{})
	go func() {
		defer close(rescueDone)
		rescueLoop(ctx, driver, cfg.RescueAfter, cfg.Log)
	}()
	<-ctx.Done()
	fmt.Fprintf(cfg.Log, "worker %s: stopping; batches in progress get %s to finish, then go back to the queue\n", client.ID(), cfg.StopTimeout)
	err = client.Stop(context.Background())
	<-rescueDone
	fmt.Fprintf(cfg.Log, "worker %s: stopped\n", client.ID())
	return err
}

// retryPolicy retries a failed batch after a second per attempt, up to 30
// seconds (River's default waits attempt⁴ seconds: hours after a few
// kills, while a batch fails for a dead worker, not for load).
type retryPolicy struct{}

func (retryPolicy) NextRetry(job *rivertype.JobRow) time.Time {
	return time.Now().Add(time.Duration(min(job.Attempt, 30)) * time.Second)
}

// batchWorker is the River worker of batches.
type batchWorker struct {
	river.WorkerDefaults[BatchArgs]
	db       *DB
	reg      *strategies.Registry
	cfg      WorkerConfig
	clientID string
	limiter  *botLimiter

	mu   sync.Mutex
	runs map[int64]*loadedRun
}

// errStale is the refusal of a late completion.
var errStale = errors.New("late completion rejected")

// Work plays one batch and records it.
func (w *batchWorker) Work(ctx context.Context, job *river.Job[BatchArgs]) error {
	start := time.Now()
	a := job.Args
	run, jobs, cancelled, err := w.load(ctx, a.Run, a.Batch)
	loaded := time.Since(start)
	if err != nil {
		return fmt.Errorf("run %d batch %d: %w", a.Run, a.Batch, err)
	}
	if cancelled {
		fmt.Fprintf(w.cfg.Log, "run %d batch %d: the run was cancelled; dropped\n", a.Run, a.Batch)
		return river.JobCancel(fmt.Errorf("run %d was cancelled", a.Run))
	}
	game := run.gameName
	m := w.cfg.Metrics
	if m != nil {
		m.Running.Inc()
		defer m.Running.Dec()
	}
	fmt.Fprintf(w.cfg.Log, "run %d batch %d/%d (%d matches) attempt %d: playing\n", a.Run, a.Batch+1, run.batches, len(jobs), job.Attempt)
	res, err := w.play(ctx, run, jobs)
	res.jobs = jobs
	playing := time.Since(start) - loaded
	if ctx.Err() != nil {
		if m != nil {
			m.Returned.WithLabelValues(game).Inc()
		}
		fmt.Fprintf(w.cfg.Log, "run %d batch %d: stopped after %d of %d matches; handed back to the queue\n", a.Run, a.Batch+1, res.matches, len(jobs))
		return river.JobSnooze(0)
	}
	if err == nil {
		err = w.complete(ctx, job, res, time.Since(start))
	}
	recording := time.Since(start) - loaded - playing
	switch {
	case errors.Is(err, errStale):
		if m != nil {
			m.Rejected.WithLabelValues(game).Inc()
		}
		fmt.Fprintf(w.cfg.Log, "run %d batch %d attempt %d: %v\n", a.Run, a.Batch+1, job.Attempt, err)
		w.waitSuperseded(ctx, job)
		return err
	case err != nil:
		if m != nil {
			m.BatchFailures.WithLabelValues(game).Inc()
		}
		fmt.Fprintf(w.cfg.Log, "run %d batch %d attempt %d failed: %v\n", a.Run, a.Batch+1, job.Attempt, err)
		return err
	}
	took := time.Since(start)
	if m != nil {
		m.Matches.WithLabelValues(game).Add(float64(res.matches))
		m.MatchFailures.WithLabelValues(game).Add(float64(res.failed))
		m.BatchSeconds.WithLabelValues(game).Observe(took.Seconds())
	}
	fmt.Fprintf(w.cfg.Log, "run %d batch %d/%d attempt %d: recorded %d matches in %s (loading %s, playing %s, recording %s)\n",
		a.Run, a.Batch+1, run.batches, job.Attempt, res.matches, took, loaded, playing, recording)
	return nil
}

// complete records the batch's results and completes its River job in one
// transaction, after checking under a row lock that the job is still this
// attempt's: running, with the attempt number and start time this worker
// was handed. River's JobCompleteTx alone would complete a job that was
// rescued and is running again under another worker (it checks only that
// the job is running), and a stale worker's results would then count
// beside the new attempt's. The results' primary key (run, batch) refuses
// a second row for a batch in any case.
func (w *batchWorker) complete(ctx context.Context, job *river.Job[BatchArgs], res played, took time.Duration) error {
	packed, err := encodeRecords(res.records, res.jobs)
	if err != nil {
		return err
	}
	records, err := compress(packed)
	if err != nil {
		return err
	}
	tx, err := w.db.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	var state string
	var attempt int
	var attemptedAt *time.Time
	err = tx.QueryRow(ctx, "SELECT state::text, attempt, attempted_at FROM river_job WHERE id = $1 FOR UPDATE", job.ID).Scan(&state, &attempt, &attemptedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("%w: River job %d is gone", errStale, job.ID)
	}
	if err != nil {
		return err
	}
	if state != string(rivertype.JobStateRunning) || attempt != job.Attempt || attemptedAt == nil || job.AttemptedAt == nil || !attemptedAt.Equal(*job.AttemptedAt) {
		return fmt.Errorf("%w: the batch was rescued and is now attempt %d, %s", errStale, attempt, state)
	}
	tag, err := tx.Exec(ctx, `INSERT INTO queue_results (run, batch, river_job, attempt, worker, matches, failed, seconds, records)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (run, batch) DO NOTHING`,
		job.Args.Run, job.Args.Batch, job.ID, job.Attempt, w.clientID, res.matches, res.failed, took.Seconds(), records)
	if err != nil {
		return fmt.Errorf("recording the results: %w", err)
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("%w: the batch's results are already recorded", errStale)
	}
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", notifyChannel, fmt.Sprint(job.Args.Run)); err != nil {
		return err
	}
	if _, err := river.JobCompleteTx[*riverpgxv5.Driver](ctx, tx, job); err != nil {
		return fmt.Errorf("completing River job %d: %w", job.ID, err)
	}
	return tx.Commit(ctx)
}

// waitSuperseded waits, after a rejected completion, while another attempt
// of the batch is running (for at most RescueAfter). The error this
// attempt then returns makes River set the job retryable if it is running,
// whoever runs it; waiting for the other attempt to end first keeps that
// from cutting it off. (Were it cut off, its own completion would be
// rejected and the batch played once more: wasted work, never a result
// lost or counted twice.)
func (w *batchWorker) waitSuperseded(ctx context.Context, job *river.Job[BatchArgs]) {
	deadline := time.Now().Add(w.cfg.RescueAfter)
	for time.Now().Before(deadline) {
		var state string
		var attempt int
		err := w.db.Pool.QueryRow(ctx, "SELECT state::text, attempt FROM river_job WHERE id = $1", job.ID).Scan(&state, &attempt)
		if err != nil || state != string(rivertype.JobStateRunning) || attempt == job.Attempt {
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(250 * time.Millisecond):
		}
	}
}

// gzipWriters and gzipReaders keep gzip's state between batches: a new
// writer allocates and clears about a megabyte of tables, which cost as
// much as compressing a 1,200-match batch (BenchmarkCodec).
var (
	gzipWriters = sync.Pool{New: func() any {
		zw, _ := gzip.NewWriterLevel(nil, gzip.BestSpeed)
		return zw
	}}
	gzipReaders sync.Pool // of *gzip.Reader
)

// compress gzips a batch's compact records at the fastest level.
func compress(data []byte) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(data)/2 + 64)
	zw := gzipWriters.Get().(*gzip.Writer)
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// decompress reverses compress.
func decompress(data []byte) ([]byte, error) {
	zr, _ := gzipReaders.Get().(*gzip.Reader)
	var err error
	if zr == nil {
		zr, err = gzip.NewReader(bytes.NewReader(data))
	} else {
		err = zr.Reset(bytes.NewReader(data))
	}
	if err != nil {
		return nil, err
	}
	defer gzipReaders.Put(zr)
	out := bytes.NewBuffer(make([]byte, 0, 3*len(data)))
	if _, err := out.ReadFrom(zr); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}
