package kindlingapi

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/engine/kindling"
)

// These tests hold the agent to the seed's loop against servers that are
// not ours: the public server's replies may differ from ours wherever the
// seed does not pin them down, and the agent must still play.

// hostWithBids is hostAgainst with every request served by the server
// except POST .../bids, which goes to bids (after counting it in n).
func hostWithBids(t *testing.T, n *atomic.Int64, bids func(srv *Server, w http.ResponseWriter, r *http.Request)) (*Client, Seated) {
	t.Helper()
	return hostAgainst(t, func(srv *Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/bids") {
				n.Add(1)
				bids(srv, w, r)
				return
			}
			srv.ServeHTTP(w, r)
		})
	})
}

// Rule: the agent backs off on errors, including failed moves, and gives up
// after MaxErrors consecutive failures: a successful state poll between two
// failed moves does not reset the count.
func TestAgentGivesUpAfterConsecutiveFailedMoves(t *testing.T) {
	var posts atomic.Int64
	c, s := hostWithBids(t, &posts, func(_ *Server, w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"overloaded","hint":"retry"}`, http.StatusServiceUnavailable)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a := &Agent{Client: c, Code: s.Code, Token: s.Token, Bidder: greedy{}, Poll: time.Millisecond, MaxErrors: 4}
	_, err := a.Play(ctx)
	if err == nil || errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "4 consecutive errors") {
		t.Fatalf("Play = %v, want it to give up after 4 consecutive failed moves", err)
	}
	if n := posts.Load(); n != 4 {
		t.Fatalf("%d moves sent, want 4 (one per failure before giving up)", n)
	}
}

// Rule: the agent polls about once per Poll, never faster: a move answered
// 409 (the turn moved on, as the server sees it) is followed by a pause,
// not by an immediate new poll and move, even if the server keeps
// answering 409.
func TestAgentPausesAfterAConflict(t *testing.T) {
	var posts atomic.Int64
	c, s := hostWithBids(t, &posts, func(_ *Server, w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"turn 1 is not the current turn","hint":"fetch the state"}`, http.StatusConflict)
	})
	const poll, window = 20 * time.Millisecond, 300 * time.Millisecond
	ctx, cancel := context.WithTimeout(context.Background(), window)
	defer cancel()
	a := &Agent{Client: c, Code: s.Code, Token: s.Token, Bidder: greedy{}, Poll: poll}
	a.Play(ctx)
	n, most := posts.Load(), int64(window/poll)+2
	if n > most {
		t.Fatalf("%d moves in %v with Poll %v, want at most %d (one per poll)", n, window, poll, most)
	}
	if n < 2 {
		t.Fatalf("%d moves in %v: the agent did not send a move again after a 409, so the pause was not exercised", n, window)
	}
}

