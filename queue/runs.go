package queue

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"crucible/arena"
)

// RunInfo is a run's state and progress.
type RunInfo struct {
	ID        int64
	Label     string
	Game      string
	ConfigID  string
	Queue     string
	State     string // "open" or "cancelled"
	Matches   int
	Batches   int
	BatchSize int
	Created   time.Time
	// DoneBatches and DoneMatches are the batches recorded and their
	// matches; Failed counts the recorded matches that failed.
	DoneBatches int
	DoneMatches int
	Failed      int
	// Lost counts batches River gave up on (discarded after MaxAttempts
	// attempts), LostError the last error of one of them.
	Lost      int
	LostError string
	// Entrants are the run's entrants (Status only, not List).
	Entrants []EntrantSpec
}

// Complete tells whether every batch is recorded.
func (r RunInfo) Complete() bool { return r.DoneBatches == r.Batches }

// Status is the run's state for listings: complete, cancelled, lost
// (some batch was given up) or open.
func (r RunInfo) Status() string {
	switch {
	case r.Complete():
		return "complete"
	case r.State == "cancelled":
		return "cancelled"
	case r.Lost > 0:
		return "lost"
	}
	return "open"
}

// ErrNoRun is returned for a run id the database does not hold.
var ErrNoRun = errors.New("no such run")

const runCols = `r.id, r.label, r.game, r.config_id, r.queue, r.state, r.matches, r.batches, r.batch_size, r.created_at,
	(SELECT count(*) FROM queue_results q WHERE q.run = r.id),
	(SELECT coalesce(sum(q.matches), 0) FROM queue_results q WHERE q.run = r.id),
	(SELECT coalesce(sum(q.failed), 0) FROM queue_results q WHERE q.run = r.id)`

func scanRun(row pgx.Row) (RunInfo, error) {
	var r RunInfo
	err := row.Scan(&r.ID, &r.Label, &r.Game, &r.ConfigID, &r.Queue, &r.State, &r.Matches, &r.Batches, &r.BatchSize, &r.Created,
		&r.DoneBatches, &r.DoneMatches, &r.Failed)
	return r, err
}

// Status returns one run's state, progress and entrants.
func Status(ctx context.Context, db *DB, id int64) (RunInfo, error) {
	r, err := scanRun(db.Pool.QueryRow(ctx, "SELECT "+runCols+" FROM queue_runs r WHERE r.id = $1", id))
	if errors.Is(err, pgx.ErrNoRows) {
		return RunInfo{}, fmt.Errorf("run %d: %w in %s", id, ErrNoRun, db.Where())
	}
	if err != nil {
		return RunInfo{}, err
	}
	var ents string
	if err := db.Pool.QueryRow(ctx, "SELECT entrants FROM queue_runs WHERE id = $1", id).Scan(&ents); err != nil {
		return RunInfo{}, err
	}
	if err := json.Unmarshal([]byte(ents), &r.Entrants); err != nil {
		return RunInfo{}, fmt.Errorf("run %d: decoding its entrants: %w", id, err)
	}
	if err := lost(ctx, db, &r); err != nil {
		return RunInfo{}, err
	}
	return r, nil
}

// lost fills in the batches of r that River discarded.
func lost(ctx context.Context, db *DB, r *RunInfo) error {
	if r.Complete() {
		return nil
	}
	var last *string
	err := db.Pool.QueryRow(ctx, `SELECT count(*), max(errors[array_length(errors, 1)]->>'error') FROM river_job
		WHERE kind = $1 AND state = 'discarded' AND (args->>'run')::bigint = $2`, BatchKind, r.ID).Scan(&r.Lost, &last)
	if last != nil {
		r.LostError = *last
	}
	return err
}

