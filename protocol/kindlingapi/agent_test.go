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

// The seed's example state (with its "..." placeholders filled in) becomes
// the View a Bidder sees.
const seedState = `{
  "code": "K7QF2", "version": 12, "phase": "playing", "turn": 3, "turns": 8, "secondsLeft": 38,
  "beacons": [{"id":0,"name":"Fen","base":1,"value":2}, {"id":1,"name":"Cairn","base":2,"value":2},
              {"id":2,"name":"Crown","base":4,"value":5}, {"id":3,"name":"Tor","base":3,"value":3},
              {"id":4,"name":"Mill","base":2,"value":2}],
  "players": [{"seat":0,"name":"MyAgent","kind":"agent","score":6,"sparks":7,"embers":[0,1,0,0,0],"lockedIn":false},
              {"seat":1,"name":"Bot","kind":"bot","score":4,"sparks":9,"embers":[1,0,2,0,0],"lockedIn":true}],
  "you": {"seat":0,"sparks":7,"embers":[0,1,0,0,0],"lockedIn":false,"bids":null,"canMove":true},
  "lastTurn": {"turn":2,"values":[1,2,4,3,2],"bids":[[0,2,0,3,0],[1,0,4,0,0]],"strength":[[0,2,0,3,0],[1,0,4,0,0]],
               "winners":[1,0,1,0,null],"points":[5,5],"scores":[6,4],"embers":[[0,1,0,0,0],[1,0,2,0,0]],"missed":[]},
  "winners": [], "standings": [0, 1]
}`

func TestStateBecomesTheBiddersView(t *testing.T) {
	var st State
	if err := json.Unmarshal([]byte(seedState), &st); err != nil {
		t.Fatal(err)
	}
	var v kindling.View
	if err := st.View(&v); err != nil {
		t.Fatal(err)
	}
	want := kindling.View{Turn: 3, Turns: 8, Seats: 2, You: 0, Values: [5]int{2, 2, 5, 3, 2}}
	want.Scores[0], want.Scores[1] = 6, 4
	want.Sparks[0], want.Sparks[1] = 7, 9
	want.Embers[0] = [5]int{0, 1, 0, 0, 0}
	want.Embers[1] = [5]int{1, 0, 2, 0, 0}
	want.Last = *st.LastTurn
	if v != want {
		t.Fatalf("view\n got %+v\nwant %+v", v, want)
	}
	if v.Last.Turn != 2 || v.Last.Winners != [5]int{1, 0, 1, 0, kindling.NoWinner} || v.Budget() != 7 {
		t.Fatalf("last turn %+v budget %d", v.Last, v.Budget())
	}
}

func TestStateViewRejectsWhatABidderCannotUse(t *testing.T) {
	tests := []struct {
		rule  string
		patch func(*State)
		want  string
	}{
		{"a spectator's state has no you", func(s *State) { s.You = nil }, "you"},
		{"a lobby has no turn", func(s *State) { s.Turn = 0 }, "turn"},
		{"one player is not a match", func(s *State) { s.Players = s.Players[:1] }, "players"},
		{"players out of seat order", func(s *State) { s.Players[0].Seat, s.Players[1].Seat = 1, 0 }, "seat"},
		{"a seat outside the players", func(s *State) { s.You.Seat = 2 }, "you.seat"},
		{"four beacons", func(s *State) { s.Beacons = s.Beacons[:4] }, "beacons"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var st State
			json.Unmarshal([]byte(seedState), &st)
			tt.patch(&st)
			var v kindling.View
			err := st.View(&v)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("View = %v, want an error naming %q", err, tt.want)
			}
		})
	}
}

// countingBidder counts its calls.
type countingBidder struct {
	n atomic.Int64
	b kindling.Bidder
}

func (c *countingBidder) Bid(v *kindling.View, out *kindling.Bid) { c.n.Add(1); c.b.Bid(v, out) }

