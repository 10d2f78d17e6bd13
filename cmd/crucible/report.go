package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/evolver"
	"crucible/reports"
	"crucible/strategies"
)

// reportFlags are the report command's options.
type reportFlags struct {
	results, prior, run, out, periods, rating string
	replays, exploit                          string
	rank                                      rankFlags
}

func newReportCmd() *cobra.Command {
	var f reportFlags
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Write an HTML report with plots of arena results or an evolution run",
		Long: `Write one self-contained HTML page (inline CSS and SVG plots, no scripts, no
other files) that a browser opens from disk.

--results FILE (a results file of crucible arena) gives the run's facts (game,
matches, rounds, seeds, independent units, failed matches), the leaderboard
with the same figures crucible arena and crucible rate print (ordered by
--rating, Bradley–Terry by default; W-D-L, units, score % with its interval,
Elo against the field with its bar), a plot of every rating with its interval,
the non-transitive field (each player's α-Rank and Nash-averaging mass, and the
3-cycles of significant wins, e.g. a > b > c > a), a heat map of the pairwise
score matrix, and how every figure is computed. With --replays DIR (the
arena's --replays), a table of every match links to its viewer page
DIR/<job>.html (crucible replay's page, written beside the replay when
missing or older). With --rating glicko2,
--periods chooses the rating periods ("one" for the whole file, as crucible rate
does; "rounds" one per round of the schedule) and --prior starts the players
from a ratings file, as crucible rate --prior does (with --prior, glicko2 is the
default --rating).

` + ratingHelp + `

--ranks adds, under the leaderboard, the table of each player's probability of
each rank with its rank interval (--results only).

--exploit FILE,... (--results only; crucible rate takes it too, in every
format) adds the exploitability column: for each exploit.json of crucible
exploit given (or its --out directory), the score of the best response found
against the player it names, with its 95% interval over fresh seeds, a lower
bound of how exploitable that player is; '-' for a player without one. The
report reads the files, it does not search (crucible exploit --budget takes
minutes a player):
  for p in normal sniper crowd; do crucible exploit --game kindling --player $p --budget 40s --out ex-$p; done
  crucible report --results k.jsonl --exploit ex-normal,ex-sniper,ex-crowd --out k.html
` + rankHelp + `

--run DIR (the --out directory of crucible evolve) gives the run's settings,
the fitness over the generations (the champion's, the candidates' mean and
spread, the base's), the champion's parameters against the base's defaults,
the held-out comparison and the ranking tournament's leaderboard. A run whose
final stages have not run (stopped or still searching) is reported as far as
it got.

The same input gives the same bytes. --out is replaced atomically: an error
leaves no file and no earlier report half-overwritten.

  crucible report --results results.jsonl --out report.html
  crucible report --results tonight.jsonl --rating glicko2 --prior ladder.json --out tonight.html
  crucible report --run runs/demo/evolve --out evolve.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReport(cmd, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.results, "results", "", "arena results file (JSON lines from crucible arena) to report on; or --run")
	fl.StringVar(&f.rating, "rating", string(rating.ModelBT), "--results: model the leaderboard is ordered by: "+modelList(rating.RatingModels()))
	fl.StringVar(&f.prior, "prior", "", "--results: Glicko-2 ratings file the players start from (default: everyone at 1500 / 350 / 0.06); makes glicko2 the default --rating")
	fl.StringVar(&f.periods, "periods", string(rating.OnePeriod), `--results --rating glicko2: "one" rates the whole file as one period (as crucible rate), "rounds" one period per round`)
	fl.StringVar(&f.replays, "replays", "", "--results: the --replays directory of the arena run: the report lists every match with a link to its viewer page <job>.html (written beside <job>.json when missing)")
	fl.StringVar(&f.run, "run", "", "evolution run directory (the --out of crucible evolve) to report on; or --results")
	fl.StringVar(&f.out, "out", "report.html", "HTML file to write (replaced atomically)")
	addRankFlags(fl, &f.rank)
	addExploitFlag(fl, &f.exploit)
	return cmd
}

// runReport checks the flags, builds the page and writes it.
func runReport(cmd *cobra.Command, f reportFlags) error {
	switch {
	case f.results != "" && f.run != "":
		return errors.New("give either --results (an arena results file) or --run (an evolve run directory), not both")
	case f.results == "" && f.run == "":
		return errors.New("nothing to report on: give --results FILE (an arena results file) or --run DIR (an evolve run directory)")
	case f.run != "" && f.prior != "":
		return errors.New("--prior applies to --results only (an evolve run's tournament starts every player afresh)")
	case f.run != "" && cmd.Flags().Changed("periods"):
		return errors.New("--periods applies to --results only")
	case f.run != "" && f.replays != "":
		return errors.New("--replays applies to --results only (the arena run's replay directory)")
	case f.run != "" && cmd.Flags().Changed("rating"):
		return errors.New("--rating applies to --results only (an evolve run's tournament is rated by the run)")
	case f.run != "" && f.rank.ranks:
		return errors.New("--ranks applies to --results only")
	case f.run != "" && f.exploit != "":
		return errors.New("--exploit applies to --results only")
	}
	model := f.rating
	if !cmd.Flags().Changed("rating") && f.prior != "" {
		// A ratings file is Glicko-2's: with one, Glicko-2 is the default.
		model = string(rating.ModelGlicko2)
	}
	opt, err := leaderboardOptions(cmd, "--rating", model, rating.RatingModels(), f.periods)
	if err != nil {
		return err
	}
	if opt.Ranks, err = f.rank.options(cmd); err != nil {
		return err
	}
	if f.prior != "" && opt.Model != rating.ModelGlicko2 {
		return fmt.Errorf("--prior is a Glicko-2 ratings file: it applies to --rating glicko2 only, not %s", opt.Model)
	}
	if f.out == "" {
		return errors.New("--out must name the HTML file to write")
	}
	if err := checkOutPath("--out", f.out); err != nil {
		return err
	}
	if err := checkNotInput("--out", f.out, "--results", f.results); err != nil {
		return err
	}
	if err := checkNotInput("--out", f.out, "--prior", f.prior); err != nil {
		return err
	}
	var buf bytes.Buffer
	stderr := cmd.ErrOrStderr()
	if f.results != "" {
		pg, warnings, err := arenaPage(f, opt)
		for _, w := range warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
		if err != nil {
			return err
		}
		game := ""
		if len(pg.Facts.Games) == 1 {
			game = pg.Facts.Games[0]
		}
		if pg.Exploit, err = readExploits(f.exploit, game); err != nil {
			return err
		}
		if err := reports.WriteArenaHTML(&buf, pg); err != nil {
			return err
		}
	} else {
		pg, warnings, err := evolvePage(f.run)
		for _, w := range warnings {
			fmt.Fprintln(stderr, "warning:", w)
		}
		if err != nil {
			return err
		}
		if err := reports.WriteEvolveHTML(&buf, pg); err != nil {
			return err
		}
	}
	if err := writeOutFile("--out", f.out, buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "report written to %s (%d bytes)\n", f.out, buf.Len())
	return nil
}

// arenaPage reads and rates a results file.
func arenaPage(f reportFlags, opt rating.Options) (reports.ArenaPage, []string, error) {
	res, err := arena.LoadResults(f.results)
	if err != nil {
		return reports.ArenaPage{}, nil, fmt.Errorf("--results: %w", err)
	}
	tally, err := arena.NewTally(res.Records)
	if err != nil {
		return reports.ArenaPage{}, res.Warnings, fmt.Errorf("--results %s: %w", f.results, err)
	}
	if note := tally.Note(f.results); note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	if tally.Matches() == 0 {
		return reports.ArenaPage{}, res.Warnings, fmt.Errorf("--results %s holds no match to report on", f.results)
	}
	// The matches the page is about: the finished ones and those that
	// failed for good (failed records a resumed run finished are left
	// out).
	recs := append(slices.Clip(tally.Finished), tally.Failed...)
	if f.prior != "" {
		data, err := os.ReadFile(f.prior)
		if err != nil {
			return reports.ArenaPage{}, res.Warnings, fmt.Errorf("--prior: %w", err)
		}
		if opt.Prior, err = rating.ParseRatings(data, f.prior); err != nil {
			return reports.ArenaPage{}, res.Warnings, fmt.Errorf("--prior: %w", err)
		}
	}
	// Every player of the file, failed matches included, in order of
	// appearance (the order does not change the ratings); a failed match
	// of an earlier version may have unnamed seats.
	var names []string
	seen := map[string]bool{}
	for _, r := range res.Records {
		for _, p := range r.Players {
			if p.Name != "" && !seen[p.Name] {
				seen[p.Name] = true
				names = append(names, p.Name)
			}
		}
	}
	for _, n := range slices.Sorted(maps.Keys(opt.Prior)) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	opt.Field = true
	sum, err := arena.Leaderboard(names, tally.Finished, opt)
	if err != nil {
		return reports.ArenaPage{}, res.Warnings, fmt.Errorf("--results %s: %w", f.results, err)
	}
	pg := reports.ArenaPage{Source: f.results, Prior: f.prior, Facts: reports.NewArenaFacts(recs), Summary: sum, Method: sum.Method}
	if f.replays != "" {
		rows, warnings, err := matchRows(f, recs)
		res.Warnings = append(res.Warnings, warnings...)
		if err != nil {
			return reports.ArenaPage{}, res.Warnings, err
		}
		pg.Matches, pg.ReplayDir = rows, f.replays
	}
	return pg, res.Warnings, nil
}

// matchRows is the report's match table: every record with a link,
// relative to --out, to its viewer page in --replays.
func matchRows(f reportFlags, recs []arena.Record) ([]reports.MatchRow, []string, error) {
	recs = slices.Clone(recs)
	slices.SortStableFunc(recs, func(a, b arena.Record) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return strings.Compare(a.Job, b.Job)
	})
	refs := make([]replayRef, len(recs))
	for i, r := range recs {
		refs[i] = replayRef{ID: r.Job, Game: r.Game}
	}
	pages, _, warnings, err := viewerPages(context.Background(), f.replays, refs, nil)
	if err != nil {
		return nil, warnings, err
	}
	if len(pages) == 0 {
		warnings = append(warnings, fmt.Sprintf("--replays %s holds no replay of the matches of %s (<job>.json): the match table has no links", f.replays, f.results))
	}
	rows := make([]reports.MatchRow, len(recs))
	for i, r := range recs {
		link := ""
		if page, ok := pages[r.Job]; ok {
			if link, err = relativeLink(f.out, page); err != nil {
				return nil, warnings, fmt.Errorf("--replays: %w", err)
			}
		}
		rows[i] = reports.NewMatchRow(r, link)
	}
	return rows, warnings, nil
}

// evolvePage maps a run directory of crucible evolve (read by
// evolver.OpenRun) to the report's page, with the reading's warnings.
func evolvePage(dir string) (reports.EvolvePage, []string, error) {
	var pg reports.EvolvePage
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return pg, nil, fmt.Errorf("--run %s is not a directory (for a results file use --results)", dir)
	}
	run, err := evolver.OpenRun(dir)
	if err != nil {
		var warnings []string
		if run != nil {
			warnings = run.Warnings
		}
		return pg, warnings, fmt.Errorf("--run %w", err)
	}
	warnings := run.Warnings
	meta, gens, rep := run.Meta, run.Generations, run.Report

	pg.Dir = dir
	pg.Base = meta.Base
	if pg.Archive, err = archivePage(dir); err != nil {
		return pg, warnings, fmt.Errorf("--run %w", err)
	}
	pg.Settings = runSettings(meta)
	for _, g := range gens {
		pg.Generations = append(pg.Generations, reports.Generation{Generation: g.Generation, Best: g.Best, Base: g.Base,
			Mean: g.Mean, Min: g.Min, Max: g.Max})
	}
	var champion, base *strategies.Variant
	switch {
	case rep != nil:
		pg.Outcome = []reports.Fact{
			{Name: "generations", Value: strconv.Itoa(rep.Generations)},
			{Name: "matches", Value: strconv.Itoa(rep.Matches)},
			{Name: "search time", Value: seconds(rep.ElapsedS)},
			{Name: "total time (final stages included)", Value: seconds(rep.ElapsedTotalS)},
			{Name: "stopped by", Value: rep.Stopped},
			{Name: "evaluations saved by the behaviour cache", Value: fmt.Sprintf("%d (%d of them another genome with the same fingerprint), about %d matches; the fingerprints cost %d probe matches",
				rep.Cache.Saved, rep.Cache.ByFingerprint, rep.Cache.SavedMatches, rep.Cache.ProbeMatches)},
			{Name: "final-stage matches", Value: strconv.Itoa(rep.FinalMatches)},
			{Name: "champion's rank among the reference strategies", Value: rep.ChampionPlace()},
		}
		if s := rep.Selection; s != nil {
			pg.Outcome = append(pg.Outcome, reports.Fact{Name: "champion chosen for", Value: s.Reason})
			if s.Method == "race" {
				pg.Outcome = append(pg.Outcome, reports.Fact{Name: "selection race", Value: fmt.Sprintf("%d matches played, %d saved against every finalist on every seed; %s", s.Matches, s.SavedMatches, s.FamilyError)})
			}
			for _, f := range s.Finalists {
				v := fmt.Sprintf("%.3f [%.3f, %.3f] against the field over %d seeds, distance to the base %.3f", f.Rate.Mean, f.Rate.Lo, f.Rate.Hi, f.Rate.Units, f.Distance)
				switch {
				case f.Race != nil:
					v += fmt.Sprintf(", race: %s after %d pairs", f.Race.Verdict, f.Race.Pairs)
				case f.Dropped:
					v += ", dropped by the SPRT"
				}
				pg.Outcome = append(pg.Outcome, reports.Fact{Name: "finalist " + f.Label, Value: v})
			}
		}
		champion, base = &rep.Champion, &rep.Base
		pg.Champion, pg.ChampionNote = rep.Champion.Label(), rep.Champion.Note
		for _, v := range rep.Ranked {
			pg.Evolved = append(pg.Evolved, v.Label())
		}
		if rep.HeadToHead != nil && rep.Plan.HeadToHead > 0 {
			pg.HeadToHead, pg.HeadToHeadSeeds = rep.HeadToHead, rep.Plan.HeadToHead
		}
		if h := rep.Holdout; h != nil {
			pg.Holdout = &reports.Holdout{A: h.A, B: h.B, Opponents: h.Opponents, Seeds: h.Seeds, GamesPerSide: h.GamesPerSide,
				RateA: h.RateA, RateB: h.RateB, Diff: h.Diff, Lo: h.Lo, Hi: h.Hi}
		}
	case run.Champion != nil:
		// The final tournament ran but report.json is missing or empty:
		// the champion, the ranked finalists and the leaderboard are in
		// their own files.
		pg.Notes = append(pg.Notes, fmt.Sprintf("%s is missing or empty, so the search's totals and the held-out comparison are not shown; "+
			"the champion and the final tournament come from %s, %s/ and %s.", evolver.ReportFile, evolver.ChampionFile, evolver.RankedDir, evolver.LeaderboardFile))
		pg.Outcome = searchSoFar(gens, "generations")
		champion = run.Champion
		pg.Champion, pg.ChampionNote = champion.Label(), champion.Note
		for _, v := range run.Ranked {
			pg.Evolved = append(pg.Evolved, v.Label())
		}
	default:
		pg.Notes = append(pg.Notes, fmt.Sprintf("The final stages have not run (there is no %s): the search was stopped or is still running. "+
			"crucible evolve --out %s --resume continues it.", evolver.ReportFile, dir))
		pg.Outcome = searchSoFar(gens, "generations so far")
		if v := run.HallChampion; v != nil {
			champion = v
			pg.Champion = v.Label()
			pg.ChampionNote = fmt.Sprintf("the search's latest champion (%s), not yet ranked by a final tournament", run.HallFile)
		}
	}
	if rep != nil || run.Champion != nil {
		if run.Leaderboard == nil {
			pg.Notes = append(pg.Notes, fmt.Sprintf("%s is missing: the final tournament's leaderboard is not shown.", evolver.LeaderboardFile))
		} else {
			pg.Leaderboard = run.Leaderboard
		}
	}
	if champion != nil {
		reg, err := newRegistry()
		if text, rules, ok := programOf(reg, err, *champion); ok {
			// A program's parameters are its rule slots: the text reads.
			pg.Program, pg.ProgramRules = text, rules
		} else {
			params, note := paramRows(meta, champion, base, dir)
			pg.Params = params
			if note != "" {
				pg.Notes = append(pg.Notes, note)
			}
		}
	}
	return pg, warnings, nil
}
