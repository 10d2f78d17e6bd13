package queue

import (
	"context"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/arena"
	"crucible/engine"
)

// A batch's jobs come back as they went in; a malformed line or an id
// that would break the format is an error naming it.
func TestJobsRoundTrip(t *testing.T) {
	jobs := arena.RoundRobin(4, arena.Seeds(3, 2))
	ffa, err := arena.FreeForAll(5, 4, arena.Seeds(9, 1))
	if err != nil {
		t.Fatal(err)
	}
	jobs = append(jobs, ffa...)
	jobs = append(jobs, arena.Job{ID: "x", Round: 7, Seed: 1<<64 - 1, Seats: []int{0, 1}})
	text, err := encodeJobs(jobs)
	if err != nil {
		t.Fatal(err)
	}
	back, err := decodeJobs(text)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, jobs) {
		t.Errorf("jobs changed on the way:\n%v\nwant\n%v", back, jobs)
	}
	if _, err := encodeJobs([]arena.Job{{ID: "a\tb", Seats: []int{0}}}); err == nil || !strings.Contains(err.Error(), `job id "a\tb"`) {
		t.Errorf("an id with a tab: %v", err)
	}
	if _, err := decodeJobs("r0-0v1\t0\tx\t0,1\n"); err == nil || !strings.Contains(err.Error(), "job line 1") {
		t.Errorf("a bad seed: %v", err)
	}
}

// Entrants rebuilt from their specs play as the originals: same refs and
// parameters; an entrant the registry cannot rebuild is refused by name.
func TestSpecsRebuildEntrants(t *testing.T) {
	reg, err := testGames.Registry()
	if err != nil {
		t.Fatal(err)
	}
	s := roundRobin("kindling", 3, 1)
	g, _ := reg.Lookup("kindling", s.entrants[0].Strategy)
	genome := g.Schema.Defaults()
	genome[0] = g.Schema[0].Min
	s.entrants = append(s.entrants, arena.StrategyEntrant(g, "tuned", g.VariantID(genome), genome))
	specs, err := Specs(reg, "kindling", s.entrants)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Build(testGames, reg, "kindling", specs, "")
	if err != nil {
		t.Fatal(err)
	}
	for i := range back {
		if back[i].Ref() != s.entrants[i].Ref() || !reflect.DeepEqual(back[i].Params, s.entrants[i].Params) {
			t.Errorf("entrant %d rebuilt as %+v %v, want %+v %v", i, back[i].Ref(), back[i].Params, s.entrants[i].Ref(), s.entrants[i].Params)
		}
	}
	odd := s.entrants[0]
	odd.Strategy = "no-such"
	if _, err := Specs(reg, "kindling", []arena.Entrant{odd}); err == nil || !strings.Contains(err.Error(), "no-such") {
		t.Errorf("an unknown strategy: %v", err)
	}
}

// Batches hold about a minute of work, at most MaxBatchMatches, and a
// small run is spread over MinBatches batches of at least MinBatchWork.
func TestBatchSize(t *testing.T) {
	for _, c := range []struct {
		total    int
		perMatch time.Duration
		want     int
	}{
		{1_000_000, 5 * time.Millisecond, 12_000},     // acb: a minute
		{10_000_000, 100 * time.Microsecond, 100_000}, // Kindling: capped
		{48_000, 100 * time.Microsecond, 20_000},      // small: 2 s batches
		{100_000, 5 * time.Millisecond, 6_250},        // spread over 16
		{10, 5 * time.Millisecond, 10},                // tiny: one batch
		{5, time.Hour, 1},                             // slow matches: one a batch
	} {
		if got := BatchSize(c.total, c.perMatch); got != c.want {
			t.Errorf("BatchSize(%d, %s) = %d, want %d", c.total, c.perMatch, got, c.want)
		}
	}
}

// Calibrate plays 1% of the run's matches (at least one), spread over the
// schedule, and measures CPU time a match: a small run does not pay 300 ms
// of thrown-away matches for its batch size.
func TestCalibratePlaysOnePercent(t *testing.T) {
	s := roundRobin("kindling", 16, 5) // 1,200 matches
	var built atomic.Int64
	counted := make([]arena.Entrant, len(s.entrants))
	for i, e := range s.entrants {
		inner := e.New
		e.New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			built.Add(1)
			return inner(ctx, seed, seat)
		}
		counted[i] = e
	}
	for _, tt := range []struct {
		jobs, want int
	}{{len(s.jobs), 12}, {150, 2}, {40, 1}} {
		built.Store(0)
		per, err := Calibrate(context.Background(), s.game, nil, counted, s.jobs[:tt.jobs])
		if err != nil {
			t.Fatal(err)
		}
		// Each match builds a player a seat.
		if got := int(built.Load()) / len(s.jobs[0].Seats); got != tt.want {
			t.Errorf("%d jobs: Calibrate played %d matches, want %d", tt.jobs, got, tt.want)
		}
		if per <= 0 || per > time.Second {
			t.Errorf("%d jobs: %s a match", tt.jobs, per)
		}
	}
}
