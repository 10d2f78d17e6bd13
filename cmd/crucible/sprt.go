package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/spf13/cobra"

	"crucible/stats"
)

// sprtLevel is the confidence level of the Elo intervals `crucible sprt`
// prints.
const sprtLevel = 0.95

// sprtOptions are the flags of `crucible sprt`. The counts mode reads
// --pentanomial or --trinomial; the play mode (--game, --a, --b, ...)
// plays the pairs (sprt_play.go).
type sprtOptions struct {
	pentanomial, trinomial string
	elo0, elo1             float64
	model                  string
	alpha, beta            float64
	format                 string
	sprtPlayOptions
	sprtRaceOptions
}

// sprtReport is what `crucible sprt --format json` prints.
type sprtReport struct {
	Test stats.SPRT `json:"test"`
	// Play describes a played test (nil for counts given by hand).
	Play        *sprtPlay          `json:"play,omitempty"`
	Pentanomial *stats.Pentanomial `json:"pentanomial,omitempty"`
	Trinomial   *stats.Trinomial   `json:"trinomial,omitempty"`
	stats.Result
}

func newSPRTCmd() *cobra.Command {
	var o sprtOptions
	cmd := &cobra.Command{
		Use:   "sprt",
		Short: "Sequential probability ratio test: is B stronger than A?",
		Long: `Run the generalized SPRT of fishtest and fastchess on counts: H0 says B is
--elo0 Elo stronger than A, H1 says --elo1; the log-likelihood ratio (LLR) of H1
over H0 accepts H1 at ln((1-beta)/alpha) and H0 at ln(beta/(1-alpha)), with
error rates --alpha (H1 accepted when H0 holds) and --beta.

Counts are of game pairs or of games, from B's side:
  --pentanomial LL,LD,WLDD,WD,WW  seat-swapped pairs on one seed, by B's total
                                   in the pair: 0, 0.5, 1 (a win and a loss, or
                                   two draws), 1.5, 2. The pair is the unit:
                                   the seed's bias cancels inside it.
  --trinomial W,D,L                single games (assumes games independent)

--model logistic states the hypotheses in logistic Elo (expected score
1/(1+10^(-E/400))); normalized in normalized Elo (the score's excess over 1/2
divided by its standard deviation, times 800/ln 10), which does not depend on
the draw rate. Empty classes count 0.001 in the LLR, as in fishtest.

Beside the verdict it prints B's score per game with its 95% interval over the
units (pairs or games: mean ± 1.96 standard errors of a unit's score), the Elo
and normalized Elo differences it means, and the likelihood of superiority.
When every unit fell in one class the interval is the Wilson interval over
that one outcome, so repeating it does not narrow the interval.

` + sprtPlayHelp + `

` + sprtRaceHelp + `

  crucible sprt --pentanomial 365,16618,36229,16974,390 --elo0 0 --elo1 2 --model normalized
  crucible sprt --trinomial 36433,68692,36027 --elo0 0 --elo1 2 --model normalized --format json
  crucible sprt --game kindling --a contrarian --b normal --elo0 0 --elo1 20
  crucible sprt --game acb --a gatherer --b best.json --elo0 0 --elo1 10 --out sprt.jsonl --resume
  crucible sprt --game kindling --seats 3 --a easy --b normal --opponents random --elo0 0 --elo1 20
  crucible sprt --game kindling --baseline contrarian --candidates normal,sniper,easy --elo0 0 --elo1 20
  crucible sprt --simulate 1000 --true-elo 10,0,0,0,0,0,0,0 --elo0 0 --elo1 10`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fl := cmd.Flags()
			play := false
			for _, f := range sprtPlayFlags {
				play = play || fl.Changed(f)
			}
			if !fl.Changed("elo0") || !fl.Changed("elo1") {
				return fmt.Errorf("--elo0 and --elo1 are required: the Elo differences of H0 and H1")
			}
			race, sim := false, false
			for _, f := range sprtRaceFlags {
				race = race || fl.Changed(f)
			}
			for _, f := range sprtSimFlags {
				sim = sim || fl.Changed(f)
			}
			switch {
			case race && sim:
				return errors.New("--simulate simulates a race; --candidates and --baseline play one: give one or the other")
			case sim:
				return runSPRTSimulate(cmd, o)
			case race:
				return runSPRTRace(cmd, o)
			case play:
				return runSPRTPlay(cmd, o)
			}
			return runSPRTCounts(cmd.OutOrStdout(), o)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&o.pentanomial, "pentanomial", "", "pair counts LL,LD,WLDD,WD,WW from B's side")
	fl.StringVar(&o.trinomial, "trinomial", "", "game counts W,D,L from B's side")
	fl.Float64Var(&o.elo0, "elo0", 0, "Elo difference of B over A under H0 (required)")
	fl.Float64Var(&o.elo1, "elo1", 0, "Elo difference of B over A under H1, above --elo0 (required)")
	fl.StringVar(&o.model, "model", "logistic", "Elo model of the hypotheses: "+strings.Join(stats.ModelNames, ", "))
	fl.Float64Var(&o.alpha, "alpha", 0.05, "probability of accepting H1 when H0 holds, in (0, 1)")
	fl.Float64Var(&o.beta, "beta", 0.05, "probability of accepting H0 when H1 holds, in (0, 1)")
	fl.StringVar(&o.format, "format", "table", "output format: table, json")
	addSPRTPlayFlags(cmd, &o.sprtPlayOptions)
	addSPRTRaceFlags(cmd, &o.sprtRaceOptions)
	return cmd
}

