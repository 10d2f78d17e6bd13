package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/reports"
)

func newRateCmd() *cobra.Command {
	var results, prior, out, format string
	var matrix, pairs bool
	cmd := &cobra.Command{
		Use:   "rate",
		Short: "Rate a results file with Glicko-2",
		Long: `Rate the matches of a results file (from crucible arena) as ONE Glicko-2 rating
period: every player is updated from its pairwise results against the others'
ratings before the period (an N-seat match counts as the pairwise results of
its ranking). Players start from --prior when given, at 1500 / 350 / 0.06 when
missing from it; players of --prior without a match only see their RD grow.
Failed matches (with an "error") are left out and counted. A file must hold
one game's matches, each once: records of two games, or a match recorded
twice, are refused. Prints the leaderboard, ordered by the conservative rating
(rating - 2 RD), with the pairwise statistics.

A ratings file maps player names to their state:
  {"normal": {"rating": 1612.3, "rd": 48.1, "volatility": 0.0599}}

  crucible rate --results results.jsonl
  crucible rate --results tonight.jsonl --prior ladder.json --out ladder.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := reports.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			if results == "" {
				return errors.New("--results is required: the JSON-lines file written by crucible arena")
			}
			if out != "" {
				if err := checkOutPath("--out", out); err != nil {
					return err
				}
				if err := checkNotInput("--out", out, "--results", results); err != nil {
					return err
				}
			}
			tally, err := loadTally(cmd.ErrOrStderr(), results)
			if err != nil {
				return err
			}
			start := map[string]rating.Rating{}
			if prior != "" {
				data, err := os.ReadFile(prior)
				if err != nil {
					return fmt.Errorf("--prior: %w", err)
				}
				if start, err = rating.ParseRatings(data, prior); err != nil {
					return fmt.Errorf("--prior: %w", err)
				}
			}
			var outcomes []rating.Outcome
			for _, r := range tally.Finished {
				outcomes = append(outcomes, r.Outcomes()...)
			}
			if len(outcomes) == 0 {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s holds no finished match; ratings only age\n", results)
			}
			after := rating.Default().RatePeriod(start, outcomes)
			if out != "" {
				data, err := rating.MarshalRatings(after)
				if err != nil {
					return err
				}
				if err := writeOutFile("--out", out, data); err != nil {
					return err
				}
			}
			sum := rating.Summarize(after, outcomes)
			return reports.WriteSummary(cmd.OutOrStdout(), f, sum, reports.SummaryOptions{Matrix: matrix, Pairs: pairs})
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&results, "results", "", "results file to rate (JSON lines from crucible arena); required")
	fl.StringVar(&prior, "prior", "", "ratings file to start from (default: everyone at 1500 / 350 / 0.06)")
	fl.StringVar(&out, "out", "", "write the new ratings to this file (replaced atomically; may be the --prior file)")
	fl.StringVar(&format, "format", "table", "leaderboard format: "+strings.Join(reports.Formats, ", "))
	fl.BoolVar(&matrix, "matrix", true, "print the pairwise score matrix (table and markdown)")
	fl.BoolVar(&pairs, "pairs", false, "print every pair's W-D-L with its Wilson 95% interval (table and markdown)")
	return cmd
}

// loadTally reads a results file (--results) for rating: its warnings (a
// half-written last line) and what it skips (failed matches) go to warn.
func loadTally(warn io.Writer, path string) (arena.Tally, error) {
	res, err := arena.LoadResults(path)
	if err != nil {
		return arena.Tally{}, fmt.Errorf("--results: %w", err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(warn, "warning:", w)
	}
	tally, err := arena.NewTally(res.Records)
	if err != nil {
		return arena.Tally{}, fmt.Errorf("--results %s: %w", path, err)
	}
	if note := tally.Note(path); note != "" {
		fmt.Fprintln(warn, "warning:", note)
	}
	return tally, nil
}
