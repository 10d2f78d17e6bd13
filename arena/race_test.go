package arena_test

import (
	"context"
	"errors"
	"testing"

	"crucible/arena"
	"crucible/stats"
)

// raceOptions race p1, p2, p3 (strengths 1, 2, 3) against p0 with the
// SPRT tests' bounds.
func raceOptions(workers int) arena.RaceOptions {
	return arena.RaceOptions{Race: stats.Race{Test: sprtTest}, MaxPairs: 5000, Seed: 3, Batch: 4, Run: arena.Options{Workers: workers}}
}

func playRace(t *testing.T, ctx context.Context, prev []arena.Record, opt arena.RaceOptions) (arena.RaceState, []arena.Record, error) {
	t.Helper()
	var recs []arena.Record
	st, err := arena.PlayRace(ctx, toyGame{}, toyEntrants(4), prev, opt, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	return st, recs, err
}

// TestPlayRaceSameAtAnyWorkers checks that a race ends with a winner, that
// each candidate's counts are the classes of its first Pairs rounds in the
// records, and that 1 and 3 workers give the same race.
func TestPlayRaceSameAtAnyWorkers(t *testing.T) {
	var runs []*stats.RaceRun
	for _, workers := range []int{1, 3} {
		st, recs, err := playRace(t, context.Background(), nil, raceOptions(workers))
		if err != nil {
			t.Fatal(err)
		}
		run := st.Race
		if !run.Done || run.Winner < 0 {
			t.Fatalf("%d workers: race ended %v with winner %d after %d rounds, want a winner", workers, run.Done, run.Winner, run.Rounds)
		}
		// Recount each candidate's classes from the records.
		for i, r := range run.Racers {
			name := toyEntrants(4)[i+1].Name
			var mine []arena.Record
			for _, rec := range recs {
				if rec.Players[0].Name == name || rec.Players[1].Name == name {
					// Present the candidate as p1, as classesByPair expects.
					c := rec
					c.Players = append([]arena.PlayerRef(nil), rec.Players...)
					for s := range c.Players {
						if c.Players[s].Name == name {
							c.Players[s].Name = "p1"
						} else {
							c.Players[s].Name = "p0"
						}
					}
					mine = append(mine, c)
				}
			}
			classes := classesByPair(t, mine)
			var c stats.Pentanomial
			for k := range r.Pairs {
				cl, ok := classes[k]
				if !ok {
					t.Fatalf("candidate %s: round %d counted but not in the records", name, k)
				}
				c[cl]++
			}
			if c != r.Counts {
				t.Fatalf("%d workers: candidate %s counts %v, the records give %v", workers, name, r.Counts, c)
			}
		}
		if st.Played != len(recs) {
			t.Fatalf("played %d, %d records", st.Played, len(recs))
		}
		runs = append(runs, run)
	}
	a, b := runs[0], runs[1]
	if a.Winner != b.Winner || a.Pairs != b.Pairs {
		t.Fatalf("1 worker: winner %d after %d pairs; 3 workers: %d after %d", a.Winner, a.Pairs, b.Winner, b.Pairs)
	}
	for i := range a.Racers {
		if a.Racers[i] != b.Racers[i] {
			t.Fatalf("candidate %d: 1 worker %+v, 3 workers %+v", i, a.Racers[i], b.Racers[i])
		}
	}
	t.Logf("winner p%d after %d pairs: %+v", a.Winner+1, a.Pairs, a.Racers)
}

// TestPlayRaceResume cancels a race early and resumes it from its records:
// the resumed race ends as an uninterrupted one, and a race resumed after
// it ended plays nothing.
func TestPlayRaceResume(t *testing.T) {
	full, _, err := playRace(t, context.Background(), nil, raceOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	opt := raceOptions(1)
	opt.Progress = func(st arena.RaceState) { cancel() }
	_, recs, err := playRace(t, ctx, nil, opt)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled race: error %v, want context.Canceled", err)
	}
	st, more, err := playRace(t, context.Background(), recs, raceOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	if st.Resumed != len(recs) || st.Race.Winner != full.Race.Winner || st.Race.Pairs != full.Race.Pairs {
		t.Fatalf("resumed %d of %d records, winner %d after %d pairs; uninterrupted: winner %d after %d",
			st.Resumed, len(recs), st.Race.Winner, st.Race.Pairs, full.Race.Winner, full.Race.Pairs)
	}
	again, _, err := playRace(t, context.Background(), append(recs, more...), raceOptions(2))
	if err != nil {
		t.Fatal(err)
	}
	if again.Played != 0 || again.Race.Winner != full.Race.Winner {
		t.Fatalf("race resumed after its end played %d matches, winner %d", again.Played, again.Race.Winner)
	}
}

func TestPlayRaceRefuses(t *testing.T) {
	_, err := arena.PlayRace(context.Background(), toyGame{}, toyEntrants(1), nil, raceOptions(1), func(arena.Record) error { return nil })
	if err == nil {
		t.Fatal("a race without candidates ran")
	}
	opt := raceOptions(1)
	opt.MaxPairs = 0
	if _, err := arena.PlayRace(context.Background(), toyGame{}, toyEntrants(3), nil, opt, func(arena.Record) error { return nil }); err == nil {
		t.Fatal("a race of 0 max pairs ran")
	}
}
