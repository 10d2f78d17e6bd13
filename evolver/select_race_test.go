package evolver

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"crucible/strategies"
)

// Rule: the race stops the selection as soon as a finalist is shown
// stronger than the field, that finalist is the champion, and the matches
// it did not play are counted as saved (played + saved = the full plan).
// The verdicts are the same at any worker count.
func TestRaceSelectStopsAtTheWinner(t *testing.T) {
	_, base, pool := duelSetup(t)
	field := fieldOf(pool, base)
	weak := duelVariant(base, 0.4, 0)
	middle := duelVariant(base, 0.6, 0)
	strong := duelVariant(base, 0.85, 0)
	finalists := []strategies.Variant{weak, middle, strong}
	seeds := tournamentSeeds(1, 64)
	var first Selection
	for _, workers := range []int{1, 3} {
		ev := &arenaEvaluator{Game: duelGame{}, Base: base, Pool: field, Workers: workers}
		sel, err := raceChampion(context.Background(), ev, paramSpace{Base: base}, finalists, seeds, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range sel.Finalists {
			t.Logf("workers %d: %s rate %.3f over %d seeds, race %+v", workers, f.Label, f.Rate.Mean, f.Rate.Units, *f.Race)
		}
		if workers == 1 {
			first = sel
			continue
		}
		if !reflect.DeepEqual(sel, first) {
			t.Errorf("the race differs at 3 workers:\n%+v\nagainst 1:\n%+v", sel, first)
		}
	}
	sel := first
	if sel.Method != "race" || !strings.Contains(sel.FamilyError, "Bonferroni") {
		t.Errorf("method %q, family error %q", sel.Method, sel.FamilyError)
	}
	if sel.Champion != strong.ID || sel.Finalists[0].Race.Verdict != "H1" || !strings.HasPrefix(sel.Reason, "the race's winner") {
		t.Errorf("champion %s (%s, race %+v), want the strong finalist %s, accepted", sel.Champion, sel.Reason, sel.Finalists[0].Race, strong.ID)
	}
	if sel.SeedsPlayed >= len(seeds) || sel.SavedMatches == 0 {
		t.Errorf("%d of %d seeds played, %d matches saved: the winner should end the race early", sel.SeedsPlayed, len(seeds), sel.SavedMatches)
	}
	perSeed := 2 * len(field)
	played := 0
	for _, f := range sel.Finalists {
		played += f.Rate.Units * perSeed
		if f.Race.Pairs > f.Rate.Units*len(field) {
			t.Errorf("%s counted %d pairs over %d seeds of %d opponents", f.Label, f.Race.Pairs, f.Rate.Units, len(field))
		}
	}
	if sel.Matches != played || sel.Matches+sel.SavedMatches != len(finalists)*perSeed*len(seeds) {
		t.Errorf("%d matches played and %d saved; want %d played and %d in all", sel.Matches, sel.SavedMatches, played, len(finalists)*perSeed*len(seeds))
	}
}

// Rule: finalists no stronger than the field are all dropped (H0, or
// eliminated by a stronger one), and the score rates still choose a
// champion among them, the highest first.
func TestRaceSelectNoneStrongerThanTheField(t *testing.T) {
	_, base, pool := duelSetup(t)
	field := fieldOf(pool, base)
	finalists := []strategies.Variant{duelVariant(base, 0.2, 0), duelVariant(base, 0.3, 0)}
	ev := &arenaEvaluator{Game: duelGame{}, Base: base, Pool: field, Workers: 2}
	seeds := tournamentSeeds(2, 200)
	sel, err := raceChampion(context.Background(), ev, paramSpace{Base: base}, finalists, seeds, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range sel.Finalists {
		t.Logf("%s rate %.3f over %d seeds, race %+v", f.Label, f.Rate.Mean, f.Rate.Units, *f.Race)
		if !f.Dropped || f.Race.Verdict == "H1" {
			t.Errorf("%s: dropped %v, verdict %s; a finalist weaker than the field should leave the race", f.Label, f.Dropped, f.Race.Verdict)
		}
	}
	if sel.Champion != finalists[1].ID || sel.SeedsPlayed >= len(seeds) {
		t.Errorf("champion %s after %d of %d seeds (%s), want the higher-rated %s before the seeds end", sel.Champion, sel.SeedsPlayed, len(seeds), sel.Reason, finalists[1].ID)
	}
}

// Rule: the race refuses free-for-all groups, whose matches are not
// seat-swapped pairs.
func TestRaceSelectNeedsPairs(t *testing.T) {
	_, base, pool := duelSetup(t)
	ev := &arenaEvaluator{Game: duelGame{}, Base: base, Pool: fieldOf(pool, base), Workers: 1, Seats: 3}
	_, err := raceChampion(context.Background(), ev, paramSpace{Base: base}, []strategies.Variant{duelVariant(base, 0.6, 0)}, tournamentSeeds(1, 2), nil)
	if err == nil || !strings.Contains(err.Error(), "pairs") {
		t.Errorf("error %v, want a refusal of groups", err)
	}
}