// maxSPRTElo bounds --elo0 and --elo1: beyond it the hypotheses say one
// player (nearly) always wins, which a test decides from its first games.
const maxSPRTElo = 800

// sprtTest checks the test's flags and builds it.
func sprtTest(o sprtOptions) (stats.SPRT, error) {
	if o.format != "table" && o.format != "json" {
		return stats.SPRT{}, fmt.Errorf("--format %q is not one of table, json", o.format)
	}
	model, err := stats.ParseModel(o.model)
	if err != nil {
		return stats.SPRT{}, fmt.Errorf("--model: %w", err)
	}
	switch {
	case !(math.Abs(o.elo0) <= maxSPRTElo && math.Abs(o.elo1) <= maxSPRTElo):
		return stats.SPRT{}, fmt.Errorf("--elo0 %v and --elo1 %v must lie in [-%d, %d]: an SPRT's hypotheses are Elo differences a match can tell apart (%d logistic Elo is already an expected score of 99%%; tests usually use bounds within ±20)",
			o.elo0, o.elo1, maxSPRTElo, maxSPRTElo, maxSPRTElo)
	case o.elo0 >= o.elo1:
		return stats.SPRT{}, fmt.Errorf("--elo0 %v must be below --elo1 %v", o.elo0, o.elo1)
	case !(o.alpha > 0 && o.alpha < 1):
		return stats.SPRT{}, fmt.Errorf("--alpha %v is not in (0, 1)", o.alpha)
	case !(o.beta > 0 && o.beta < 1):
		return stats.SPRT{}, fmt.Errorf("--beta %v is not in (0, 1)", o.beta)
	case o.alpha+o.beta >= 1:
		return stats.SPRT{}, fmt.Errorf("--alpha %v + --beta %v must be below 1", o.alpha, o.beta)
	}
	return stats.SPRT{Elo0: o.elo0, Elo1: o.elo1, Alpha: o.alpha, Beta: o.beta, Model: model}, nil
}

// runSPRTCounts is the counts mode: it checks the flags, runs the test
// and prints it.
func runSPRTCounts(out io.Writer, o sprtOptions) error {
	test, err := sprtTest(o)
	if err != nil {
		return err
	}
	switch {
	case o.pentanomial != "" && o.trinomial != "":
		return fmt.Errorf("give --pentanomial or --trinomial, not both")
	case o.pentanomial == "" && o.trinomial == "":
		return fmt.Errorf("give the counts (--pentanomial LL,LD,WLDD,WD,WW or --trinomial W,D,L), or the players to play (--game, --a, --b)")
	}
	rep := sprtReport{Test: test}
	var counts stats.Counts
	if o.pentanomial != "" {
		c, err := parseCounts("--pentanomial", o.pentanomial, []string{"LL", "LD", "WLDD", "WD", "WW"})
		if err != nil {
			return err
		}
		p := stats.Pentanomial(c)
		if p.Pairs() == 0 {
			return fmt.Errorf("--pentanomial %q counts no pair", o.pentanomial)
		}
		rep.Pentanomial, counts = &p, p
	} else {
		c, err := parseCounts("--trinomial", o.trinomial, []string{"W", "D", "L"})
		if err != nil {
			return err
		}
		t := stats.Trinomial{Wins: c[0], Draws: c[1], Losses: c[2]}
		if t.Games() == 0 {
			return fmt.Errorf("--trinomial %q counts no game", o.trinomial)
		}
		rep.Trinomial, counts = &t, t
	}
	res, err := test.Test(counts, sprtLevel)
	if err != nil {
		return err
	}
	rep.Result = res
	if o.format == "json" {
		return writeJSON(out, rep)
	}
	return writeSPRTTable(out, rep)
}

