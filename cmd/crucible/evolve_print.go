package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"

	"crucible/evolver"
	"crucible/reports"
)

// evolvePrinter prints a run's events: progress on stderr (a progress bar
// of the matches of each generation and final stage when stderr is a
// terminal, nothing of it otherwise), the selection, the leaderboard and
// the held-out verdict on stdout.
type evolvePrinter struct {
	out, errOut io.Writer
	dir         string
	budgetNote  string // on --resume: what this session's budget is
	err         error  // the first failure to print the leaderboard
	bar         *progressbar.ProgressBar
	stage       string
}

// progress moves the bar of the stage, starting a new one when the stage
// changes; it does nothing when stderr is not a terminal.
func (p *evolvePrinter) progress(e evolver.MatchProgress) {
	if p.bar == nil || p.stage != e.Stage {
		p.clearBar()
		p.bar = newProgressBar(p.errOut, e.Total)
		if p.bar == nil {
			return
		}
		p.stage = e.Stage
		p.bar.Describe(e.Stage)
	}
	if e.Total != p.bar.GetMax() {
		p.bar.ChangeMax(e.Total)
	}
	_ = p.bar.Set(e.Done)
}

// clearBar removes the bar before a line is printed.
func (p *evolvePrinter) clearBar() {
	if p.bar != nil {
		_ = p.bar.Clear()
		p.bar, p.stage = nil, ""
	}
}

func (p *evolvePrinter) event(e evolver.Event) {
	if mp, ok := e.(evolver.MatchProgress); ok {
		p.progress(mp)
		return
	}
	p.clearBar()
	switch e := e.(type) {
	case evolver.RunStarted:
		if e.Resumed {
			fmt.Fprintf(p.errOut, "evolve: resuming the run in %s after %d generations", p.dir, e.Done)
			if p.budgetNote != "" {
				fmt.Fprintf(p.errOut, ": %s", p.budgetNote)
			}
			if e.Budget > 0 {
				fmt.Fprintf(p.errOut, "; it ends within %s (and %s) from now", e.Budget.Round(time.Second), evolver.BudgetMargin(e.Budget).Round(time.Second))
			}
			fmt.Fprintln(p.errOut)
		}
		m := e.Meta
		fmt.Fprintf(p.errOut, "evolve: %s %s by %s, population %d, %d seeds a generation against %d opponents (%s)\n",
			m.Game, m.Base, m.Algorithm, m.Population, m.Seeds, len(m.Pool), strings.Join(m.Pool, ", "))
	case evolver.GenerationDone:
		gs := e.Stats
		limit := fmt.Sprint(e.Generations)
		if e.Generations <= 0 {
			limit = fmt.Sprintf("? (%s of %s)", e.Elapsed.Round(time.Second), e.Budget)
		}
		fmt.Fprintf(p.errOut, "gen %3d/%s  champion %s %.3f (%.0f games, lower %.3f)  base %.3f  generation mean %.3f ± %.3f  [%.3f, %.3f]  %d new  %d reused  %d matches  %.1fs",
			gs.Generation+1, limit, gs.Champion, gs.Best, gs.BestGames, gs.BestLower, gs.Base, gs.Mean, gs.Std, gs.Min, gs.Max, gs.New, gs.Cache.Saved, gs.Matches, gs.WallMS/1000)
		if gs.Note != "" {
			fmt.Fprintf(p.errOut, "  (%s)", gs.Note)
		}
		fmt.Fprintln(p.errOut)
	case evolver.ModelNote:
		fmt.Fprintf(p.errOut, "llm: generation %d: %s\n", e.Generation+1, e.Message)
	case evolver.Warning:
		fmt.Fprintf(p.errOut, "evolve: warning: %s\n", e.Message)
	case evolver.SelectionStarted:
		fmt.Fprintf(p.errOut, "evolve: selection: %d finalists (distinct behaviours) against the field of %d (the pool and the base) on up to %d fresh seeds\n", e.Finalists, e.Field, e.Seeds)
	case evolver.SelectionDone:
		printSelection(p.out, e.Selection)
		fmt.Fprintf(p.out, "champion %s: %s; written to %s\n", e.Champion.Label(), e.Selection.Reason, e.ChampionPath)
	case evolver.TournamentStarted:
		fmt.Fprintf(p.errOut, "evolve: ranking the champion among %d reference strategies on %d fresh seeds, %s\n", e.Reference, e.Seeds, seatsText(e.Seats))
	case evolver.TournamentDone:
		rep := e.Report
		fmt.Fprintf(p.out, "Ranking of the champion among the reference strategies (%d seeds, %s): %s, %d generations, %d matches in %.0fs, stopped by %s\n",
			rep.Plan.Rank, seatsText(rep.RankSeats), rep.Meta.Algorithm, rep.Generations, rep.Matches, rep.ElapsedS, rep.Stopped)
		if err := reports.WriteLeaderboard(p.out, reports.Table, rep.Leaderboard); err != nil && p.err == nil {
			p.err = err
		}
		fmt.Fprintf(p.out, "champion %s: rank %s\n", rep.Champion.Label(), rep.ChampionPlace())
	case evolver.HeadToHeadDone:
		fmt.Fprintln(p.out, "Finalists head-to-head (pairs, both seat orders; reported, it does not choose the champion):")
		if err := reports.WriteLeaderboard(p.out, reports.Table, e.Summary); err != nil && p.err == nil {
			p.err = err
		}
		fmt.Fprintln(p.out, reports.HeadToHeadNote)
	case evolver.HoldoutStarted:
		fmt.Fprintf(p.errOut, "evolve: comparing the champion with the base on %d held-out seeds\n", e.Seeds)
	case evolver.HoldoutDone:
		verdict := "the interval lies above zero: the champion is measurably stronger than the base"
		if !e.Comparison.Significant() {
			verdict = "the interval does not lie above zero: no measurable improvement over the base"
		}
		fmt.Fprintf(p.out, "held-out: %s; %s\n", e.Comparison, verdict)
	}
}

