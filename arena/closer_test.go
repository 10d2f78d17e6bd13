package arena_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"crucible/arena"
	"crucible/engine"
)

// leasePlayer stands for a player holding a resource (an outside bot's
// process slot): built counts the players made, closed the ones closed.
type leasePlayer struct {
	closed *atomic.Int64
	fail   bool
}

func (p *leasePlayer) Close() error {
	p.closed.Add(1)
	return nil
}

// leaseGame plays leasePlayers: a failing one fails its match.
type leaseGame struct{}

func (leaseGame) Name() string                    { return "lease" }
func (leaseGame) SeatRange() (int, int)           { return 2, 2 }
func (leaseGame) DefaultConfig() any              { return nil }
func (leaseGame) ParseConfig([]byte) (any, error) { return nil, nil }
func (leaseGame) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	for i, s := range spec.Seats {
		if s.Player.(*leasePlayer).fail {
			return engine.Result{}, &engine.PlayerError{Seat: i, Name: s.Name, Err: errors.New("failed")}
		}
	}
	return engine.Result{Scores: []float64{1, 0}, Ranks: []int{1, 2}, Turns: 1, Reason: "lease"}, nil
}

// TestPlayersClosedAfterMatch checks that the arena closes every player
// that implements io.Closer once its match is over: played, failed in
// play, or failed to start because another seat's constructor failed, in
// Run and in PlaySequential.
func TestPlayersClosedAfterMatch(t *testing.T) {
	var built, closed atomic.Int64
	entrant := func(name string, fail, refuse bool) arena.Entrant {
		return arena.Entrant{Name: name, Strategy: "lease", New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			if refuse {
				return nil, errors.New("no process")
			}
			built.Add(1)
			return &leasePlayer{closed: &closed, fail: fail}, nil
		}}
	}
	es := []arena.Entrant{entrant("ok", false, false), entrant("fails", true, false), entrant("refuses", false, true), entrant("ok2", false, false)}
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, 3))
	recs, err := runAll(t, context.Background(), leaseGame{}, es, jobs, arena.Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	failed := 0
	for _, r := range recs {
		if r.Error != "" {
			failed++
		}
	}
	if failed == 0 || failed == len(recs) {
		t.Fatalf("%d of %d matches failed; the test wants both kinds", failed, len(recs))
	}
	if built.Load() == 0 || closed.Load() != built.Load() {
		t.Fatalf("%d players built, %d closed", built.Load(), closed.Load())
	}
	built.Store(0)
	closed.Store(0)
	if err := arena.PlaySequential(context.Background(), leaseGame{}, es[:1], []arena.Job{{ID: "a", Seats: []int{0, 0}, Seed: 1}}); err != nil {
		t.Fatal(err)
	}
	if built.Load() != 2 || closed.Load() != 2 {
		t.Fatalf("PlaySequential: %d players built, %d closed", built.Load(), closed.Load())
	}
}
