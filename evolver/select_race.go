package evolver

import (
	"context"
	"fmt"

	"crucible/stats"
	"crucible/strategies"
)

// selectionRace races the finalists against the field (stats.Race): each
// finalist's seat-swapped pairs against the field's opponents are the
// pairs of a GSPRT of H0 "no stronger than the field" (Elo 0) against H1
// "40 Elo stronger" (logistic), its α divided by the number of finalists
// (Bonferroni), and a finalist is eliminated when another is clearly
// stronger (empirical-Bernstein bound, Delta 5% for the whole family).
var selectionRace = stats.Race{Test: stats.SPRT{Elo0: 0, Elo1: 40, Alpha: 0.05, Beta: 0.05, Model: stats.Logistic}, Delta: 0.05}

// RaceEntry is a finalist's state in the selection's race.
type RaceEntry struct {
	// Verdict is its status (stats.RaceStatus: active, H1, H0,
	// eliminated or stopped).
	Verdict string `json:"verdict"`
	// Pairs are its pairs counted, LLR its test's log-likelihood ratio
	// (α adjusted), Lower and Upper the test's bounds, Score its mean
	// pair score against the field.
	Pairs int     `json:"pairs"`
	LLR   float64 `json:"llr"`
	Lower float64 `json:"lower"`
	Upper float64 `json:"upper"`
	Score float64 `json:"score"`
	// By is the label of the finalist that eliminated it.
	By string `json:"by,omitempty"`
}

// raceChampion is the selection (selectChampion) with the finalists raced
// against the field instead of tested against the leader. After every
// seed, each finalist still racing counts its pairs of that seed, one per
// opponent of the field in the field's order (the pair's total over both
// seat orders, as a pentanomial class), into stats.RaceRun:
//
//   - a finalist whose test accepts H1 wins the race and the selection
//     stops: it is the champion, shown stronger than the field;
//   - a finalist whose test accepts H0, or that another finalist is
//     clearly stronger than, stops playing (dropped);
//   - when every finalist is dropped, or the seeds run out, the score
//     rates choose as selectChampion does, among the finalists not
//     dropped (among all when every one was).
//
// Family-wise error (stats.Race): the chance that a finalist no stronger
// than the field wins is at most 5% over all the finalists (Bonferroni),
// and the chance that any finalist is eliminated for a difference that is
// not there at most 5%. Both treat the pairs of one seed (which share its
// map) as independent, as the SPRT of selectChampion does; the rates'
// intervals are over seeds, the independent units. The matches of one
// seed are played as a batch and counted in a fixed order, so the
// verdicts are the same at any worker count, and a resumed run replays
// them. Two seats only.
func raceChampion(ctx context.Context, ev *arenaEvaluator, space paramSpace, finalists []strategies.Variant, seeds []uint64, progress func(done, total int)) (Selection, error) {
	if ev.Seats > 2 {
		return Selection{}, fmt.Errorf("selection: the race plays seat-swapped pairs, not free-for-all groups of %d", ev.Seats)
	}
	rule := &raceRule{}
	sel, err := selectWith(ctx, ev, space, finalists, seeds, rule, progress)
	if rule.run != nil {
		if !rule.run.Done {
			rule.run.Stop()
		}
		rule.fill(sel)
	}
	return *sel, err
}

// raceRule is the selection's race (see raceChampion).
type raceRule struct {
	run         *stats.RaceRun
	field       []string
	ids, labels []string // the finalists', in the race's order
}

func (r *raceRule) start(sel *Selection, st *selState) error {
	run, err := selectionRace.Start(len(st.finalists))
	if err != nil {
		return err
	}
	r.run, r.field = run, sel.Field
	for _, v := range st.finalists {
		r.ids, r.labels = append(r.ids, v.ID), append(r.labels, v.Label())
	}
	sel.Method = "race"
	sel.FamilyError = fmt.Sprintf("each finalist's pairs against the field (%d a seed) in a GSPRT of Elo %g against %g (%s), α %g/%d finalists (Bonferroni), β %g: a finalist no stronger than the field wins with probability at most %g for the whole family; eliminations by an empirical-Bernstein bound, wrong with probability at most %g for the whole family; both treat the pairs of one seed as independent",
		len(sel.Field), selectionRace.Test.Elo0, selectionRace.Test.Elo1, selectionRace.Test.Model, selectionRace.Test.Alpha, len(st.finalists), selectionRace.Test.Beta, selectionRace.Test.Alpha, run.Delta)
	return nil
}

func (r *raceRule) seed(sel *Selection, st *selState, k int, idx []int) (bool, error) {
	classes := make([]int, len(st.finalists))
	for _, name := range r.field {
		if r.run.Done {
			break
		}
		for _, i := range idx {
			c, err := stats.ScoreBucket(st.pairs[i][k][name] / 2)
			if err != nil {
				return false, fmt.Errorf("selection: finalist %s against %s: %w", st.finalists[i].Label(), name, err)
			}
			classes[i] = c
		}
		if err := r.run.AddRound(classes); err != nil {
			return false, err
		}
	}
	for _, i := range idx {
		switch r.run.Racers[i].Status {
		case stats.RaceRejected, stats.RaceEliminated:
			st.drop(sel, i, k)
		case stats.RaceAccepted, stats.RaceStopped:
			// The race is over: the rest of the seeds are saved.
			sel.SavedMatches += st.perSeed * (st.seeds - k - 1)
		}
	}
	return r.run.Done, nil
}

func (r *raceRule) champion(*selState) int { return r.run.Winner }

// fill copies the race's state into the finalists' scores (in sel's
// order, which decide sorted).
func (r *raceRule) fill(sel *Selection) {
	lo, hi := r.run.Test.Bounds()
	at := map[string]int{}
	for i, id := range r.ids {
		at[id] = i
	}
	for k := range sel.Finalists {
		f := &sel.Finalists[k]
		rc := r.run.Racers[at[f.ID]]
		e := &RaceEntry{Verdict: rc.Status.String(), Pairs: rc.Pairs, LLR: rc.LLR, Lower: lo, Upper: hi, Score: rc.Score}
		if rc.By >= 0 {
			e.By = r.labels[rc.By]
		}
		f.Race = e
	}
}
