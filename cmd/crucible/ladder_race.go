package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/ladder"
	"crucible/reports"
	"crucible/stats"
)

// ladderRaceHelp documents races of candidate versions in ladder add and
// ladder run --help.
const ladderRaceHelp = `Racing candidate versions: give --strategy, --variant, --url or --bot more than
once (e.g. three takes of one idea) and the values become candidate versions
of NAME, raced against its current version (the baseline) over the coming
nights; until the race ends NAME plays its current version in the rated
games, and ladder add refuses other versions of it. Each night, after its
rated games, a race plays in stages: its leader (the candidate with the
largest LLR) gets the next 32 seat-swapped game pairs against the baseline,
candidate first then baseline first on one seed, pair n of every candidate on
the same seed n (common seeds); the stage's results are counted before the
next stage is chosen, so the race is the same at any --workers and after a
kill (ladder run continues it, replaying the stages from the recorded
chunks). The statistic is crucible sprt --candidates' (stats.Race): each
candidate's pentanomial GSPRT at --race-alpha divided by the number of
candidates k (Bonferroni: the chance that any candidate no stronger than
--race-elo0 is promoted is at most --race-alpha for the whole family), a
candidate dropped when its test accepts H0 or when another is clearly stronger
(an empirical-Bernstein bound on their pair-score difference over their
common seeds, --race-delta spent over all pairs and seeds). The race stops
when a candidate's test accepts H1, which becomes NAME's current version (its
rating starts from NAME's, with a new version's deviation; it plays no
regression test, having been raced against the baseline), or when none is
left or the leader reaches --race-max-pairs: the baseline stays. Candidates
not promoted are retired: their versions and games stay on record, they never
play again. ladder run --race-pairs bounds the pairs a race counts a night.`

// raceFlags are ladder add's race flags.
type raceFlags struct {
	elo0, elo1, alpha, beta, delta float64
	model                          string
	maxPairs                       int
}

func addRaceFlags(cmd *cobra.Command, f *raceFlags) {
	d := ladder.DefaultRace()
	fl := cmd.Flags()
	fl.Float64Var(&f.elo0, "race-elo0", d.Race.Test.Elo0, "race of candidates: Elo of a candidate over the baseline under H0")
	fl.Float64Var(&f.elo1, "race-elo1", d.Race.Test.Elo1, "race of candidates: Elo under H1, above --race-elo0 (shown better: promoted)")
	fl.Float64Var(&f.alpha, "race-alpha", d.Race.Test.Alpha, "race of candidates: probability, for the whole family, that a candidate no better than --race-elo0 is promoted, in (0, 1)")
	fl.Float64Var(&f.beta, "race-beta", d.Race.Test.Beta, "race of candidates: each candidate's probability of accepting H0 when H1 holds, in (0, 1)")
	fl.Float64Var(&f.delta, "race-delta", 0, "race of candidates: probability that any elimination is wrong, in (0, 1); 0 means --race-beta")
	fl.StringVar(&f.model, "race-model", d.Race.Test.Model.String(), "race of candidates: Elo model of --race-elo0 and --race-elo1: "+strings.Join(stats.ModelNames, ", "))
	fl.IntVar(&f.maxPairs, "race-max-pairs", d.MaxPairs, "race of candidates: most pairs of a candidate, 1 to 10000000; a leader reaching it ends the race undecided")
}

