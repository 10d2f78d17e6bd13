package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"crucible/arena"
	"crucible/engine"
	"crucible/reports"
	"crucible/stats"
)

// adaptiveHelp documents --schedule adaptive in crucible arena --help.
const adaptiveHelp = `Adaptive schedule (--schedule adaptive --budget N|DURATION --top K
--confidence C): first every pair once (one round-robin round), then batches
of 32 seat-swapped game pairs chosen where they most reduce the uncertainty of
the top-K order: each goes to the pair of players whose next game pair most
lowers the variance of the least certain of the comparisons that order rests
on (each of the top K over the next, and the K-th over every player below;
certainty = Elo difference over its standard error in the fit of every result
so far), which then counts that reduction. This is the rule of ResponseGraphUCB (Rowland et al.,
"Multiagent evaluation under incomplete information", NeurIPS 2019: play the
least certain edge of the response graph) on the top-K order's edges. The
schedule stops when the probability of the top-K order (the share of 4,000
draws of the ratings from the fit's normal approximation in which it holds)
reaches C, or when the budget ends: N matches, or a duration after which no
batch starts (which makes the result depend on the machine's speed). The
order and its covariance come from a balanced Bradley-Terry fit that weighs
every pair alike (the round robin's estimand, so pairs played more often cannot
reorder a non-transitive field); each pair's unit variance is pooled with two
degrees of freedom of the largest a unit can have, so few units are not taken
as certain. A pair's m-th meeting has the job ids of round m of the round
robin and a seed of the pair's own drawn from --seed, m and the pair: in a
round robin every pair of a round plays the round's seed (in AI Code Battle
one map, which lifts or sinks a player against everyone at once), so the
meetings of different pairs are kept on different seeds, where the fit's
independent units are really independent. Batches are chosen from completed
results only, so the same flags give the same matches at any --workers;
--resume replays the choices and plays only what --out lacks.

The leaderboard printed at the end is the ordinary Bradley-Terry fit of every
match (pairs played more often weigh more); under it (table and Markdown), the
balanced fit the schedule settles, best first, with each player's place in the
leaderboard and whether the two orders agree.

The probability is the one at the stop: looking after every batch and stopping
the first time it reaches C makes a wrong order somewhat more likely than 1-C.

--top and --confidence with --schedule round-robin report after how many
rounds (seeds) the round robin's own results settle the top-K order by the
same measure, for comparison; there the units of a round share its seed, so
the fit's covariance is clustered by seed (cluster-robust sandwich, at least
two rounds).`

// adaptiveFlags are the flags of the adaptive schedule.
type adaptiveFlags struct {
	budget     string
	top        int
	confidence float64
}

func addAdaptiveFlags(fl *pflag.FlagSet, f *adaptiveFlags) {
	fl.StringVar(&f.budget, "budget", "", "--schedule adaptive: the budget, a number of matches (10000) or a duration (10m)")
	fl.IntVar(&f.top, "top", 5, "--schedule adaptive (or round-robin): the leading players whose order is to be settled")
	fl.Float64Var(&f.confidence, "confidence", 0.95, "--schedule adaptive (or round-robin): the probability at which the top order counts as settled, in (0, 1)")
}

// parseBudget reads --budget: a whole number of matches or a duration.
func parseBudget(s string) (matches int, d time.Duration, err error) {
	if s == "" {
		return 0, 0, errors.New("--schedule adaptive needs --budget: a number of matches (e.g. 10000) or a duration (e.g. 10m)")
	}
	if n, err := strconv.Atoi(s); err == nil {
		if n < 2 {
			return 0, 0, fmt.Errorf("--budget %d: want at least 2 matches", n)
		}
		return n, 0, nil
	}
	d, err = time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("--budget %q is neither a number of matches nor a positive duration (10m, 1h30m)", s)
	}
	return 0, d, nil
}

// checkAdaptiveFlags refuses the flags that do not apply to the schedule.
func checkAdaptiveFlags(cmd *cobra.Command, f arenaFlags) error {
	fl := cmd.Flags()
	if f.schedule != "adaptive" {
		if fl.Changed("budget") {
			return fmt.Errorf("--budget applies to --schedule adaptive only")
		}
		if (fl.Changed("top") || fl.Changed("confidence")) && f.schedule != "round-robin" {
			return fmt.Errorf("--top and --confidence apply to --schedule adaptive and round-robin only")
		}
	} else {
		for _, name := range []string{"seeds", "db", "replays"} {
			if fl.Changed(name) {
				return fmt.Errorf("--%s does not apply to --schedule adaptive (it chooses its own rounds and plays them here)", name)
			}
		}
	}
	if !(f.confidence > 0 && f.confidence < 1) {
		return fmt.Errorf("--confidence %v is not in (0, 1)", f.confidence)
	}
	if f.top < 1 {
		return fmt.Errorf("--top %d: want at least 1", f.top)
	}
	return nil
}

