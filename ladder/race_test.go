package ladder

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/kindling"
)

// raceLadder makes a Kindling ladder of normal, sniper and greedy with a
// race of three candidate versions of normal: random, dump and tuned (the
// strong one, last so that the weak ones play first).
func raceLadder(t *testing.T, dsn string) *Store {
	t.Helper()
	ctx := context.Background()
	s := open(t, dsn)
	if _, err := s.Init(ctx, "kindling", 7); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"normal", "sniper", "greedy"} {
		if _, err := s.Add(ctx, n, Source{Kind: KindStrategy, Strategy: n}); err != nil {
			t.Fatal(err)
		}
	}
	var srcs []Source
	for _, c := range []string{"random", "dump", "tuned"} {
		srcs = append(srcs, Source{Kind: KindStrategy, Strategy: c})
	}
	r, err := s.AddCandidates(ctx, "normal", srcs, DefaultRace())
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Candidates) != 3 || r.Candidates[2].Label != "normal@v4" || r.BaselineLabel != "normal" || r.Done {
		t.Fatalf("race as added: %+v", r)
	}
	return s
}

// interrupting plays with arena.Run and cancels the run after n matches.
func interrupting(n int64) (context.Context, func(context.Context, engine.Game, []arena.Entrant, []arena.Job, arena.Options, func(arena.Record) error) error) {
	ctx, cancel := context.WithCancel(context.Background())
	var count atomic.Int64
	return ctx, func(c context.Context, g engine.Game, es []arena.Entrant, jobs []arena.Job, o arena.Options, emit func(arena.Record) error) error {
		return arena.Run(c, g, es, jobs, o, func(r arena.Record) error {
			if err := emit(r); err != nil {
				return err
			}
			if count.Add(1) == n {
				cancel()
			}
			return nil
		})
	}
}

// interruptNight starts the night of opt and cancels it after at
// matches (none when at is 0); it must end cancelled.
func interruptNight(t *testing.T, s *Store, b Builder, opt NightOptions, at int64) {
	t.Helper()
	if at == 0 {
		return
	}
	ctx, p := interrupting(at)
	opt.Play = p
	if _, err := s.RunNight(ctx, kindling.Game{}, b, opt); !errors.Is(err, context.Canceled) {
		t.Fatalf("night interrupted after %d matches: %v, want context.Canceled", at, err)
	}
}

