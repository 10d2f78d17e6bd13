package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/reports"
)

// ratingHelp documents the leaderboard's models and intervals, for the
// help of arena, rate and report.
const ratingHelp = `Ordering (--rating):
  bt         maximum-likelihood Bradley–Terry (Elo) fit of the whole batch, the
             default; on a round robin its order is the order of the scores
  glicko2    Glicko-2, ordered by rating - 2 RD, the batch rated as one period
             (--periods rounds: one period per round of the schedule, as earlier
             versions did; later rounds then move the ratings differently from
             earlier ones, so the order can disagree with the scores)
  weng-lin   Weng–Lin (openskill's Plackett–Luce model) over each match's full
             ranking, match after match in schedule order: a multi-player rating
             for free-for-all schedules, beside the pairwise reduction the other
             models use (an N-seat match is the N(N-1)/2 pairwise results of its
             ranking)
Every table says which model orders it, and the leaderboard warns when it ranks
a player above another whose score against the same opponents (each other
included) is significantly higher.

Intervals: every interval (score %, Elo vs field, a pair's score, the
Bradley–Terry Elo) is computed over independent units, never over games or
pairings. A unit is a seed: every match on it, whatever its players (both seat
orders of a pair, every rotation of a free-for-all group, every pairing of a
round), which share the seed's map or deal, so their results move together.
Scores get the cluster-robust interval (Student t over the seeds); Bradley–Terry
the cluster-robust (sandwich) covariance clustered by seed. Rounds of a pairing
whose matches repeated another's exactly (same scores, length and end) count
once: the "units" columns give the seeds and how many distinct outcomes there
were, and a deterministic
result repeated on many seeds does not narrow an interval; when every unit gave
the same score the interval is Wilson's over the distinct outcomes.
Small samples: with games in fewer than 3 distinct units a player's (or a
pair's) score interval is the exact bound [(α/2)^(1/n), 1] when every unit was
won (mirrored when every unit was lost), Student's t on one degree of freedom
when two units differ, and otherwise n/a; its Elo vs field and Bradley–Terry
interval are n/a, so no difference is called significant on one or two units.`

// rankHelp documents --ranks, for the help of the leaderboard commands.
const rankHelp = `Rank uncertainty (--ranks): each player's probability of each rank, its
expected rank and a 95% rank interval, by a stratified bootstrap of the same
independent units: the seeds that hold the same pairings drawn with replacement
as often as they were played, each with all its matches (exact repeats as the
copies they are), each of --resamples
resamples rated by the Bradley–Terry fit and ranked by Elo (ties share their
ranks). The resampling is seeded, so the same results give the same table.
Fewer than 3 seeds holding the same pairings make the table "not available":
resampling one or two seeds cannot show how a result varies.`

// rankFlags are the --ranks options of the leaderboard commands.
type rankFlags struct {
	ranks     bool
	resamples int
}

// addRankFlags adds --ranks and --resamples to a leaderboard command.
func addRankFlags(fl *pflag.FlagSet, f *rankFlags) {
	fl.BoolVar(&f.ranks, "ranks", false, "also print each player's probability of each rank and a 95% rank interval (bootstrap of the independent units; every format)")
	fl.IntVar(&f.resamples, "resamples", rating.DefaultResamples, fmt.Sprintf("--ranks: bootstrap resamples, 1 to %d", maxRankResamples))
}

// maxRankResamples bounds --resamples.
const maxRankResamples = 100_000

// options are the rank options the flags ask for: nil without --ranks.
func (f rankFlags) options(cmd *cobra.Command) (*rating.RankOptions, error) {
	if !f.ranks {
		if fl := cmd.Flags().Lookup("resamples"); fl != nil && fl.Changed {
			return nil, errors.New("--resamples applies with --ranks only")
		}
		return nil, nil
	}
	if f.resamples < 1 || f.resamples > maxRankResamples {
		return nil, fmt.Errorf("--resamples %d is outside its range [1, %d]", f.resamples, maxRankResamples)
	}
	return &rating.RankOptions{Resamples: f.resamples}, nil
}

