package acbhttp

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/acb"
)

// hungBot answers /health (unless hangHealth) and never answers /turn: each
// request blocks until the client gives up or the test ends. started is
// signalled when the first request it hangs on arrives.
func hungBot(t *testing.T, hangHealth bool) (url string, started <-chan struct{}) {
	t.Helper()
	ch := make(chan struct{}, 1)
	done := make(chan struct{})
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/health" && !hangHealth {
			w.WriteHeader(http.StatusOK)
			return
		}
		select {
		case ch <- struct{}{}:
		default:
		}
		select {
		case <-r.Context().Done():
		case <-done:
		}
	}))
	t.Cleanup(func() { close(done); ts.Close() })
	return ts.URL, ch
}

// runAgainstHungBot plays one arena match of random against the bot at url
// with a 20 s turn budget and a 20 s start timeout, cancels the run as soon
// as the bot holds a request, and returns how long Run took to come back
// after the cancel.
func runAgainstHungBot(t *testing.T, url string, started <-chan struct{}) time.Duration {
	t.Helper()
	bot, err := NewRemoteBot(url, testSecret, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	entrants := []arena.Entrant{
		{Name: "hung", Strategy: "remote", New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			return bot.NewPlayer(ctx, seat)
		}},
		{Name: "random", Strategy: "random", New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			return acb.NewRandom(seed), nil
		}},
	}
	cfg := acb.DefaultConfig()
	cfg.TurnTimeout = int64(20 * time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled time.Time
	go func() {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
		}
		cancelled = time.Now()
		cancel()
	}()
	var recs []arena.Record
	err = arena.Run(ctx, acb.Game{}, entrants, arena.RoundRobin(2, arena.Seeds(1, 1))[:1], arena.Options{Workers: 1, Config: cfg}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	took := time.Since(cancelled)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Run returned %v, want context.Canceled", err)
	}
	if len(recs) != 0 {
		t.Fatalf("a cancelled match was recorded: %+v", recs)
	}
	return took
}

// Cancelling a run reaches a remote bot's turn in flight: the arena comes
// back at once instead of waiting out the 20 s turn budget (before the
// turn took the run's context, Ctrl-C waited up to 10 budgets).
func TestCancelReachesARemoteTurnInFlight(t *testing.T) {
	url, started := hungBot(t, false)
	if took := runAgainstHungBot(t, url, started); took > 5*time.Second {
		t.Fatalf("Run came back %v after the cancel; the turn's request did not see it", took)
	}
}

// Cancelling a run reaches the health check of a bot that hangs on
// /health: the arena does not wait out the 20 s start timeout.
func TestCancelReachesAHealthCheckInFlight(t *testing.T) {
	url, started := hungBot(t, true)
	if took := runAgainstHungBot(t, url, started); took > 5*time.Second {
		t.Fatalf("Run came back %v after the cancel; the health check did not see it", took)
	}
}
