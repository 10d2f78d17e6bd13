package acb

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http/httptest"
	"strings"
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
		Seed:   seed,
		Config: conformanceConfig(),
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

// A bot that dies mid-match: its turns fail, and after 10 consecutive
// failures the engine marks it inactive (bot_inactive event, crashed in the
// result) while the match plays on.
func TestBotDyingMidMatchGoesInactive(t *testing.T) {
	const seed, dieAfter = 7, 5
	var srv *httptest.Server
	s, err := NewServer(ServerConfig{Secret: testSecret, New: func(string, int) (acb.Controller, error) {
		return &dyingBot{inner: acb.NewRandom(1), left: dieAfter, die: func() { go srv.CloseClientConnections(); go srv.Close() }}, nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	srv = httptest.NewServer(s)
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
	inactiveAt := 0
	for _, tr := range doc.Turns {
		for _, e := range tr.Events {
			if e.Type == "bot_inactive" {
				inactiveAt = tr.Turn
			}
		}
	}
	// Turns 1..dieAfter are answered; the death happens while answering the
	// last of them or right after, so failures start at turn dieAfter+1 at
	// the latest and the 10th consecutive failure is turn dieAfter+10 or
	// dieAfter+11.
	if inactiveAt < dieAfter+10 || inactiveAt > dieAfter+11 {
		t.Fatalf("bot_inactive on turn %d, want turn %d or %d", inactiveAt, dieAfter+10, dieAfter+11)
	}
	t.Logf("inactive at %d, result %+v", inactiveAt, res)
	if res.Turns <= inactiveAt {
		t.Fatalf("the match stopped at turn %d instead of playing on", res.Turns)
	}
	if !strings.Contains(string(replay), `"bot_inactive"`) {
		t.Fatal("no bot_inactive event in the replay")
	}
}

// dyingBot answers left turns, then kills its server.
type dyingBot struct {
	inner acb.Controller
	left  int
	die   func()
}

func (d *dyingBot) Turn(v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	d.left--
	if d.left == 0 {
		d.die()
	}
	return d.inner.Turn(v, buf)
}
