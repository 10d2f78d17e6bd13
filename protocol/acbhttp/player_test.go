package acbhttp

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/engine/acb"
)

func newTestPlayer(t *testing.T, url string) *Player {
	t.Helper()
	p, err := NewPlayer(PlayerConfig{URL: url, Secret: testSecret, BotID: "seat0"})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPlayerImplementsRemote(t *testing.T) {
	var c acb.Controller = newTestPlayer(t, "http://127.0.0.1:1")
	r, ok := c.(acb.Remote)
	if !ok || !r.Remote() {
		t.Fatal("Player must be an acb.Remote reporting true")
	}
}

func TestNewPlayerRejectsBadConfig(t *testing.T) {
	tests := []struct {
		rule string
		cfg  PlayerConfig
		want string
	}{
		{"a URL without http scheme", PlayerConfig{URL: "127.0.0.1:8080", Secret: "s", BotID: "b"}, "http://"},
		{"an empty secret", PlayerConfig{URL: "http://h:1", BotID: "b"}, "secret"},
		{"an empty bot id", PlayerConfig{URL: "http://h:1", Secret: "s"}, "bot id"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			_, err := NewPlayer(tt.cfg)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("NewPlayer = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}

// The player against the real bot server: a round trip signed both ways.
func TestPlayerPlaysAgainstTheBotServer(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	p := newTestPlayer(t, ts.URL)
	if err := p.WaitHealthy(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	for turn := 0; turn < 5; turn++ {
		v := sampleView("m_loop", turn, 8)
		moves, err := p.Turn(context.Background(), v, make([]acb.Move, 0, 4))
		if err != nil {
			t.Fatalf("turn %d: %v", turn, err)
		}
		if len(moves) != 8 || moves[3].Position != v.Bots[3].Position || moves[3].Direction != acb.North {
			t.Fatalf("turn %d: moves %v, want 8 moves north from the own units", turn, moves)
		}
	}
	if created, calls := rec.snapshot(); created != 1 || len(calls) != 5 {
		t.Fatalf("server made %d instances and %d calls, want 1 and 5", created, len(calls))
	}
}

// fakeBot answers /turn with whatever reply builds, signed or not.
func fakeBot(t *testing.T, reply func(w http.ResponseWriter, r *http.Request, body []byte)) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		reply(w, r, body)
	}))
	t.Cleanup(ts.Close)
	return ts
}

func signedReply(status int, body string) func(http.ResponseWriter, *http.Request, []byte) {
	return func(w http.ResponseWriter, r *http.Request, _ []byte) {
		w.Header().Set(HeaderSignature, SignResponse(testSecret, r.Header.Get(HeaderMatchID), r.Header.Get(HeaderTurn), []byte(body)))
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func TestPlayerTurnsEveryBadReplyIntoAnError(t *testing.T) {
	tests := []struct {
		rule  string
		reply func(http.ResponseWriter, *http.Request, []byte)
		want  string
	}{
		{"an unsigned reply", func(w http.ResponseWriter, r *http.Request, _ []byte) { io.WriteString(w, `{"moves":[]}`) }, "no X-ACB-Signature"},
		{"a reply signed under another secret", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.Header().Set(HeaderSignature, SignResponse("other", r.Header.Get(HeaderMatchID), r.Header.Get(HeaderTurn), []byte(`{"moves":[]}`)))
			io.WriteString(w, `{"moves":[]}`)
		}, "signature"},
		{"a reply signed for another turn", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.Header().Set(HeaderSignature, SignResponse(testSecret, r.Header.Get(HeaderMatchID), "99", []byte(`{"moves":[]}`)))
			io.WriteString(w, `{"moves":[]}`)
		}, "signature"},
		{"a status other than 200", signedReply(500, `{"moves":[]}`), "status 500"},
		{"a redirect, which is not followed", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		}, "status 307"},
		{"moves missing", signedReply(200, `{"orders":[]}`), "moves is missing"},
		{"moves not an array", signedReply(200, `{"moves":{}}`), "not an array"},
		{"a direction outside N E S W stay", signedReply(200, `{"moves":[{"position":{"row":1,"col":1},"direction":"NE"}]}`), "direction"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			ts := fakeBot(t, tt.reply)
			p := newTestPlayer(t, ts.URL)
			buf := make([]acb.Move, 0, 4)
			moves, err := p.Turn(context.Background(), sampleView("m", 1, 2), buf)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Turn = %v, want an error mentioning %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), ts.URL) {
				t.Fatalf("error %q does not name the bot", err)
			}
			if len(moves) != 0 {
				t.Fatalf("a failed turn returned moves %v", moves)
			}
		})
	}
}

