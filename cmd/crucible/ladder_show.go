package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/reports"
)

func newLadderStandingsCmd(o *ladderOpts) *cobra.Command {
	var format string
	var matrix, pairs bool
	var rank rankFlags
	cmd := &cobra.Command{
		Use:   "standings",
		Short: "Print the ladder's leaderboard",
		Long: `Print the leaderboard of the active entrants' current versions (named by their
labels, NAME@vN for a version after the first), at their latest ratings and
ordered by the conservative rating (rating - 2 RD). W-D-L, score and Elo
against the field are those of the last night; a version not rated yet shows
the rating it starts from and no games.

Below it, the regression tests of the current versions (see ladder run
--help): the pentanomial counts of their game pairs from the new version's
side, the log-likelihood ratio and its bounds, the new version's Elo against
its predecessor with its 95% interval, and the verdict; a version whose test
accepted H0 is marked` + regressionMark + ` in the leaderboard. JSON holds the
tests as "regression_tests"; CSV is the leaderboard alone (with --ranks, the
rank columns too).

Then the races of candidate versions (see ladder add --help) running or ended
by the last night: each candidate's status (active, H1, H0, eliminated,
stopped), pairs, pentanomial counts, score and Elo over the baseline, LLR with
its bounds (alpha already divided by the candidates), who eliminated it and
its outcome (racing, winner: promoted, retired), under the race's verdict,
pairs, matches played and the matches saved against testing every candidate
alone on as many pairs as the longest-playing one. JSON: "races".

--ranks adds each entrant's probability of each rank over the last night: the
rank table of crucible rate --ranks on that night's matches between the current
versions (their Bradley–Terry order, not the ladder's Glicko-2 over all nights).
` + rankHelp + `

  crucible ladder standings --ranks`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := reports.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			ranks, err := rank.options(cmd)
			if err != nil {
				return err
			}
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			st, err := s.RankedStandings(cmd.Context(), ranks)
			if err != nil {
				return err
			}
			tests, err := s.RegressionTests(cmd.Context())
			if err != nil {
				return err
			}
			if f == reports.Table || f == reports.Markdown {
				last := "no night yet"
				if st.Night.ID != 0 {
					last = fmt.Sprintf("after night %s (closed %s)", st.Night.Label, st.Night.ClosedAt)
				}
				fmt.Fprintln(cmd.OutOrStdout(), "Ladder standings", last)
			}
			races, err := s.Races(cmd.Context())
			if err != nil {
				return err
			}
			return writeLadderStandings(cmd.OutOrStdout(), f, st, tests, races, reports.SummaryOptions{Matrix: matrix, Pairs: pairs})
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(reports.Formats, ", "))
	cmd.Flags().BoolVar(&matrix, "matrix", false, "print the last night's pairwise score matrix (table and markdown)")
	cmd.Flags().BoolVar(&pairs, "pairs", false, "print the last night's pairs with Wilson intervals (table and markdown)")
	addRankFlags(cmd.Flags(), &rank)
	return cmd
}

func newLadderHistoryCmd(o *ladderOpts) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "history NAME",
		Short: "Print an entrant's rating after every night",
		Long: `Print entrant NAME's rating after every night that rated it, oldest first, with
its version; the first night of a new version is marked with *.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			f, err := reports.ParseFormat(format)
			if err != nil {
				return fmt.Errorf("--format: %w", err)
			}
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			h, err := s.History(cmd.Context(), args[0])
			if err != nil {
				return fmt.Errorf("NAME: %w", err)
			}
			head := []string{"night", "closed", "version", "rating", "rd", "volatility", "95% interval", "games", "W-D-L"}
			rows := make([][]string, len(h))
			for i, p := range h {
				v := strconv.Itoa(p.VersionNumber)
				if p.NewVersion {
					v += " *"
				}
				rows[i] = []string{p.NightLabel, p.ClosedAt, v, fmt.Sprintf("%.1f", p.Rating.Rating), fmt.Sprintf("%.1f", p.RD),
					fmt.Sprintf("%.5f", p.Volatility), fmt.Sprintf("%.0f-%.0f", p.Lo, p.Hi), strconv.Itoa(p.Games),
					fmt.Sprintf("%d-%d-%d", p.Wins, p.Draws, p.Losses)}
			}
			if f == reports.CSV {
				for i, p := range h {
					rows[i] = []string{p.NightLabel, p.ClosedAt, strconv.Itoa(p.VersionNumber), num(p.Rating.Rating), num(p.RD),
						num(p.Volatility), num(p.Lo), num(p.Hi), strconv.Itoa(p.Games), strconv.Itoa(p.Wins), strconv.Itoa(p.Draws),
						strconv.Itoa(p.Losses), strconv.FormatBool(p.NewVersion)}
				}
				head = []string{"night", "closed", "version", "rating", "rd", "volatility", "lo", "hi", "games", "wins", "draws", "losses", "new_version"}
			}
			return writeRows(cmd.OutOrStdout(), f, "Rating history of "+args[0], head, rows, h)
		},
	}
	cmd.Flags().StringVar(&format, "format", "table", "output format: "+strings.Join(reports.Formats, ", "))
	return cmd
}

// num formats a figure at full precision for CSV.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func newLadderImportCmd(o *ladderOpts) *cobra.Command {
	var label string
	cmd := &cobra.Command{
		Use:   "import RESULTS.jsonl",
		Short: "Bring an arena results file into the ladder as one rated night",
		Long: `Import the result lines of crucible arena into the ladder, in one transaction,
