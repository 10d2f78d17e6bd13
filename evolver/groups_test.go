package evolver

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"testing"

	"crucible/engine/acb"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
)

// Rule: the groups of a seed hold every opponent, never one twice in a
// group, have the requested size, and are the same for the same seed.
func TestSeatGroupsCoverThePool(t *testing.T) {
	for _, tt := range []struct{ n, k, groups int }{{5, 3, 2}, {6, 3, 2}, {3, 3, 1}, {7, 2, 4}, {21, 5, 5}} {
		g := seatGroups(42, tt.n, tt.k)
		if len(g) != tt.groups {
			t.Fatalf("n=%d k=%d: %d groups, want %d", tt.n, tt.k, len(g), tt.groups)
		}
		seen := map[int]bool{}
		for _, grp := range g {
			if len(grp) != tt.k {
				t.Fatalf("n=%d k=%d: group %v has %d members", tt.n, tt.k, grp, len(grp))
			}
			in := map[int]bool{}
			for _, o := range grp {
				if in[o] || o < 0 || o >= tt.n {
					t.Fatalf("n=%d k=%d: group %v repeats or leaves the range", tt.n, tt.k, grp)
				}
				in[o], seen[o] = true, true
			}
		}
		if len(seen) != tt.n {
			t.Fatalf("n=%d k=%d: groups %v miss opponents", tt.n, tt.k, g)
		}
		if !reflect.DeepEqual(g, seatGroups(42, tt.n, tt.k)) {
			t.Fatalf("groups differ for the same seed")
		}
	}
}

// Rule: with N seats every candidate plays each group of N-1 opponents in
// the N rotations of the seats, each match giving N-1 pairwise results; the
// score is the share of pairwise results won, per opponent as well; the
// results do not depend on the worker count.
func TestArenaEvaluatorFreeForAll(t *testing.T) {
	reg := kindlingRegistry(t)
	pool, err := referencePool(reg, "kindling", []string{"even", "greedy", "easy", "normal", "contrarian"})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := reg.Lookup("kindling", "easy")
	seeds := []uint64{1, 2, 3}
	batch := matchBatch{Seeds: seeds, Candidates: []strategies.Genome{base.Schema.Defaults(), base.Schema.Defaults()}, IDs: []string{"a", "b"}}
	for _, seats := range []int{3, 4} {
		var first []measure
		for _, workers := range []int{1, 2} {
			ev := &arenaEvaluator{Game: kindling.Game{}, Base: base, Pool: pool, Seats: seats, Workers: workers}
			ms, err := ev.Evaluate(context.Background(), batch)
			if err != nil {
				t.Fatal(err)
			}
			groups := (len(pool) + seats - 2) / (seats - 1)
			for i, m := range ms {
				if want := len(seeds) * groups * seats; m.Matches != want {
					t.Fatalf("seats %d: candidate %d played %d matches, want %d seeds × %d groups × %d rotations", seats, i, m.Matches, len(seeds), groups, seats)
				}
				if want := float64(m.Matches * (seats - 1)); m.Games != want {
					t.Fatalf("seats %d: %v pairwise results, want %v", seats, m.Games, want)
				}
				var sum tally
				for name, v := range m.Versus {
					// Met in one group on every seed, in two on the seeds
					// where the last group is filled up with it.
					if int(v.Games)%seats != 0 || int(v.Games) < seats*len(seeds) || int(v.Games) > 2*seats*len(seeds) {
						t.Errorf("seats %d: %v pairwise results against %s, not whole rotations in one or two groups a seed", seats, v.Games, name)
					}
					sum.Points += v.Points
					sum.Games += v.Games
				}
				if len(m.Versus) != len(pool) || sum.Points != m.Points || sum.Games != m.Games {
					t.Errorf("seats %d: per-opponent tallies %v do not add up to %v/%v", seats, m.Versus, m.Points, m.Games)
				}
			}
			// Two copies of one genome face the same groups on the same
			// maps: identical measures (common random numbers).
			if !reflect.DeepEqual(ms[0], ms[1]) {
				t.Errorf("seats %d: two copies of the defaults measured %v and %v", seats, ms[0], ms[1])
			}
			if first == nil {
				first = ms
			} else if !reflect.DeepEqual(first, ms) {
				t.Errorf("seats %d: 1 worker gave %v, 2 workers %v", seats, first, ms)
			}
		}
	}
}

