package queue

import (
	"context"
	"errors"
	"fmt"
	"time"

	"crucible/arena"
)

// notifyChannel is the PostgreSQL channel a worker notifies, with the run
// id, when it records a batch; followers listen to it and poll besides.
const notifyChannel = "crucible_queue_results"

// ErrCancelled is returned by Follow for a cancelled run.
var ErrCancelled = errors.New("the run was cancelled")

// Seen is what a results file already holds of a run, so that following
// the run again writes only what the file lacks: a record is skipped when
// the file has its job finished, or when it failed and the file has the
// job's failure too.
type Seen struct {
	done, failed map[string]bool
}

// NewSeen indexes the records of a results file.
func NewSeen(records []arena.Record) *Seen {
	s := &Seen{done: map[string]bool{}, failed: map[string]bool{}}
	for _, r := range records {
		if r.Error == "" {
			s.done[r.Job] = true
		} else {
			s.failed[r.Job] = true
		}
	}
	return s
}

// Skip tells whether r is in the file already.
func (s *Seen) Skip(r arena.Record) bool {
	if s == nil {
		return false
	}
	return s.done[r.Job] || (r.Error != "" && s.failed[r.Job])
}

// Follow calls emit for every recorded result of the run, batch by batch
// as workers record them (in no particular order), the records s skips
// excepted, until every batch is recorded. It returns ErrCancelled for a
// cancelled run, an error naming the lost batches when River gave up on
// one, emit's error, or ctx's when ctx ends (the run goes on: following it
// again resumes). progress, when set, is called after each batch with the
// run's recorded and total matches.
func Follow(ctx context.Context, db *DB, runID int64, s *Seen, emit func(arena.Record) error, progress func(done, total int)) error {
	info, err := Status(ctx, db, runID)
	if err != nil {
		return err
	}
	listen, err := db.Pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer listen.Release()
	if _, err := listen.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	defer listen.Exec(context.WithoutCancel(ctx), "UNLISTEN "+notifyChannel)
	have := map[int]bool{}
	matches := 0
	lastCheck := time.Now()
	for {
		rows, err := db.Pool.Query(ctx, "SELECT batch FROM queue_results WHERE run = $1", runID)
		if err != nil {
			return err
		}
		var fresh []int32
		for rows.Next() {
			var b int32
			if err := rows.Scan(&b); err != nil {
				rows.Close()
				return err
			}
			if !have[int(b)] {
				fresh = append(fresh, b)
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for len(fresh) > 0 {
			part := fresh[:min(len(fresh), 32)]
			fresh = fresh[len(part):]
			n, err := emitBatches(ctx, db, info, part, s, emit)
			if err != nil {
				return err
			}
			for _, b := range part {
				have[int(b)] = true
			}
			matches += n
			if progress != nil {
				progress(matches, info.Matches)
			}
		}
		if len(have) == info.Batches {
			return nil
		}
		if time.Since(lastCheck) >= 2*time.Second {
			lastCheck = time.Now()
			st, err := Status(ctx, db, runID)
			if err != nil {
				return err
			}
			if st.State == "cancelled" {
				return fmt.Errorf("run %d: %w", runID, ErrCancelled)
			}
			if st.Lost > 0 {
				return fmt.Errorf("run %d: %d batches were given up after %d attempts each (last error: %s)", runID, st.Lost, MaxAttempts, st.LostError)
			}
		}
		wait, cancel := context.WithTimeout(ctx, time.Second)
		_, err = listen.Conn().WaitForNotification(wait)
		timedOut := wait.Err() != nil
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if err != nil && !timedOut {
			return err
		}
	}
}

// emitBatches reads the recorded results of batches of the run and
// emits their records (those s skips excepted); it returns the number of
// records read.
func emitBatches(ctx context.Context, db *DB, run RunInfo, batches []int32, s *Seen, emit func(arena.Record) error) (int, error) {
	refs := make([]arena.PlayerRef, len(run.Entrants))
	for i, e := range run.Entrants {
		refs[i] = arena.PlayerRef{Name: e.Name, Strategy: e.Strategy, VariantID: e.VariantID}
	}
	rows, err := db.Pool.Query(ctx, `SELECT q.batch, q.records, b.jobs FROM queue_results q
		JOIN queue_batches b ON b.run = q.run AND b.batch = q.batch
		WHERE q.run = $1 AND q.batch = ANY($2) ORDER BY q.batch`, run.ID, batches)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	n := 0
	for rows.Next() {
		var b int32
		var packed []byte
		var jobsText string
		if err := rows.Scan(&b, &packed, &jobsText); err != nil {
			return n, err
		}
		recs, err := decodeBatch(packed, jobsText, run, refs)
		if err != nil {
			return n, fmt.Errorf("run %d batch %d: %w", run.ID, b+1, err)
		}
		for _, r := range recs {
			n++
			if s.Skip(r) {
				continue
			}
			if err := emit(r); err != nil {
				return n, err
			}
		}
	}
	return n, rows.Err()
}

// decodeBatch rebuilds a recorded batch's records.
func decodeBatch(packed []byte, jobsText string, run RunInfo, refs []arena.PlayerRef) ([]arena.Record, error) {
	data, err := decompress(packed)
	if err != nil {
		return nil, err
	}
	jobs, err := decodeJobs(jobsText)
	if err != nil {
		return nil, err
	}
	return decodeRecords(data, jobs, run.Game, run.ConfigID, refs)
}
