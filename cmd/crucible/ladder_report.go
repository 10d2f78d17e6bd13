package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/ladder"
	"crucible/reports"
)

func newLadderReportCmd(o *ladderOpts) *cobra.Command {
	var out string
	var rank rankFlags
	cmd := &cobra.Command{
		Use:   "report",
		Short: "Write the ladder as one HTML page",
		Long: `Write one self-contained HTML page (CSS and SVG plots inline, no scripts) on the
ladder: its facts; the standings of the current versions with their ratings
plot and the last night's score matrix; a rating-history plot per entrant
over the nights (each version in its own colour, the night a new version
starts marked); the last night's facts, its pairs' results and its first
` + strconv.Itoa(reports.MaxLadderMatches) + ` matches; and every regression test with its counts, its
log-likelihood ratio between its bounds and its verdict. A standing
regression is flagged at the top. The same ladder gives the same bytes.
--out is replaced atomically. --ranks adds under the standings the table of
ladder standings --ranks (each entrant's probability of each rank over the last
night, by a seeded bootstrap of its units).

  crucible ladder report --out ladder.html
  crucible ladder report --ranks --out ladder.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return errors.New("--out must name the HTML file to write")
			}
			if err := checkOutPath("--out", out); err != nil {
				return err
			}
			if db := o.where(); !ladder.IsPostgres(db) {
				if err := checkNotInput("--out", out, "--db", db); err != nil {
					return err
				}
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
			pg, err := ladderPage(cmd.Context(), s, ranks)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := reports.WriteLadderHTML(&buf, pg); err != nil {
				return err
			}
			if err := writeOutFile("--out", out, buf.Bytes()); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "ladder report written to %s (%d bytes)\n", out, buf.Len())
			return nil
		},
	}
	cmd.Flags().StringVar(&out, "out", "ladder.html", "HTML file to write (replaced atomically)")
	addRankFlags(cmd.Flags(), &rank)
	return cmd
}

// ladderPage gathers the report of the ladder in s, with the rank table
// when ranks is not nil.
func ladderPage(ctx context.Context, s *ladder.Store, ranks *rating.RankOptions) (reports.LadderPage, error) {
	pg := reports.LadderPage{Source: s.Where(), Regressed: map[string]string{}}
	info, err := s.Info(ctx)
	if err != nil {
		return pg, err
	}
	st, err := s.RankedStandings(ctx, ranks)
	if err != nil {
		return pg, err
	}
	pg.Standings = st.Summary
	tests, err := s.RegressionTests(ctx)
	if err != nil {
		return pg, err
	}
	counts := map[string]int{}
	for _, t := range tests {
		counts[t.Verdict]++
		if t.Current && t.Regressed() {
			pg.Regressed[t.Label] = t.Describe()
		}
		lt := reports.LadderTest{Version: t.Label, Baseline: t.BaselineLabel, Started: t.Started, Night: t.Night, Nights: t.Nights,
			Hypotheses: t.Hypotheses(), Counts: t.Counts, LLR: t.LLR, Lower: t.Lower, Upper: t.Upper, Verdict: t.Verdict, Current: t.Current}
		if e := t.Elo; e != nil {
			lt.HasElo = true
			lt.Score, lt.ScoreLo, lt.ScoreHi, lt.Elo, lt.EloLo, lt.EloHi = e.Score, e.ScoreLo, e.ScoreHi, e.Elo, e.EloLo, e.EloHi
		}
		pg.Tests = append(pg.Tests, lt)
	}
	nights, err := s.Nights(ctx)
	if err != nil {
		return pg, err
	}
	index := map[int64]int{}
	imports := 0
	for _, n := range nights {
		if n.ClosedAt == "" {
			continue
		}
		index[n.ID] = len(pg.Nights)
		pg.Nights = append(pg.Nights, n.Label)
		if n.Kind == ladder.KindImport {
			imports++
		}
	}
	entrants, err := s.Entrants(ctx, true)
	if err != nil {
		return pg, err
	}
	active := 0
	for _, e := range entrants {
		if e.RemovedAt == "" {
			active++
		}
		h, err := s.History(ctx, e.Name)
		if err != nil {
			return pg, err
		}
		if len(h) == 0 && e.RemovedAt != "" {
			continue
		}
		lh := reports.LadderHistory{Entrant: e.Name}
		if e.RemovedAt != "" {
			lh.Entrant += " (removed)"
		}
		for _, p := range h {
			lh.Points = append(lh.Points, reports.LadderPoint{Night: index[p.Night], Version: p.VersionNumber, Label: p.Label,
				Rating: p.Rating.Rating, RD: p.RD})
		}
		pg.Histories = append(pg.Histories, lh)
	}
	matches, err := s.MatchCount(ctx, 0)
	if err != nil {
		return pg, err
	}
	var verdicts []string
	for _, v := range []string{ladder.VerdictRunning, ladder.VerdictPending, ladder.VerdictH0, ladder.VerdictH1} {
		if counts[v] > 0 {
			verdicts = append(verdicts, fmt.Sprintf("%d %s", counts[v], v))
		}
	}
	pg.Facts = []reports.Fact{
		{Name: "game", Value: info.Game},
		{Name: "created", Value: info.CreatedAt},
		{Name: "entrants", Value: fmt.Sprintf("%d in the ladder, %d removed", active, len(entrants)-active)},
		{Name: "nights", Value: fmt.Sprintf("%d closed (%d of them imports)", len(pg.Nights), imports)},
		{Name: "matches recorded", Value: strconv.Itoa(matches)},
		{Name: "regression tests", Value: orNoneText(strings.Join(verdicts, ", "))},
	}
	races, err := s.Races(ctx)
	if err != nil {
		return pg, err
	}
	pg.Facts = append(pg.Facts, raceFacts(races)...)
	if st.Night.ID != 0 {
		if pg.Night, err = ladderNightPage(ctx, s, st.Night, tests); err != nil {
			return pg, err
		}
	}
	return pg, nil
}

func orNoneText(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// ladderNightPage gathers a night's section of the report: its facts,
// its rated pairs' results (A before B by label) and its first matches.
func ladderNightPage(ctx context.Context, s *ladder.Store, n ladder.Night, tests []ladder.RegressionTest) (*reports.LadderNight, error) {
	ln := &reports.LadderNight{Label: n.Label}
	type key struct{ a, b string }
	pairs := map[key]*reports.LadderPair{}
	var played []string
	total := 0
	err := s.Export(ctx, n.ID, func(r arena.Record) error {
		total++
		m := reports.LadderMatch{Job: r.Job, Round: r.Round, Seed: r.Seed, Scores: r.Scores, Ranks: r.Ranks, Turns: r.Turns,
			Reason: r.Reason, Error: r.Error}
		for _, p := range r.Players {
			m.Players = append(m.Players, p.Name)
		}
		if ladder.IsRegressionGame(r.Job) {
			ln.TestGames++
			if len(ln.Games) < reports.MaxLadderGames {
				ln.Games = append(ln.Games, m)
			}
			return nil
		}
		ln.Rated++
		if len(ln.Matches) < reports.MaxLadderMatches {
			ln.Matches = append(ln.Matches, m)
		}
		if r.Error != "" {
			return nil
		}
		for _, o := range r.Outcomes() {
			a, b, score := o.A, o.B, o.Score
			if a > b {
				a, b, score = b, a, 1-score
			}
			p := pairs[key{a, b}]
			if p == nil {
				p = &reports.LadderPair{A: a, B: b}
				pairs[key{a, b}] = p
			}
			switch {
			case score > 0.5:
				p.Wins++
			case score < 0.5:
				p.Losses++
			default:
				p.Draws++
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, p := range pairs {
		ln.Pairs = append(ln.Pairs, *p)
	}
	sort.Slice(ln.Pairs, func(i, j int) bool {
		if ln.Pairs[i].A != ln.Pairs[j].A {
			return ln.Pairs[i].A < ln.Pairs[j].A
		}
		return ln.Pairs[i].B < ln.Pairs[j].B
	})
	for _, t := range tests {
		for _, r := range n.Config.Regression {
			if r.Test == t.ID {
				played = append(played, fmt.Sprintf("%s against %s (%d pairs)", t.Label, t.BaselineLabel, r.Pairs))
			}
		}
	}
	budget := "none"
	if n.Budget > 0 {
		budget = n.Budget.String()
	}
	ln.Facts = []reports.Fact{
		{Name: "night", Value: fmt.Sprintf("%s (#%d, %s)", n.Label, n.ID, n.Kind)},
		{Name: "started", Value: n.StartedAt},
		{Name: "closed", Value: n.ClosedAt},
		{Name: "matches", Value: fmt.Sprintf("%d recorded of %d planned: %d rated, %d games of regression tests and races", total, n.Planned, ln.Rated, ln.TestGames)},
		{Name: "playing time", Value: fmt.Sprintf("%s (budget %s)", n.Spent.Round(time.Millisecond), budget)},
		{Name: "regression tests played", Value: orNoneText(strings.Join(played, "; "))},
		{Name: "chunk size", Value: fmt.Sprintf("%d jobs", n.Config.ChunkSize)},
		{Name: "code version", Value: n.CodeVersion},
	}
	if n.Note != "" {
		ln.Facts = append(ln.Facts, reports.Fact{Name: "note", Value: n.Note})
	}
	if n.Config.Schedule != "" {
		ln.Facts = append(ln.Facts, reports.Fact{Name: "schedule", Value: n.Config.Schedule})
	}
	if len(n.Config.Races) > 0 {
		races, err := s.Races(ctx)
		if err != nil {
			return nil, err
		}
		var tonight []ladder.CandidateRace
		for _, r := range races {
			for _, c := range n.Config.Races {
				if c.Race == r.ID {
					tonight = append(tonight, r)
				}
			}
		}
		for _, f := range raceFacts(tonight) {
			f.Name += " played"
			ln.Facts = append(ln.Facts, f)
		}
	}
	return ln, nil
}