// Rule: Seats must be a count the game can be played with and the pool
// must fill a group; the errors name the field and the value.
func TestSeatsValidation(t *testing.T) {
	reg, err := strategies.NewRegistry(acbstrat.All()...)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		cfg   Config
		field string
		value any
	}{
		{"acb has no five-player maps", Config{Game: acb.Game{}, Registry: reg, Base: "swarm", Seats: 5}, "Seats", 5},
		{"acb allows six at most", Config{Game: acb.Game{}, Registry: reg, Base: "swarm", Seats: 7}, "Seats", 7},
		{"kindling allows four at most", Config{Game: kindling.Game{}, Registry: kindlingRegistry(t), Base: "easy", Seats: 5}, "Seats", 5},
		{"one seat is no match", Config{Game: kindling.Game{}, Registry: kindlingRegistry(t), Base: "easy", Seats: 1}, "Seats", 1},
		{"four seats need three opponents", Config{Game: kindling.Game{}, Registry: kindlingRegistry(t), Base: "easy", Seats: 4, Pool: []string{"even", "greedy"}}, "Seats", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Algorithm, cfg.Generations, cfg.Out = "ga", 1, t.TempDir()
			_, err := Evolve(context.Background(), cfg)
			var fe *FieldError
			if !errors.As(err, &fe) || fe.Field != tt.field || fe.Value != tt.value {
				t.Fatalf("error %v, want a FieldError of %s = %v", err, tt.field, tt.value)
			}
		})
	}
	if got := validSeats(acb.Game{}); !slices.Equal(got, []int{2, 3, 4, 6}) {
		t.Errorf("acb seat counts %v", got)
	}
	if got := validSeats(kindling.Game{}); !slices.Equal(got, []int{2, 3, 4}) {
		t.Errorf("kindling seat counts %v", got)
	}
}

// Rule: a run with Seats 4 measures its held-out comparison on 4-seat
// games, and a resumed run must keep the seat count.
func TestEvolveFourSeats(t *testing.T) {
	out := t.TempDir() + "/run"
	cfg := smallKindling(t, "ga", out)
	cfg.Seats, cfg.Generations, cfg.Holdout = 4, 2, 8
	rep, err := Evolve(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	// 3 opponents in one group of 3, 4 rotations, 3 pairwise results each.
	if rep.Holdout.GamesPerSide != 8*4*3 || rep.Meta.Seats != 4 {
		t.Fatalf("held-out games per side %v (meta seats %d), want 8 seeds × 4 rotations × 3 opponents", rep.Holdout.GamesPerSide, rep.Meta.Seats)
	}
	cfg.Seats, cfg.Resume, cfg.Generations = 0, true, 3
	_, err = Evolve(context.Background(), cfg)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "Seats" {
		t.Fatalf("resuming a 4-seat run with 2 seats: %v, want a FieldError of Seats", err)
	}
}

// Rule: AI Code Battle plays its 3- and 6-player maps: a batch of those
// seats plays without a failed match, each match giving a pairwise result
// against every other seat.
func TestArenaEvaluatorACBSeats(t *testing.T) {
	reg, err := strategies.NewRegistry(acbstrat.All()...)
	if err != nil {
		t.Fatal(err)
	}
	pool, err := referencePool(reg, "acb", []string{"gatherer", "rusher", "guardian", "scout", "phalanx"})
	if err != nil {
		t.Fatal(err)
	}
	base, _ := reg.Lookup("acb", "swarm")
	for _, seats := range []int{3, 6} {
		ev := &arenaEvaluator{Game: acb.Game{}, Base: base, Pool: pool, Seats: seats, Workers: 2}
		ms, err := ev.Evaluate(context.Background(), matchBatch{Seeds: []uint64{7}, Candidates: []strategies.Genome{base.Schema.Defaults()}, IDs: []string{"x"}})
		if err != nil {
			t.Fatal(err)
		}
		groups := (len(pool) + seats - 2) / (seats - 1)
		if ev.Failures != 0 || ms[0].Matches != groups*seats || ms[0].Games != float64(groups*seats*(seats-1)) {
			t.Fatalf("seats %d: %d failures, %d matches, %v pairwise results", seats, ev.Failures, ms[0].Matches, ms[0].Games)
		}
		t.Logf("seats %d: swarm scores %.3f over %v pairwise results", seats, ms[0].Rate(), ms[0].Games)
	}
}
