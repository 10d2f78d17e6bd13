package acbhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"crucible/engine/acb"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
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
		{"zone centre outside the grid is 400", func() *http.Request {
			v := sampleView("m1", 3, 2)
			v.Zone = &acb.Zone{Center: acb.Pos{Row: 20, Col: 20}, Centers: []acb.Pos{{Row: 20, Col: 20}, {Row: 3, Col: 41}}, Radius: 9}
			return signedWith("m1", "3", mustJSON(t, v))
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

// The bot keeps state for at most MaxMatches match ids, counted: signed
// turns of more ids evict the one used least recently, whose next turn
// starts a fresh strategy instance, while the ids kept keep theirs.
func TestServerKeepsAtMostMaxMatchesIDs(t *testing.T) {
	const max, ids = 20, 50
	rec := &recorder{}
	srv, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory, MaxMatches: max})
	for i := range ids {
		postTurn(t, ts.URL, sampleView(fmt.Sprintf("m%d", i), 0, 1))
	}
	if srv.MatchIDs() != max || srv.Sessions() != max {
		t.Fatalf("after %d match ids the bot keeps %d ids and %d sessions, want %d of each", ids, srv.MatchIDs(), srv.Sessions(), max)
	}
	postTurn(t, ts.URL, sampleView(fmt.Sprintf("m%d", ids-max), 1, 1)) // the oldest kept
	if created, _ := rec.snapshot(); created != ids {
		t.Fatalf("a turn of a kept match made a new instance (%d instances, want %d)", created, ids)
	}
	postTurn(t, ts.URL, sampleView("m0", 1, 1)) // evicted: starts afresh, evicting m31 (m30 was just used)
	if created, _ := rec.snapshot(); created != ids+1 || srv.MatchIDs() != max {
		t.Fatalf("a turn of an evicted match: %d instances and %d ids kept, want %d and %d", created, srv.MatchIDs(), ids+1, max)
	}
	postTurn(t, ts.URL, sampleView(fmt.Sprintf("m%d", ids-max), 2, 1))
	if created, _ := rec.snapshot(); created != ids+1 {
		t.Fatalf("the match used most recently but one was evicted (%d instances, want %d)", created, ids+1)
	}
}

// blockingBot signals entered when its turn begins and does not answer
// until release is closed; returned is set once it has answered.
type blockingBot struct {
	entered  chan struct{}
	release  chan struct{}
	returned atomic.Bool
}

func (b *blockingBot) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	select {
	case b.entered <- struct{}{}:
	default:
	}
	<-b.release
	b.returned.Store(true)
	return append(buf, acb.Move{Position: v.Bots[0].Position, Direction: acb.East}), nil
}

// The answer deadline is AnswerFraction of the state's turn_timeout after
// the request arrived (0.8 by default; a fraction outside (0, 1] takes the
// default).
func TestAnswerDeadlineIsAFractionOfTheTurnTimeout(t *testing.T) {
	arrived := time.Unix(1_767_225_600, 0)
	for _, tt := range []struct {
		fraction float64
		timeout  time.Duration
		want     time.Duration
	}{
		{0, 3 * time.Second, 2400 * time.Millisecond},
		{0.5, 3 * time.Second, 1500 * time.Millisecond},
		{1, 200 * time.Millisecond, 200 * time.Millisecond},
		{1.5, 10 * time.Second, 8 * time.Second},
		{-1, time.Second, 800 * time.Millisecond},
	} {
		rec := &recorder{}
		srv, err := NewServer(ServerConfig{Secret: testSecret, New: rec.factory, AnswerFraction: tt.fraction})
		if err != nil {
			t.Fatal(err)
		}
		v := sampleView("m", 0, 1)
		v.Config.TurnTimeout = int64(tt.timeout)
		if got := srv.answerBy(arrived, v).Sub(arrived); got != tt.want {
			t.Errorf("fraction %v of %v: answers by %v after arrival, want %v", tt.fraction, tt.timeout, got, tt.want)
		}
	}
}

// A strategy that has not answered by the deadline: the server answers an
// empty, signed move list while the strategy is still blocked (so the
// reply cannot be the strategy's), and a turn that arrives while the
// previous one still runs gets the same. No wall-clock margin is asserted.
func TestServerAnswersNoMovesWhenTheStrategyMissesTheDeadline(t *testing.T) {
	bot := &blockingBot{entered: make(chan struct{}, 1), release: make(chan struct{})}
	defer close(bot.release)
	var logs syncBuffer
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: func(string, int) (acb.Controller, error) { return bot, nil },
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	v := sampleView("slow", 0, 3)
	v.Config.TurnTimeout = int64(100 * time.Millisecond)
	moves := postTurn(t, ts.URL, v)
	select {
	case <-bot.entered:
	default:
		t.Fatal("the strategy was never asked")
	}
	if bot.returned.Load() {
		t.Fatal("the strategy answered; the test shows nothing about the deadline")
	}
	if len(moves) != 0 {
		t.Fatalf("moves = %v, want none when the strategy misses the deadline", moves)
	}
	v.Turn = 1
	if moves := postTurn(t, ts.URL, v); len(moves) != 0 || bot.returned.Load() {
		t.Fatalf("a turn while the previous one runs: moves %v, want none", moves)
	}
	for _, want := range []string{"strategy missed the answer deadline", "previous turn still running"} {
		if !strings.Contains(logs.String(), want) {
			t.Fatalf("log lacks %q:\n%s", want, logs.String())
		}
	}
}

