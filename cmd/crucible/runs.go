package main

import (
	"errors"
	"fmt"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"crucible/queue"
)

func newRunsCmd() *cobra.Command {
	var dbURL string
	cmd := &cobra.Command{
		Use:   "runs",
		Short: "List, watch and cancel the runs of the PostgreSQL work queue; list local runs",
		Long: `The runs that crucible arena --db (and other --db commands) enqueued on the
work queue, which crucible worker processes play:

  crucible runs list --db URL                      every run with its progress
  crucible runs list --local DIR                   the arena results files and evolve runs under DIR
  crucible runs watch RUN --db URL --out FILE      re-attach: append the run's results FILE lacks, until it is complete
  crucible runs cancel RUN --db URL                drop the run's batches not yet taken`,
	}
	cmd.PersistentFlags().StringVar(&dbURL, "db", "", "PostgreSQL database of the queue, postgres://USER@HOST:PORT/DB (required)")
	cmd.AddCommand(newRunsListCmd(&dbURL), newRunsWatchCmd(&dbURL), newRunsCancelCmd(&dbURL))
	return cmd
}

// openQueue opens the queue database named by --db.
func openQueue(cmd *cobra.Command, dbURL string) (*queue.DB, error) {
	if dbURL == "" {
		return nil, errors.New("--db must name the queue's PostgreSQL database (postgres://...)")
	}
	db, err := queue.Open(cmd.Context(), dbURL, 4)
	if err != nil {
		return nil, fmt.Errorf("--db: %w", err)
	}
	return db, nil
}

// runID parses a RUN argument.
func runID(arg string) (int64, error) {
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id < 1 {
		return 0, fmt.Errorf("RUN %q is not a run id (a positive number, see crucible runs list)", arg)
	}
	return id, nil
}

func newRunsListCmd(dbURL *string) *cobra.Command {
	var limit int
	var local string
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the runs, newest first, with their progress (--local DIR: the arena and evolve runs on disk)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return fmt.Errorf("--limit %d is negative", limit)
			}
			if local != "" {
				if *dbURL != "" {
					return errors.New("give --db (the queue's runs) or --local DIR (the runs on disk), not both")
				}
				runs, err := listLocalRuns(local)
				if err != nil {
					return err
				}
				if limit > 0 && len(runs) > limit {
					runs = runs[:limit]
				}
				return writeLocalRuns(cmd.OutOrStdout(), local, runs)
			}
			db, err := openQueue(cmd, *dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			runs, err := queue.List(cmd.Context(), db, limit)
			if err != nil {
				return err
			}
			tw := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "RUN\tSTATUS\tMATCHES\tBATCHES\tFAILED\tQUEUE\tCREATED\tLABEL")
			for _, r := range runs {
				status := r.Status()
				if r.Lost > 0 {
					status = fmt.Sprintf("%s (%d batches lost)", status, r.Lost)
				}
				fmt.Fprintf(tw, "%d\t%s\t%d/%d\t%d/%d\t%d\t%s\t%s\t%s\n", r.ID, status, r.DoneMatches, r.Matches, r.DoneBatches, r.Batches,
					r.Failed, r.Queue, r.Created.Local().Format(time.DateTime), r.Label)
			}
			return tw.Flush()
		},
	}
	cmd.Flags().IntVar(&limit, "limit", 20, "most runs listed (0: all)")
	cmd.Flags().StringVar(&local, "local", "", "list instead the runs on disk under this directory: arena (and sprt) results files and evolve run directories")
	return cmd
}

func newRunsWatchCmd(dbURL *string) *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "watch RUN",
		Short: "Re-attach to a run: append the results --out lacks until the run is complete",
		Long: `Follow run RUN into the results file --out as crucible arena --db does: an
existing file (the one a detached or killed arena left) is continued, its
half-written last line dropped, and only the results it lacks are appended,
in the local arena's format, so crucible rate, report and arena --resume read
it as any results file. Ctrl-C detaches again; the run goes on.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := runID(args[0])
			if err != nil {
				return err
			}
			if out == "" {
				return errors.New("--out must name the results file")
			}
			db, err := openQueue(cmd, *dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			st, err := queue.Status(cmd.Context(), db, id)
			if err != nil {
				return err
			}
			stderr := cmd.ErrOrStderr()
			fmt.Fprintf(stderr, "run %d (%s): %d of %d matches recorded\n", id, st.Label, st.DoneMatches, st.Matches)
			bar := newProgressBar(stderr, st.Matches)
			var progress func(done, total int)
			if bar != nil {
				progress = func(done, total int) { bar.Set(done) }
			}
			n, err := queue.FollowToFile(cmd.Context(), db, id, out, nil, progress)
			if bar != nil {
				bar.Finish()
				fmt.Fprintln(stderr)
			}
			if err != nil {
				if cmd.Context().Err() != nil {
					fmt.Fprintf(stderr, "detached from run %d after appending %d results to %s; the workers go on\n", id, n, out)
				}
				return err
			}
			fmt.Fprintf(stderr, "run %d is complete: appended %d results to %s (crucible rate --results %s ranks them)\n", id, n, out, out)
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "results file to continue (required)")
	return cmd
}

func newRunsCancelCmd(dbURL *string) *cobra.Command {
	return &cobra.Command{
		Use:   "cancel RUN",
		Short: "Cancel a run: its batches not yet taken are dropped (those in progress are recorded)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id, err := runID(args[0])
			if err != nil {
				return err
			}
			db, err := openQueue(cmd, *dbURL)
			if err != nil {
				return err
			}
			defer db.Close()
			if err := queue.Cancel(cmd.Context(), db, id); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "run %d cancelled\n", id)
			return nil
		},
	}
}
