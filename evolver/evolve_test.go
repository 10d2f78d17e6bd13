package evolver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

func kindlingRegistry(t *testing.T) *strategies.Registry {
	t.Helper()
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// smallKindling is a run of a few seconds at most: the weak house bot
// easy searched against three reference bidders.
func smallKindling(t *testing.T, algo, out string) Config {
	return Config{
		Game: kindling.Game{}, Registry: kindlingRegistry(t), Base: "easy", Algorithm: algo,
		Pool: []string{"easy", "even", "greedy"}, Population: 8, Seeds: 4, Seed: 11, Generations: 6,
		Workers: 2, Top: 3, TournamentSeeds: 4, Holdout: 24, Out: out,
	}
}

// Rule: a small evolution of a weak Kindling bidder leaves a champion that
// scores higher than the base's defaults on held-out seeds, ranks among
// the tournament's players, and is written with its run directory.
func TestEvolveKindlingEndToEnd(t *testing.T) {
	for _, algo := range []string{"ga", "cmaes"} {
		t.Run(algo, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "run")
			cfg := smallKindling(t, algo, out)
			var events []Event
			cfg.Progress = func(e Event) { events = append(events, e) }
			rep, err := Evolve(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			h := rep.Holdout
			if h == nil || h.Seeds != 24 || h.GamesPerSide != 24*3*2 {
				t.Fatalf("held-out comparison %+v, want 24 seeds × 3 opponents × 2 seat orders", h)
			}
			t.Logf("%s: %s", algo, h)
			if !(h.RateA > h.RateB) || math.Abs(h.Diff-(h.RateA-h.RateB)) > 1e-12 || !(h.Lo <= h.Diff && h.Diff <= h.Hi) {
				t.Errorf("champion does not beat the base on held-out seeds: %s", h)
			}
			if rep.Ranked[0].ID != rep.Champion.ID || len(rep.Ranked) != 3 {
				t.Errorf("champion %s is not the first of the %d ranked variants", rep.Champion.ID, len(rep.Ranked))
			}
			got, err := strategies.LoadVariant(filepath.Join(out, ChampionFile))
			if err != nil || got.ID != rep.Champion.ID {
				t.Errorf("champion.json holds %v (%v), want %s", got.ID, err, rep.Champion.ID)
			}
			// The ranking: the champion among the field (the pool holds the
			// base).
			if len(rep.Leaderboard.Standings) != 4 || rep.ChampionRank < 1 {
				t.Errorf("leaderboard has %d players, champion rank %d; want the champion and 3 reference strategies", len(rep.Leaderboard.Standings), rep.ChampionRank)
			}
			// Finalists are distinct behaviours, each file with its
			// fingerprint.
			fps := map[string]bool{}
			for _, v := range rep.Ranked {
				if v.Fingerprint == "" || fps[v.Fingerprint] {
					t.Errorf("finalist %s has fingerprint %q, empty or shared", v.ID, v.Fingerprint)
				}
				fps[v.Fingerprint] = true
			}
			if rep.Selection == nil || rep.Selection.Champion != rep.Champion.ID || len(rep.Selection.Finalists) != 3 {
				t.Errorf("selection %+v does not name the champion %s among 3 finalists", rep.Selection, rep.Champion.ID)
			}
			if rep.HeadToHead == nil || len(rep.HeadToHead.Standings) != 3 {
				t.Errorf("head-to-head %+v, want the 3 finalists", rep.HeadToHead)
			}
			// The events: the start, one per generation, the final stages,
			// in that order, the tournament's with the champion; match
			// progress in between.
			var kinds []string
			for _, e := range events {
				if _, ok := e.(MatchProgress); ok {
					continue
				}
				kinds = append(kinds, strings.TrimPrefix(fmt.Sprintf("%T", e), "evolver."))
				if td, ok := e.(TournamentDone); ok && td.Report.Champion.ID != rep.Champion.ID {
					t.Errorf("TournamentDone names champion %s, the report %s", td.Report.Champion.ID, rep.Champion.ID)
				}
			}
			want := "RunStarted " + strings.Repeat("GenerationDone ", 6) + "SelectionStarted SelectionDone HoldoutStarted HoldoutDone TournamentStarted TournamentDone HeadToHeadDone"
			if got := strings.Join(kinds, " "); got != want {
				t.Errorf("events %s, want %s", got, want)
			}
		})
	}
}

// cancelGame cancels a context after a number of matches, as a kill in the
// middle of a generation would.
type cancelGame struct {
	engine.Game
	after  int64
	n      atomic.Int64
	cancel context.CancelFunc
}

func (g *cancelGame) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	if g.n.Add(1) == g.after {
		g.cancel()
	}
	return g.Game.Play(ctx, spec)
}

// Rule: a Kindling run cancelled in the middle of a generation and resumed
// ends with the same champion, leaderboard and held-out figures as the run
// left alone.
func TestEvolveResumeAfterCancel(t *testing.T) {
	for _, algo := range []string{"ga", "cmaes"} {
		t.Run(algo, func(t *testing.T) {
			whole, err := Evolve(context.Background(), smallKindling(t, algo, filepath.Join(t.TempDir(), "whole")))
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "cut")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cfg := smallKindling(t, algo, out)
			perGen := int64(whole.Matches / whole.Generations)
			cfg.Game = &cancelGame{Game: kindling.Game{}, after: 3*perGen + perGen/2, cancel: cancel}
			if _, err := Evolve(ctx, cfg); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled run returned %v", err)
			}
			cp, err := readCheckpoint(out)
			if err != nil || cp.Generations < 2 || cp.Generations >= 6 {
				t.Fatalf("cancelled run's checkpoint: %v generations (%v), want a run cut short", cp.Generations, err)
			}
			if _, err := os.Stat(filepath.Join(out, ChampionFile)); err == nil {
				t.Errorf("a cancelled run wrote champion.json")
			}
			cfg = smallKindling(t, algo, out)
			cfg.Resume = true
			resumed, err := Evolve(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if resumed.Champion.ID != whole.Champion.ID || resumed.Matches != whole.Matches {
				t.Errorf("resumed run: champion %s after %d matches; uninterrupted: %s after %d", resumed.Champion.ID, resumed.Matches, whole.Champion.ID, whole.Matches)
			}
			if !reflect.DeepEqual(resumed.Ranked, whole.Ranked) || !reflect.DeepEqual(resumed.Holdout, whole.Holdout) {
				t.Errorf("resumed run ranks or compares differently")
			}
			if !reflect.DeepEqual(resumed.Leaderboard.Standings, whole.Leaderboard.Standings) {
				t.Errorf("leaderboards differ")
			}
		})
	}
}

// Rule: the worker count changes only the wall time: one worker and two
// give the same champion, leaderboard and held-out figures.
func TestEvolveSameResultAnyWorkers(t *testing.T) {
	var reps []*Report
	for _, w := range []int{1, 2} {
		cfg := smallKindling(t, "ga", filepath.Join(t.TempDir(), "run"))
		cfg.Workers = w
		rep, err := Evolve(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	a, b := reps[0], reps[1]
	if a.Champion.ID != b.Champion.ID || a.Matches != b.Matches || !reflect.DeepEqual(a.Holdout, b.Holdout) ||
		!reflect.DeepEqual(a.Leaderboard.Standings, b.Leaderboard.Standings) {
		t.Errorf("1 worker: champion %s, %d matches, %v; 2 workers: %s, %d matches, %v", a.Champion.ID, a.Matches, a.Holdout, b.Champion.ID, b.Matches, b.Holdout)
	}
}
