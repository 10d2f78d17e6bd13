package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/engine"
	"crucible/queue"
)

// addLadderQueueFlag adds the flag that plays a night on the queue.
func addLadderQueueFlag(fl *pflag.FlagSet, f *ladderRunFlags) {
	fl.StringVar(&f.queue, "queue", "", `play the night's matches on crucible worker processes through this queue of the ladder's
PostgreSQL database (--db postgres://...; e.g. --queue matches) instead of --workers here; the night is recorded and rated here as always`)
}

// checkLadderQueue checks --queue before the ladder is opened.
func checkLadderQueue(o *ladderOpts, f ladderRunFlags) error {
	if f.queue == "" {
		return nil
	}
	if err := queue.CheckQueue(f.queue); err != nil {
		return fmt.Errorf("--queue: %w", err)
	}
	if db := o.where(); !queue.IsURL(db) {
		return fmt.Errorf("--queue needs the ladder in PostgreSQL, where the workers find the queue; --db is %q", db)
	}
	if f.replays != "" {
		return errors.New("--replays cannot be kept with --queue: the matches play on the workers' machines")
	}
	return nil
}

// ladderQueue returns the match runner of --queue (nil without it) and
// the function that closes its database.
func ladderQueue(cmd *cobra.Command, o *ladderOpts, f ladderRunFlags) (func(ctx context.Context, g engine.Game, e []arena.Entrant, j []arena.Job, opt arena.Options, emit func(arena.Record) error) error, func(), error) {
	if f.queue == "" {
		return nil, func() {}, nil
	}
	db, err := queue.Open(cmd.Context(), o.where(), 4)
	if err != nil {
		return nil, nil, fmt.Errorf("--queue: %w", err)
	}
	label := "ladder run"
	if f.night != "" {
		label += " --night " + f.night
	}
	r := &queue.Runner{Games: labGames, DB: db, Queue: f.queue, Label: label, Log: cmd.ErrOrStderr()}
	return r.Run, db.Close, nil
}
