package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"crucible/queue"
)

// workerFlags are the worker command's options.
type workerFlags struct {
	db, queues, metricsAddr, secret string
	workers, botConcurrency         int
	rescueAfter, stopTimeout        time.Duration
}

func newWorkerCmd() *cobra.Command {
	var f workerFlags
	cmd := &cobra.Command{
		Use:   "worker",
		Short: "Play batches of matches from the PostgreSQL queue (crucible arena --db)",
		Long: `Serve the work queue in PostgreSQL (River): take batches of matches that
crucible arena --db (and other --db commands) enqueued, play them with the
arena's own code, and record each batch's results together with the batch's
completion in one transaction. Start as many workers, on as many
machines, as the database serves; ratings are computed by whoever follows
the run (crucible arena --db, crucible runs watch), never by workers.

A batch whose worker dies or stalls is handed to another worker once it has
run for --rescue-after; if the stalled worker comes back, its late results
are rejected, so a batch counts once. On SIGTERM or Ctrl-C a worker takes no
new batch, lets those in progress finish for up to --stop-timeout, then hands
the rest back to the queue.

Outside bots (manifests given to crucible arena --db --players) start on the
worker's own machine from the manifest stored with the run: the bot's command
and files must be present here at the same place (the manifest's folder is
stored as an absolute path); a worker that lacks them fails the batch with an
error naming the missing command or folder. Their logs go to
crucible-bots-<pid> in the temporary folder.

Prometheus metrics (matches played, match and batch failures, batch latency,
rejected late completions, queue depth) are served at --metrics-addr.

  crucible worker --db postgres://lab@db:5432/crucible
  crucible worker --db postgres://lab@db:5432/crucible --workers 8 --metrics-addr :9090`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runWorker(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.db, "db", "", "PostgreSQL database of the queue, postgres://USER@HOST:PORT/DB (required)")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), fmt.Sprintf("batches played at once, each on one core, 1 to %d", maxWorkers))
	fl.StringVar(&f.queues, "queues", queue.DefaultQueue, "queues served, comma-separated (crucible arena --queue)")
	fl.DurationVar(&f.rescueAfter, "rescue-after", queue.DefaultRescueAfter,
		"a batch running this long is taken for stuck (its worker killed or stalled) and handed to another worker within min(this/4, 30s) more; batches are sized to about a minute (crucible arena --batch): keep this above the longest, or a slow batch is played twice (counted once)")
	fl.DurationVar(&f.stopTimeout, "stop-timeout", 20*time.Second, "on SIGTERM, how long batches in progress may finish before they are handed back to the queue")
	fl.IntVar(&f.botConcurrency, "bot-concurrency", 1, "most matches at once against one http:// bot, over every worker of the database (0: no limit)")
	fl.StringVar(&f.secret, "secret", "", "shared secret of http:// bots (default $ACB_SECRET, else $SHARED_SECRET; a flag shows in the process list)")
	fl.StringVar(&f.metricsAddr, "metrics-addr", "", `address serving Prometheus metrics at /metrics, e.g. ":9090" ("" serves none)`)
	return cmd
}

func runWorker(cmd *cobra.Command, f workerFlags) error {
	if f.db == "" {
		return errors.New("--db must name the queue's PostgreSQL database (postgres://...)")
	}
	if !queue.IsURL(f.db) {
		return fmt.Errorf("--db %q: the queue lives in PostgreSQL; give a postgres:// URL", f.db)
	}
	if f.workers < 1 || f.workers > maxWorkers {
		return fmt.Errorf("--workers %d is outside its range [1, %d]", f.workers, maxWorkers)
	}
	if f.rescueAfter < time.Second {
		return fmt.Errorf("--rescue-after %s is below its minimum of 1s", f.rescueAfter)
	}
	if f.stopTimeout < 0 {
		return fmt.Errorf("--stop-timeout %s is negative", f.stopTimeout)
	}
	if f.botConcurrency < 0 {
		return fmt.Errorf("--bot-concurrency %d is negative", f.botConcurrency)
	}
	var queues []string
	for _, q := range strings.Split(f.queues, ",") {
		q = strings.TrimSpace(q)
		if err := queue.CheckQueue(q); err != nil {
			return fmt.Errorf("--queues: %w", err)
		}
		queues = append(queues, q)
	}
	ctx := cmd.Context()
	// The pool: one connection per batch completing, one per remote
	// match holding a bot slot, and a few for River's producer, leader
	// election and notifications.
	db, err := queue.Open(ctx, f.db, 2*f.workers+8)
	if err != nil {
		return fmt.Errorf("--db: %w", err)
	}
	defer db.Close()
	// Outside bots of the runs start here, from their stored manifests;
	// their logs go to a folder of their own.
	bs := newBotSession(matchBotLogDir(), cmd.ErrOrStderr())
	defer bs.Close()
	cfg := queue.WorkerConfig{Games: workerGames{Table: labGames, bots: bs}, Workers: f.workers, Queues: queues, RescueAfter: f.rescueAfter, StopTimeout: f.stopTimeout,
		BotConcurrency: f.botConcurrency, Secret: f.secret, Log: cmd.ErrOrStderr()}
	if f.metricsAddr != "" {
		cfg.Metrics = queue.NewMetrics(db, queues)
		ln, err := net.Listen("tcp", f.metricsAddr)
		if err != nil {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", cfg.Metrics.Handler())
		srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
		go srv.Serve(ln)
		defer srv.Shutdown(context.Background())
		fmt.Fprintf(cmd.ErrOrStderr(), "metrics at http://%s/metrics\n", ln.Addr())
	}
	err = queue.Work(ctx, db, cfg)
	if err != nil {
		return err
	}
	// Stopped by a signal: a clean exit.
	return nil
}
