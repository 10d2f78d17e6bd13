package queue

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/strategies"
)

// FollowToFile follows the run into the results file at path, as the
// local arena writes it: an existing file is continued (a half-written
// last line cut off, see arena.OpenResults) and only the results it lacks
// are appended, so following a run again after a kill finishes the same
// file. onRecord, when set, sees every record appended; progress as in
// Follow. It returns the number of records appended.
func FollowToFile(ctx context.Context, db *DB, runID int64, path string, onRecord func(arena.Record), progress func(done, total int)) (int, error) {
	w, prev, err := arena.OpenResults(path, true)
	if err != nil {
		return 0, err
	}
	defer w.Close()
	seen := NewSeen(prev.Records)
	err = Follow(ctx, db, runID, seen, func(r arena.Record) error {
		if err := w.Write(r); err != nil {
			return err
		}
		if onRecord != nil {
			onRecord(r)
		}
		return nil
	}, progress)
	return w.Written(), err
}

// Runner plays arena jobs through the queue: Run has arena.Run's
// signature, so a caller that takes a match runner (the evolver, the
// ladder) plays on the workers instead of in its own process by taking
// Runner.Run instead of arena.Run.
type Runner struct {
	DB *DB
	// Games are the games the runs play (required): the workers rebuild
	// the entrants by name from the same table.
	Games Games
	// Registry rebuilds strategies by name (nil: every game's, from
	// Games).
	Registry *strategies.Registry
	// Queue is the River queue ("" means DefaultQueue).
	Queue string
	// BatchSize is the number of matches per batch; 0 measures the match
	// rate (Calibrate) and sizes batches from it (BatchSize).
	BatchSize int
	// Label names the runs in listings.
	Label string
	// Log, when set, receives a line per run submitted.
	Log io.Writer

	mu       sync.Mutex
	perMatch time.Duration // measured on the first call
}

// Run submits jobs as one run (batches sized from the match rate measured
// on the first call, unless BatchSize is set) and emits its records as workers record
// them, until every job is done. opt.Workers is ignored (the workers
// decide), opt.ReplayDir is refused (workers do not share a file
// system), opt.Progress is called as batches arrive. When Run returns
// before the run is complete (ctx ended, emit failed), the run is
// cancelled: a caller of Run cannot re-attach to it.
func (q *Runner) Run(ctx context.Context, g engine.Game, entrants []arena.Entrant, jobs []arena.Job, opt arena.Options, emit func(arena.Record) error) error {
	if opt.ReplayDir != "" {
		return errors.New("replays cannot be kept when matches play on the queue's workers")
	}
	if err := arena.Validate(g, entrants, jobs); err != nil {
		return err
	}
	if len(jobs) == 0 {
		return ctx.Err()
	}
	reg := q.Registry
	if reg == nil {
		if q.Games == nil {
			return errors.New("queue: Runner.Games is nil: a runner needs the table of games")
		}
		var err error
		if reg, err = q.Games.Registry(); err != nil {
			return err
		}
	}
	specs, err := Specs(reg, g.Name(), entrants)
	if err != nil {
		return err
	}
	size := q.BatchSize
	if size <= 0 {
		q.mu.Lock()
		per := q.perMatch
		q.mu.Unlock()
		if per == 0 {
			if per, err = Calibrate(ctx, g, opt.Config, entrants, jobs); err != nil {
				return fmt.Errorf("measuring the match rate: %w", err)
			}
			q.mu.Lock()
			q.perMatch = per
			q.mu.Unlock()
		}
		size = BatchSize(len(jobs), per)
	}
	label := q.Label
	if label == "" {
		label = fmt.Sprintf("%s: %d matches", g.Name(), len(jobs))
	}
	id, err := Submit(ctx, q.DB, Run{Label: label, Game: g, Config: opt.Config, Entrants: specs, Jobs: jobs, BatchSize: size, Queue: q.Queue})
	if err != nil {
		return err
	}
	if q.Log != nil {
		fmt.Fprintf(q.Log, "run %d: %d matches in batches of %d on queue %s of %s\n", id, len(jobs), size, q.queue(), q.DB.Where())
	}
	err = Follow(ctx, q.DB, id, nil, emit, opt.Progress)
	if err != nil && !errors.Is(err, ErrCancelled) {
		if cerr := Cancel(context.WithoutCancel(ctx), q.DB, id); cerr != nil && q.Log != nil {
			fmt.Fprintf(q.Log, "run %d: cancelling it: %v\n", id, cerr)
		}
	}
	return err
}

func (q *Runner) queue() string {
	if q.Queue == "" {
		return DefaultQueue
	}
	return q.Queue
}