// parseCounts reads len(names) comma-separated counts >= 0.
func parseCounts(flag, s string, names []string) ([5]int, error) {
	var c [5]int
	parts := strings.Split(s, ",")
	if len(parts) != len(names) {
		return c, fmt.Errorf("%s %q: want %d counts %s, got %d", flag, s, len(names), strings.Join(names, ","), len(parts))
	}
	for i, p := range parts {
		v, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return c, fmt.Errorf("%s %q: count %s %q is not a whole number", flag, s, names[i], p)
		}
		if v < 0 {
			return c, fmt.Errorf("%s %q: count %s is %d, want >= 0", flag, s, names[i], v)
		}
		c[i] = v
	}
	return c, nil
}

// writeSPRTTable prints the test as a two-column table.
func writeSPRTTable(out io.Writer, r sprtReport) error {
	e := r.Elo
	var counts string
	if p := r.Pentanomial; p != nil {
		counts = fmt.Sprintf("pentanomial LL %d, LD %d, WL+DD %d, WD %d, WW %d (%d pairs)", p[0], p[1], p[2], p[3], p[4], p.Pairs())
	} else {
		t := r.Trinomial
		counts = fmt.Sprintf("trinomial W %d, D %d, L %d (%d games)", t.Wins, t.Draws, t.Losses, t.Games())
	}
	interval := func(v, lo, hi float64, f func(float64) string) string {
		return fmt.Sprintf("%s [%s, %s]", f(v), f(lo), f(hi))
	}
	elo := func(v float64) string { return fmt.Sprintf("%+.2f", v) }
	pct := func(v float64) string { return fmt.Sprintf("%.2f%%", 100*v) }
	note := ""
	nelo := interval(e.NElo, e.NEloLo, e.NEloHi, elo) + " normalized, 95%"
	if e.Method == stats.WilsonDistinct {
		note = " (every unit in one class: Wilson over one outcome)"
		nelo = "undefined: every unit in one class, no spread to normalize by"
	}
	rows := [][]string{
		{"test", fmt.Sprintf("%s Elo, H0: %g, H1: %g, alpha %g, beta %g", r.Test.Model, r.Test.Elo0, r.Test.Elo1, r.Test.Alpha, r.Test.Beta)},
	}
	if p := r.Play; p != nil {
		rows = append(rows, playRows(p, r.Verdict)...)
	}
	rows = append(rows, [][]string{
		{"counts", counts},
		{"LLR", fmt.Sprintf("%.2f (bounds %.2f, %.2f)", r.LLR, r.Lower, r.Upper)},
		{"verdict", verdictText(r.Verdict)},
		{"score", interval(e.Score, e.ScoreLo, e.ScoreHi, pct) + note},
		{"Elo", interval(e.Elo, e.EloLo, e.EloHi, elo) + " logistic, 95%"},
		{"nElo", nelo},
		{"LOS", pct(e.LOS)},
	}...)
	tw := tablewriter.NewWriter(out)
	tw.Header("SPRT", "")
	for _, row := range rows {
		if err := tw.Append(row[0], row[1]); err != nil {
			return err
		}
	}
	return tw.Render()
}

// verdictText spells a verdict out for the table.
func verdictText(v stats.Verdict) string {
	switch v {
	case stats.AcceptH1:
		return "H1 accepted: B is stronger by the margin tested"
	case stats.AcceptH0:
		return "H0 accepted: B is not stronger by the margin tested"
	}
	return "continue: the LLR is between the bounds"
}
