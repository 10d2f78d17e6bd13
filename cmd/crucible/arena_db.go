package main

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
	"crucible/queue"
	"crucible/reports"
)

// maxBatch is the largest --batch.
const maxBatch = 10_000_000

// addArenaDBFlags adds the flags of the distributed arena.
func addArenaDBFlags(fl *pflag.FlagSet, f *arenaFlags) {
	fl.StringVar(&f.db, "db", "", `PostgreSQL work queue, postgres://USER@HOST:PORT/DB: enqueue the matches for crucible worker processes
instead of playing them here; results still stream to --out. Ctrl-C detaches (the run goes on; crucible runs watch re-attaches)`)
	fl.IntVar(&f.batch, "batch", 0, fmt.Sprintf("--db: matches per batch (one queue job), 1 to %d; 0 sizes batches to about %s of one core's work from the match rate measured here",
		maxBatch, queue.BatchTarget))
	fl.StringVar(&f.queue, "queue", queue.DefaultQueue, "--db: the queue the batches go to (crucible worker --queues)")
}

// playArenaDB plays the checked schedule on the queue's workers: it
// enqueues the matches --out lacks as one run, follows the run into --out
// as the workers record its batches, then prints the leaderboard as the
// local arena does.
func playArenaDB(cmd *cobra.Command, f arenaFlags, game engine.Game, cfg any, entrants []arena.Entrant, jobs []arena.Job, format reports.Format) error {
	stderr := cmd.ErrOrStderr()
	if !queue.IsURL(f.db) {
		return fmt.Errorf("--db %q: the arena's queue lives in PostgreSQL; give a postgres:// URL", f.db)
	}
	if f.replays != "" {
		return errors.New("--replays cannot be kept with --db: the matches play on the workers' machines")
	}
	if cmd.Flags().Changed("workers") {
		return errors.New("--workers applies to the local arena; with --db the matches play on crucible worker processes (crucible worker --workers)")
	}
	if f.batch < 0 || f.batch > maxBatch {
		return fmt.Errorf("--batch %d is outside its range [0, %d]", f.batch, maxBatch)
	}
	if err := queue.CheckQueue(f.queue); err != nil {
		return fmt.Errorf("--queue: %w", err)
	}
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	specs, err := queue.Specs(reg, game.Name(), entrants)
	if err != nil {
		return fmt.Errorf("--players: %w", err)
	}
	_, statErr := os.Stat(f.out)
	created := errors.Is(statErr, os.ErrNotExist)
	w, prev, err := arena.OpenResults(f.out, f.resume)
	if errors.Is(err, arena.ErrResultsExist) {
		return fmt.Errorf("--out %w; refusing to overwrite it: add --resume to continue it, or choose another --out", err)
	}
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	w.Close()
	for _, warn := range prev.Warnings {
		fmt.Fprintln(stderr, "warning:", warn)
	}
	discard := func() {
		if info, err := os.Stat(f.out); created && err == nil && info.Size() == 0 {
			os.Remove(f.out)
		}
	}
	todo, err := arena.Remaining(game, cfg, jobs, entrants, prev.Records)
	if err != nil {
		discard()
		return fmt.Errorf("--resume %s: %w", f.out, err)
	}
	var col arena.Collector
	for _, r := range prev.Records {
		if r.Error == "" {
			col.Add(r)
		}
	}
	if len(prev.Records) > 0 {
		fmt.Fprintf(stderr, "resuming %s: %d of %d matches done, %d to play\n", f.out, col.Matches, len(jobs), len(todo))
	}
	prev.Records = nil
	played := 0
	var elapsed time.Duration
	if len(todo) > 0 {
		ctx := cmd.Context()
		db, err := queue.Open(ctx, f.db, 4)
		if err != nil {
			discard()
			return fmt.Errorf("--db: %w", err)
		}
		defer db.Close()
		size := f.batch
		if size == 0 {
			per, err := queue.Calibrate(ctx, game, cfg, entrants, todo)
			if err != nil {
				discard()
				return fmt.Errorf("measuring the match rate for --batch: %w", err)
			}
			size = queue.BatchSize(len(todo), per)
			fmt.Fprintf(stderr, "measured %s a match on one core: batches of %d matches (about %s each)\n",
				per.Round(time.Microsecond), size, (per * time.Duration(size)).Round(time.Millisecond))
		}
		label := fmt.Sprintf("arena --game %s --schedule %s --out %s", game.Name(), f.schedule, f.out)
		id, err := queue.Submit(ctx, db, queue.Run{Label: label, Game: game, Config: cfg, Entrants: specs, Jobs: todo, BatchSize: size, Queue: f.queue})
		if err != nil {
			discard()
			return fmt.Errorf("--db: %w", err)
		}
		watch := fmt.Sprintf("crucible runs watch %d --db %s --out %s", id, db.Where(), f.out)
		fmt.Fprintf(stderr, "run %d: %d matches in batches of %d on queue %s; Ctrl-C detaches (the run goes on), %s re-attaches\n",
			id, len(todo), size, f.queue, watch)
		bar := newProgressBar(stderr, len(todo))
		var progress func(done, total int)
		if bar != nil {
			progress = func(done, total int) { bar.Set(done) }
		}
		start := time.Now()
		played, err = queue.FollowToFile(ctx, db, id, f.out, col.Add, progress)
		elapsed = time.Since(start)
		if bar != nil {
			bar.Finish()
			fmt.Fprintln(stderr)
		}
		if err != nil {
			if ctx.Err() != nil {
				fmt.Fprintf(stderr, "detached from run %d: %d of %d matches are in %s; the workers go on, and %s finishes the file\n",
					id, col.Matches, len(jobs), f.out, watch)
			}
			discard()
			return err
		}
		fmt.Fprintf(stderr, "played %d matches in %s (%.0f matches/s) on the workers of %s; results in %s\n",
			played, elapsed.Round(time.Millisecond), float64(played)/elapsed.Seconds(), db.Where(), f.out)
	}
	return printArenaSummary(cmd, f, &col, entrants, played, format)
}

// printArenaSummary reports failed matches and prints the leaderboard, as the
// local arena does at its end.
func printArenaSummary(cmd *cobra.Command, f arenaFlags, col *arena.Collector, entrants []arena.Entrant, played int, format reports.Format) error {
	stderr := cmd.ErrOrStderr()
	if col.Failed > 0 {
		if played > 0 && col.Failed == played {
			return fmt.Errorf("every one of the %d matches played failed (see \"error\" in %s); first: %s", played, f.out, col.FirstError)
		}
		fmt.Fprintf(stderr, "%d of %d matches failed and are left out of the ratings (see \"error\" in %s; --resume plays them again); first: %s\n",
			col.Failed, col.Matches, f.out, col.FirstError)
	}
	lopt, err := leaderboardOptions(cmd, "--rating", f.rating, rating.RatingModels(), f.periods)
	if err != nil {
		return err
	}
	lopt.Field = f.field
	sum, err := col.Leaderboard(arena.Names(entrants), lopt)
	if err != nil {
		return err
	}
	return reports.WriteSummary(cmd.OutOrStdout(), format, sum, reports.SummaryOptions{Matrix: f.matrix, Pairs: f.pairs, Field: f.field})
}
