package acbhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"crucible/engine"
	"crucible/engine/acb"
)

// conformanceConfig is a short match on a small map, so a whole match over
// loopback HTTP takes well under a second.
func conformanceConfig() acb.Config {
	c := acb.DefaultConfig()
	c.Rows, c.Cols, c.MaxTurns = 24, 24, 120
	c.TurnTimeout = int64(2 * time.Second)
	return c
}

func playMatch(t *testing.T, seed uint64, seat0 engine.Player) (engine.Result, []byte) {
	t.Helper()
	var replay bytes.Buffer
	spec := engine.MatchSpec{
		Seed: seed,
		// Every turn played: a match with a remote seat is never
		// adjudicated (its failures could still count), the in-process
		// one would be.
		Config: acb.MatchConfig{Config: conformanceConfig(), NoAdjudication: true},
		Seats: []engine.Seat{
			{Name: "random-a", Strategy: "random", Player: seat0},
			{Name: "random-b", Strategy: "random", Player: acb.NewRandom(engine.SeatSeed(seed, 1))},
		},
		Replay: &replay,
	}
	res, err := acb.Game{}.Play(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	return res, replay.Bytes()
}

// The HTTP round trip is transparent: a seat played through the HTTP player
// and the bot server (JSON both ways, signed both ways) gives the very same
// match, byte for byte, as the same controller played in-process.
func TestRemoteSeatPlaysTheSameMatchAsInProcess(t *testing.T) {
	const seed = 42
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: func(matchID string, seat int) (acb.Controller, error) {
		return acb.NewRandom(engine.SeatSeed(seed, seat)), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	bot, err := NewRemoteBot(ts.URL, testSecret, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	remote, err := bot.NewPlayer(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	gotRes, gotReplay := playMatch(t, seed, remote)
	wantRes, wantReplay := playMatch(t, seed, acb.NewRandom(engine.SeatSeed(seed, 0)))
	t.Logf("remote match: %+v", gotRes)
	if gotRes.Turns < 10 {
		t.Fatalf("the match lasted %d turns; too short to show anything", gotRes.Turns)
	}
	if gotRes.Crashed != nil && gotRes.Crashed[0] {
		t.Fatalf("the remote seat crashed: %+v", gotRes)
	}
	if !bytes.Equal(gotReplay, wantReplay) {
		t.Fatalf("the remote match differs from the in-process one:\nremote result %+v\nlocal  result %+v", gotRes, wantRes)
	}
}

// A bot that dies mid-match: once it has answered dieAfter turns, every
// later request has its connection dropped unanswered (as when the process
// is gone), so its turns fail; after 10 consecutive failures the engine
// marks it inactive (bot_inactive event, crashed in the result) while the
// match plays on. The cut is made by request count, not by closing the
// server from inside a handler, so the threshold turn is exact.
func TestBotDyingMidMatchGoesInactive(t *testing.T) {
	const seed, dieAfter = 7, 5
	s, err := NewServer(ServerConfig{Secret: testSecret, New: func(string, int) (acb.Controller, error) {
		return acb.NewRandom(1), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	var turns atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/turn" && turns.Add(1) > dieAfter {
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		s.ServeHTTP(w, r)
	}))
	defer srv.Close()
	bot, err := NewRemoteBot(srv.URL, testSecret, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	remote, err := bot.NewPlayer(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	res, replay := playMatch(t, seed, remote)
	if res.Crashed == nil || !res.Crashed[0] || res.Crashed[1] {
		t.Fatalf("crashed = %v, want the dead bot (seat 0) only", res.Crashed)
	}
	var doc struct {
		Turns []struct {
			Turn   int `json:"turn"`
			Events []struct {
				Type   string `json:"type"`
				Player int    `json:"player"`
			} `json:"events"`
		} `json:"turns"`
	}
	if err := json.Unmarshal(replay, &doc); err != nil {
		t.Fatal(err)
	}
	var inactiveAt []int
	for _, tr := range doc.Turns {
		for _, e := range tr.Events {
			if e.Type == "bot_inactive" && e.Player == 0 {
				inactiveAt = append(inactiveAt, tr.Turn)
			}
		}
	}
	// Turns 1..dieAfter are answered, turns dieAfter+1.. fail: the 10th
	// consecutive failure is turn dieAfter+10, and the event comes once.
	if len(inactiveAt) != 1 || inactiveAt[0] != dieAfter+10 {
		t.Fatalf("bot_inactive on turns %v, want once, on turn %d", inactiveAt, dieAfter+10)
	}
	if got := turns.Load(); got != dieAfter+10 {
		t.Fatalf("the bot got %d /turn requests, want %d (none once inactive)", got, dieAfter+10)
	}
	if res.Turns <= inactiveAt[0] {
		t.Fatalf("the match stopped at turn %d instead of playing on", res.Turns)
	}
}

// The platform's own Go starter answers {"moves": null} on a turn with no
// units (a nil slice marshalled), and the platform reads that as no moves.
// A bot that does so every turn plays the whole match without a failed
// turn: it is never marked inactive.
func TestBotAnsweringNullMovesStaysActive(t *testing.T) {
	var turns atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/health" {
			return
		}
		turns.Add(1)
		body := []byte(`{"moves": null}`)
		w.Header().Set(HeaderSignature, SignResponse(testSecret, r.Header.Get(HeaderMatchID), r.Header.Get(HeaderTurn), body))
		w.Write(body)
	}))
	defer ts.Close()
	bot, err := NewRemoteBot(ts.URL, testSecret, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	remote, err := bot.NewPlayer(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := playMatch(t, 3, remote)
	if res.Crashed != nil && res.Crashed[0] {
		t.Fatalf("the bot answering null moves was marked inactive: %+v", res)
	}
	if n := turns.Load(); n < 11 || int(n) != res.Turns {
		t.Fatalf("the bot got %d turns of a %d-turn match; want every one (and more than the 10 failures that would end it)", n, res.Turns)
	}
}
