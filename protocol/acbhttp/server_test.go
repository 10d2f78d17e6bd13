package acbhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/engine/acb"
)

func newTestServer(t *testing.T, cfg ServerConfig) (*Server, *httptest.Server) {
	t.Helper()
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return srv, ts
}

func TestServerRequiresASecret(t *testing.T) {
	rec := &recorder{}
	_, err := NewServer(ServerConfig{Secret: "", New: rec.factory})
	if err == nil || !strings.Contains(err.Error(), "SHARED_SECRET") {
		t.Fatalf("NewServer without a secret = %v, want an error naming SHARED_SECRET", err)
	}
}

func TestServerHealth(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	resp, err := http.Get(ts.URL + "/health")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /health = %d, want 200", resp.StatusCode)
	}
}

// Every rejection of the spec's verification order, with its status, and
// no moves computed for any of them.
func TestServerRejections(t *testing.T) {
	now := time.Unix(1_767_225_600, 0)
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory, MaxBody: 64 << 10, Now: func() time.Time { return now }})
	body := mustJSON(t, sampleView("m1", 3, 10))
	ok := func() *http.Request { return signedRequest(t, ts.URL, testSecret, "m1", "3", now, body) }
	signedWith := func(matchID, turn string, b []byte) *http.Request {
		return signedRequest(t, ts.URL, testSecret, matchID, turn, now, b)
	}
	tests := []struct {
		rule   string
		req    func() *http.Request
		status int
	}{
		{"missing X-ACB-Match-Id is 401", func() *http.Request { r := ok(); r.Header.Del(HeaderMatchID); return r }, 401},
		{"missing X-ACB-Turn is 401", func() *http.Request { r := ok(); r.Header.Del(HeaderTurn); return r }, 401},
		{"missing X-ACB-Timestamp is 401", func() *http.Request { r := ok(); r.Header.Del(HeaderTimestamp); return r }, 401},
		{"missing X-ACB-Bot-Id is 401", func() *http.Request { r := ok(); r.Header.Del(HeaderBotID); return r }, 401},
		{"missing X-ACB-Signature is 401", func() *http.Request { r := ok(); r.Header.Del(HeaderSignature); return r }, 401},
		{"signature of 64 non-hex characters is 401", func() *http.Request {
			r := ok()
			r.Header.Set(HeaderSignature, strings.Repeat("g", 64))
			return r
		}, 401},
		{"signature of the wrong length is 401", func() *http.Request {
			r := ok()
			r.Header.Set(HeaderSignature, r.Header.Get(HeaderSignature)[:62])
			return r
		}, 401},
		{"signature under another secret is 401", func() *http.Request {
			return signedRequest(t, ts.URL, "not-the-secret", "m1", "3", now, body)
		}, 401},
		{"signature of another body is 401", func() *http.Request {
			r := signedRequest(t, ts.URL, testSecret, "m1", "3", now, body)
			r.Body = io.NopCloser(bytes.NewReader(append([]byte(" "), body...)))
			r.ContentLength++
			return r
		}, 401},
		{"timestamp 31 s old is 401", func() *http.Request {
			return signedRequest(t, ts.URL, testSecret, "m1", "3", now.Add(-31*time.Second), body)
		}, 401},
		{"timestamp 31 s ahead is 401", func() *http.Request {
			return signedRequest(t, ts.URL, testSecret, "m1", "3", now.Add(31*time.Second), body)
		}, 401},
		{"body match_id unlike the header is 400", func() *http.Request { return signedWith("m2", "3", body) }, 400},
		{"body turn unlike the header is 400", func() *http.Request { return signedWith("m1", "4", body) }, 400},
		{"header turn that is not an integer is 400", func() *http.Request { return signedWith("m1", "three", body) }, 400},
		{"malformed JSON body is 400", func() *http.Request { return signedWith("m1", "3", []byte(`{"match_id":"m1","turn":3`)) }, 400},
		{"body without match_id is 400", func() *http.Request {
			return signedWith("m1", "3", []byte(`{"turn":3,"config":{"rows":40,"cols":40}}`))
		}, 400},
		{"body without turn is 400", func() *http.Request {
			return signedWith("m1", "0", []byte(`{"match_id":"m1","config":{"rows":40,"cols":40}}`))
		}, 400},
		{"unit outside the grid is 400", func() *http.Request {
			v := sampleView("m1", 3, 2)
			v.Bots[0].Position.Row = 40
			return signedWith("m1", "3", mustJSON(t, v))
		}, 400},
		{"oversized body is 400: every failure is 401 (auth) or 400 (body)", func() *http.Request {
			big := append([]byte(`{"match_id":"m1","turn":3,"pad":"`), bytes.Repeat([]byte("x"), 65<<10)...)
			return signedWith("m1", "3", append(big, `"}`...))
		}, 400},
		{"GET /turn is 405", func() *http.Request { r, _ := http.NewRequest(http.MethodGet, ts.URL+"/turn", nil); return r }, 405},
		{"an unknown path is 404", func() *http.Request { r, _ := http.NewRequest(http.MethodPost, ts.URL+"/moves", nil); return r }, 404},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			resp, err := http.DefaultClient.Do(tt.req())
			if err != nil {
				t.Fatal(err)
			}
			msg, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, msg, tt.status)
			}
			if resp.Header.Get(HeaderSignature) != "" {
				t.Fatalf("a rejection carries a signature")
			}
			var e struct{ Error string }
			if json.Unmarshal(msg, &e) != nil || e.Error == "" {
				t.Fatalf("rejection body %q is not {\"error\": ...}", msg)
			}
		})
	}
	if created, calls := rec.snapshot(); created != 0 || len(calls) != 0 {
		t.Fatalf("rejected requests computed moves: %d controllers, calls %v", created, calls)
	}
	// The 30 s edge itself is accepted.
	for _, d := range []time.Duration{-30 * time.Second, 30 * time.Second} {
		resp, err := http.DefaultClient.Do(signedRequest(t, ts.URL, testSecret, "m1", "3", now.Add(d), body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("timestamp %v off: status %d, want 200", d, resp.StatusCode)
		}
	}
}

