package arena_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/engine"
	"crucible/stats"
)

// sprtTest is a test B (p1, strength 1) can pass against A (p0): H0 even,
// H1 +60 Elo; the toy's noise makes it take some dozens of pairs.
var sprtTest = stats.SPRT{Elo0: 0, Elo1: 60, Alpha: 0.05, Beta: 0.05, Model: stats.Logistic}

// playSPRT runs PlaySPRT and returns the state and the emitted records.
func playSPRT(t *testing.T, ctx context.Context, es []arena.Entrant, prev []arena.Record, opt arena.SPRTOptions) (arena.SPRTState, []arena.Record, error) {
	t.Helper()
	var recs []arena.Record
	st, err := arena.PlaySPRT(ctx, toyGame{}, es, prev, opt, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	return st, recs, err
}

// classesByPair recomputes each pair's pentanomial class from its two
// records: B's total score over the seat-swapped pair.
func classesByPair(t *testing.T, recs []arena.Record) map[int]int {
	t.Helper()
	total := map[int]float64{}
	games := map[int]int{}
	for _, r := range recs {
		b := 0
		if r.Players[1].Name == "p1" {
			b = 1
		}
		a := 1 - b
		switch {
		case r.Ranks[b] < r.Ranks[a]:
			total[r.Round]++
		case r.Ranks[b] == r.Ranks[a]:
			total[r.Round] += 0.5
		}
		games[r.Round]++
	}
	out := map[int]int{}
	for k, g := range games {
		if g == 2 {
			out[k] = int(2 * total[k])
		}
	}
	return out
}

// TestPlaySPRTStopsInPairOrder checks the sequential test: the counts are
// the classes of pairs 0 to Pairs-1 recomputed from the records, the test
// decided at the last of them and not before, and 1 and 3 workers (in
// batches small enough to need several) stop at the same pair with the
// same counts and verdict.
func TestPlaySPRTStopsInPairOrder(t *testing.T) {
	es := toyEntrants(2)
	var states []arena.SPRTState
	for _, workers := range []int{1, 3} {
		st, recs, err := playSPRT(t, context.Background(), es, nil, arena.SPRTOptions{Test: sprtTest, MaxPairs: 5000, Seed: 7, Batch: 16, Run: arena.Options{Workers: workers}})
		if err != nil {
			t.Fatal(err)
		}
		if !st.Decided || st.Result.Verdict != stats.AcceptH1 {
			t.Fatalf("%d workers: after %d pairs %+v, want H1 accepted", workers, st.Pairs, st.Result)
		}
		classes := classesByPair(t, recs)
		var c stats.Pentanomial
		for k := range st.Pairs {
			cl, ok := classes[k]
			if !ok {
				t.Fatalf("pair %d was counted but its two matches are not in the records", k)
			}
			if k == st.Pairs-1 {
				if res, _ := sprtTest.Test(c, 0.95); res.Verdict != stats.Continue {
					t.Fatalf("the test had decided (%v) before pair %d, where it stopped", res.Verdict, k)
				}
			}
			c[cl]++
		}
		if c != st.Counts {
			t.Fatalf("%d workers: counts %v, the records give %v", workers, st.Counts, c)
		}
		if want, _ := sprtTest.Test(c, 0.95); want != st.Result {
			t.Fatalf("result %+v, the test on the counts %+v", st.Result, want)
		}
		if st.Played != len(recs) || st.Resumed != 0 {
			t.Fatalf("played %d (records %d), resumed %d", st.Played, len(recs), st.Resumed)
		}
		states = append(states, st)
	}
	a, b := states[0], states[1]
	if a.Pairs != b.Pairs || a.Counts != b.Counts || a.Result != b.Result {
		t.Fatalf("1 worker: %d pairs %v; 3 workers: %d pairs %v", a.Pairs, a.Counts, b.Pairs, b.Counts)
	}
	t.Logf("H1 accepted after %d pairs, counts %v, LLR %.2f", a.Pairs, a.Counts, a.Result.LLR)
}

// TestPlaySPRTResume cancels a test after 10 pairs and resumes it from
// the records it emitted: the resumed run counts them without playing them
// again and ends with the counts and verdict of an uninterrupted run. A
// run resumed after the test decided plays nothing.
func TestPlaySPRTResume(t *testing.T) {
	es := toyEntrants(2)
	opt := arena.SPRTOptions{Test: sprtTest, MaxPairs: 5000, Seed: 3, Batch: 8, Run: arena.Options{Workers: 2}}
	whole, all, err := playSPRT(t, context.Background(), es, nil, opt)
	if err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cut := opt
	cut.Progress = func(st arena.SPRTState) {
		if st.Pairs == 10 {
			cancel()
		}
	}
	part, recs, err := playSPRT(t, ctx, es, nil, cut)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if part.Pairs < 10 || part.Pairs >= whole.Pairs || part.Decided {
		t.Fatalf("cancelled run counted %d pairs (decided %v); the whole test takes %d", part.Pairs, part.Decided, whole.Pairs)
	}
	// A half-finished pair (one match of two) stays in the file too.
	resumed, more, err := playSPRT(t, context.Background(), es, recs, opt)
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Pairs != whole.Pairs || resumed.Counts != whole.Counts || resumed.Result != whole.Result {
		t.Fatalf("resumed: %d pairs %v %+v; uninterrupted: %d pairs %v %+v", resumed.Pairs, resumed.Counts, resumed.Result, whole.Pairs, whole.Counts, whole.Result)
	}
	if resumed.Resumed != len(recs) || resumed.Played != len(more) {
		t.Fatalf("resumed %d of %d records, played %d (emitted %d)", resumed.Resumed, len(recs), resumed.Played, len(more))
	}
	seen := map[string]bool{}
	for _, r := range recs {
		seen[r.Job] = true
	}
	for _, r := range more {
		if seen[r.Job] {
			t.Fatalf("the resumed run played %s again", r.Job)
		}
	}
	again, none, err := playSPRT(t, context.Background(), es, all, opt)
	if err != nil || len(none) != 0 || again.Counts != whole.Counts || again.Result != whole.Result {
		t.Fatalf("resuming a decided test: %v, played %d, %v", err, len(none), again.Counts)
	}
}

// TestPlaySPRTCapAndSeats checks the cap (an even match stops undecided at
// MaxPairs), the three-seat reduction (each pair is the group's three
// rotations, each player in each seat once, and its class is the bucket
// of B's rotation score) and the refusals.
func TestPlaySPRTCapAndSeats(t *testing.T) {
	even := toyEntrants(1)
	even = append(even, even[0])
	even[1].Name = "twin"
	st, recs, err := playSPRT(t, context.Background(), even, nil, arena.SPRTOptions{Test: stats.SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}, MaxPairs: 6, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Decided || st.Pairs != 6 || st.Counts.Pairs() != 6 || len(recs) != 12 {
		t.Fatalf("capped at 6: %+v with %d records", st, len(recs))
	}

	three := toyEntrants(3) // A p0, B p1, opponent p2
	st, recs, err = playSPRT(t, context.Background(), three, nil, arena.SPRTOptions{Test: sprtTest, MaxPairs: 4, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	if st.Pairs != 4 || len(recs) != 12 {
		t.Fatalf("three seats: %d pairs, %d records; want 4 pairs of 3 rotations", st.Pairs, len(recs))
	}
	var want stats.Pentanomial
	for k := range 4 {
		var ra, rb []int
		seats := map[string][]int{}
		for _, r := range recs {
			if r.Round != k {
				continue
			}
			if r.Seed != engine.Mix(2, uint64(k)) {
				t.Fatalf("pair %d played on seed %d, want engine.Mix(2, %d)", k, r.Seed, k)
			}
			for s, p := range r.Players {
				seats[p.Name] = append(seats[p.Name], s)
				switch p.Name {
				case "p0":
					ra = append(ra, r.Ranks[s])
				case "p1":
					rb = append(rb, r.Ranks[s])
				}
			}
		}
		for name, ss := range seats {
			if len(ss) != 3 || ss[0]+ss[1]+ss[2] != 3 || ss[0] == ss[1] {
				t.Fatalf("pair %d: %s sat in seats %v, want each of 0, 1, 2 once", k, name, ss)
			}
		}
		score, err := stats.RotationScore(ra, rb)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := stats.ScoreBucket(score)
		want[b]++
	}
	if want != st.Counts {
		t.Fatalf("three seats: counts %v, the rotation scores give %v", st.Counts, want)
	}

	failing := toyEntrants(2)
	failing[1].New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
		return &toyPlayer{fail: errBoom}, nil
	}
	_, _, err = playSPRT(t, context.Background(), failing, nil, arena.SPRTOptions{Test: sprtTest, MaxPairs: 10})
	if err == nil || !strings.Contains(err.Error(), "of the test failed") || !strings.Contains(err.Error(), "--resume") {
		t.Fatalf("failing player: %v", err)
	}
	for _, tt := range []struct {
		es   []arena.Entrant
		opt  arena.SPRTOptions
		want string
	}{
		{toyEntrants(1), arena.SPRTOptions{Test: sprtTest, MaxPairs: 1}, "needs players A and B"},
		{toyEntrants(2), arena.SPRTOptions{Test: sprtTest}, "max pairs 0"},
		{toyEntrants(2), arena.SPRTOptions{Test: stats.SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}, MaxPairs: 1}, "elo0 5 must be below elo1 0"},
		{toyEntrants(5), arena.SPRTOptions{Test: sprtTest, MaxPairs: 1}, "toy allows [2, 4]"},
	} {
		if _, _, err := playSPRT(t, context.Background(), tt.es, nil, tt.opt); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
	// Records of another seed are refused on resume.
	_, recs, _ = playSPRT(t, context.Background(), toyEntrants(2), nil, arena.SPRTOptions{Test: sprtTest, MaxPairs: 2, Seed: 1})
	if _, _, err := playSPRT(t, context.Background(), toyEntrants(2), recs, arena.SPRTOptions{Test: sprtTest, MaxPairs: 2, Seed: 9}); err == nil || !strings.Contains(err.Error(), "was --seed different?") {
		t.Fatalf("resume with another seed: %v", err)
	}
}