// within keeps the parts of v that lie inside an n x n grid and sets the
// grid to n x n.
func within(v *acb.View, n int) *acb.View {
	in := func(p acb.Pos) bool { return p.Row < n && p.Col < n }
	v.Config.Rows, v.Config.Cols = n, n
	v.Bots = slices.DeleteFunc(v.Bots, func(u acb.Unit) bool { return !in(u.Position) })
	v.Walls = slices.DeleteFunc(v.Walls, func(p acb.Pos) bool { return !in(p) })
	v.Energy = slices.DeleteFunc(v.Energy, func(p acb.Pos) bool { return !in(p) })
	v.Cores = slices.DeleteFunc(v.Cores, func(c acb.CoreView) bool { return !in(c.Position) })
	return v
}

// postRaw sends v signed and returns the status and body of the reply.
func postRaw(t *testing.T, base string, v *acb.View) (int, string) {
	t.Helper()
	resp, err := http.DefaultClient.Do(signedRequest(t, base, testSecret, v.MatchID, strconv.Itoa(v.Turn), time.Now(), mustJSON(t, v)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// A signed state whose grid differs from the one its match began on is a
// bad body (400, saying so), not a strategy crash; a turn counter that
// goes back starts a new match, which may have another grid.
func TestServerRefusesAGridThatChangesWithinAMatch(t *testing.T) {
	reg, err := strategies.NewRegistry(acbstrat.All()...)
	if err != nil {
		t.Fatal(err)
	}
	gatherer, err := reg.Lookup("acb", "gatherer")
	if err != nil {
		t.Fatal(err)
	}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: StrategyFactory(gatherer, gatherer.Schema.Defaults())})
	for turn := range 2 {
		if status, body := postRaw(t, ts.URL, within(sampleView("geo", turn, 12), 20)); status != 200 {
			t.Fatalf("turn %d on 20x20: %d %s", turn, status, body)
		}
	}
	status, body := postRaw(t, ts.URL, sampleView("geo", 2, 12))
	if status != http.StatusBadRequest || !strings.Contains(body, "40x40") || !strings.Contains(body, "began on a 20x20 grid") {
		t.Fatalf("turn 2 on 40x40 after 20x20: %d %s, want 400 naming both grids", status, body)
	}
	for _, leak := range []string{"runtime", "panic", "goroutine", "index out of range"} {
		if strings.Contains(body, leak) {
			t.Fatalf("the reply exposes internals (%q): %s", leak, body)
		}
	}
	if status, body := postRaw(t, ts.URL, sampleView("geo", 0, 12)); status != 200 {
		t.Fatalf("turn 0 again (a new match under the same id) on 40x40: %d %s", status, body)
	}
}

// failingBot fails its turn as told: with an error or a panic, each
// carrying a detail that must reach the log and never the reply.
type failingBot struct{ panics bool }

const secretDetail = "detail-only-the-log-may-see"

func (b failingBot) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	if b.panics {
		var grid []int
		_ = grid[v.Turn+3] // a runtime error, as a strategy bug would raise
	}
	return buf, errors.New(secretDetail)
}

// panicOn is a log handler that panics on one message, to make a panic in
// the request's own goroutine.
type panicOn struct {
	slog.Handler
	msg string
}

func (h panicOn) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == h.msg {
		panic(secretDetail)
	}
	return h.Handler.Handle(ctx, r)
}

// Every internal failure answers a generic 500 "internal error"; what
// failed goes to the log only.
func TestServerNeverExposesInternals(t *testing.T) {
	tests := []struct {
		rule string
		cfg  func(*ServerConfig)
		logs string
	}{
		{"a strategy that returns an error", func(c *ServerConfig) {
			c.New = func(string, int) (acb.Controller, error) { return failingBot{}, nil }
		}, secretDetail},
		{"a strategy that panics", func(c *ServerConfig) {
			c.New = func(string, int) (acb.Controller, error) { return failingBot{panics: true}, nil }
		}, "index out of range"},
		{"a factory that fails", func(c *ServerConfig) {
			c.New = func(string, int) (acb.Controller, error) { return nil, errors.New(secretDetail) }
		}, secretDetail},
		{"a panic in the request's goroutine", func(c *ServerConfig) {
			c.Logger = slog.New(panicOn{c.Logger.Handler(), "new match"})
		}, secretDetail},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var logs syncBuffer
			rec := &recorder{}
			cfg := ServerConfig{Secret: testSecret, New: rec.factory, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
			tt.cfg(&cfg)
			_, ts := newTestServer(t, cfg)
			status, body := postRaw(t, ts.URL, sampleView("m", 0, 2))
			if status != http.StatusInternalServerError || body != `{"error":"internal error"}`+"\n" {
				t.Fatalf("reply %d %q, want 500 {\"error\":\"internal error\"}", status, body)
			}
			if !strings.Contains(logs.String(), tt.logs) {
				t.Fatalf("the log lacks %q:\n%s", tt.logs, logs.String())
			}
		})
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

// MatchSeed gives back the seed of the engine's own match ids and hashes
// every other id.
func TestMatchSeed(t *testing.T) {
	for _, seed := range []uint64{0, 5, 1 << 63, ^uint64(0)} {
		if got := MatchSeed(fmt.Sprintf("m_%016x", seed)); got != seed {
			t.Errorf("MatchSeed(m_%016x) = %d, want %d", seed, got, seed)
		}
	}
	for _, id := range []string{"m_5", "m_000000000000000G", "m_000000000000000A", "m_00000000000000005", "r0-0v1-3fa9c2e1b0d4", ""} {
		h := fnv.New64a()
		h.Write([]byte(id))
		if got := MatchSeed(id); got != h.Sum64() {
			t.Errorf("MatchSeed(%q) = %d, want its FNV-1a hash %d", id, got, h.Sum64())
		}
	}
}
