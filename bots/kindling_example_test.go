package bots_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/protocol/kindlingapi"
	"crucible/strategies/bidders"
)

// longPoll wraps a Kindling server with the lab's long poll, as the spec
// fixes it: GET /api/matches/{code}?wait=S&version=V answers as soon as
// the match's version differs from V, or after S seconds. It records the
// state requests it saw ("Authorization ?query").
type longPoll struct {
	inner http.Handler
	mu    sync.Mutex
	polls []string
}

func (l *longPoll) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	if r.Method != http.MethodGet || !strings.HasPrefix(r.URL.Path, "/api/matches/") || strings.Count(r.URL.Path, "/") != 3 {
		l.inner.ServeHTTP(w, r)
		return
	}
	l.mu.Lock()
	l.polls = append(l.polls, r.Header.Get("Authorization")+" ?"+r.URL.RawQuery)
	l.mu.Unlock()
	wait, err1 := strconv.Atoi(q.Get("wait"))
	version, err2 := strconv.ParseInt(q.Get("version"), 10, 64)
	deadline := time.Now().Add(time.Duration(min(wait, 30)) * time.Second)
	for {
		rec := httptest.NewRecorder()
		l.inner.ServeHTTP(rec, r)
		var st struct {
			Version int64 `json:"version"`
		}
		json.Unmarshal(rec.Body.Bytes(), &st)
		if err1 != nil || err2 != nil || rec.Code != http.StatusOK || st.Version != version || time.Now().After(deadline) {
			for k, v := range rec.Header() {
				w.Header()[k] = v
			}
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestKindlingExampleAgent plays examples/kindling-python, started by the
// process manager as the spec says (KINDLING_URL set, the match code as
// the last argument), against the built-in normal bidder on a Kindling
// server on loopback: it joins, bids on every turn until the match is
// finished, and exits 0. Against a server with the long poll it sends
// wait and version and never sleeps between polls (its fallback pause is
// set to an hour here, so a sleeping agent could not finish); against
// the server without it, it notices and polls at its pause.
func TestKindlingExampleAgent(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("this test needs python3 on PATH to run examples/kindling-python: %v", err)
	}
	for _, withLongPoll := range []bool{true, false} {
		t.Run("long poll "+strconv.FormatBool(withLongPoll), func(t *testing.T) {
			house := func(level string, seed uint64, seat int) (kindling.Bidder, error) {
				return bidder(t, "easy", seed, seat), nil
			}
			srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: house})
			if err != nil {
				t.Fatal(err)
			}
			lp := &longPoll{inner: srv}
			// Without the long poll: the server as the public one
			// behaves, ignoring wait and version (ours answers them).
			// The agent tells the two apart by a state that did not
			// change between two polls; so that it surely sees one,
			// the host holds its first bid until the agent, locked in,
			// has polled twice (see gate).
			g := &gate{open: make(chan struct{})}
			var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				g.saw(r)
				q := r.URL.Query()
				q.Del("wait")
				q.Del("version")
				r.URL.RawQuery = q.Encode()
				srv.ServeHTTP(w, r)
			})
			if withLongPoll {
				h = lp
			}
			ln, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				t.Fatal(err)
			}
			hs := &http.Server{Handler: h}
			go hs.Serve(ln)
			defer hs.Close()
			url := "http://" + ln.Addr().String()

			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			client, err := kindlingapi.NewClient(url)
			if err != nil {
				t.Fatal(err)
			}
			host, err := client.Create(ctx, kindlingapi.CreateRequest{Name: "host", Seats: 2, TurnSeconds: 120})
			if err != nil {
				t.Fatal(err)
			}
			g.setHost("Bearer " + host.Token)
			m, err := bots.Load(filepath.Join("..", "examples", "kindling-python", "bot.json"), testGames)
			if err != nil {
				t.Fatal(err)
			}
			mgr, err := botproc.New(botproc.Options{LogDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			defer mgr.Close()
			pause := "3600"
			if !withLongPoll {
				pause = "0.05"
			}
			agentDone := make(chan error, 1)
			var agentLog string
			go func() {
				var err error
				agentLog, err = mgr.Run(ctx, m.Own().Spec(), []string{"KINDLING_URL=" + url, "KINDLING_POLL_SECONDS=" + pause}, host.Code)
				agentDone <- err
			}()
			var hostBidder kindling.Bidder = bidder(t, "normal", 1, 0)
			if !withLongPoll {
				hostBidder = &gatedBidder{inner: hostBidder, gate: g.open, ctx: ctx}
			}
			a := &kindlingapi.Agent{Client: client, Code: host.Code, Token: host.Token, Bidder: hostBidder, Poll: 20 * time.Millisecond}
			final, err := a.Play(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if err := <-agentDone; err != nil {
				t.Fatalf("the agent: %v", err)
			}
			if final.Phase != "finished" || len(final.Players) != 2 || final.Players[1].Kind != "agent" {
				t.Fatalf("final state %+v", final)
			}
			log, err := client.Log(ctx, host.Code)
			if err != nil {
				t.Fatal(err)
			}
			if len(log.Turns) != kindling.Turns {
				t.Fatalf("%d turns logged", len(log.Turns))
			}
			for _, turn := range log.Turns {
				if turn.Missed[1] {
					t.Fatalf("the agent missed turn %d", turn.Turn)
				}
			}
			out, _ := os.ReadFile(agentLog)
			if !strings.Contains(string(out), "finished: winners") {
				t.Fatalf("the agent's log does not show the end: %s", out)
			}
			if withLongPoll {
				lp.mu.Lock()
				defer lp.mu.Unlock()
				var agent []string
				for _, q := range lp.polls {
					if !strings.HasPrefix(q, "Bearer "+host.Token+" ") {
						agent = append(agent, q)
					}
				}
				if len(agent) < kindling.Turns {
					t.Fatalf("the agent polled %d times", len(agent))
				}
				for i, q := range agent[1:] {
					if !strings.Contains(q, "?wait=25&version=") {
						t.Fatalf("poll %d asked %q, without wait and version", i+1, q)
					}
				}
			} else if !strings.Contains(string(out), "the server ignores long polling") {
				t.Fatalf("the agent did not notice the server lacks the long poll: %s", out)
			}
		})
	}
}