// postTurn sends v correctly signed and returns the verified, parsed moves.
func postTurn(t *testing.T, base string, v *acb.View) []acb.Move {
	t.Helper()
	body := mustJSON(t, v)
	turn := strconv.Itoa(v.Turn)
	resp, err := http.DefaultClient.Do(signedRequest(t, base, testSecret, v.MatchID, turn, time.Now(), body))
	if err != nil {
		t.Fatal(err)
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("turn %d: status %d: %s", v.Turn, resp.StatusCode, reply)
	}
	if err := VerifySignature(testSecret, ResponsePayload(v.MatchID, turn, reply), resp.Header.Get(HeaderSignature)); err != nil {
		t.Fatalf("reply signature: %v", err)
	}
	moves, _, err := ParseOrders(reply, nil)
	if err != nil {
		t.Fatalf("reply %s: %v", reply, err)
	}
	return moves
}

func TestServerAnswersSignedMovesOfTheStrategy(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	v := sampleView("m_7f3a9b2c", 0, 12)
	moves := postTurn(t, ts.URL, v)
	if len(moves) != 12 {
		t.Fatalf("got %d moves, want one per own unit (12)", len(moves))
	}
	for i, m := range moves {
		if m.Direction != acb.North || m.Position != v.Bots[i].Position {
			t.Fatalf("move %d = %+v, want N from %+v", i, m, v.Bots[i].Position)
		}
	}
}

func TestServerKeepsOneInstancePerMatchAndSeat(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	play := func(match string, seat, turn int) {
		v := sampleView(match, turn, 2)
		v.You.ID = seat
		postTurn(t, ts.URL, v)
	}
	play("a", 0, 0)
	play("a", 0, 1)
	play("a", 1, 0) // a second seat of the same match (self-play) gets its own instance
	play("b", 0, 0)
	play("a", 0, 2)
	play("a", 0, 0) // the turn counter restarts: a new match under a reused id
	play("a", 0, 1)
	_, calls := rec.snapshot()
	want := []string{"a/0/1/0", "a/0/1/1", "a/1/2/0", "b/0/3/0", "a/0/1/2", "a/0/4/0", "a/0/4/1"}
	if strings.Join(calls, " ") != strings.Join(want, " ") {
		t.Fatalf("calls (match/seat/instance/turn)\n got %v\nwant %v", calls, want)
	}
}

func TestServerDropsIdleMatches(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	rec := &recorder{}
	srv, h := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory, SessionIdle: time.Minute, Now: clock})
	send := func(match string) {
		v := sampleView(match, 0, 1)
		body := mustJSON(t, v)
		resp, err := http.DefaultClient.Do(signedRequest(t, h.URL, testSecret, match, "0", clock(), body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("turn of match %s: status %d, want 200", match, resp.StatusCode)
		}
	}
	send("old")
	if srv.Sessions() != 1 {
		t.Fatalf("sessions = %d, want 1", srv.Sessions())
	}
	advance(2 * time.Minute)
	send("new")
	if srv.Sessions() != 1 {
		t.Fatalf("after 2 idle minutes sessions = %d, want 1 (the old match dropped)", srv.Sessions())
	}
}

// blockingBot never answers until released: the server must still answer
// within the budget, with an empty move list, signed.
type blockingBot struct{ release chan struct{} }

func (b *blockingBot) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	<-b.release
	return append(buf, acb.Move{Position: v.Bots[0].Position, Direction: acb.East}), nil
}

func TestServerAnswersWithinTheBudgetWhenTheStrategyIsSlow(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: func(string, int) (acb.Controller, error) {
		return &blockingBot{release}, nil
	}})
	v := sampleView("slow", 0, 3)
	v.Config.TurnTimeout = int64(200 * time.Millisecond)
	start := time.Now()
	moves := postTurn(t, ts.URL, v)
	if el := time.Since(start); el > 200*time.Millisecond {
		t.Fatalf("answered after %v, over the 200ms budget", el)
	}
	if len(moves) != 0 {
		t.Fatalf("moves = %v, want none when the strategy misses the deadline", moves)
	}
}

func TestServerShutsDownGracefully(t *testing.T) {
	rec := &recorder{}
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: rec.factory})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	postTurn(t, "http://"+ln.Addr().String(), sampleView("g", 0, 1))
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve after cancel = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	if _, err := http.Get("http://" + ln.Addr().String() + "/health"); err == nil {
		t.Fatal("server still answers after shutdown")
	}
}