// The agent asks its bidder exactly once per turn however fast it polls,
// and rides out server errors with back-off.
func TestAgentBidsOncePerTurnAndBacksOffOnErrors(t *testing.T) {
	var gets, failed atomic.Int64
	c, s := hostAgainst(t, func(srv *Server) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Every 5th state poll fails with 503, as an overloaded server might.
			if r.Method == http.MethodGet && gets.Add(1)%5 == 0 {
				failed.Add(1)
				http.Error(w, `{"error":"busy","hint":"retry"}`, http.StatusServiceUnavailable)
				return
			}
			srv.ServeHTTP(w, r)
		})
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cb := &countingBidder{b: greedy{}}
	var lines atomic.Int64
	a := &Agent{Client: c, Code: s.Code, Token: s.Token, Bidder: cb, Poll: 2 * time.Millisecond,
		Logf: func(string, ...any) { lines.Add(1) }}
	final, err := a.Play(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if final.Phase != PhaseFinished {
		t.Fatalf("Play returned phase %s", final.Phase)
	}
	if n := cb.n.Load(); n != kindling.Turns {
		t.Fatalf("bidder asked %d times over %d polls, want once per turn (%d)", n, gets.Load(), kindling.Turns)
	}
	if failed.Load() == 0 {
		t.Fatal("no poll failed; the test did not exercise back-off")
	}
}

func TestAgentStopsOnAnUnknownMatch(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	c, _ := NewClient(ts.URL)
	a := &Agent{Client: c, Code: "ZZZZZ", Token: "x", Bidder: greedy{}, Poll: time.Millisecond}
	_, err := a.Play(context.Background())
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != http.StatusNotFound {
		t.Fatalf("Play on an unknown code = %v, want the server's 404", err)
	}
}

func TestNewClientRejectsBadURLs(t *testing.T) {
	for _, u := range []string{"", "kindling.example", "ftp://x", "http://"} {
		if _, err := NewClient(u); err == nil {
			t.Errorf("NewClient(%q) accepted a bad URL", u)
		}
	}
}

// FuzzStateView: any JSON an agent might receive either fails to decode,
// fails View with an error, or gives a View whose seat and turn are in
// range — and never panics.
func FuzzStateView(f *testing.F) {
	f.Add([]byte(seedState))
	f.Add([]byte(`{"phase":"playing","turn":1,"beacons":[],"players":[],"you":{"seat":0}}`))
	f.Add([]byte(`{"lastTurn":{"turn":9}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var st State
		if json.Unmarshal(data, &st) != nil {
			return
		}
		var v kindling.View
		if st.View(&v) != nil {
			return
		}
		if v.You < 0 || v.You >= v.Seats || v.Seats < kindling.MinSeats || v.Seats > kindling.MaxSeats || v.Turn < 1 || v.Turn > kindling.Turns {
			t.Fatalf("accepted view with seat %d of %d on turn %d", v.You, v.Seats, v.Turn)
		}
	})
}

// FuzzBidBody: whatever body reaches POST /bids, the server answers 200,
// 400 or 409 with the right shape, never a 5xx, and a 200 means a legal
// move was recorded.
func FuzzBidBody(f *testing.F) {
	f.Add([]byte(`{"bids":[0,1,3,1,0],"turn":1}`))
	f.Add([]byte(`{"bids":[5,0,0,0,0]}`))
	f.Add([]byte(`{"bids":[1e400,0,0,0,0]}`))
	f.Add([]byte(`{"bids":[3.0,0,0,0,0],"turn":1.0}`))
	f.Add([]byte(`{"bids":null}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, body []byte) {
		srv, _ := NewServer(ServerConfig{HouseBot: testHouse})
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/matches", strings.NewReader(`{"name":"f","seats":3,"bots":1}`)))
		var s Seated
		if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
			t.Fatal(err)
		}
		rec = httptest.NewRecorder()
		srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/matches/"+s.Code+"/join", strings.NewReader(`{"name":"g"}`)))
		rec = httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/api/matches/"+s.Code+"/bids", strings.NewReader(string(body)))
		req.Header.Set("Authorization", "Bearer "+s.Token)
		srv.ServeHTTP(rec, req)
		switch rec.Code {
		case 200:
			var st State
			if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil || st.You == nil || st.You.Bids == nil {
				t.Fatalf("200 without the recorded move: %s", rec.Body)
			}
			sum := 0
			for _, b := range *st.You.Bids {
				if b < 0 {
					t.Fatalf("accepted a negative bid %v", *st.You.Bids)
				}
				sum += b
			}
			if sum > kindling.StartSparks {
				t.Fatalf("accepted %v over the %d sparks", *st.You.Bids, kindling.StartSparks)
			}
		case 400, 409, 413:
			var e map[string]string
			if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e["error"] == "" || e["hint"] == "" {
				t.Fatalf("%d with body %s", rec.Code, rec.Body)
			}
		default:
			t.Fatalf("status %d for body %q: %s", rec.Code, body, rec.Body)
		}
	})
}

