package main

import (
	"errors"
	"fmt"
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
instead of playing them here; results still stream to --out. Ctrl-C detaches (the run goes on; the same command with --resume, or crucible runs watch, re-attaches)`)
	fl.IntVar(&f.batch, "batch", 0, fmt.Sprintf("--db: matches per batch (one queue job), 1 to %d; 0 sizes batches to about %s of one core's work from the match rate measured here",
		maxBatch, queue.BatchTarget))
	fl.StringVar(&f.queue, "queue", queue.DefaultQueue, "--db: the queue the batches go to (crucible worker --queues)")
}

// playArenaDB plays the checked schedule on the queue's workers: it
// enqueues the matches --out lacks as one run, follows the run into --out
// as the workers record its batches, then prints the leaderboard as the
// local arena does.
func playArenaDB(cmd *cobra.Command, f arenaFlags, game engine.Game, cfg any, entrants []arena.Entrant, jobs []arena.Job, format reports.Format, bs *botSession) error {
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
	specs, err := queue.SpecsWithBots(reg, game.Name(), entrants, bs.manifests())
	if err != nil {
		return fmt.Errorf("--players: %w", err)
	}
	res, err := openRunResults(stderr, f.out, f.resume, game, cfg, jobs, entrants)
	if err != nil {
		return err
	}
	defer res.Discard()
	col, todo := &res.Done, res.Todo
	seen := queue.NewSeen(res.Prev.Records)
	res.Prev.Records = nil
	played := 0
	if len(todo) > 0 {
		ctx := cmd.Context()
		db, err := queue.Open(ctx, f.db, 4)
		if err != nil {
			return fmt.Errorf("--db: %w", err)
		}
		defer db.Close()
		run := queue.Run{Game: game, Config: cfg, Entrants: specs, Jobs: todo, Queue: f.queue}
		if played, err = followArenaRuns(cmd, f, db, run, entrants, res, seen, len(jobs)); err != nil {
			return err
		}
	}
	return printArenaSummary(cmd, f, col, entrants, played, format)
}

// followArenaRuns plays the jobs of run on the queue into the results file:
// with --resume it re-attaches to the runs that hold some of them already
// (an earlier submitter of the same file killed or detached while they
// played, see queue.Holding), submits the rest as a new run, and follows each run in
// turn, appending the records of its jobs the file lacks. It returns the
// number of records appended; total is the schedule's size, for messages.
func followArenaRuns(cmd *cobra.Command, f arenaFlags, db *queue.DB, run queue.Run, entrants []arena.Entrant, res *arena.Resumed, seen *queue.Seen, total int) (int, error) {
	ctx, stderr := cmd.Context(), cmd.ErrOrStderr()
	// Only a resumed file re-attaches: a fresh run plays afresh (the
	// workers' code may have changed since an older run of the same
	// schedule), as the local arena does.
	holders, rest := []queue.Holder(nil), run.Jobs
	if f.resume {
		var err error
		if holders, rest, err = queue.Holding(ctx, db, run); err != nil {
			return 0, fmt.Errorf("--db: looking for runs that hold these matches: %w", err)
		}
	}
	owner := make(map[string]int64, len(run.Jobs)) // job id -> the run whose record of it the file takes
	for _, h := range holders {
		for _, id := range h.Jobs {
			owner[id] = h.ID
		}
		fmt.Fprintf(stderr, "run %d already holds %d of the %d matches to play: following it instead of submitting them again\n",
			h.ID, len(h.Jobs), len(run.Jobs))
	}
	ids := make([]int64, 0, len(holders)+1)
	for _, h := range holders {
		ids = append(ids, h.ID)
	}
	if len(rest) > 0 {
		run.Jobs = rest
		if run.BatchSize = f.batch; run.BatchSize == 0 {
			per, err := queue.Calibrate(ctx, run.Game, run.Config, entrants, rest)
			if err != nil {
				return 0, fmt.Errorf("measuring the match rate for --batch: %w", err)
			}
			run.BatchSize = queue.BatchSize(len(rest), per)
			fmt.Fprintf(stderr, "measured %s a match on one core: batches of %d matches (about %s each)\n",
				per.Round(time.Microsecond), run.BatchSize, (per * time.Duration(run.BatchSize)).Round(time.Millisecond))
		}
		run.Label = fmt.Sprintf("arena --game %s --schedule %s --out %s", run.Game.Name(), f.schedule, f.out)
		id, err := queue.Submit(ctx, db, run)
		if err != nil {
			return 0, fmt.Errorf("--db: %w", err)
		}
		for _, j := range rest {
			owner[j.ID] = id
		}
		ids = append(ids, id)
		fmt.Fprintf(stderr, "run %d: %d matches in batches of %d on queue %s; Ctrl-C detaches (the run goes on), the same command with --resume re-attaches\n",
			id, len(rest), run.BatchSize, run.Queue)
	}
	todo := len(owner)
	bar := newProgressBar(stderr, todo)
	start, arrived := time.Now(), 0
	for _, id := range ids {
		err := queue.Follow(ctx, db, id, nil, func(r arena.Record) error {
			if owner[r.Job] != id {
				return nil // a match of the run this schedule does not take from it
			}
			if r.Error == "" {
				arrived++
				if bar != nil {
					bar.Set(arrived)
				}
			}
			if seen.Skip(r) {
				return nil
			}
			if err := res.Write(r); err != nil {
				return err
			}
			res.Done.Add(r)
			return nil
		}, nil)
		if err != nil {
			if bar != nil {
				fmt.Fprintln(stderr)
			}
			if ctx.Err() != nil {
				fmt.Fprintf(stderr, "detached from run %d: %d of %d matches are in %s; the workers go on, and the same command with --resume finishes the file\n",
					id, res.Done.Matches, total, f.out)
			}
			return res.Written(), err
		}
	}
	if bar != nil {
		bar.Finish()
		fmt.Fprintln(stderr)
	}
	played := res.Written()
	elapsed := time.Since(start)
	fmt.Fprintf(stderr, "played %d matches in %s (%.0f matches/s) on the workers of %s; results in %s\n",
		played, elapsed.Round(time.Millisecond), float64(played)/elapsed.Seconds(), db.Where(), f.out)
	return played, nil
}

// printArenaSummary reports failed matches and prints the leaderboard, as the
// local arena does at its end.
func printArenaSummary(cmd *cobra.Command, f arenaFlags, col *arena.Collector, entrants []arena.Entrant, played int, format reports.Format) error {
	sum, err := rateCollected(cmd, f, col, entrants, played)
	if err != nil {
		return err
	}
	return reports.WriteSummary(cmd.OutOrStdout(), format, sum, arenaSummaryOptions(f))
}

// arenaSummaryOptions are the parts of the summary the flags ask for.
func arenaSummaryOptions(f arenaFlags) reports.SummaryOptions {
	return reports.SummaryOptions{Matrix: f.matrix, Pairs: f.pairs, Field: f.field}
}

// rateCollected reports failed matches and rates the collected results.
func rateCollected(cmd *cobra.Command, f arenaFlags, col *arena.Collector, entrants []arena.Entrant, played int) (rating.Summary, error) {
	stderr := cmd.ErrOrStderr()
	if col.Failed > 0 {
		if played > 0 && col.Failed == played {
			return rating.Summary{}, fmt.Errorf("every one of the %d matches played failed (see \"error\" in %s); first: %s", played, f.out, col.FirstError)
		}
		fmt.Fprintf(stderr, "%d of %d matches failed and are left out of the ratings (see \"error\" in %s; --resume plays them again); first: %s\n",
			col.Failed, col.Matches, f.out, col.FirstError)
	}
	lopt, err := leaderboardOptions(cmd, "--rating", f.rating, rating.RatingModels(), f.periods)
	if err != nil {
		return rating.Summary{}, err
	}
	lopt.Field = f.field
	if lopt.Ranks, err = f.rank.options(cmd); err != nil {
		return rating.Summary{}, err
	}
	return col.Leaderboard(arena.Names(entrants), lopt)
}
