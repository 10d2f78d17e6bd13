package acbhttp

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/acb"
)

// A bot that does not become healthy costs one start timeout, not one per
// match: once a health wait has run out, each later match makes a single
// probe and fails at once (the arena records it as failed, so --resume
// plays it again). When the bot answers again it is used again.
func TestRemoteBotFoundDownIsNotWaitedForAgain(t *testing.T) {
	var healthy atomic.Bool
	var probes atomic.Int64
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		probes.Add(1)
		if !healthy.Load() {
			http.Error(w, "starting", http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	}))
	defer bot.Close()
	rb, err := NewRemoteBot(bot.URL, testSecret, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := rb.NewPlayer(ctx, 0); err == nil || !strings.Contains(err.Error(), "did not answer 200 on GET /health within 300ms") {
		t.Fatalf("the first match against a bot answering 503: %v, want the start timeout's error", err)
	}
	first := probes.Load()
	if first < 2 {
		t.Fatalf("the first health wait made %d requests, want it to poll", first)
	}
	const matches = 20
	for i := range matches {
		_, err := rb.NewPlayer(ctx, i%2)
		if err == nil || !strings.Contains(err.Error(), "found down earlier in this run") || !strings.Contains(err.Error(), "status 503") {
			t.Fatalf("match %d against the bot found down: %v, want an error saying so", i, err)
		}
	}
	if n := probes.Load() - first; n != matches {
		t.Fatalf("%d matches against a bot found down made %d health requests, want one probe each", matches, n)
	}
	healthy.Store(true)
	for i := range 2 {
		if _, err := rb.NewPlayer(ctx, 0); err != nil {
			t.Fatalf("match %d once the bot is back: %v", i, err)
		}
	}
}

// An unreachable bot (nothing listens) is found down once too; a run that
// is cancelled while it waits does not mark the bot down.
func TestUnreachableRemoteBotIsFoundOnce(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String()
	ln.Close() // nothing listens there now
	rb, err := NewRemoteBot(url, testSecret, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := rb.NewPlayer(ctx, 0); err == nil {
		t.Fatal("a cancelled health wait succeeded")
	}
	if _, err := rb.NewPlayer(context.Background(), 0); err == nil || strings.Contains(err.Error(), "found down") {
		t.Fatalf("after a cancelled wait: %v, want a full wait (the bot was not found down)", err)
	}
	for i := range 3 {
		if _, err := rb.NewPlayer(context.Background(), 0); err == nil || !strings.Contains(err.Error(), "found down earlier") || !strings.Contains(err.Error(), url) {
			t.Fatalf("match %d against an unreachable bot: %v, want an error naming it and saying it was found down", i, err)
		}
	}
}

// An arena run against a bot that never becomes healthy waits for it once:
// every match is recorded as failed (so --resume plays it again) with the
// bot's error, and all but the first make one probe each instead of a
// whole start timeout.
func TestArenaAgainstADownBotFindsOutOnce(t *testing.T) {
	var probes atomic.Int64
	bot := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		probes.Add(1)
		http.Error(w, "down", http.StatusServiceUnavailable)
	}))
	defer bot.Close()
	rb, err := NewRemoteBot(bot.URL, testSecret, 300*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	entrants := []arena.Entrant{
		{Name: bot.URL, Strategy: "remote", New: func(ctx context.Context, _ uint64, seat int) (engine.Player, error) { return rb.NewPlayer(ctx, seat) }},
		{Name: "north", Strategy: "north", New: func(_ context.Context, _ uint64, seat int) (engine.Player, error) { return rec.factory("", seat) }},
	}
	const seeds = 6
	jobs := arena.RoundRobin(len(entrants), []uint64{1, 2, 3, 4, 5, 6})
	var failed []arena.Record
	err = arena.Run(context.Background(), acb.Game{}, entrants, jobs, arena.Options{Workers: 1}, func(r arena.Record) error {
		if r.Error != "" {
			failed = append(failed, r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(failed) != len(jobs) || len(jobs) < seeds {
		t.Fatalf("%d of %d matches recorded as failed, want all", len(failed), len(jobs))
	}
	for _, r := range failed[1:] {
		if !strings.Contains(r.Error, "found down earlier in this run") {
			t.Fatalf("match %s: %q, want the bot found down", r.Job, r.Error)
		}
	}
	if first := probes.Load() - int64(len(jobs)-1); first > 4 { // polls at 0, 50, 150 and 350 ms at most in a 300 ms wait
		t.Fatalf("%d health requests for %d matches: more than one wait", probes.Load(), len(jobs))
	}
}
