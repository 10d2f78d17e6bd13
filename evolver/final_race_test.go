package evolver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"crucible/engine/kindling"
)

// Rule: with SelectRace, a Kindling run races its finalists: report.json
// says so, its matches played and saved add up to the selection's full
// plan, the held-out comparison is made as without the race, and the
// ranking tournament carries its rank probabilities. The race is the same
// at one worker and two, and a run cancelled in the middle of the race
// and resumed ends as the run left alone.
func TestEvolveSelectRace(t *testing.T) {
	race := func(out string, workers int) Config {
		cfg := smallKindling(t, "ga", out)
		cfg.SelectRace, cfg.TournamentSeeds, cfg.Workers = true, 24, workers
		return cfg
	}
	counter := &cancelGame{Game: kindling.Game{}, after: -1, cancel: func() {}}
	cfg := race(filepath.Join(t.TempDir(), "whole"), 1)
	cfg.Game = counter
	whole, err := Evolve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	sel := whole.Selection
	if sel == nil || sel.Method != "race" || sel.FamilyError == "" {
		t.Fatalf("selection %+v, want a race", sel)
	}
	perSeed := 2 * 3 // the field of 3 in both seat orders
	if sel.Matches+sel.SavedMatches != len(sel.Finalists)*perSeed*sel.SeedsPlanned {
		t.Errorf("%d matches played and %d saved, want %d in all", sel.Matches, sel.SavedMatches, len(sel.Finalists)*perSeed*sel.SeedsPlanned)
	}
	t.Logf("race: %d seeds of %d, %d matches played, %d saved; %s", sel.SeedsPlayed, sel.SeedsPlanned, sel.Matches, sel.SavedMatches, sel.Reason)
	for _, f := range sel.Finalists {
		if f.Race == nil || f.SPRT != nil {
			t.Errorf("finalist %s: race %v, SPRT %v; want the race's state only", f.Label, f.Race, f.SPRT)
		}
	}
	if h := whole.Holdout; h == nil || h.Seeds != 24 || h.A != whole.Champion.Label() {
		t.Errorf("held-out comparison %+v, want the champion on 24 seeds", h)
	}
	if r := whole.Leaderboard.Ranks; r == nil || r.Unavailable != "" || len(r.Players) != 4 {
		t.Errorf("ranking tournament's rank table %+v, want the champion and 3 reference strategies", r)
	}
	data, err := os.ReadFile(filepath.Join(whole.Dir, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var onDisk struct {
		Selection struct {
			Method string `json:"method"`
			Saved  int    `json:"saved_matches"`
		} `json:"selection"`
	}
	if err := json.Unmarshal(data, &onDisk); err != nil || onDisk.Selection.Method != "race" || onDisk.Selection.Saved != sel.SavedMatches {
		t.Errorf("report.json's selection %+v (%v), want the race and %d saved", onDisk.Selection, err, sel.SavedMatches)
	}

	two, err := Evolve(context.Background(), race(filepath.Join(t.TempDir(), "two"), 2))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(two.Selection, whole.Selection) || two.Champion.ID != whole.Champion.ID {
		t.Errorf("2 workers: selection %+v; 1 worker: %+v", two.Selection, whole.Selection)
	}

	out := filepath.Join(t.TempDir(), "cut")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg = race(out, 1)
	cfg.Game = &cancelGame{Game: kindling.Game{}, after: counter.n.Load() - int64(whole.FinalMatches) + int64(sel.Matches/2), cancel: cancel}
	if _, err := Evolve(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Fatalf("run cancelled in the race returned %v", err)
	}
	cfg = race(out, 1)
	cfg.Resume = true
	resumed, err := Evolve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(resumed.Selection, whole.Selection) || !reflect.DeepEqual(resumed.Holdout, whole.Holdout) {
		t.Errorf("resumed: selection %+v, held-out %v; uninterrupted: %+v, %v", resumed.Selection, resumed.Holdout, whole.Selection, whole.Holdout)
	}
}
