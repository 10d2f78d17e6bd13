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
