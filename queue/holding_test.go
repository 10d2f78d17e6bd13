package queue

import (
	"context"
	"slices"
	"testing"

	"crucible/arena"
)

// Holding finds the runs a resumed submitter re-attaches to: open runs of
// the same game, configuration and entrants that hold a job with the same
// id and seed; a job two runs hold counts for the older; cancelled runs
// and runs of other seeds hold nothing; what no run holds is left to
// submit, in schedule order.
func TestHoldingFindsTheRunsOfASchedule(t *testing.T) {
	db, _ := openTestDB(t)
	ctx := context.Background()
	s := schedules["acb"]() // 120 jobs
	reg, err := testGames.Registry()
	if err != nil {
		t.Fatal(err)
	}
	specs, err := Specs(reg, s.game.Name(), s.entrants)
	if err != nil {
		t.Fatal(err)
	}
	submit := func(jobs []arena.Job) int64 {
		t.Helper()
		id, err := Submit(ctx, db, Run{Label: "test", Game: s.game, Entrants: specs, Jobs: jobs, BatchSize: 10})
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	cancelled := submit(s.jobs[:40])
	if err := Cancel(ctx, db, cancelled); err != nil {
		t.Fatal(err)
	}
	older := submit(s.jobs[20:60])
	newer := submit(s.jobs[50:80])
	reseeded := slices.Clone(s.jobs[80:90])
	for i := range reseeded {
		reseeded[i].Seed++
	}
	submit(reseeded)

	holders, rest, err := Holding(ctx, db, Run{Game: s.game, Entrants: specs, Jobs: s.jobs})
	if err != nil {
		t.Fatal(err)
	}
	ids := func(jobs []arena.Job) []string {
		var out []string
		for _, j := range jobs {
			out = append(out, j.ID)
		}
		return out
	}
	if len(holders) != 2 || holders[0].ID != older || holders[1].ID != newer {
		t.Fatalf("holders %+v, want runs %d and %d", holders, older, newer)
	}
	if !slices.Equal(holders[0].Jobs, ids(s.jobs[20:60])) || !slices.Equal(holders[1].Jobs, ids(s.jobs[60:80])) {
		t.Errorf("run %d holds %d jobs and run %d %d; want 40 (20-59) and 20 (60-79)", older, len(holders[0].Jobs), newer, len(holders[1].Jobs))
	}
	if want := append(ids(s.jobs[:20]), ids(s.jobs[80:])...); !slices.Equal(ids(rest), want) {
		t.Errorf("%d jobs left to submit, want the %d no run holds", len(rest), len(want))
	}
	// Other entrants (one left out) hold nothing of it.
	holders, rest, err = Holding(ctx, db, Run{Game: s.game, Entrants: specs[1:], Jobs: s.jobs})
	if err != nil || len(holders) != 0 || len(rest) != len(s.jobs) {
		t.Errorf("runs of other entrants: %d holders, %d left, %v", len(holders), len(rest), err)
	}
}