// Rule: any 2xx answer to a move means the move was taken; the seed does
// not say what the reply holds, so an empty reply (or one that is not our
// state) is not an error.
func TestAgentAcceptsAnyReplyToAMove(t *testing.T) {
	var posts atomic.Int64
	c, s := hostWithBids(t, &posts, func(srv *Server, w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		w.WriteHeader(http.StatusNoContent)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	a := &Agent{Client: c, Code: s.Code, Token: s.Token, Bidder: greedy{}, Poll: time.Millisecond, MaxErrors: 1}
	final, err := a.Play(ctx)
	if err != nil || final.Phase != PhaseFinished {
		t.Fatalf("Play = phase %q, %v; want a finished match without errors", final.Phase, err)
	}
	if n := posts.Load(); n != kindling.Turns {
		t.Fatalf("%d moves sent, want one per turn (%d)", n, kindling.Turns)
	}
}

// A turn-1 state as another server might send it: no lastTurn at all, and
// fields the seed does not define (some named like our additive ones, with
// other types).
const foreignTurnOne = `{
  "code": "K7QF2", "version": 3, "phase": "playing", "turn": 1, "turns": 8, "secondsLeft": 37.4,
  "beacons": [{"id":0,"name":"Fen","base":1,"value":1}, {"id":1,"name":"Cairn","base":2,"value":2},
              {"id":2,"name":"Crown","base":4,"value":4}, {"id":3,"name":"Tor","base":3,"value":3},
              {"id":4,"name":"Mill","base":2,"value":2}],
  "players": [{"seat":0,"name":"MyAgent","kind":"agent","score":0,"sparks":5,"embers":[0,0,0,0,0],"lockedIn":false,"color":"#f80"},
              {"seat":1,"name":"Bot","kind":"bot","score":0,"sparks":5,"embers":[0,0,0,0,0],"lockedIn":true}],
  "you": {"seat":0,"sparks":5,"embers":[0,0,0,0,0],"lockedIn":false,"bids":null,"canMove":true},
  "winners": [], "standings": [0, 1],
  "seats": [{"seat":0,"open":false},{"seat":1,"open":false}], "host": "MyAgent", "turnSeconds": "45",
  "deadline": "2026-01-01T00:00:45Z"
}`

// Rule: the agent reads the seed's state and tolerates everything the seed
// leaves open: extra fields, our additive field names with other types, a
// fractional secondsLeft, no lastTurn on turn 1, a null bids row for a
// seat that missed, and a lastTurn it cannot read (it then bids without
// it rather than not at all).
func TestStateFromOtherServersBecomesAView(t *testing.T) {
	missedRow := strings.Replace(seedState, `"bids":[[0,2,0,3,0],[1,0,4,0,0]]`, `"bids":[[0,2,0,3,0],null]`, 1)
	missedRow = strings.Replace(missedRow, `"missed":[]`, `"missed":[1]`, 1)
	tests := []struct {
		rule     string
		doc      string
		lastTurn int  // the View's Last.Turn
		lastErr  bool // State.LastTurnError reports a problem
		check    func(*testing.T, State, kindling.View)
	}{
		{"turn 1 without lastTurn, extra and differently typed fields", foreignTurnOne, 0, false, func(t *testing.T, s State, v kindling.View) {
			if v.Turn != 1 || v.Budget() != 5 || v.Seats != 2 || s.SecondsLeft != 38 {
				t.Fatalf("view %+v secondsLeft %d", v, s.SecondsLeft)
			}
		}},
		{"a null bids row is a seat that bid nothing", missedRow, 2, false, func(t *testing.T, s State, v kindling.View) {
			if v.Last.Bids[1] != (kindling.Bid{}) || !v.Last.Missed[1] || v.Last.Bids[0] != (kindling.Bid{0, 2, 0, 3, 0}) {
				t.Fatalf("last turn %+v", v.Last)
			}
		}},
		{"an unreadable lastTurn leaves the rest usable", strings.Replace(seedState, `"turn":2,"values"`, `"turn":"two","values"`, 1), 0, true, func(t *testing.T, s State, v kindling.View) {
			if v.Turn != 3 || v.Budget() != 7 {
				t.Fatalf("view %+v", v)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var s State
			if err := json.Unmarshal([]byte(tt.doc), &s); err != nil {
				t.Fatalf("state does not decode: %v", err)
			}
			var v kindling.View
			if err := s.View(&v); err != nil {
				t.Fatalf("View: %v", err)
			}
			if v.Last.Turn != tt.lastTurn || (s.LastTurnError() != nil) != tt.lastErr {
				t.Fatalf("last turn %d (error %v), want turn %d (error %v)", v.Last.Turn, s.LastTurnError(), tt.lastTurn, tt.lastErr)
			}
			tt.check(t, s, v)
		})
	}
	// What the agent needs stays strict: a state whose you is not an object
	// is an error, not a silent spectator view.
	var s State
	if err := json.Unmarshal([]byte(strings.Replace(seedState, `"you": {"seat":0,`, `"you": {"seat":"zero",`, 1)), &s); err == nil {
		t.Fatal("a state with a malformed you decoded")
	}
}