// gate watches the requests of the agent (any but the host's): once the
// agent has bid and then polled the state twice, it closes open. The host
// holding its first bid until then, the state cannot change between those
// polls, so the agent sees the same version twice.
type gate struct {
	mu       sync.Mutex
	hostAuth string
	bid      bool
	polls    int
	open     chan struct{}
	closed   bool
}

func (g *gate) setHost(auth string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.hostAuth = auth
}

func (g *gate) saw(r *http.Request) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.hostAuth == "" || r.Header.Get("Authorization") == g.hostAuth || g.closed {
		return
	}
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/bids"):
		g.bid = true
	case r.Method == http.MethodGet && g.bid:
		if g.polls++; g.polls >= 2 {
			g.closed = true
			close(g.open)
		}
	}
}

// gatedBidder bids as inner once gate is open (or ctx is done).
type gatedBidder struct {
	inner kindling.Bidder
	gate  <-chan struct{}
	ctx   context.Context
}

func (b *gatedBidder) Bid(v *kindling.View, out *kindling.Bid) {
	select {
	case <-b.gate:
	case <-b.ctx.Done():
	}
	b.inner.Bid(v, out)
}

func bidder(t *testing.T, name string, seed uint64, seat int) kindling.Bidder {
	for _, s := range bidders.All() {
		if s.Name == name {
			return s.New(s.Schema.Defaults(), engine.SeatSeed(seed, seat), seat).(kindling.Bidder)
		}
	}
	t.Fatalf("no bidder %s", name)
	return nil
}
