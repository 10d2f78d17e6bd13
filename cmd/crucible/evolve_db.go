package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/evolver"
	"crucible/queue"
)

// addEvolveDBFlags adds the flags that play an evolution on the queue.
func addEvolveDBFlags(fl *pflag.FlagSet, f *evolveFlags) {
	fl.StringVar(&f.db, "db", "", `PostgreSQL work queue, postgres://USER@HOST:PORT/DB: each generation's matches (and the holdout comparison)
are played by crucible worker processes instead of --workers here; the final tournament and the checkpoints stay here`)
	fl.StringVar(&f.queue, "queue", queue.DefaultQueue, "--db: the queue the matches go to (crucible worker --queues)")
}

// evolveQueue returns the match runner of --db (nil without it) and the
// function that closes its database.
func evolveQueue(cmd *cobra.Command, f evolveFlags) (evolver.MatchRunner, func(), error) {
	if f.db == "" {
		return nil, func() {}, nil
	}
	if !queue.IsURL(f.db) {
		return nil, nil, fmt.Errorf("--db %q: the evolver's queue lives in PostgreSQL; give a postgres:// URL", f.db)
	}
	if err := queue.CheckQueue(f.queue); err != nil {
		return nil, nil, fmt.Errorf("--queue: %w", err)
	}
	db, err := queue.Open(cmd.Context(), f.db, 4)
	if err != nil {
		return nil, nil, fmt.Errorf("--db: %w", err)
	}
	r := &queue.Runner{Games: labGames, DB: db, Queue: f.queue, Label: "evolve --base " + f.base + " --out " + f.out}
	return r.Run, db.Close, nil
}
