package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena/rating"
	"crucible/ladder"
	"crucible/reports"
	"crucible/stats"
)

// exitRegression is the exit status of crucible ladder run when, after
// the night, an entrant's current version stands found weaker than its
// previous version.
const exitRegression = 3

// regressionError is the error ladder run returns then; main exits with
// its ExitCode.
type regressionError struct {
	tests []ladder.RegressionTest
}

// Error names the regressed versions.
func (e *regressionError) Error() string {
	var parts []string
	for _, t := range e.tests {
		parts = append(parts, fmt.Sprintf("%s is weaker than %s (H0 accepted: LLR %.2f <= %.2f after %d game pairs)",
			t.Label, t.BaselineLabel, t.LLR, t.Lower, t.Counts.Pairs()))
	}
	return "regression: " + strings.Join(parts, "; ")
}

// ExitCode is exitRegression.
func (e *regressionError) ExitCode() int { return exitRegression }

// regressionMark is what the standings add to a regressed version's name.
const regressionMark = " [REGRESSION]"

// sprtFlags are the flags of the regression tests.
type sprtFlags struct {
	pairs       int
	elo0, elo1  float64
	alpha, beta float64
	model       string
}

// addSPRTFlags declares the regression test flags on cmd.
func addSPRTFlags(cmd *cobra.Command, f *sprtFlags) {
	d := ladder.DefaultRegression()
	fl := cmd.Flags()
	fl.IntVar(&f.pairs, "sprt-pairs", d.PairsPerNight, "game pairs (one seed, both seat orders) each running regression test plays a night, 0 to 1000000 (0: no regression tests)")
	fl.Float64Var(&f.elo0, "sprt-elo0", d.Test.Elo0, "Elo difference of a new version over its previous one under H0 (the regression)")
	fl.Float64Var(&f.elo1, "sprt-elo1", d.Test.Elo1, "Elo difference under H1, above --sprt-elo0")
	fl.Float64Var(&f.alpha, "sprt-alpha", d.Test.Alpha, "probability of accepting H1 when H0 holds, in (0, 1)")
	fl.Float64Var(&f.beta, "sprt-beta", d.Test.Beta, "probability of accepting H0 (flagging a regression) when H1 holds, in (0, 1)")
	fl.StringVar(&f.model, "sprt-model", d.Test.Model.String(), "Elo model of --sprt-elo0 and --sprt-elo1: "+strings.Join(stats.ModelNames, ", "))
}

// options checks the flags and returns the regression options.
func (f sprtFlags) options() (ladder.RegressionOptions, error) {
	model, err := stats.ParseModel(f.model)
	if err != nil {
		return ladder.RegressionOptions{}, fmt.Errorf("--sprt-model: %w", err)
	}
	switch {
	case f.pairs < 0 || f.pairs > 1000000:
		return ladder.RegressionOptions{}, fmt.Errorf("--sprt-pairs %d is outside its range [0, 1000000]", f.pairs)
	case f.elo0 >= f.elo1:
		return ladder.RegressionOptions{}, fmt.Errorf("--sprt-elo0 %v must be below --sprt-elo1 %v", f.elo0, f.elo1)
	case !(f.alpha > 0 && f.alpha < 1):
		return ladder.RegressionOptions{}, fmt.Errorf("--sprt-alpha %v is not in (0, 1)", f.alpha)
	case !(f.beta > 0 && f.beta < 1):
		return ladder.RegressionOptions{}, fmt.Errorf("--sprt-beta %v is not in (0, 1)", f.beta)
	case f.alpha+f.beta >= 1:
		return ladder.RegressionOptions{}, fmt.Errorf("--sprt-alpha %v + --sprt-beta %v must be below 1", f.alpha, f.beta)
	}
	return ladder.RegressionOptions{Test: stats.SPRT{Elo0: f.elo0, Elo1: f.elo1, Alpha: f.alpha, Beta: f.beta, Model: model},
		PairsPerNight: f.pairs}, nil
}

