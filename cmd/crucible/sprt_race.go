package main

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/stats"
)

// sprtRaceHelp documents the race and the simulation in crucible sprt
// --help.
const sprtRaceHelp = `Racing candidates (--candidates A,B,C --baseline X): every candidate plays the
baseline on the same seeds, its n-th seat-swapped pair on seed n. Each
candidate's test is the SPRT above with --alpha divided by the number of
candidates k (Bonferroni): the chance that any candidate no stronger than
--elo0 is accepted is at most --alpha for the whole family, whatever the
candidates share. The race plays its leader, the candidate with the largest
LLR, 32 pairs at a time (each candidate still plays its own seeds in order, so
this changes neither test's error rates), and drops a candidate when its test
accepts H0 or when another candidate still racing is clearly stronger: the
empirical-Bernstein lower bound of their pair-score difference over their
common seeds is above 0, with --delta (default --beta) spent over all pairs of
candidates and all seeds, so a candidate is wrongly dropped with probability at
most --delta (racing as in Maron and Moore's Hoeffding races, 1994; the bound
of Audibert, Munos and Szepesvari, 2009; the scheduler fishtest's RFC #2409
asks for). The race stops when one candidate's test accepts H1, or when none is
left. Each batch is chosen from the pairs counted before it, so the verdict is
the same at any --workers; --out and --resume work as for a single test;
--max-pairs caps each candidate's pairs.

Simulating (--simulate N --true-elo 10,0,0,...): N families of simulated
candidates with those true logistic Elo differences over the baseline (draws
--draw-rate, a share --shared of each game decided by the seed alike for all
candidates) are raced and, on the same outcomes, tested one by one at --alpha
and at --alpha/k. It prints the matches each way needs, the family-wise
false-positive rate (a candidate no stronger than --elo0 accepted) and how
often a candidate at least --elo1 stronger was found.`

// sprtRaceFlags select the race; sprtSimFlags the simulation.
var (
	sprtRaceFlags = []string{"candidates", "baseline", "delta"}
	sprtSimFlags  = []string{"simulate", "true-elo", "draw-rate", "shared"}
)

// sprtRaceOptions are the flags of the race and of the simulation.
type sprtRaceOptions struct {
	candidates, baseline string
	delta                float64
	simulate             int
	trueElo              string
	drawRate, shared     float64
}

// maxSimFamilies bounds --simulate.
const maxSimFamilies = 1_000_000

func addSPRTRaceFlags(cmd *cobra.Command, o *sprtRaceOptions) {
	fl := cmd.Flags()
	fl.StringVar(&o.candidates, "candidates", "", "race these players (comma-separated, as --players of crucible arena) against --baseline")
	fl.StringVar(&o.baseline, "baseline", "", "the player every --candidates item is tested against")
	fl.Float64Var(&o.delta, "delta", 0, "race: probability that any elimination is wrong, in (0, 1); 0 means --beta")
	fl.IntVar(&o.simulate, "simulate", 0, fmt.Sprintf("simulate this many families of --true-elo candidates, 1 to %d", maxSimFamilies))
	fl.StringVar(&o.trueElo, "true-elo", "", "--simulate: the candidates' true logistic Elo over the baseline, comma-separated")
	fl.Float64Var(&o.drawRate, "draw-rate", 0.2, "--simulate: probability of a drawn game, in [0, 1)")
	fl.Float64Var(&o.shared, "shared", 0.5, "--simulate: share of games decided by the seed alike for every candidate, in [0, 1]")
}

// raceSetup checks the race's flags common to playing and simulating.
func raceSetup(o sprtOptions) (stats.Race, error) {
	test, err := sprtTest(o)
	if err != nil {
		return stats.Race{}, err
	}
	if o.delta != 0 && !(o.delta > 0 && o.delta < 1) {
		return stats.Race{}, fmt.Errorf("--delta %v is not in (0, 1)", o.delta)
	}
	return stats.Race{Test: test, Delta: o.delta}, nil
}