// options checks the flags.
func (f raceFlags) options() (ladder.RaceOptions, error) {
	model, err := stats.ParseModel(f.model)
	if err != nil {
		return ladder.RaceOptions{}, fmt.Errorf("--race-model: %w", err)
	}
	switch {
	case f.elo0 >= f.elo1:
		return ladder.RaceOptions{}, fmt.Errorf("--race-elo0 %v must be below --race-elo1 %v", f.elo0, f.elo1)
	case !(f.alpha > 0 && f.alpha < 1) || !(f.beta > 0 && f.beta < 1) || f.alpha+f.beta >= 1:
		return ladder.RaceOptions{}, fmt.Errorf("--race-alpha %v and --race-beta %v must be in (0, 1) with a sum below 1", f.alpha, f.beta)
	case f.delta != 0 && !(f.delta > 0 && f.delta < 1):
		return ladder.RaceOptions{}, fmt.Errorf("--race-delta %v is not in (0, 1)", f.delta)
	case f.maxPairs < 1 || f.maxPairs > 10000000:
		return ladder.RaceOptions{}, fmt.Errorf("--race-max-pairs %d is outside its range [1, 10000000]", f.maxPairs)
	}
	return ladder.RaceOptions{Race: stats.Race{Test: stats.SPRT{Elo0: f.elo0, Elo1: f.elo1, Alpha: f.alpha, Beta: f.beta, Model: model}, Delta: f.delta},
		MaxPairs: f.maxPairs}, nil
}

// raceFlagNames are the flags that only apply to a race.
var raceFlagNames = []string{"race-elo0", "race-elo1", "race-alpha", "race-beta", "race-delta", "race-model", "race-max-pairs"}

// addCandidates starts a race of the sources of ladder add NAME.
func addCandidates(cmd *cobra.Command, s *ladder.Store, name string, srcs []ladder.Source, f raceFlags) error {
	opt, err := f.options()
	if err != nil {
		return err
	}
	r, err := s.AddCandidates(cmd.Context(), name, srcs, opt)
	if err != nil {
		return err
	}
	var labels []string
	for _, c := range r.Candidates {
		labels = append(labels, fmt.Sprintf("%s (%s)", c.Label, c.Plays))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "race %d: %d candidate versions of %s against %s: %s; %s; the coming nights play it\n",
		r.ID, len(r.Candidates), name, r.BaselineLabel, strings.Join(labels, ", "), r.Hypotheses())
	return nil
}

// raceHead and raceRow are the columns of a race's table.
var raceHead = []string{"candidate", "plays", "status", "pairs", "LL-LD-WL/DD-WD-WW", "score %", "Elo 95%", "LLR (bounds)", "eliminated by", "outcome"}

func raceRow(r ladder.CandidateRace, c ladder.RaceCandidate) []string {
	score, elo := "-", "-"
	if e := c.Elo; e != nil {
		score = fmt.Sprintf("%.1f [%.1f, %.1f]", 100*e.Score, 100*e.ScoreLo, 100*e.ScoreHi)
		elo = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", e.Elo, e.EloLo, e.EloHi)
	}
	t := r.Test
	t.Alpha = r.CandidateAlpha
	lo, hi := t.Bounds()
	k := c.Counts
	return []string{c.Label, c.Plays, c.Status.String(), strconv.Itoa(c.Pairs), fmt.Sprintf("%d-%d-%d-%d-%d", k[0], k[1], k[2], k[3], k[4]),
		score, elo, fmt.Sprintf("%.2f (%.2f, %.2f)", c.LLR, lo, hi), c.EliminatedBy, c.Outcome}
}

// raceSummary says a race's verdict and what it played and saved.
func raceSummary(r ladder.CandidateRace) string {
	s := fmt.Sprintf("%s; %d pairs counted over %d night(s) (at most %d a candidate), %d matches played", r.Verdict(), r.Pairs, r.Nights, r.Rounds, r.Matches)
	if r.Done {
		s += fmt.Sprintf(", %d saved against testing each candidate alone on as many pairs", r.Saved)
	}
	return s
}

// writeRaceTables prints each race as a table under its verdict.
func writeRaceTables(w io.Writer, f reports.Format, races []ladder.CandidateRace) error {
	for _, r := range races {
		rows := make([][]string, len(r.Candidates))
		for i, c := range r.Candidates {
			rows[i] = raceRow(r, c)
		}
		title := fmt.Sprintf("Race %d of candidate versions of %s against %s (%s): %s", r.ID, r.Entrant, r.BaselineLabel, r.Hypotheses(), raceSummary(r))
		if err := reports.WriteTable(w, f, title, []int{0, 1, 8}, raceHead, rows); err != nil {
			return err
		}
	}
	return nil
}