// A night racing three candidate versions promotes the strong one and
// retires the weak ones; the race's state is the same at 1 and 2 workers,
// and when the night is interrupted and continued; a race spread over two
// nights by its pairs per night continues where it stopped.
func TestRaceNight(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			g := kindling.Game{}
			b := kindlingBuilder(t)
			type outcome struct{ export, races string }
			play := func(workers int, interruptAt int64) outcome {
				s := raceLadder(t, mk(t))
				opt := NightOptions{Label: "n1", SeedsPerNight: 1, Workers: workers, ChunkSize: 8, RacePairs: 40}
				interruptNight(t, s, b, opt, interruptAt)
				r1, err := s.RunNight(ctx, g, b, opt)
				if err != nil {
					t.Fatal(err)
				}
				if interruptAt > 0 != r1.Resumed {
					t.Fatalf("night 1 resumed %v", r1.Resumed)
				}
				// 40 pairs tonight: random's 32, then dump's 8.
				if len(r1.Races) != 1 || r1.Races[0].Pairs != 40 || r1.Races[0].Done || r1.Races[0].Nights != 1 {
					t.Fatalf("race after night 1: %+v", r1.Races)
				}
				if c := r1.Races[0].Candidates; c[0].Pairs != 32 || c[1].Pairs != 8 || c[2].Pairs != 0 {
					t.Fatalf("candidates after night 1: %+v", c)
				}
				// The rated part plays the current versions only.
				for _, rr := range r1.Ratings {
					if strings.HasPrefix(rr.Label, "normal@") {
						t.Fatalf("night 1 rated candidate %s", rr.Label)
					}
				}
				if _, err := s.Add(ctx, "normal", Source{Kind: KindStrategy, Strategy: "sniper"}); err == nil || !strings.Contains(err.Error(), "race") {
					t.Fatalf("a new version during a race: %v", err)
				}
				r2, err := s.RunNight(ctx, g, b, NightOptions{Label: "n2", SeedsPerNight: 1, Workers: workers, ChunkSize: 8})
				if err != nil {
					t.Fatal(err)
				}
				race := r2.Races[0]
				if !race.Done || race.Winner != "normal@v4" || race.Nights != 2 {
					t.Fatalf("race after night 2: %+v", race)
				}
				for i, c := range race.Candidates {
					want := OutcomeRetired
					if i == 2 {
						want = OutcomeWinner
					}
					if c.Outcome != want {
						t.Fatalf("candidate %s: %s, want %s", c.Label, c.Outcome, want)
					}
				}
				if race.Saved <= 0 || race.Matches < 2*race.Pairs {
					t.Fatalf("race saved %d matches, played %d for %d pairs", race.Saved, race.Matches, race.Pairs)
				}
				// The winner is normal's current version: rated from the
				// next night on, with no regression test of its own.
				es, err := s.Entrants(ctx, false)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range es {
					if e.Name == "normal" && e.Current.Label != "normal@v4" {
						t.Fatalf("normal's current version is %s, want the winner normal@v4", e.Current.Label)
					}
				}
				r3, err := s.RunNight(ctx, g, b, NightOptions{Label: "n3", SeedsPerNight: 1, Workers: workers, ChunkSize: 8})
				if err != nil {
					t.Fatal(err)
				}
				rated := false
				for _, rr := range r3.Ratings {
					rated = rated || rr.Label == "normal@v4"
				}
				if !rated || len(r3.Regression) != 0 || len(r3.Races) != 0 {
					t.Fatalf("night 3: rated the winner %v, regression tests %+v, races %+v", rated, r3.Regression, r3.Races)
				}
				// A new version after the race is numbered after every
				// candidate and tested against the winner.
				add, err := s.Add(ctx, "normal", Source{Kind: KindStrategy, Strategy: "greedy"})
				if err != nil || add.Version.Label != "normal@v5" {
					t.Fatalf("version after the race: %+v %v", add, err)
				}
				races, err := s.Races(ctx)
				if err != nil {
					t.Fatal(err)
				}
				for i := range races {
					races[i].CreatedAt = ""
				}
				return outcome{export: mustJSON(t, withoutTimes(exportLines(t, s, 0))), races: mustJSON(t, races)}
			}
			base := play(1, 0)
			for _, v := range []struct {
				workers   int
				interrupt int64
			}{{2, 0}, {2, 30}, {1, 70}} {
				got := play(v.workers, v.interrupt)
				if got.export != base.export {
					t.Fatalf("workers %d, interrupted after %d matches: the matches differ", v.workers, v.interrupt)
				}
				if got.races != base.races {
					t.Fatalf("workers %d, interrupted after %d matches: race\n%s\nwant\n%s", v.workers, v.interrupt, got.races, base.races)
				}
			}
		})
	}
}