// The request the player sends is the seed's: all five headers, a
// signature the bot can verify, and the View as the exact body.
func TestPlayerSendsASignedRequestTheSeedDescribes(t *testing.T) {
	var seen atomic.Value
	ts := fakeBot(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		_, err := VerifyRequest(testSecret, r.Header, body, time.Now())
		if err == nil {
			_, err = ParseTurnRequest(body, RequestAuth{MatchID: r.Header.Get(HeaderMatchID), Turn: r.Header.Get(HeaderTurn)})
		}
		if err == nil && r.Header.Get("Content-Type") != "application/json" {
			err = errors.New("content type " + r.Header.Get("Content-Type"))
		}
		if err == nil && !strings.Contains(string(body), `"dead":[]`) {
			err = errors.New("empty lists must be sent as [] not null: " + string(body))
		}
		seen.Store(errString(err))
		signedReply(200, `{"moves":[]}`)(w, r, body)
	})
	p := newTestPlayer(t, ts.URL)
	v := sampleView("m_7f3a9b2c", 42, 3)
	v.Dead = nil
	if _, err := p.Turn(context.Background(), v, nil); err != nil {
		t.Fatal(err)
	}
	if got := seen.Load().(string); got != "" {
		t.Fatalf("the bot side rejected the request: %s", got)
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// A bot slower than config.turn_timeout: the turn fails within the budget
// and the late reply is never applied.
func TestPlayerDiscardsALateReply(t *testing.T) {
	ts := fakeBot(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		time.Sleep(300 * time.Millisecond)
		signedReply(200, `{"moves":[{"position":{"row":0,"col":0},"direction":"N"}]}`)(w, r, body)
	})
	p := newTestPlayer(t, ts.URL)
	v := sampleView("m", 1, 2)
	v.Config.TurnTimeout = int64(100 * time.Millisecond)
	start := time.Now()
	moves, err := p.Turn(context.Background(), v, nil)
	el := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "budget") {
		t.Fatalf("Turn = %v, want a missed-budget error", err)
	}
	if len(moves) != 0 {
		t.Fatalf("late moves %v were applied", moves)
	}
	if el > 250*time.Millisecond {
		t.Fatalf("Turn waited %v, past the 100ms budget", el)
	}
}

func TestPlayerReusesItsConnection(t *testing.T) {
	rec := &recorder{}
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: rec.factory})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	var conns atomic.Int64
	ts.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	ts.Start()
	defer ts.Close()
	p := newTestPlayer(t, ts.URL)
	for turn := 0; turn < 20; turn++ {
		if _, err := p.Turn(context.Background(), sampleView("k", turn, 3), nil); err != nil {
			t.Fatal(err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Fatalf("20 turns opened %d connections, want 1 (keep-alive)", n)
	}
}

func TestWaitHealthy(t *testing.T) {
	var n atomic.Int64
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) < 3 {
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer ts.Close()
	if err := newTestPlayer(t, ts.URL).WaitHealthy(context.Background(), 5*time.Second); err != nil {
		t.Fatalf("a bot healthy on the third poll: %v", err)
	}
	down := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer down.Close()
	err := newTestPlayer(t, down.URL).WaitHealthy(context.Background(), 300*time.Millisecond)
	if err == nil || !strings.Contains(err.Error(), down.URL) || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a bot that never answers 200: %v, want an error naming it and the status", err)
	}
}