// shownRaces are the races the standings show: those running and those
// ended by the last night.
func shownRaces(races []ladder.CandidateRace, last string) []ladder.CandidateRace {
	var out []ladder.CandidateRace
	for _, r := range races {
		if !r.Done || (last != "" && r.Night == last) {
			out = append(out, r)
		}
	}
	return out
}

// raceFacts are the report's lines of the races.
func raceFacts(races []ladder.CandidateRace) []reports.Fact {
	var out []reports.Fact
	for _, r := range races {
		var cs []string
		for _, c := range r.Candidates {
			s := fmt.Sprintf("%s %s after %d pairs (LLR %.2f)", c.Label, c.Status, c.Pairs, c.LLR)
			if c.EliminatedBy != "" {
				s += " by " + c.EliminatedBy
			}
			cs = append(cs, s)
		}
		out = append(out, reports.Fact{Name: fmt.Sprintf("race %d (%s against %s)", r.ID, r.Entrant, r.BaselineLabel),
			Value: raceSummary(r) + ": " + strings.Join(cs, "; ") + "; " + r.Hypotheses()})
	}
	return out
}

// ladderAdaptiveHelp documents ladder run --schedule adaptive.
const ladderAdaptiveHelp = `Adaptive nights (--schedule adaptive --top K --confidence C [--max-matches N]):
instead of planning every pair's seeds at the start, the night chooses its
rated matches in stages where they most reduce the uncertainty of the top-K
order of the current versions, with crucible arena --schedule adaptive's
method (arena.AdaptiveChooser): first every pair once (both seat orders, one
seed), then batches of 32 seat-swapped game pairs, each to the pair whose next
game pair most lowers the variance of the least certain comparison the top-K
order rests on (the ResponseGraphUCB rule of Rowland et al., NeurIPS 2019, on a
balanced Bradley-Terry fit of the night's games). The night stops when the
probability of the top-K order (share of 4,000 draws from the fit's normal
approximation) reaches C, when no comparison is left uncertain, when N rated
matches are played (--max-matches, 0: no cap), or when --budget's time is
spent. A pair's m-th meeting is rated round m, on the seed and job id a
planned night would give it; each stage is chosen from the results recorded
before it only, so the night is the same at any --workers, and a night killed
and continued replays its choices from the recorded chunks and ends
identical. --seeds-per-night and --new-version-factor do not apply. The
schedule and its settings are stored with the night: a continued night keeps
them whatever the flags say. The night's ratings are Glicko-2 over the games
chosen, as for a planned night; the stop and the order's probability are the
night's note.`

// adaptiveNightOptions checks ladder run's adaptive flags.
func adaptiveNightOptions(cmd *cobra.Command, f ladderRunFlags) (string, ladder.AdaptiveNight, error) {
	fl := cmd.Flags()
	switch f.schedule {
	case ladder.ScheduleFixed:
		for _, n := range []string{"top", "confidence", "max-matches"} {
			if fl.Changed(n) {
				return "", ladder.AdaptiveNight{}, fmt.Errorf("--%s applies to --schedule adaptive", n)
			}
		}
		return "", ladder.AdaptiveNight{}, nil
	case ladder.ScheduleAdaptive:
	default:
		return "", ladder.AdaptiveNight{}, fmt.Errorf("--schedule %q: want %s or %s", f.schedule, ladder.ScheduleFixed, ladder.ScheduleAdaptive)
	}
	switch {
	case f.top < 1:
		return "", ladder.AdaptiveNight{}, fmt.Errorf("--top %d: want at least 1", f.top)
	case !(f.confidence > 0 && f.confidence < 1):
		return "", ladder.AdaptiveNight{}, fmt.Errorf("--confidence %v is not in (0, 1)", f.confidence)
	case f.maxMatches < 0:
		return "", ladder.AdaptiveNight{}, fmt.Errorf("--max-matches %d is negative", f.maxMatches)
	}
	return ladder.ScheduleAdaptive, ladder.AdaptiveNight{Top: f.top, Confidence: f.confidence, MaxMatches: f.maxMatches, Batch: arena.DefaultAdaptiveBatch}, nil
}
