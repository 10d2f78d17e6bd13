package queue

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"

	"crucible/arena"
	"crucible/engine"
)

// DefaultQueue is the River queue runs go to and workers serve unless told
// otherwise.
const DefaultQueue = "matches"

// MaxAttempts is how many times River hands out one batch (a worker killed
// or stalled past --rescue-after, an error) before it gives up on it and
// discards it; the run then reports the batch as lost.
const MaxAttempts = 25

// BatchArgs are the arguments of a River job: one batch of a run. Its
// matches live in queue_batches, so River's rows stay small.
type BatchArgs struct {
	Run     int64 `json:"run"`
	Batch   int   `json:"batch"`
	Matches int   `json:"matches"`
}

// BatchKind is the River job kind of a batch.
const BatchKind = "crucible_batch"

// Kind is the River job kind.
func (BatchArgs) Kind() string { return BatchKind }

// Run is a run to submit: an arena schedule and the entrants it seats.
type Run struct {
	// Label names the run in listings (the command and its --out, say).
	Label string
	// Game is the game's rules.
	Game engine.Game
	// Config is the game configuration (nil: the game's defaults).
	Config any
	// Entrants are the specs of the entrants the jobs' seats index.
	Entrants []EntrantSpec
	// Jobs are the matches, cut into batches of BatchSize in order.
	Jobs []arena.Job
	// BatchSize is the number of matches in a batch (see BatchSize).
	BatchSize int
	// Queue is the River queue ("" means DefaultQueue).
	Queue string
}

// queueName is River's rule for queue names.
var queueName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,127}$`)

// CheckQueue checks a queue name.
func CheckQueue(name string) error {
	if !queueName.MatchString(name) {
		return fmt.Errorf("queue name %q: want lower-case letters, digits, '_' and '-', at most 128", name)
	}
	return nil
}

// Submit stores the run and enqueues its batches, all in one transaction,
// and returns the run's id.
func Submit(ctx context.Context, db *DB, r Run) (int64, error) {
	if r.BatchSize < 1 {
		return 0, fmt.Errorf("batch size %d: want at least 1 match", r.BatchSize)
	}
	if len(r.Jobs) == 0 {
		return 0, fmt.Errorf("run %q has no matches to play", r.Label)
	}
	var batches [][]arena.Job
	for i := 0; i < len(r.Jobs); i += r.BatchSize {
		batches = append(batches, r.Jobs[i:min(i+r.BatchSize, len(r.Jobs))])
	}
	return submitBatches(ctx, db, r, batches)
}

// submitBatches stores the run with the given batches (empty batches are
// the no-op batches of the capacity measurement).
func submitBatches(ctx context.Context, db *DB, r Run, batches [][]arena.Job) (int64, error) {
	if r.Queue == "" {
		r.Queue = DefaultQueue
	}
	if err := CheckQueue(r.Queue); err != nil {
		return 0, err
	}
	cfgID, err := arena.ConfigID(r.Game, r.Config)
	if err != nil {
		return 0, err
	}
	var cfg *string
	if r.Config != nil {
		data, err := json.Marshal(r.Config)
		if err != nil {
			return 0, fmt.Errorf("encoding the %s configuration: %w", r.Game.Name(), err)
		}
		s := string(data)
		cfg = &s
	}
	ents, err := json.Marshal(r.Entrants)
	if err != nil {
		return 0, err
	}
	matches := 0
	for _, b := range batches {
		matches += len(b)
	}
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback(ctx)
	var id int64
	err = tx.QueryRow(ctx, `INSERT INTO queue_runs (label, game, config, config_id, entrants, matches, batches, batch_size, queue)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
		r.Label, r.Game.Name(), cfg, cfgID, string(ents), matches, len(batches), r.BatchSize, r.Queue).Scan(&id)
	if err != nil {
		return 0, fmt.Errorf("storing the run: %w", err)
	}
	rows := make([][]any, len(batches))
	params := make([]river.InsertManyParams, len(batches))
	for i, b := range batches {
		text, err := encodeJobs(b)
		if err != nil {
			return 0, err
		}
		rows[i] = []any{id, i, text}
		params[i] = river.InsertManyParams{
			Args:       BatchArgs{Run: id, Batch: i, Matches: len(b)},
			InsertOpts: &river.InsertOpts{Queue: r.Queue, MaxAttempts: MaxAttempts},
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"queue_batches"}, []string{"run", "batch", "jobs"}, pgx.CopyFromRows(rows)); err != nil {
		return 0, fmt.Errorf("storing the batches: %w", err)
	}
	if _, err := db.river.InsertManyFastTx(ctx, tx, params); err != nil {
		return 0, fmt.Errorf("enqueueing the batches: %w", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, err
	}
	return id, nil
}