// List returns the runs, newest first, at most limit (0: all).
func List(ctx context.Context, db *DB, limit int) ([]RunInfo, error) {
	q := "SELECT " + runCols + " FROM queue_runs r ORDER BY r.id DESC"
	if limit > 0 {
		q += fmt.Sprintf(" LIMIT %d", limit)
	}
	rows, err := db.Pool.Query(ctx, q)
	if err != nil {
		return nil, err
	}
	var out []RunInfo
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		out = append(out, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for i := range out {
		if err := lost(ctx, db, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// Cancel cancels a run: workers drop its batches not yet taken, and
// River's waiting jobs of it are cancelled. Batches being played finish
// and are recorded. Cancelling a complete run is an error.
func Cancel(ctx context.Context, db *DB, id int64) error {
	r, err := Status(ctx, db, id)
	if err != nil {
		return err
	}
	if r.Complete() {
		return fmt.Errorf("run %d is complete: nothing to cancel", id)
	}
	tx, err := db.Pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "UPDATE queue_runs SET state = 'cancelled' WHERE id = $1", id); err != nil {
		return err
	}
	rows, err := tx.Query(ctx, `SELECT id FROM river_job WHERE kind = $1 AND (args->>'run')::bigint = $2
		AND state IN ('available', 'scheduled', 'retryable', 'pending')`, BatchKind, id)
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return err
	}
	for _, jid := range ids {
		if _, err := db.river.JobCancelTx(ctx, tx, jid); err != nil {
			return fmt.Errorf("cancelling River job %d of run %d: %w", jid, id, err)
		}
	}
	return tx.Commit(ctx)
}

// Holder is a run of the queue that holds jobs of a schedule (see Holding).
type Holder struct {
	ID int64
	// Jobs are the ids of the schedule's jobs the run holds and no older
	// holder does.
	Jobs []string
}

// Holding finds the runs that already hold jobs of r, so that a submitter
// killed while it followed its run re-attaches to it rather than
// submitting the same matches again: runs of the same game, configuration
// and entrants (by their stored specs), neither cancelled nor with a batch
// given up, whose batches hold a job with the same id, round, seed and
// seats as one of r.Jobs (those play the same match to the byte). It
// returns them oldest first, each job counted for the oldest run that
// holds it, and the jobs of r no run holds, in r's order: what is left to
// submit.
func Holding(ctx context.Context, db *DB, r Run) ([]Holder, []arena.Job, error) {
	cfgID, err := arena.ConfigID(r.Game, r.Config)
	if err != nil {
		return nil, nil, err
	}
	ents, err := json.Marshal(r.Entrants)
	if err != nil {
		return nil, nil, err
	}
	want := make(map[string]int, len(r.Jobs)) // a job's line in queue_batches -> its index
	for i, j := range r.Jobs {
		line, err := encodeJobs([]arena.Job{j})
		if err != nil {
			return nil, nil, err
		}
		want[strings.TrimSuffix(line, "\n")] = i
	}
	rows, err := db.Pool.Query(ctx, `SELECT r.id FROM queue_runs r WHERE r.game = $1 AND r.config_id = $2 AND r.entrants = $3
		AND r.state = 'open' ORDER BY r.id`, r.Game.Name(), cfgID, string(ents))
	if err != nil {
		return nil, nil, err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return nil, nil, err
	}
	held := make([]bool, len(r.Jobs))
	var out []Holder
	for _, id := range ids {
		info, err := Status(ctx, db, id)
		if err != nil {
			return nil, nil, err
		}
		if info.Lost > 0 {
			continue // its lost matches would never arrive: submit them again
		}
		rows, err := db.Pool.Query(ctx, "SELECT jobs FROM queue_batches WHERE run = $1 ORDER BY batch", id)
		if err != nil {
			return nil, nil, err
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			return nil, nil, err
		}
		h := Holder{ID: id}
		for _, text := range texts {
			for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
				if i, ok := want[line]; ok && !held[i] {
					held[i] = true
					h.Jobs = append(h.Jobs, r.Jobs[i].ID)
				}
			}
		}
		if len(h.Jobs) > 0 {
			out = append(out, h)
		}
	}
	var rest []arena.Job
	for i, j := range r.Jobs {
		if !held[i] {
			rest = append(rest, j)
		}
	}
	return out, rest, nil
}