// An adaptive night chooses its rated matches in batches until the top
// order is settled or its match budget is spent; it is the same at 1 and
// 2 workers and when interrupted and continued, and its ratings come
// from the games it chose.
func TestAdaptiveNight(t *testing.T) {
	for name, mk := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			g := kindling.Game{}
			b := kindlingBuilder(t)
			play := func(workers int, interruptAt int64, cfg AdaptiveNight) (NightResult, string) {
				s := open(t, mk(t))
				if _, err := s.Init(ctx, "kindling", 7); err != nil {
					t.Fatal(err)
				}
				for _, n := range []string{"tuned", "normal", "sniper", "random", "dump"} {
					if _, err := s.Add(ctx, n, Source{Kind: KindStrategy, Strategy: n}); err != nil {
						t.Fatal(err)
					}
				}
				opt := NightOptions{Label: "a1", Workers: workers, ChunkSize: 8, Schedule: ScheduleAdaptive, Adaptive: cfg}
				interruptNight(t, s, b, opt, interruptAt)
				// A continued night keeps its own schedule whatever is asked.
				o := opt
				if interruptAt > 0 {
					o.Schedule = ""
				}
				r, err := s.RunNight(ctx, g, b, o)
				if err != nil {
					t.Fatal(err)
				}
				if r.Night.Config.Schedule != ScheduleAdaptive || r.Adaptive == nil || r.Night.Planned != 0 {
					t.Fatalf("night: %+v", r)
				}
				recs := exportLines(t, s, r.Night.ID)
				if len(recs) != r.Adaptive.Matches || r.Recorded != len(recs) {
					t.Fatalf("%d matches recorded, adaptive counted %d", len(recs), r.Adaptive.Matches)
				}
				if len(r.Ratings) != 5 || !strings.HasPrefix(r.Night.Note, "adaptive: ") {
					t.Fatalf("ratings %+v, note %q", r.Ratings, r.Night.Note)
				}
				return r, mustJSON(t, withoutTimes(recs)) + mustJSON(t, r.Ratings) + mustJSON(t, r.Adaptive)
			}
			settle := AdaptiveNight{Top: 2, Confidence: 0.9, MaxMatches: 2000}
			r, base := play(1, 0, settle)
			if r.Adaptive.Stop != "settled" || r.Adaptive.Prob < 0.9 || r.Adaptive.Order[0] != "tuned" || r.Adaptive.Matches >= 2000 {
				t.Fatalf("adaptive night: %+v", r.Adaptive)
			}
			for _, v := range []struct {
				workers   int
				interrupt int64
			}{{2, 0}, {2, 25}, {1, 90}} {
				if _, got := play(v.workers, v.interrupt, settle); got != base {
					t.Fatalf("workers %d, interrupted after %d: night differs", v.workers, v.interrupt)
				}
			}
			// A budget too small to settle the top 4 ends it.
			tight := AdaptiveNight{Top: 4, Confidence: 0.999, MaxMatches: 100}
			r, base = play(2, 0, tight)
			if r.Adaptive.Stop != "budget" || r.Adaptive.Matches != 100 {
				t.Fatalf("budget night: %+v", r.Adaptive)
			}
			if _, got := play(1, 50, tight); got != base {
				t.Fatal("budget night interrupted: differs")
			}
		})
	}
}

// An adaptive night still plays the regression test of a new version: its
// game pairs are the night's planned schedule, the rated matches follow in
// stages; interrupted and continued, the night ends the same.
func TestAdaptiveNightWithRegression(t *testing.T) {
	ctx := context.Background()
	g := kindling.Game{}
	b := kindlingBuilder(t)
	night := func(interruptAt int64) string {
		s := open(t, backends(t)["sqlite"](t))
		if _, err := s.Init(ctx, "kindling", 3); err != nil {
			t.Fatal(err)
		}
		for _, n := range []string{"normal", "sniper", "contrarian"} {
			if _, err := s.Add(ctx, n, Source{Kind: KindStrategy, Strategy: n}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := s.RunNight(ctx, g, b, NightOptions{Label: "n1", SeedsPerNight: 1, ChunkSize: 4}); err != nil {
			t.Fatal(err)
		}
		if _, err := s.Add(ctx, "contrarian", variantSource(t)); err != nil {
			t.Fatal(err)
		}
		reg := DefaultRegression()
		reg.PairsPerNight = 5
		opt := NightOptions{Label: "n2", Workers: 2, ChunkSize: 4, Regression: &reg, Schedule: ScheduleAdaptive,
			Adaptive: AdaptiveNight{Top: 2, Confidence: 0.99, MaxMatches: 200}}
		interruptNight(t, s, b, opt, interruptAt)
		r, err := s.RunNight(ctx, g, b, opt)
		if err != nil {
			t.Fatal(err)
		}
		if r.Night.Planned != 10 || len(r.Regression) != 1 || r.Regression[0].Counts.Pairs() != 5 || r.Adaptive == nil || r.Adaptive.Matches < 6 {
			t.Fatalf("night 2: planned %d, regression %+v, adaptive %+v", r.Night.Planned, r.Regression, r.Adaptive)
		}
		if r.Recorded != 10+r.Adaptive.Matches {
			t.Fatalf("recorded %d: 10 regression games and %d rated", r.Recorded, r.Adaptive.Matches)
		}
		return mustJSON(t, withoutTimes(exportLines(t, s, r.Night.ID))) + mustJSON(t, r.Ratings) + mustJSON(t, r.Regression[0].Counts)
	}
	if night(0) != night(40) {
		t.Fatal("the adaptive night with a regression test differs once interrupted")
	}
}