// modelList joins model names for help texts.
func modelList(ms []rating.Model) string {
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// leaderboardOptions checks the model flag (named flag, one of allowed;
// "" is bt) and --periods ("" is one), which applies to glicko2 only.
func leaderboardOptions(cmd *cobra.Command, flag, model string, allowed []rating.Model, periods string) (rating.Options, error) {
	if model == "" {
		model = string(rating.ModelBT)
	}
	if periods == "" {
		periods = string(rating.OnePeriod)
	}
	m, err := rating.ParseModel(model, allowed)
	if err != nil {
		return rating.Options{}, fmt.Errorf("%s: %w", flag, err)
	}
	opt := rating.Options{Model: m}
	switch p := rating.Periods(periods); p {
	case rating.OnePeriod, rating.RoundPeriods:
		opt.Periods = p
	default:
		return rating.Options{}, fmt.Errorf("--periods %q is not one of %s, %s", periods, rating.OnePeriod, rating.RoundPeriods)
	}
	if f := cmd.Flags().Lookup("periods"); f != nil && f.Changed && m != rating.ModelGlicko2 {
		return rating.Options{}, fmt.Errorf("--periods applies to %s glicko2 only (the %s model has no rating periods)", flag, m)
	}
	return opt, nil
}

// rateFlags are the rate command's options.
type rateFlags struct {
	results, prior, out, format string
	method, rating, periods     string
	matrix, pairs, field        bool
	rank                        rankFlags
	exploit                     string
}

func newRateCmd() *cobra.Command {
	var f rateFlags
	cmd := &cobra.Command{
		Use:   "rate",
		Short: "Rank the players of a results file (Bradley–Terry, Glicko-2, Weng–Lin, α-Rank, Nash)",
		Long: `Rank the players of a results file (from crucible arena) and print the
leaderboard with the pairwise statistics. Failed matches (with an "error") are
left out and counted. A file must hold one game's matches, each once: records
of two games, or a match recorded twice, are refused.

--method chooses the ranking (--rating is the same flag for the rating models):
  bt, glicko2, weng-lin   ratings, as below
  alpharank  α-Rank (OpenSpiel's, single population, m 50, α 100) of the score
             matrix: the share of time an evolving population spends on each
             player; made for non-transitive fields
  nash       Nash averaging: the maximum-entropy Nash equilibrium of the score
             margins; players are ordered by their payoff against it (0 for its
             support), then by their mass in it
alpharank and nash print the field table (both masses) and the 3-cycles of
significant wins (A > B > C > A, every link's 95% interval above 50%); --field
prints them beside a rating too.

` + ratingHelp + `

` + rankHelp + `

Glicko-2 ratings files: --prior starts the players from one (players missing
from it at 1500 / 350 / 0.06; players of --prior without a match only see their
RD grow), --out writes the new ratings; with either, the default --method is
glicko2 (another method refuses them). A ratings file maps player names to their
state:
  {"normal": {"rating": 1612.3, "rd": 48.1, "volatility": 0.0599}}

  crucible rate --results results.jsonl
  crucible rate --results results.jsonl --ranks
  crucible rate --results results.jsonl --method alpharank
  crucible rate --results ffa.jsonl --method weng-lin
  crucible rate --results tonight.jsonl --prior ladder.json --out ladder.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runRate(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.results, "results", "", "results file to rate (JSON lines from crucible arena); required")
	fl.StringVar(&f.method, "method", string(rating.ModelBT), "ranking: "+modelList(rating.Models())+" (glicko2 when --prior or --out is given)")
	fl.StringVar(&f.rating, "rating", "", "the same as --method, for the rating models: "+modelList(rating.RatingModels()))
	fl.StringVar(&f.periods, "periods", string(rating.OnePeriod), `--method glicko2: "one" rates the whole file as one period, "rounds" one period per round`)
	fl.StringVar(&f.prior, "prior", "", "Glicko-2 ratings file to start from (default: everyone at 1500 / 350 / 0.06)")
	fl.StringVar(&f.out, "out", "", "write the new Glicko-2 ratings to this file (replaced atomically; may be the --prior file)")
	fl.StringVar(&f.format, "format", "table", "leaderboard format: "+strings.Join(reports.Formats, ", "))
	fl.BoolVar(&f.matrix, "matrix", true, "print the pairwise score matrix (table and markdown)")
	fl.BoolVar(&f.pairs, "pairs", false, "print every pair's W-D-L with its 95% interval over the seeds the pair met on (table and markdown)")
	fl.BoolVar(&f.field, "field", false, "print the non-transitive field (α-Rank and Nash masses, cycles) beside a rating (table and markdown)")
	addRankFlags(fl, &f.rank)
	addExploitFlag(fl, &f.exploit)
	return cmd
}

// runRate checks the flags, ranks the file and prints it.
func runRate(cmd *cobra.Command, f rateFlags) error {
	format, err := reports.ParseFormat(f.format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	flag, model, allowed := "--method", f.method, rating.Models()
	if f.rating != "" {
		if cmd.Flags().Changed("method") {
			return errors.New("give --method or --rating, not both (--rating is --method for the rating models)")
		}
		flag, model, allowed = "--rating", f.rating, rating.RatingModels()
	} else if !cmd.Flags().Changed("method") && (f.prior != "" || f.out != "") {
		// Ratings files are Glicko-2's: with one, Glicko-2 is the default.
		model = string(rating.ModelGlicko2)
	}
	opt, err := leaderboardOptions(cmd, flag, model, allowed, f.periods)
	if err != nil {
		return err
	}
	if opt.Ranks, err = f.rank.options(cmd); err != nil {
		return err
	}
	if f.results == "" {
		return errors.New("--results is required: the JSON-lines file written by crucible arena")
	}
	ex, err := readExploits(f.exploit, "")
	if err != nil {
		return err
	}
	if f.out != "" {
		if err := checkOutPath("--out", f.out); err != nil {
			return err
		}
		if err := checkNotInput("--out", f.out, "--results", f.results); err != nil {
			return err
		}
	}
	if opt.Model != rating.ModelGlicko2 {
		for _, fl := range []string{"prior", "out"} {
			if cmd.Flags().Changed(fl) {
				return fmt.Errorf("--%s is a Glicko-2 ratings file: it applies to %s glicko2 only, not %s", fl, flag, opt.Model)
			}
		}
	}
	if os.Getenv("GOGC") == "" {
		// Unlike a match, rating keeps what it reads alive (a few words a
		// match): main's heap goal of 5x the live heap would hold 5x that.
		defer debug.SetGCPercent(debug.SetGCPercent(100))
	}
	var matches arena.Collector
	tally, err := streamTally(cmd.ErrOrStderr(), f.results, &matches)
	if err != nil {
		return err
	}
	if tally.Matches() == 0 {
		// As crucible report: an empty file is refused, not rated as an
		// empty leaderboard (a file of failed matches is rated, with a
		// warning).
		return fmt.Errorf("--results %s holds no match to rate", f.results)
	}
	var names []string
	if f.prior != "" {
		data, err := os.ReadFile(f.prior)
		if err != nil {
			return fmt.Errorf("--prior: %w", err)
		}
		if opt.Prior, err = rating.ParseRatings(data, f.prior); err != nil {
			return fmt.Errorf("--prior: %w", err)
		}
		names = slices.Sorted(maps.Keys(opt.Prior))
	}
	if matches.Matches == 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s holds no finished match\n", f.results)
	}
	field := f.field || rating.Lookup(opt.Model).Field
	opt.Field = field
	sum, err := matches.Leaderboard(names, opt)
	if err != nil {
		return fmt.Errorf("--results %s: %w", f.results, err)
	}
	if f.out != "" {
		after := make(map[string]rating.Rating, len(sum.Standings))
		for _, st := range sum.Standings {
			after[st.Name] = st.Rating
		}
		data, err := rating.MarshalRatings(after)
		if err != nil {
			return err
		}
		if err := writeOutFile("--out", f.out, data); err != nil {
			return err
		}
	}
	return reports.WriteSummary(cmd.OutOrStdout(), format, sum, reports.SummaryOptions{Matrix: f.matrix, Pairs: f.pairs, Field: field, Exploit: ex})
}

// streamTally reads a results file (--results) for rating line by line
// into c, holding a few words a match rather than the records: its
// warnings (a half-written last line) and what it skips (failed matches)
// go to warn.
func streamTally(warn io.Writer, path string, c *arena.Collector) (arena.Tally, error) {
	tally, warnings, err := arena.StreamTally(path, func(r arena.Record) error {
		c.Add(r)
		return nil
	})
	var terr *arena.TallyError
	switch {
	case errors.As(err, &terr):
		return arena.Tally{}, fmt.Errorf("--results %s: %w", path, terr.Err)
	case err != nil:
		return arena.Tally{}, fmt.Errorf("--results: %w", err)
	}
	for _, w := range warnings {
		fmt.Fprintln(warn, "warning:", w)
	}
	if note := tally.Note(path); note != "" {
		fmt.Fprintln(warn, "warning:", note)
	}
	return tally, nil
}