as a night of kind import rated as ONE Glicko-2 period of its players (as
crucible rate does). Players become entrants named as in the file; a variant
known there only by its id must be added with its file (ladder add NAME
--variant FILE) before it can play nights. A file is imported once: its
default label is import-<first 12 hex digits of its SHA-256>.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path := args[0]
			data, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("RESULTS: %w", err)
			}
			res, err := arena.ParseResults(data, path)
			if err != nil {
				return fmt.Errorf("RESULTS: %w", err)
			}
			for _, w := range res.Warnings {
				fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
			}
			sum := sha256.Sum256(data[:res.Size])
			hash := hex.EncodeToString(sum[:])
			if label == "" {
				label = "import-" + hash[:12]
			}
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			ir, err := s.Import(cmd.Context(), res.Records, label, path+" sha256:"+hash)
			if err != nil {
				return fmt.Errorf("RESULTS %s: %w", path, err)
			}
			fmt.Fprintf(cmd.OutOrStdout(), "imported %d matches of %s as night %s, %d new entrants, %d players rated\n",
				len(res.Records), path, ir.Night.Label, len(ir.Added), len(ir.Ratings))
			return nil
		},
	}
	cmd.Flags().StringVar(&label, "label", "", "label of the imported night (default import-<hash of the file>)")
	return cmd
}

func newLadderExportCmd(o *ladderOpts) *cobra.Command {
	var out, night string
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Write the recorded matches as arena result lines",
		Long: `Write every recorded match (or one night's, with --night) as JSON lines, exactly
as crucible arena writes them, night by night in schedule order: the lines
crucible rate, report and ladder import read. An imported file comes back
byte for byte.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := o.open(cmd.Context())
			if err != nil {
				return err
			}
			defer s.Close()
			var id int64
			if night != "" {
				nights, err := s.Nights(cmd.Context())
				if err != nil {
					return err
				}
				var labels []string
				for _, n := range nights {
					labels = append(labels, n.Label)
					if n.Label == night {
						id = n.ID
					}
				}
				if id == 0 {
					return fmt.Errorf("--night %q: no such night (nights: %s)", night, strings.Join(labels, ", "))
				}
			}
			if out != "" {
				// OpenResults refuses a results file that holds lines
				// and creates a missing one; the recorded lines are then
				// appended as they are.
				w, _, err := arena.OpenResults(out, false)
				if errors.Is(err, arena.ErrResultsExist) {
					return fmt.Errorf("--out %w; refusing to overwrite it", err)
				}
				if err != nil {
					return fmt.Errorf("--out: %w", err)
				}
				w.Close()
				f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0o644)
				if err != nil {
					return fmt.Errorf("--out: %w", err)
				}
				bw := bufio.NewWriter(f)
				if err := s.ExportLines(cmd.Context(), id, bw); err != nil {
					f.Close()
					return err
				}
				if err := bw.Flush(); err != nil {
					f.Close()
					return fmt.Errorf("--out: %w", err)
				}
				return f.Close()
			}
			bw := bufio.NewWriter(cmd.OutOrStdout())
			if err := s.ExportLines(cmd.Context(), id, bw); err != nil {
				return err
			}
			return bw.Flush()
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "results file to write (default: standard output); an existing non-empty file is refused")
	cmd.Flags().StringVar(&night, "night", "", "export only the night with this label")
	return cmd
}
