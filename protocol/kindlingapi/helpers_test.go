package kindlingapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"crucible/engine/kindling"
)

// greedy puts its whole budget on the most valuable beacon (lowest id on
// ties): a simple legal bidder for tests, independent of strategies/.
type greedy struct{}

func (greedy) Bid(v *kindling.View, out *kindling.Bid) {
	best := 0
	for i := range v.Values {
		if v.Values[i] > v.Values[best] {
			best = i
		}
	}
	out[best] = v.Budget()
}

// spreader bids one spark on each beacon it can afford, from the last.
type spreader struct{}

func (spreader) Bid(v *kindling.View, out *kindling.Bid) {
	left := v.Budget()
	for i := kindling.Beacons - 1; i >= 0 && left > 0; i-- {
		out[i] = 1
		left--
	}
}

func testHouse(level string, seed uint64, seat int) (kindling.Bidder, error) {
	if level == "easy" {
		return spreader{}, nil
	}
	return greedy{}, nil
}

// fakeClock is a settable clock.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

func newServer(t testing.TB, cfg ServerConfig) (*Server, *httptest.Server) {
	t.Helper()
	if cfg.HouseBot == nil {
		cfg.HouseBot = testHouse
	}
	s, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// hostAgainst serves a new Server (house bots testHouse) through wrap, which
// may answer some requests itself, creates a 2-seat match with one house
// bot, and returns a client of the wrapped server and the host's seat.
func hostAgainst(t *testing.T, wrap func(srv *Server) http.Handler) (*Client, Seated) {
	t.Helper()
	srv, err := NewServer(ServerConfig{HouseBot: testHouse})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(wrap(srv))
	t.Cleanup(ts.Close)
	c, err := NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	s, err := c.Create(context.Background(), CreateRequest{Name: "A", Seats: 2, Bots: 1})
	if err != nil {
		t.Fatal(err)
	}
	return c, s
}

// call sends a raw request and returns status and body.
func call(t testing.TB, method, url, token string, body []byte) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequest(method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// create makes a match and returns the seat reply.
func create(t testing.TB, base string, req CreateRequest) Seated {
	t.Helper()
	st, b := call(t, http.MethodPost, base+"/api/matches", "", mustJSON(t, req))
	if st != http.StatusOK {
		t.Fatalf("create %+v: %d %s", req, st, b)
	}
	var out Seated
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func join(t testing.TB, base, code, name string) Seated {
	t.Helper()
	st, b := call(t, http.MethodPost, base+"/api/matches/"+code+"/join", "", mustJSON(t, JoinRequest{Name: name}))
	if st != http.StatusOK {
		t.Fatalf("join %s: %d %s", code, st, b)
	}
	var out Seated
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func getState(t testing.TB, base, code, token string) State {
	t.Helper()
	st, b := call(t, http.MethodGet, base+"/api/matches/"+code, token, nil)
	if st != http.StatusOK {
		t.Fatalf("state %s: %d %s", code, st, b)
	}
	var out State
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("state %s: %v", b, err)
	}
	return out
}

func bid(t testing.TB, base, code, token string, b kindling.Bid, turn int) (int, []byte) {
	t.Helper()
	return call(t, http.MethodPost, base+"/api/matches/"+code+"/bids", token, mustJSON(t, BidRequest{Bids: b, Turn: &turn}))
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// replayLog re-resolves a log's bids with engine/kindling from a new state
// and checks every record it served: the oracle of a served match.
func replayLog(t *testing.T, lg kindling.Log) kindling.State {
	t.Helper()
	st, err := kindling.NewState(len(lg.Players))
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range lg.Turns {
		bids := rec.Bids
		missed := rec.Missed
		want, err := kindling.Resolve(&st, &bids, &missed)
		if err != nil {
			t.Fatalf("turn %d of the log does not replay: %v", rec.Turn, err)
		}
		if want != rec {
			t.Fatalf("turn %d served %+v, the rules give %+v", rec.Turn, rec, want)
		}
	}
	return st
}