// sprtSimReport is what --simulate --format json prints.
type sprtSimReport struct {
	Test     stats.SPRT          `json:"test"`
	Delta    float64             `json:"delta"`
	Elos     []float64           `json:"true_elo"`
	DrawRate float64             `json:"draw_rate"`
	Shared   float64             `json:"shared"`
	Seed     uint64              `json:"seed"`
	Result   stats.RaceSimResult `json:"result"`
}

// runSPRTSimulate is the simulation mode.
func runSPRTSimulate(cmd *cobra.Command, o sprtOptions) error {
	race, err := raceSetup(o)
	if err != nil {
		return err
	}
	fl := cmd.Flags()
	for _, f := range append(append([]string{}, sprtRaceFlags[:2]...), "game", "a", "b", "out", "resume", "pentanomial", "trinomial") {
		if fl.Changed(f) {
			return fmt.Errorf("--%s does not apply to --simulate, which plays no match", f)
		}
	}
	switch {
	case o.simulate < 1 || o.simulate > maxSimFamilies:
		return fmt.Errorf("--simulate %d is outside its range [1, %d]", o.simulate, maxSimFamilies)
	case o.trueElo == "":
		return errors.New("--simulate needs --true-elo: the simulated candidates' Elo over the baseline, e.g. 10,0,0,0,0,0,0,0")
	case o.maxPairs < 1 || o.maxPairs > maxSPRTPairs:
		return fmt.Errorf("--max-pairs %d is outside its range [1, %d]", o.maxPairs, maxSPRTPairs)
	}
	var elos []float64
	for _, s := range strings.Split(o.trueElo, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
		if err != nil || v < -maxSPRTElo || v > maxSPRTElo {
			return fmt.Errorf("--true-elo %q: %q is not a number in [-%d, %d]", o.trueElo, s, maxSPRTElo, maxSPRTElo)
		}
		elos = append(elos, v)
	}
	sim := stats.RaceSim{Race: race, Elos: elos, DrawRate: o.drawRate, Shared: o.shared,
		MaxPairs: o.maxPairs, Families: o.simulate, Seed: o.seed}
	start := time.Now()
	res, err := sim.Run()
	if err != nil {
		return fmt.Errorf("--simulate: %w", err)
	}
	fmt.Fprintf(cmd.ErrOrStderr(), "simulated %d families in %s\n", o.simulate, time.Since(start).Round(time.Millisecond))
	delta := race.Delta
	if delta == 0 {
		delta = race.Test.Beta
	}
	out := cmd.OutOrStdout()
	if o.format == "json" {
		return writeJSON(out, sprtSimReport{Test: race.Test, Delta: delta, Elos: elos, DrawRate: o.drawRate, Shared: o.shared, Seed: o.seed, Result: res})
	}
	k := len(elos)
	fmt.Fprintf(out, "%d simulated families of %d candidates (true Elo %s), %s Elo H0: %g, H1: %g, alpha %g for the family, beta %g, delta %g, draw rate %g, shared %g, --seed %d\n",
		o.simulate, k, o.trueElo, race.Test.Model, race.Test.Elo0, race.Test.Elo1, race.Test.Alpha, race.Test.Beta, delta, o.drawRate, o.shared, o.seed)
	t := tablewriter.NewTable(out, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header("testing", "matches", "per family", "vs race", "false positives (family)", "found >= elo1", "undecided")
	n := float64(o.simulate)
	rows := []struct {
		name string
		t    stats.RaceSimTotals
	}{
		{fmt.Sprintf("race (alpha/%d each, leader first, eliminations)", k), res.Race},
		{fmt.Sprintf("each alone at alpha %g", race.Test.Alpha), res.Alone},
		{fmt.Sprintf("each alone at alpha/%d", k), res.AloneAdjusted},
	}
	for _, r := range rows {
		vs := "-"
		if r.t.Matches != res.Race.Matches && r.t.Matches > 0 {
			vs = fmt.Sprintf("race saves %.0f%%", 100*(1-float64(res.Race.Matches)/float64(r.t.Matches)))
		}
		if err := t.Append(r.name, strconv.FormatInt(r.t.Matches, 10), fmt.Sprintf("%.0f", float64(r.t.Matches)/n), vs,
			fmt.Sprintf("%d (%.2f%%)", r.t.FalsePositives, 100*r.t.FalsePositiveRate(o.simulate)),
			fmt.Sprintf("%d (%.1f%%)", r.t.Found, 100*float64(r.t.Found)/n), strconv.Itoa(r.t.Undecided)); err != nil {
			return err
		}
	}
	return t.Render()
}

// sprtRaceReport is what a played race prints with --format json.
type sprtRaceReport struct {
	Test stats.SPRT `json:"test"`
	// CandidateAlpha is each candidate's alpha: the family's over k.
	CandidateAlpha float64      `json:"candidate_alpha"`
	Delta          float64      `json:"delta"`
	Game           string       `json:"game"`
	Baseline       string       `json:"baseline"`
	Seed           uint64       `json:"seed"`
	Pairs          int          `json:"pairs"`
	Rounds         int          `json:"rounds"`
	MaxPairs       int          `json:"max_pairs"`
	Winner         string       `json:"winner,omitempty"`
	Candidates     []raceReport `json:"candidates"`
	Matches        int          `json:"matches"`
	Played         int          `json:"played"`
	Resumed        int          `json:"resumed"`
	Beyond         int          `json:"beyond"`
	Results        string       `json:"results,omitempty"`
}

// raceReport is one candidate's line.
type raceReport struct {
	Name string `json:"name"`
	stats.Racer
	EliminatedBy string         `json:"eliminated_by,omitempty"`
	Elo          stats.Estimate `json:"elo"`
}

// runSPRTRace plays a race.
func runSPRTRace(cmd *cobra.Command, o sprtOptions) error {
	race, err := raceSetup(o)
	if err != nil {
		return err
	}
	p := o.sprtPlayOptions
	fl := cmd.Flags()
	for _, f := range []string{"a", "b", "opponents", "pentanomial", "trinomial"} {
		if fl.Changed(f) {
			return fmt.Errorf("--%s does not apply to a race (--candidates, --baseline)", f)
		}
	}
	switch {
	case o.candidates == "" || o.baseline == "":
		return errors.New("a race needs --candidates (the players raced, comma-separated) and --baseline (the player they are tested against)")
	case p.game == "":
		return fmt.Errorf("--game is required to play the race (%s)", labGames.List())
	case p.seats != 2:
		return fmt.Errorf("--seats %d: a race plays seat-swapped pairs of 2 seats", p.seats)
	}
	if err := checkSPRTPlayRanges(p, "race"); err != nil {
		return err
	}
	game, err := lookupGameFlag(p.game)
	if err != nil {
		return err
	}
	ps, err := newPlaySession(cmd, game, p.game, p.secret, sprtBotLogDir(p.out))
	if err != nil {
		return err
	}
	defer ps.Close()
	stderr := ps.stderr
	base, err := ps.player("--baseline", o.baseline)
	if err != nil {
		return err
	}
	cands, err := ps.players("--candidates", o.candidates)
	if err != nil {
		return err
	}
	for _, c := range cands {
		if c.Name == base.Name {
			return fmt.Errorf("--candidates lists %s, which is the --baseline", c.Name)
		}
	}
	entrants := append([]arena.Entrant{base}, cands...)
	cfg, err := ps.config(p.config)
	if err != nil {
		return err
	}
	out, err := openSPRTOut(p, stderr, "race")
	if err != nil {
		return err
	}
	defer out.Discard()
	opt := arena.RaceOptions{Race: race, MaxPairs: p.maxPairs, Seed: p.seed, Run: arena.Options{Workers: p.workers, Config: cfg}}
	start := time.Now()
	st, runErr := arena.PlayRace(cmd.Context(), game, entrants, out.prev.Records, opt, out.emit)
	if runErr != nil {
		if cmd.Context().Err() != nil && st.Race != nil {
			fmt.Fprintf(stderr, "interrupted after %d pairs; run the same command with --resume and --out to continue\n", st.Race.Pairs)
		}
		return out.runError(p, runErr)
	}
	printPlayed(stderr, st.Played, p.workers, start)
	run := st.Race
	rep := sprtRaceReport{Test: race.Test, CandidateAlpha: run.Test.Alpha, Delta: run.Delta, Game: game.Name(), Baseline: base.Name,
		Seed: p.seed, Pairs: run.Pairs, Rounds: run.Rounds, MaxPairs: p.maxPairs, Played: st.Played, Resumed: st.Resumed, Beyond: st.Beyond, Results: p.out}
	if run.Winner >= 0 {
		rep.Winner = cands[run.Winner].Name
	}
	for i, r := range run.Racers {
		cr := raceReport{Name: cands[i].Name, Racer: r}
		if r.By >= 0 {
			cr.EliminatedBy = cands[r.By].Name
		}
		if r.Pairs > 0 {
			if cr.Elo, err = stats.EstimateElo(r.Counts, sprtLevel); err != nil {
				return err
			}
		}
		rep.Matches += 2 * r.Pairs
		rep.Candidates = append(rep.Candidates, cr)
	}
	if o.format == "json" {
		return writeJSON(cmd.OutOrStdout(), rep)
	}
	return writeRaceTable(cmd.OutOrStdout(), rep)
}

// writeRaceTable prints a played race: its verdict, then one line per
// candidate.
func writeRaceTable(out io.Writer, r sprtRaceReport) error {
	k := len(r.Candidates)
	verdict := "none of the candidates is shown better than " + r.Baseline
	switch {
	case r.Winner != "":
		verdict = fmt.Sprintf("%s is better than %s by the margin tested (H1 accepted)", r.Winner, r.Baseline)
	case r.Rounds >= r.MaxPairs:
		verdict = fmt.Sprintf("undecided at --max-pairs %d", r.MaxPairs)
	}
	fmt.Fprintf(out, "race of %d candidates against %s (%s): %s Elo H0: %g, H1: %g; alpha %g for the family (%g each, Bonferroni), beta %g, delta %g\n",
		k, r.Baseline, r.Game, r.Test.Model, r.Test.Elo0, r.Test.Elo1, r.Test.Alpha, r.CandidateAlpha, r.Test.Beta, r.Delta)
	fmt.Fprintf(out, "verdict after %d pairs (at most %d a candidate) on seeds derived from --seed %d: %s\n", r.Pairs, r.Rounds, r.Seed, verdict)
	more := fmt.Sprintf("%d matches counted", r.Matches)
	if r.Resumed > 0 {
		more += fmt.Sprintf(", %d resumed from %s", r.Resumed, r.Results)
	}
	if r.Beyond > 0 {
		more += fmt.Sprintf(", %d more pairs of the last batches played and not counted (their candidate had left the race)", r.Beyond)
	}
	fmt.Fprintln(out, more)
	t := tablewriter.NewTable(out, tablewriter.WithHeaderAutoFormat(tw.Off))
	t.Header("candidate", "status", "pairs", "LLR", "score", "Elo (95%)", "eliminated by")
	for _, c := range r.Candidates {
		score, elo := "-", "-"
		if c.Pairs > 0 {
			score = fmt.Sprintf("%.2f%%", 100*c.Elo.Score)
			elo = fmt.Sprintf("%+.1f [%+.1f, %+.1f]", c.Elo.Elo, c.Elo.EloLo, c.Elo.EloHi)
		}
		if err := t.Append(c.Name, c.Status.String(), strconv.Itoa(c.Pairs), fmt.Sprintf("%.2f", c.LLR), score, elo, c.EliminatedBy); err != nil {
			return err
		}
	}
	return t.Render()
}
