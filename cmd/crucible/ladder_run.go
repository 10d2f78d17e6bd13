package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"crucible/arena/rating"
	"crucible/ladder"
	"crucible/reports"
)

// ladderRunFlags are the options of ladder run.
type ladderRunFlags struct {
	night, config, secret, replays, format string
	budget                                 time.Duration
	workers, seeds, factor, chunk          int
	sprt                                   sprtFlags
	queue                                  string // ladder_queue.go
	// Races and adaptive nights (ladder_race.go).
	racePairs, top, maxMatches int
	schedule                   string
	confidence                 float64
}

func newLadderRunCmd(o *ladderOpts) *cobra.Command {
	var f ladderRunFlags
	d := rating.Default()
	reg := ladder.DefaultRegression()
	cmd := &cobra.Command{
		Use:   "run",
		Short: "Play one night of the ladder and rate it",
		Long: fmt.Sprintf(`Play one night: choose the pairings by information, play them with the arena,
record the results in the database in chunks of the schedule as they finish,
and close the night as ONE Glicko-2 rating period; then print the standings
and the regression tests of new versions.

Pairings: every pair of the active entrants' current versions, ordered by the
information a game between them is expected to bring (the variance of their
rating difference, RD_a^2 + RD_b^2, times the variance of the game's outcome,
p(1-p)): pairs of uncertain, close players first. Each pair plays
--seeds-per-night seeds in both seat orders; a pair with a version not rated
yet (a new entrant or a new version) plays --new-version-factor times as many.
The schedule goes round by round, so a budget that runs out cuts the least
informative games.

Rating: Glicko-2 with tau = %.1f; a new entrant starts at %.0f, RD %.0f,
volatility %.2f; a new version starts at its entrant's rating with RD %.0f and
volatility %.2f; entrants that did not play see their RD grow; convergence
epsilon %g. The tunables are stored with the night.

Regression alarm: when an entrant has a new version, the night also plays a
pentanomial SPRT of the new version against its previous one (by default
fishtest's non-regression test: H0 = %g, H1 = %g %s Elo,
alpha %g, beta %g): --sprt-pairs game pairs a night, each one seed in both
seat orders (new version first, then the previous one first), spread over the
night's rounds. These games are recorded and exported but not rated. The test goes
on night after night until the log-likelihood ratio crosses a bound: H1, the
new version is not weaker; H0, it is weaker than its predecessor, a
regression. A test keeps the bounds it started with; a newer version stops
it and starts its own, against the version before it.

%s

%s

Recording: the night's schedule is cut into chunks of --chunk jobs (by
default about 150 ms of play), each written whole, with the arena's result
lines, in one row when its last match ends; a kill loses at most the chunks
in flight. The night is idempotent: run again after a crash, kill -9 or
Ctrl-C, and it continues the night left open with the schedule it started
with, so it ends as an uninterrupted night would; a night whose label is
already closed plays nothing. --budget bounds the night's playing time,
summed over the runs that play it; when it is spent the night is closed
with the matches played.

Exit status: 0 when the night is closed (or was already) and no regression
stands; %d when an entrant's current version stands found weaker than its
previous version (its test accepted H0), on the night that finds it and on
every later run until the entrant gets a new version or is removed, so a
cron job or CI step fails loudly; 1 on an error; 130 when interrupted (the
night stays open, the next run continues it).

  crucible ladder run --budget 20m
  crucible ladder run --night 2025-06-01 --seeds-per-night 8 --workers 2
  crucible ladder run --sprt-pairs 500 --sprt-elo0 -5 --sprt-elo1 0
  crucible ladder run --schedule adaptive --top 3 --confidence 0.95 --max-matches 5000`,
			d.Tau, d.Initial.Rating, d.Initial.RD, d.Initial.Volatility, d.Initial.RD, d.Initial.Volatility, d.Epsilon,
			reg.Test.Elo0, reg.Test.Elo1, reg.Test.Model, reg.Test.Alpha, reg.Test.Beta, ladderRaceHelp, ladderAdaptiveHelp, exitRegression),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLadderNight(cmd, o, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.night, "night", "", "label of the night (default: today's date in UTC); a night left open is continued whatever its label")
	fl.DurationVar(&f.budget, "budget", 20*time.Minute, "playing time of the night (0: play the whole schedule)")
	fl.IntVar(&f.workers, "workers", runtime.NumCPU(), fmt.Sprintf("matches played at once, 1 to %d", maxWorkers))
	fl.IntVar(&f.seeds, "seeds-per-night", ladder.DefaultSeedsPerNight, "seeds each pair plays, both seat orders on each, 1 to 100000")
	fl.IntVar(&f.factor, "new-version-factor", ladder.DefaultNewVersionFactor, "seeds multiplier of a pair with a version not rated yet, 1 to 100")
	fl.StringVar(&f.config, "config", "", configHelp()+"; a continued night must use the one it started with")
	fl.StringVar(&f.secret, "secret", "", "shared secret of --url entrants (default $ACB_SECRET, else $SHARED_SECRET)")
	fl.StringVar(&f.replays, "replays", "", "directory that keeps each match's replay as <night>/<job>.json (the directory is recorded with the night's chunks)")
	fl.StringVar(&f.format, "format", "table", "standings format: "+strings.Join(reports.Formats, ", "))
	fl.IntVar(&f.chunk, "chunk", 0, "jobs a recorded chunk holds, 0 to 1000000 (0: about 150 ms of play); a continued night keeps its own")
	fl.IntVar(&f.racePairs, "race-pairs", ladder.DefaultRacePairs, "game pairs each race of candidate versions counts a night, 0 to 1000000 (0: no race tonight)")
	fl.StringVar(&f.schedule, "schedule", ladder.ScheduleFixed, "rated matches: fixed (every pair's seeds planned at the start) or adaptive (chosen in batches to settle the top --top order, see above); a continued night keeps its own")
	fl.IntVar(&f.top, "top", 3, "--schedule adaptive: the leading versions whose order is to be settled")
	fl.Float64Var(&f.confidence, "confidence", 0.95, "--schedule adaptive: the probability at which the top order counts as settled, in (0, 1)")
	fl.IntVar(&f.maxMatches, "max-matches", 0, "--schedule adaptive: most rated matches of the night (0: no cap but --budget); at least n(n-1) for n versions (every pair once in both seat orders)")
	addSPRTFlags(cmd, &f.sprt)
	addLadderQueueFlag(fl, &f)
	return cmd
}

func runLadderNight(cmd *cobra.Command, o *ladderOpts, f ladderRunFlags) error {
	format, err := reports.ParseFormat(f.format)
	if err != nil {
		return fmt.Errorf("--format: %w", err)
	}
	if f.workers < 1 || f.workers > maxWorkers {
		return fmt.Errorf("--workers %d is outside its range [1, %d]", f.workers, maxWorkers)
	}
	if f.seeds < 1 || f.seeds > 100000 {
		return fmt.Errorf("--seeds-per-night %d is outside its range [1, 100000]", f.seeds)
	}
	if f.factor < 1 || f.factor > 100 {
		return fmt.Errorf("--new-version-factor %d is outside its range [1, 100]", f.factor)
	}
	if f.budget < 0 {
		return fmt.Errorf("--budget %s is negative", f.budget)
	}
	if f.chunk < 0 || f.chunk > 1000000 {
		return fmt.Errorf("--chunk %d is outside its range [0, 1000000]", f.chunk)
	}
	if err := checkLadderQueue(o, f); err != nil {
		return err
	}
	regression, err := f.sprt.options()
	if err != nil {
		return err
	}
	if f.racePairs < 0 || f.racePairs > 1000000 {
		return fmt.Errorf("--race-pairs %d is outside its range [0, 1000000]", f.racePairs)
	}
	racePairs := f.racePairs
	if racePairs == 0 {
		racePairs = -1
	}
	schedule, adaptive, err := adaptiveNightOptions(cmd, f)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	s, err := o.open(ctx)
	if err != nil {
		return err
	}
	defer s.Close()
	info, err := s.Info(ctx)
	if err != nil {
		return err
	}
	game, err := lookupGame(info.Game)
	if err != nil {
		return err
	}
	var cfg any
	if f.config != "" {
		data, err := readGameConfig(info.Game, f.config)
		if err != nil {
			return err
		}
		if cfg, err = game.ParseConfig(data); err != nil {
			return fmt.Errorf("--config %s: %w", f.config, err)
		}
	}
	reg, err := newRegistry()
	if err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	opt := ladder.NightOptions{Label: f.night, SeedsPerNight: f.seeds, NewVersionFactor: f.factor, Budget: f.budget,
		Workers: f.workers, GameConfig: cfg, ReplayDir: f.replays, ChunkSize: f.chunk, Regression: &regression,
		RacePairs: racePairs, Schedule: schedule, Adaptive: adaptive}
	play, closeQueue, err := ladderQueue(cmd, o, f)
	if err != nil {
		return err
	}
	defer closeQueue()
	opt.Play = play
	start := time.Now()
	// The bar is made once the night's size is known (Started), before
	// the first match ends; both run on RunNight's goroutine.
	var progress func(done, total int)
	opt.Progress = func(done, total int) {
		if progress != nil {
			progress(done, total)
		}
	}
	opt.Started = func(n ladder.Night, resumed bool, todo int) {
		verb := "starting"
		if resumed {
			verb = "continuing"
		}
		budget := "no budget"
		if n.Budget > 0 {
			budget = fmt.Sprintf("budget %s, %s spent", n.Budget, n.Spent.Round(time.Second))
		}
		tests := ""
		if len(n.Config.Regression) > 0 {
			games := 0
			for _, r := range n.Config.Regression {
				games += 2 * r.Pairs
			}
			tests = fmt.Sprintf(" (%d of them games of %d regression tests)", games, len(n.Config.Regression))
		}
		fmt.Fprintf(stderr, "%s night %s (#%d): %d matches planned%s, %d to play, %s\n", verb, n.Label, n.ID, n.Planned, tests, todo, budget)
		if a := n.Config.Adaptive; a != nil {
			fmt.Fprintf(stderr, "adaptive schedule: rated matches chosen in batches until the top %d order is settled at %g%% (max matches %d, 0: none)\n", a.Top, 100*a.Confidence, a.MaxMatches)
		}
		for _, r := range n.Config.Races {
			fmt.Fprintf(stderr, "race %d: %d candidate versions against version %d, up to %d pairs tonight, after the planned matches\n", r.Race, len(r.Candidates), r.Baseline, r.Pairs)
		}
		if bar := newProgressBar(stderr, todo); bar != nil {
			var last time.Time
			progress = func(done, total int) {
				if done == total || time.Since(last) >= 100*time.Millisecond {
					bar.Set(done)
					last = time.Now()
				}
			}
		}
	}
	// Outside bots stored with ladder add --bot start for this night.
	dbPath, _ := o.path()
	bs := newBotSession(ladderBotLogDir(dbPath), stderr)
	defer bs.Close()
	res, err := s.RunNight(ctx, game, ladderBuilder(reg, info.Game, f.secret, bs), opt)
	elapsed := time.Since(start)
	if progress != nil {
		fmt.Fprintln(stderr)
	}
	if err != nil {
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "interrupted: %d matches of night %s recorded this run; crucible ladder run continues it\n", res.Played, res.Night.Label)
		}
		return err
	}
	n := res.Night
	switch {
	case res.AlreadyClosed:
		fmt.Fprintf(stderr, "night %s was closed at %s; nothing to play (give --night for another)\n", n.Label, n.ClosedAt)
	case res.BudgetSpent:
		fmt.Fprintf(stderr, "budget of %s spent: night %s closed with %d of %d planned matches (%d played now in %s)\n",
			n.Budget, n.Label, res.Recorded, n.Planned, res.Played, elapsed.Round(time.Millisecond))
	default:
		fmt.Fprintf(stderr, "night %s closed: %d matches (%d played now in %s, %.0f matches/s), rated as one Glicko-2 period\n",
			n.Label, res.Recorded, res.Played, elapsed.Round(time.Millisecond), float64(res.Played)/elapsed.Seconds())
	}
	for _, t := range res.Regression {
		fmt.Fprintf(stderr, "regression test of %s: %s\n", t.Label, t.Describe())
	}
	for _, r := range res.Races {
		fmt.Fprintf(stderr, "race %d of %s: %s\n", r.ID, r.Entrant, raceSummary(r))
	}
	if res.Adaptive != nil {
		fmt.Fprintln(stderr, res.Adaptive.Describe(*n.Config.Adaptive))
	}
	st, err := s.Standings(ctx)
	if err != nil {
		return err
	}
	tests, err := s.RegressionTests(ctx)
	if err != nil {
		return err
	}
	races, err := s.Races(ctx)
	if err != nil {
		return err
	}
	if err := writeLadderStandings(cmd.OutOrStdout(), format, st, tests, races, reports.SummaryOptions{}); err != nil {
		return err
	}
	var regressed []ladder.RegressionTest
	for _, t := range tests {
		if t.Current && t.Regressed() {
			regressed = append(regressed, t)
		}
	}
	if len(regressed) > 0 {
		return &regressionError{tests: regressed}
	}
	return nil
}
