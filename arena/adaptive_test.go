package arena_test

import (
	"context"
	"errors"
	"testing"

	"crucible/arena"
	"crucible/engine"
)

// mapToy is the toy game with a map per seed, as AI Code Battle plays
// (a map suits a player against every opponent): the round robin's
// rounds share it across pairs, the adaptive schedule's meetings do not.
var mapToy = toyGame{maps: 1.5}

func adaptiveOptions(workers int) arena.AdaptiveOptions {
	return arena.AdaptiveOptions{Top: 3, Confidence: 0.95, MaxMatches: 40000, Seed: 5, Batch: 16, Draws: 2000, Run: arena.Options{Workers: workers}}
}

func playAdaptive(t *testing.T, ctx context.Context, n int, prev []arena.Record, opt arena.AdaptiveOptions) (arena.AdaptiveState, []arena.Record, error) {
	t.Helper()
	var recs []arena.Record
	st, err := arena.PlayAdaptive(ctx, mapToy, toyEntrants(n), prev, opt, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	return st, recs, err
}

// TestPlayAdaptiveSettles checks that the schedule settles the top 3 of
// 10 toy players (strengths 0 to 9) in their true order, with the same
// matches at 1 and 3 workers, and, over three seeds, with fewer matches
// than the round robin on the same seeds needs by the same measure.
func TestPlayAdaptiveSettles(t *testing.T) {
	const n = 10
	es := toyEntrants(n)
	adaptive, roundRobin := 0, 0
	for seed := uint64(1); seed <= 3; seed++ {
		var states []arena.AdaptiveState
		for _, w := range []int{1, 3} {
			opt := adaptiveOptions(w)
			opt.Seed = seed
			st, recs, err := playAdaptive(t, context.Background(), n, nil, opt)
			if err != nil {
				t.Fatal(err)
			}
			if !st.Settled || st.Stop != "settled" || st.Certainty.Prob < 0.95 {
				t.Fatalf("%d workers: stopped %q after %d matches with P = %.3f", w, st.Stop, st.Matches, st.Certainty.Prob)
			}
			if o := st.Certainty.Order; o[0] != 9 || o[1] != 8 || o[2] != 7 {
				t.Fatalf("top 3 %v, want [9 8 7] (the strongest toys)", o)
			}
			if st.Played != len(recs) || st.Matches != len(recs) {
				t.Fatalf("played %d, matches %d, %d records", st.Played, st.Matches, len(recs))
			}
			states = append(states, st)
		}
		a, b := states[0], states[1]
		if a.Matches != b.Matches || a.Certainty.Prob != b.Certainty.Prob {
			t.Fatalf("seed %d: 1 worker: %d matches P %v; 3 workers: %d matches P %v", seed, a.Matches, a.Certainty.Prob, b.Matches, b.Certainty.Prob)
		}
		rr := mapToyRoundRobin(t, es, seed, 120)
		rounds, matches, cert, err := arena.RoundRobinSettled(es, rr, 3, 0.95, 2000, seed)
		if err != nil {
			t.Fatal(err)
		}
		if rounds == 0 {
			t.Fatalf("seed %d: 120 rounds of the round robin did not settle the top 3 (P %.3f)", seed, cert.Prob)
		}
		t.Logf("seed %d: adaptive %d matches in %d batches; round robin %d rounds, %d matches", seed, a.Matches, a.Batches, rounds, matches)
		adaptive += a.Matches
		roundRobin += matches
	}
	if adaptive >= roundRobin {
		t.Fatalf("adaptive: %d matches over three seeds, round robin %d: want the adaptive cheaper", adaptive, roundRobin)
	}
}

// TestPlayAdaptiveResumeAndBudget cancels a schedule and resumes it: the
// resumed one ends as the uninterrupted one. A budget cuts the schedule.
func TestPlayAdaptiveResumeAndBudget(t *testing.T) {
	full, _, err := playAdaptive(t, context.Background(), 5, nil, adaptiveOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	opt := adaptiveOptions(1)
	opt.Progress = func(st arena.AdaptiveState) {
		if st.Batches == 2 {
			cancel()
		}
	}
	_, recs, err := playAdaptive(t, ctx, 5, nil, opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled schedule: error %v", err)
	}
	st, _, err := playAdaptive(t, context.Background(), 5, recs, adaptiveOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	if st.Resumed != len(recs) || st.Matches != full.Matches || st.Certainty.Prob != full.Certainty.Prob {
		t.Fatalf("resumed %d of %d; %d matches P %v, uninterrupted %d matches P %v", st.Resumed, len(recs), st.Matches, st.Certainty.Prob, full.Matches, full.Certainty.Prob)
	}
	opt = adaptiveOptions(2)
	opt.MaxMatches = 50
	cut, _, err := playAdaptive(t, context.Background(), 5, nil, opt)
	if err != nil {
		t.Fatal(err)
	}
	if cut.Stop != "budget" || cut.Matches != 50 {
		t.Fatalf("budget 50: stopped %q after %d matches", cut.Stop, cut.Matches)
	}
	opt.MaxMatches = 10
	if _, _, err := playAdaptive(t, context.Background(), 5, nil, opt); err == nil {
		t.Fatal("a budget below the first round was accepted")
	}
}

// TestAdaptiveSettledOrderIsRight plays adaptive schedules and round
// robins of six toy players on a game with maps (a seed's map lifts or
// sinks a player against everyone) on 20 seeds each, and counts how often
// the top 3 they call settled at 0.9 is not the true one. The adaptive
// schedule's pairs meet on seeds of their own, the round robin's share a
// seed a round and are clustered by it (stats' TestClusteredCoversOnMaps
// shows what taking them as independent does to the intervals).
func TestAdaptiveSettledOrderIsRight(t *testing.T) {
	const n, runs = 6, 20
	es := toyEntrants(n)
	for i := range es {
		// Strengths 0 to 5: close enough that the maps matter.
		strength := float64(i)
		es[i].Params = map[string]float64{"strength": strength}
		es[i].New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			return &toyPlayer{strength: strength, seed: seed}, nil
		}
	}
	wrong := func(order []int) bool {
		for k, p := range order {
			if p != n-1-k {
				return true
			}
		}
		return false
	}
	adaptiveWrong, rrWrong, rrSettled := 0, 0, 0
	for seed := uint64(100); seed < 100+runs; seed++ {
		opt := arena.AdaptiveOptions{Top: 3, Confidence: 0.9, MaxMatches: 20000, Seed: seed, Batch: 8, Draws: 2000, Run: arena.Options{Workers: 2}}
		st, err := arena.PlayAdaptive(context.Background(), mapToy, es, nil, opt, func(arena.Record) error { return nil })
		if err != nil {
			t.Fatal(err)
		}
		if st.Settled && wrong(st.Certainty.Order) {
			adaptiveWrong++
		}
		rr := mapToyRoundRobin(t, es, seed, 40)
		rounds, _, cert, err := arena.RoundRobinSettled(es, rr, 3, 0.9, 2000, seed)
		if err != nil {
			t.Fatal(err)
		}
		if rounds > 0 {
			rrSettled++
			if wrong(cert.Order) {
				rrWrong++
			}
		}
	}
	t.Logf("wrong orders called settled at 0.9 over %d seeds: adaptive %d, round robin %d (of %d settled)", runs, adaptiveWrong, rrWrong, rrSettled)
	// At most 10% wrong is expected, a little more as both stop at the
	// first check that reaches the confidence (optional stopping): 8 of 40
	// is above the expected 4 by two standard deviations.
	if adaptiveWrong > 8 || rrWrong > 8 {
		t.Fatalf("wrong orders called settled at 0.9: adaptive %d of %d, round robin %d of %d", adaptiveWrong, runs, rrWrong, rrSettled)
	}
}

// mapToyRoundRobin plays rounds rounds of a round robin of es on mapToy
// from seed and returns its records.
func mapToyRoundRobin(t *testing.T, es []arena.Entrant, seed uint64, rounds int) []arena.Record {
	t.Helper()
	var rr []arena.Record
	if err := arena.Run(context.Background(), mapToy, es, arena.RoundRobin(len(es), arena.Seeds(seed, rounds)), arena.Options{Workers: 2}, func(r arena.Record) error {
		rr = append(rr, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return rr
}
