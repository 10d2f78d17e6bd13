package queue

import (
	"context"
	"encoding/json"
	"fmt"

	"crucible/arena"
	"crucible/engine"
)

// loadedRun is a run as a worker plays it, built once per run and kept
// while the worker serves it.
type loadedRun struct {
	gameName string
	game     engine.Game
	config   any
	entrants []arena.Entrant
	remote   bool // some entrant is a remote bot
	batches  int
}

// maxCachedRuns is how many runs a worker keeps built.
const maxCachedRuns = 16

// load returns the run (built on first use) and the batch's jobs, and
// whether the run was cancelled.
func (w *batchWorker) load(ctx context.Context, runID int64, batch int) (*loadedRun, []arena.Job, bool, error) {
	var state, jobsText string
	err := w.db.Pool.QueryRow(ctx, `SELECT r.state, b.jobs FROM queue_runs r JOIN queue_batches b ON b.run = r.id
		WHERE r.id = $1 AND b.batch = $2`, runID, batch).Scan(&state, &jobsText)
	if err != nil {
		return nil, nil, false, fmt.Errorf("loading the batch: %w", err)
	}
	if state == "cancelled" {
		return nil, nil, true, nil
	}
	jobs, err := decodeJobs(jobsText)
	if err != nil {
		return nil, nil, false, fmt.Errorf("decoding the batch's jobs: %w", err)
	}
	w.mu.Lock()
	run, ok := w.runs[runID]
	w.mu.Unlock()
	if ok {
		return run, jobs, false, nil
	}
	run, err = w.build(ctx, runID)
	if err != nil {
		return nil, nil, false, err
	}
	w.mu.Lock()
	if len(w.runs) >= maxCachedRuns {
		for id := range w.runs {
			delete(w.runs, id)
			break
		}
	}
	w.runs[runID] = run
	w.mu.Unlock()
	return run, jobs, false, nil
}

// build reads a run's game, configuration and entrants and builds them.
func (w *batchWorker) build(ctx context.Context, runID int64) (*loadedRun, error) {
	var gameName, entrantsText string
	var cfgText *string
	var batches int
	err := w.db.Pool.QueryRow(ctx, "SELECT game, config, entrants, batches FROM queue_runs WHERE id = $1", runID).
		Scan(&gameName, &cfgText, &entrantsText, &batches)
	if err != nil {
		return nil, fmt.Errorf("loading run %d: %w", runID, err)
	}
	rules, err := w.cfg.Games.Rules(gameName)
	if err != nil {
		return nil, fmt.Errorf("run %d: %w", runID, err)
	}
	run := &loadedRun{gameName: gameName, game: rules, batches: batches}
	if cfgText != nil {
		if run.config, err = rules.ParseConfig([]byte(*cfgText)); err != nil {
			return nil, fmt.Errorf("run %d: its %s configuration: %w", runID, gameName, err)
		}
	}
	var specs []EntrantSpec
	if err := json.Unmarshal([]byte(entrantsText), &specs); err != nil {
		return nil, fmt.Errorf("run %d: decoding its entrants: %w", runID, err)
	}
	if run.entrants, err = Build(w.cfg.Games, w.reg, gameName, specs, w.cfg.Secret); err != nil {
		return nil, fmt.Errorf("run %d: %w", runID, err)
	}
	for _, sp := range specs {
		run.remote = run.remote || sp.Strategy == RemoteStrategy
	}
	return run, nil
}

// played is a batch's outcome: its records, in the order they finished.
type played struct {
	jobs    []arena.Job
	records []arena.Record
	matches int
	failed  int
}

// play plays a batch's jobs one after another with the arena's own code
// (arena.Run on one core: the same records as a local arena, at any worker
// count). A batch that seats a remote bot is played match by match, each
// match holding a slot of each of its bots (see botLimiter).
func (w *batchWorker) play(ctx context.Context, run *loadedRun, jobs []arena.Job) (played, error) {
	var res played
	res.records = make([]arena.Record, 0, len(jobs))
	emit := func(r arena.Record) error {
		res.records = append(res.records, r)
		res.matches++
		if r.Error != "" {
			res.failed++
		}
		return nil
	}
	opt := arena.Options{Workers: 1, Config: run.config}
	if !run.remote {
		return res, arena.Run(ctx, run.game, run.entrants, jobs, opt, emit)
	}
	for _, j := range jobs {
		release, err := w.limiter.acquire(ctx, remoteURLs(run.entrants, j))
		if err != nil {
			return res, err
		}
		err = arena.Run(ctx, run.game, run.entrants, []arena.Job{j}, opt, emit)
		release()
		if err != nil {
			return res, err
		}
	}
	return res, nil
}