// playArenaAdaptive plays the adaptive schedule into --out and prints the
// leaderboard of its results.
func playArenaAdaptive(cmd *cobra.Command, f arenaFlags, game engine.Game, cfg any, entrants []arena.Entrant, format reports.Format) error {
	stderr := cmd.ErrOrStderr()
	budget, dur, err := parseBudget(f.budget)
	if err != nil {
		return err
	}
	n := len(entrants)
	if n < 2 {
		return fmt.Errorf("--schedule adaptive needs at least 2 players, --players gives %d", n)
	}
	if f.top > n {
		return fmt.Errorf("--top %d is above the %d players", f.top, n)
	}
	if budget > 0 && budget < n*(n-1) {
		return fmt.Errorf("--budget %d is below the first round's %d matches (every pair once, both seat orders)", budget, n*(n-1))
	}
	file, err := arena.OpenRunFile(f.out, f.resume)
	if errors.Is(err, arena.ErrResultsExist) {
		return fmt.Errorf("--out %w; refusing to overwrite it: add --resume to continue it, or choose another --out", err)
	}
	if err != nil {
		return fmt.Errorf("--out: %w", err)
	}
	defer file.Discard()
	for _, warn := range file.Prev.Warnings {
		fmt.Fprintln(stderr, "warning:", warn)
	}
	opt := arena.AdaptiveOptions{Top: f.top, Confidence: f.confidence, MaxMatches: budget, Seed: f.seed,
		Run: arena.Options{Workers: f.workers, Config: cfg}}
	start := time.Now()
	if dur > 0 {
		opt.Deadline = start.Add(dur)
	}
	// The leaderboard rates every finished match of the file, as arena's
	// other schedules do; failed ones were played again.
	col := &arena.Collector{}
	for _, r := range file.Prev.Records {
		if r.Error == "" {
			col.Add(r)
		}
	}
	st, runErr := arena.PlayAdaptive(cmd.Context(), game, entrants, file.Prev.Records, opt, func(r arena.Record) error {
		if err := file.Write(r); err != nil {
			return err
		}
		col.Add(r)
		return nil
	})
	if runErr != nil {
		if cmd.Context().Err() != nil {
			fmt.Fprintf(stderr, "interrupted after %d matches; run the same command with --resume to continue from %s\n", st.Matches, f.out)
		}
		if file.Prev.Size > 0 && strings.Contains(runErr.Error(), "recorded job") {
			return fmt.Errorf("--resume %s: %w", f.out, runErr)
		}
		return runErr
	}
	if st.Played > 0 {
		elapsed := time.Since(start)
		fmt.Fprintf(stderr, "played %d matches in %s (%.0f matches/s) with %d workers; results in %s\n",
			st.Played, elapsed.Round(time.Millisecond), float64(st.Played)/elapsed.Seconds(), min(f.workers, st.Played), f.out)
	}
	writeAdaptiveStatus(stderr, st, entrants, f)
	sum, err := rateCollected(cmd, f, col, entrants, st.Played)
	if err != nil {
		return err
	}
	if err := reports.WriteSummary(cmd.OutOrStdout(), format, sum, arenaSummaryOptions(f)); err != nil {
		return err
	}
	if st.Fit == nil {
		return nil
	}
	// The leaderboard is the ordinary fit; the schedule settles the
	// balanced one's order: both are printed, and which is which said.
	var board []string
	for _, s := range sum.Standings {
		board = append(board, s.Name)
	}
	return reports.WriteBalancedOrder(cmd.OutOrStdout(), format, st.Fit.Fit, board, f.top, st.Certainty.Prob)
}

// writeAdaptiveStatus says how the adaptive schedule ended.
func writeAdaptiveStatus(w io.Writer, st arena.AdaptiveState, entrants []arena.Entrant, f arenaFlags) {
	var order []string
	for _, i := range st.Certainty.Order {
		order = append(order, entrants[i].Name)
	}
	how := map[string]string{
		"settled":  "settled",
		"budget":   "not settled when --budget " + f.budget + " ran out",
		"deadline": "not settled when --budget " + f.budget + " ran out",
		"certain":  "not settled, with no uncertainty left to reduce",
	}[st.Stop]
	fmt.Fprintf(w, "adaptive: top %d %s after %d matches in %d batches: P(%s) = %.3f (%d draws; --confidence %g)\n",
		f.top, how, st.Matches, st.Batches, strings.Join(order, " > "), st.Certainty.Prob, st.Certainty.Draws, f.confidence)
}

// writeRoundRobinSettled reports after how many rounds a round robin's
// own results settled the top order.
func writeRoundRobinSettled(w io.Writer, f arenaFlags, entrants []arena.Entrant, recs []arena.Record) error {
	if f.top > len(entrants) {
		return fmt.Errorf("--top %d is above the %d players", f.top, len(entrants))
	}
	rounds, matches, cert, err := arena.RoundRobinSettled(entrants, recs, f.top, f.confidence, 0, f.seed)
	if errors.Is(err, stats.ErrFewClusters) {
		fmt.Fprintf(w, "round robin: top %d not settled by one round: its pairs share the round's seed (one map), and how their results move together needs two rounds at least\n", f.top)
		return nil
	}
	if err != nil {
		return err
	}
	var order []string
	for _, i := range cert.Order {
		order = append(order, entrants[i].Name)
	}
	if rounds == 0 {
		fmt.Fprintf(w, "round robin: top %d not settled at --confidence %g by its %d matches: P(%s) = %.3f after the last round\n", f.top, f.confidence, matches, strings.Join(order, " > "), cert.Prob)
		return nil
	}
	fmt.Fprintf(w, "round robin: top %d settled at --confidence %g after %d rounds, %d matches: P(%s) = %.3f\n", f.top, f.confidence, rounds, matches, strings.Join(order, " > "), cert.Prob)
	return nil
}
