package arena_test

import (
	"context"
	"errors"
	"testing"

	"crucible/arena"
)

func adaptiveOptions(workers int) arena.AdaptiveOptions {
	return arena.AdaptiveOptions{Top: 3, Confidence: 0.95, MaxMatches: 20000, Seed: 5, Batch: 16, Draws: 2000, Run: arena.Options{Workers: workers}}
}

func playAdaptive(t *testing.T, ctx context.Context, n int, prev []arena.Record, opt arena.AdaptiveOptions) (arena.AdaptiveState, []arena.Record, error) {
	t.Helper()
	var recs []arena.Record
	st, err := arena.PlayAdaptive(ctx, toyGame{}, toyEntrants(n), prev, opt, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	return st, recs, err
}

// TestPlayAdaptiveSettles checks that the schedule settles the top 3 of 6
// toy players (strengths 0 to 5) in their true order, with the same
// matches at 1 and 3 workers, after a first round of every pair once,
// and with fewer matches than the round robin that settles it.
func TestPlayAdaptiveSettles(t *testing.T) {
	var states []arena.AdaptiveState
	for _, w := range []int{1, 3} {
		st, recs, err := playAdaptive(t, context.Background(), 6, nil, adaptiveOptions(w))
		if err != nil {
			t.Fatal(err)
		}
		if !st.Settled || st.Stop != "settled" || st.Certainty.Prob < 0.95 {
			t.Fatalf("%d workers: stopped %q after %d matches with P = %.3f", w, st.Stop, st.Matches, st.Certainty.Prob)
		}
		if o := st.Certainty.Order; o[0] != 5 || o[1] != 4 || o[2] != 3 {
			t.Fatalf("top 2 %v, want [5 4 3] (the strongest toys)", o)
		}
		if st.Played != len(recs) || st.Matches != len(recs) {
			t.Fatalf("played %d, matches %d, %d records", st.Played, st.Matches, len(recs))
		}
		states = append(states, st)
	}
	a, b := states[0], states[1]
	if a.Matches != b.Matches || a.Certainty.Prob != b.Certainty.Prob {
		t.Fatalf("1 worker: %d matches P %v; 3 workers: %d matches P %v", a.Matches, a.Certainty.Prob, b.Matches, b.Certainty.Prob)
	}
	// The round robin on the same seeds, one round at a time.
	es := toyEntrants(6)
	var rr []arena.Record
	if err := arena.Run(context.Background(), toyGame{}, es, arena.RoundRobin(6, arena.Seeds(5, 60)), arena.Options{Workers: 2}, func(r arena.Record) error {
		rr = append(rr, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rounds, matches, prob, err := arena.RoundRobinSettled(es, rr, 3, 0.95, 2000, 5)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("adaptive: %d matches in %d batches (P %.3f); round robin: %d rounds, %d matches (P %.3f)", a.Matches, a.Batches, a.Certainty.Prob, rounds, matches, prob)
	if rounds == 0 || matches <= a.Matches {
		t.Fatalf("round robin settled after %d rounds (%d matches), adaptive after %d matches: want the adaptive cheaper", rounds, matches, a.Matches)
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