// currentTests maps each current version's label to its latest regression
// test.
func currentTests(tests []ladder.RegressionTest) map[string]ladder.RegressionTest {
	out := map[string]ladder.RegressionTest{}
	for _, t := range tests {
		if t.Current {
			out[t.Label] = t
		}
	}
	return out
}

// standingsJSON is what the standings print as JSON: the leaderboard's
// summary and the regression tests of the current versions.
type standingsJSON struct {
	rating.Summary
	RegressionTests []ladder.RegressionTest `json:"regression_tests"`
	Races           []ladder.CandidateRace  `json:"races,omitempty"`
}

// writeLadderStandings prints the leaderboard with the regression tests of
// the current versions: in a table or Markdown, regressed versions' names
// are marked and the tests follow in a table of their own; JSON holds the
// tests beside the summary; CSV is the leaderboard alone.
//
// The races of candidate versions running, or ended by the last night,
// follow in tables of their own (JSON: "races").
func writeLadderStandings(w io.Writer, f reports.Format, st ladder.Standings, tests []ladder.RegressionTest, races []ladder.CandidateRace, opt reports.SummaryOptions) error {
	races = shownRaces(races, st.Night.Label)
	var cur []ladder.RegressionTest
	for _, t := range tests {
		if t.Current {
			cur = append(cur, t)
		}
	}
	switch f {
	case reports.JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if cur == nil {
			cur = []ladder.RegressionTest{}
		}
		return enc.Encode(standingsJSON{Summary: st.Summary, RegressionTests: cur, Races: races})
	case reports.CSV:
		return reports.WriteSummary(w, f, st.Summary, opt)
	}
	sum := st.Summary
	marked := currentTests(cur)
	sum.Standings = append([]rating.Standing(nil), sum.Standings...)
	for i, s := range sum.Standings {
		if t, ok := marked[s.Name]; ok && t.Regressed() {
			sum.Standings[i].Name += regressionMark
		}
	}
	if err := reports.WriteSummary(w, f, sum, opt); err != nil {
		return err
	}
	if len(cur) > 0 {
		if err := writeRegressionTable(w, f, cur); err != nil {
			return err
		}
	}
	return writeRaceTables(w, f, races)
}

// regressionHead and regressionRow are the columns of the regression
// tests table.
var regressionHead = []string{"version", "against", "nights", "pairs", "LL-LD-WL/DD-WD-WW", "score %", "Elo 95%", "LLR (bounds)", "verdict"}

func regressionRow(t ladder.RegressionTest) []string {
	c := t.Counts
	score, elo := "-", "-"
	if e := t.Elo; e != nil {
		score = fmt.Sprintf("%.1f [%.1f, %.1f]", 100*e.Score, 100*e.ScoreLo, 100*e.ScoreHi)
		elo = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", e.Elo, e.EloLo, e.EloHi)
	}
	verdict := t.Verdict
	switch t.Verdict {
	case ladder.VerdictH0:
		verdict = "H0: REGRESSION"
	case ladder.VerdictH1:
		verdict = "H1: not weaker"
	}
	return []string{t.Label, t.BaselineLabel, strconv.Itoa(t.Nights), strconv.Itoa(c.Pairs()),
		fmt.Sprintf("%d-%d-%d-%d-%d", c[0], c[1], c[2], c[3], c[4]), score, elo,
		fmt.Sprintf("%.2f (%.2f, %.2f)", t.LLR, t.Lower, t.Upper), verdict}
}

// writeRegressionTable prints regression tests as a table.
func writeRegressionTable(w io.Writer, f reports.Format, tests []ladder.RegressionTest) error {
	rows := make([][]string, len(tests))
	for i, t := range tests {
		rows[i] = regressionRow(t)
	}
	title := "Regression tests (pentanomial SPRT of each new version against its previous one"
	if len(tests) > 0 {
		title += ", " + tests[0].Hypotheses()
	}
	return reports.WriteTable(w, f, title+")", []int{0, 1, 8}, regressionHead, rows)
}