// PlayMatch as the host of a 3-seat lobby nobody joins: after StartAfter
// the host starts, house bots fill the seats, and the standings print.
func TestPlayMatchStartsALobbyAndPrintsStandings(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	c, _ := NewClient(ts.URL)
	var code string
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	final, err := PlayMatch(ctx, PlayOptions{
		Client: c, Name: "solo", Create: CreateRequest{Seats: 3},
		NewBidder:  func(string, int) (kindling.Bidder, error) { return greedy{}, nil },
		Poll:       2 * time.Millisecond,
		StartAfter: 20 * time.Millisecond,
		Seated:     func(s Seated) { code = s.Code },
	})
	if err != nil {
		t.Fatal(err)
	}
	if final.Code != code || final.Phase != PhaseFinished || len(final.Players) != 3 || final.Players[2].Kind != KindBot {
		t.Fatalf("final %+v", final)
	}
	var out strings.Builder
	if err := WriteStandings(&out, final); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{"match " + code, "solo (you)", "Bot 2", "win: seat"} {
		if !strings.Contains(text, want) {
			t.Fatalf("standings lack %q:\n%s", want, text)
		}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	rows := 0
	for _, l := range lines {
		if strings.HasPrefix(l, "│") {
			rows++
		}
	}
	if !strings.HasPrefix(lines[0], "match "+code+" (finished, turn 8 of 8)") || rows != 4 || !strings.Contains(lines[len(lines)-1], "win") {
		t.Fatalf("standings are not a title, a table of a header and 3 seats, and the winners:\n%s", text)
	}
}

// FuzzCreateAndJoinBodies: whatever body reaches POST /api/matches or
// POST /api/matches/{code}/join, the server answers a seat (200 or 201 with
// a code, a token and a state) or a 4xx with {"error","hint"}, never a 5xx,
// and a seated name is 1-32 printable characters.
func FuzzCreateAndJoinBodies(f *testing.F) {
	f.Add([]byte(`{"name":"MyAgent","seats":2,"bots":1,"turnSeconds":45,"botLevel":"normal"}`))
	f.Add([]byte(`{"name":"A","seats":4,"bots":0,"kind":"human"}`))
	f.Add([]byte(`{"name":"","seats":9}`))
	f.Add([]byte(`{"name":"x","bots":3,"seats":3}`))
	f.Add([]byte(`{"name":"\u0007"}`))
	f.Add([]byte(`{"seats":"2"}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, body []byte) {
		srv, _ := NewServer(ServerConfig{HouseBot: testHouse, CreateLimit: 1 << 20})
		lobby := httptest.NewRecorder()
		srv.ServeHTTP(lobby, httptest.NewRequest(http.MethodPost, "/api/matches", strings.NewReader(`{"name":"host","seats":4,"bots":0}`)))
		var host Seated
		if err := json.Unmarshal(lobby.Body.Bytes(), &host); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/api/matches", "/api/matches/" + host.Code + "/join"} {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, strings.NewReader(string(body))))
			switch {
			case rec.Code == 200 || rec.Code == 201:
				var s Seated
				if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil || s.Code == "" || s.Token == "" {
					t.Fatalf("%s: %d without a seat: %s", path, rec.Code, rec.Body)
				}
				for _, p := range s.State.Players {
					if n := len([]rune(p.Name)); p.Kind != "bot" && (n < 1 || n > 32) {
						t.Fatalf("%s: seated a name of %d characters: %q", path, n, p.Name)
					}
				}
			case rec.Code >= 400 && rec.Code < 500:
				var e map[string]string
				if json.Unmarshal(rec.Body.Bytes(), &e) != nil || e["error"] == "" || e["hint"] == "" {
					t.Fatalf("%s: %d with body %s", path, rec.Code, rec.Body)
				}
			default:
				t.Fatalf("%s: status %d for body %q: %s", path, rec.Code, body, rec.Body)
			}
		}
	})
}