// printSelection prints the finalists' scores against the field.
func printSelection(w io.Writer, s evolver.Selection) {
	by := "the SPRT"
	if s.Method == "race" {
		by = "the race"
	}
	fmt.Fprintf(w, "Selection against the field (%d opponents, %d of %d fresh seeds, both seat orders; %d matches, %d saved by %s):\n",
		len(s.Field), s.SeedsPlayed, s.SeedsPlanned, s.Matches, s.SavedMatches, by)
	for _, f := range s.Finalists {
		line := fmt.Sprintf("  %-22s %.3f [%.3f, %.3f] over %d seeds  distance %.3f", f.Label, f.Rate.Mean, f.Rate.Lo, f.Rate.Hi, f.Rate.Units, f.Distance)
		if f.VsLeader != nil {
			line += fmt.Sprintf("  vs leader %+.3f [%+.3f, %+.3f]", f.VsLeader.Mean, f.VsLeader.Lo, f.VsLeader.Hi)
		}
		if r := f.Race; r != nil {
			line += fmt.Sprintf("  race %s after %d pairs (LLR %+.2f in [%.2f, %.2f])", r.Verdict, r.Pairs, r.LLR, r.Lower, r.Upper)
			if r.By != "" {
				line += " by " + r.By
			}
		}
		switch {
		case f.Dropped:
			line += "  dropped by " + by
		case f.Contender:
			line += "  contender"
		}
		fmt.Fprintln(w, line)
	}
	if s.FamilyError != "" {
		fmt.Fprintln(w, "  race: "+s.FamilyError)
	}
	if s.Note != "" {
		fmt.Fprintln(w, "  "+s.Note)
	}
}

// seatsText says how the matches of a stage seat their players.
func seatsText(seats int) string {
	if seats > 2 {
		return fmt.Sprintf("free-for-all groups of %d, every rotation of the seats, as the search played", seats)
	}
	return "both seat orders"
}