// The player's request and reply path, run directly (Turn's recover is
// not in the way, so a panic fails the test) against hostile bots: every
// one is an error or a move list, never a panic. Through Turn, none of them
// yields the recovered "internal error" either.
func TestPlayerNeverPanics(t *testing.T) {
	signed := func(body string) func(http.ResponseWriter, *http.Request, []byte) {
		return signedReply(200, body)
	}
	hostile := []struct {
		rule  string
		reply func(http.ResponseWriter, *http.Request, []byte)
	}{
		{"a connection closed without a reply", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				c.Close()
			}
		}},
		{"a reply cut short of its Content-Length", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			c, buf, err := http.NewResponseController(w).Hijack()
			if err == nil {
				buf.WriteString("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"moves\":[")
				buf.Flush()
				c.Close()
			}
		}},
		{"a broken chunked encoding", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			c, buf, err := http.NewResponseController(w).Hijack()
			if err == nil {
				buf.WriteString("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
				buf.Flush()
				c.Close()
			}
		}},
		{"a gzip reply that is not gzip", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.Header().Set("Content-Encoding", "gzip")
			io.WriteString(w, "not gzip at all")
		}},
		{"an empty signed body", signed("")},
		{"204 No Content", func(w http.ResponseWriter, r *http.Request, _ []byte) { w.WriteHeader(204) }},
		{"a reply over the size limit", signed(`{"moves":[],"pad":"` + strings.Repeat("x", MaxReplyBody) + `"}`)},
		{"deeply nested arrays", signed(`{"moves":` + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + `}`)},
		{"deeply nested objects in a move", signed(`{"moves":[{"position":` + strings.Repeat(`{"a":`, 50000) + `1` + strings.Repeat("}", 50000) + `,"direction":"N"}]}`)},
		{"a row too large for any number type", signed(`{"moves":[{"position":{"row":1e400,"col":0},"direction":"N"}]}`)},
		{"a direction of invalid UTF-8", signed("{\"moves\":[{\"position\":{\"row\":0,\"col\":0},\"direction\":\"\xff\xfe\"}]}")},
		{"moves a number", signed(`{"moves":1}`)},
		{"a debug field of any size", signed(`{"moves":[],"debug":` + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + `}`)},
		{"a signature header of non-ASCII bytes", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.Header().Set(HeaderSignature, strings.Repeat("\u00e9", 32))
			io.WriteString(w, `{"moves":[]}`)
		}},
		{"two signature headers", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			w.Header().Add(HeaderSignature, "x")
			signedReply(200, `{"moves":[]}`)(w, r, nil)
		}},
		{"a 3xx with a Location loop", func(w http.ResponseWriter, r *http.Request, _ []byte) {
			http.Redirect(w, r, r.URL.String(), http.StatusFound)
		}},
		{"a valid reply", signed(`{"moves":[{"position":{"row":0,"col":0},"direction":"N"}]}`)},
	}
	views := []*acb.View{
		sampleView("m", 1, 2),
		{MatchID: "zero config, nil lists"},
		{MatchID: "\xff\xfe", Turn: -1, Config: acb.Config{TurnTimeout: int64(200 * time.Millisecond)}},
	}
	for _, tt := range hostile {
		t.Run(tt.rule, func(t *testing.T) {
			ts := fakeBot(t, tt.reply)
			p := newTestPlayer(t, ts.URL)
			for _, v := range views {
				budget := time.Duration(v.Config.TurnTimeout)
				if budget <= 0 {
					budget = acb.DefaultTurnTimeout
				}
				ctx, cancel := context.WithTimeout(context.Background(), budget)
				moves, err := p.exchange(ctx, v, make([]acb.Move, 0, 2), time.Now(), budget)
				cancel()
				if err == nil && len(moves) > 1 {
					t.Fatalf("view %q: accepted %v", v.MatchID, moves)
				}
				if _, err := p.Turn(context.Background(), v, nil); err != nil && strings.Contains(err.Error(), "internal error") {
					t.Fatalf("view %q: Turn recovered a panic: %v", v.MatchID, err)
				}
			}
		})
	}
	if _, err := newTestPlayer(t, "http://127.0.0.1:1").Turn(context.Background(), nil, nil); err == nil || strings.Contains(err.Error(), "internal error") {
		t.Fatalf("Turn(nil) = %v, want an error that is not a recovered panic", err)
	}
}

// A reply that misses its turn is never credited to the next one: turn 1's
// late answer is dropped with its cancelled request, and turn 2 gets turn
// 2's own moves.
func TestLateReplyIsNotCreditedToTheNextTurn(t *testing.T) {
	ts := fakeBot(t, func(w http.ResponseWriter, r *http.Request, body []byte) {
		turn := r.Header.Get(HeaderTurn)
		if turn == "1" {
			time.Sleep(250 * time.Millisecond)
		}
		// The row of the move says which turn it answers.
		signedReply(200, `{"moves":[{"position":{"row":`+turn+`,"col":0},"direction":"E"}]}`)(w, r, body)
	})
	p := newTestPlayer(t, ts.URL)
	v := sampleView("m", 1, 2)
	v.Config.TurnTimeout = int64(80 * time.Millisecond)
	if moves, err := p.Turn(context.Background(), v, nil); err == nil || len(moves) != 0 {
		t.Fatalf("turn 1: %v, %v; want a missed deadline and no moves", moves, err)
	}
	v.Turn = 2
	moves, err := p.Turn(context.Background(), v, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 1 || moves[0].Position.Row != 2 {
		t.Fatalf("turn 2 got %v, want turn 2's own move (row 2)", moves)
	}
}
