package kindlingapi

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// realHouse returns the registry of the real Kindling strategies and the
// house bots built from it.
func realHouse(t *testing.T) (*strategies.Registry, HouseBotFunc) {
	t.Helper()
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		t.Fatal(err)
	}
	house, err := HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	return reg, house
}

// A full 4-seat match on the server: two agent loops (one creates, one
// joins) and two house bots. The served log must replay exactly through
// engine/kindling's Resolve and the final state must agree with it.
func TestFourSeatMatchWithTwoAgentsAndTwoHouseBots(t *testing.T) {
	reg, house := realHouse(t)
	_, ts := newServer(t, ServerConfig{HouseBot: house})
	c, err := NewClient(ts.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	host, err := c.Create(ctx, CreateRequest{Name: "host-agent", Seats: 4, Bots: 2, TurnSeconds: 10, BotLevel: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	if host.State.Phase != PhaseLobby || len(host.State.Players) != 3 {
		t.Fatalf("after create: phase %s with %d players, want a lobby with host and 2 bots", host.State.Phase, len(host.State.Players))
	}
	guest, err := c.Join(ctx, host.Code, JoinRequest{Name: "guest-agent"})
	if err != nil {
		t.Fatal(err)
	}
	if guest.Seat != 3 || guest.State.Phase != PhasePlaying {
		t.Fatalf("join: seat %d phase %s, want seat 3 and the match started by the last seat", guest.Seat, guest.State.Phase)
	}
	var wg sync.WaitGroup
	finals := make([]State, 2)
	errs := make([]error, 2)
	for i, s := range []Seated{host, guest} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			strat, err := reg.Lookup("kindling", []string{"greedy", "sniper"}[i])
			if err != nil {
				errs[i] = err
				return
			}
			b, err := BidderFactory(strat, strat.Schema.Defaults())(s.Code, s.Seat)
			if err != nil {
				errs[i] = err
				return
			}
			a := &Agent{Client: c, Code: s.Code, Token: s.Token, Bidder: b, Poll: 5 * time.Millisecond}
			finals[i], errs[i] = a.Play(ctx)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("agent %d: %v", i, err)
		}
	}
	lg, err := c.Log(ctx, host.Code)
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Turns) != kindling.Turns || lg.Final == nil {
		t.Fatalf("log has %d turns and final %v, want %d and a final", len(lg.Turns), lg.Final, kindling.Turns)
	}
	kinds := []string{lg.Players[0].Kind, lg.Players[1].Kind, lg.Players[2].Kind, lg.Players[3].Kind}
	if !reflect.DeepEqual(kinds, []string{KindAgent, KindBot, KindBot, KindAgent}) {
		t.Fatalf("kinds %v", kinds)
	}
	for _, rec := range lg.Turns {
		for p := 0; p < 4; p++ {
			if rec.Missed[p] {
				t.Fatalf("turn %d: seat %d missed although every seat plays at once", rec.Turn, p)
			}
		}
	}
	st := replayLog(t, lg)
	want := kindling.FinalOf(&st)
	if !reflect.DeepEqual(*lg.Final, want) {
		t.Fatalf("final %+v, the rules give %+v", *lg.Final, want)
	}
	for i, f := range finals {
		if f.Phase != PhaseFinished || !reflect.DeepEqual(f.Winners, want.Winners) || !reflect.DeepEqual(f.Standings, want.Standings) {
			t.Fatalf("agent %d's final state: phase %s winners %v standings %v, want %v %v", i, f.Phase, f.Winners, f.Standings, want.Winners, want.Standings)
		}
	}
}

// The spec's worked case, played over the API by two seats.
func TestWorkedCaseOverTheAPI(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	a := create(t, ts.URL, CreateRequest{Name: "A", Seats: 2})
	b := join(t, ts.URL, a.Code, "B")
	if st, body := bid(t, ts.URL, a.Code, a.Token, kindling.Bid{0, 0, 5, 0, 0}, 1); st != 200 {
		t.Fatalf("A's bid: %d %s", st, body)
	}
	mid := getState(t, ts.URL, a.Code, "")
	if !mid.Players[0].LockedIn || mid.Players[1].LockedIn || mid.Turn != 1 {
		t.Fatalf("after A's bid: %+v", mid.Players)
	}
	if st, body := bid(t, ts.URL, a.Code, b.Token, kindling.Bid{0, 1, 4, 0, 0}, 1); st != 200 {
		t.Fatalf("B's bid: %d %s", st, body)
	}
	s := getState(t, ts.URL, a.Code, a.Token)
	l := s.LastTurn
	if l == nil || s.Turn != 2 {
		t.Fatalf("turn 1 did not resolve when both seats locked in: %+v", s)
	}
	if l.Winners != [5]int{-1, 1, 0, -1, -1} || l.Points[0] != 4 || l.Points[1] != 2 {
		t.Fatalf("winners %v points %v, want Crown to A (4) and Cairn to B (2)", l.Winners, l.Points[:2])
	}
	if s.Players[0].Embers != [5]int{} || s.Players[1].Embers != [5]int{0, 0, 2, 0, 0} {
		t.Fatalf("embers %v %v", s.Players[0].Embers, s.Players[1].Embers)
	}
	var values [5]int
	for i, bc := range s.Beacons {
		values[i] = bc.Value
	}
	if values != [5]int{2, 2, 4, 4, 3} || s.Players[0].Sparks != 5 || s.Players[1].Sparks != 5 {
		t.Fatalf("values %v sparks %d %d, want [2 2 4 4 3] and 5 5", values, s.Players[0].Sparks, s.Players[1].Sparks)
	}
	if s.You == nil || s.You.Seat != 0 || !s.You.CanMove || s.You.Bids != nil {
		t.Fatalf("you: %+v", s.You)
	}
}

// Deadlines: a seat that does not move by turnSeconds bids zeros and is
// listed in lastTurn.missed; turns nobody watches resolve at their own
// deadlines. The clock is fake, so nothing sleeps.
func TestDeadlineExpiryMarksMissed(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	_, ts := newServer(t, ServerConfig{Now: clock.Now})
	a := create(t, ts.URL, CreateRequest{Name: "A", Seats: 2, Bots: 1, TurnSeconds: 10})
	s := getState(t, ts.URL, a.Code, a.Token)
	if s.Phase != PhasePlaying || s.SecondsLeft != 10 || !s.Players[1].LockedIn {
		t.Fatalf("start: phase %s secondsLeft %d bot locked %v", s.Phase, s.SecondsLeft, s.Players[1].LockedIn)
	}
	clock.Advance(3200 * time.Millisecond)
	if s2 := getState(t, ts.URL, a.Code, a.Token); s2.SecondsLeft != 7 || s2.Version != s.Version {
		t.Fatalf("3.2 s in: secondsLeft %d (want 7, rounded up) version %d (want unchanged %d)", s2.SecondsLeft, s2.Version, s.Version)
	}
	clock.Advance(6800 * time.Millisecond)
	s3 := getState(t, ts.URL, a.Code, a.Token)
	if s3.Turn != 2 || s3.LastTurn == nil || !s3.LastTurn.Missed[0] || s3.LastTurn.Missed[1] {
		t.Fatalf("at the deadline: turn %d lastTurn %+v, want turn 2 with seat 0 missed", s3.Turn, s3.LastTurn)
	}
	if s3.LastTurn.Bids[0] != (kindling.Bid{}) || s3.Version <= s.Version || s3.SecondsLeft != 10 {
		t.Fatalf("missed seat bid %v, version %d -> %d, secondsLeft %d", s3.LastTurn.Bids[0], s.Version, s3.Version, s3.SecondsLeft)
	}
	raw, _ := json.Marshal(s3.LastTurn)
	if !strings.Contains(string(raw), `"missed":[0]`) {
		t.Fatalf("lastTurn JSON %s does not list seat 0 in missed", raw)
	}
	// Sparks carried over: 5 unspent + 5 income.
	if s3.You.Sparks != 10 {
		t.Fatalf("sparks after a missed turn = %d, want 10", s3.You.Sparks)
	}
	clock.Advance(10 * time.Minute)
	end := getState(t, ts.URL, a.Code, "")
	if end.Phase != PhaseFinished || end.Turn != kindling.Turns || len(end.Winners) == 0 {
		t.Fatalf("after 10 idle minutes: phase %s turn %d winners %v", end.Phase, end.Turn, end.Winners)
	}
	var lg kindling.Log
	st, body := call(t, http.MethodGet, ts.URL+"/api/matches/"+a.Code+"/log", "", nil)
	if st != 200 || json.Unmarshal(body, &lg) != nil {
		t.Fatalf("log: %d %s", st, body)
	}
	for _, rec := range lg.Turns {
		if !rec.Missed[0] {
			t.Fatalf("turn %d: the silent seat is not listed as missed", rec.Turn)
		}
	}
	replayLog(t, lg)
}

func TestVersionIncreasesOnEveryChange(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	a := create(t, ts.URL, CreateRequest{Name: "A", Seats: 3})
	v := []int64{a.State.Version}
	b := join(t, ts.URL, a.Code, "B")
	v = append(v, b.State.Version)
	same := getState(t, ts.URL, a.Code, "")
	if same.Version != b.State.Version {
		t.Fatalf("a read changed the version %d -> %d", b.State.Version, same.Version)
	}
	st, body := call(t, http.MethodPost, ts.URL+"/api/matches/"+a.Code+"/start", a.Token, []byte(`{}`))
	if st != 200 {
		t.Fatalf("start: %d %s", st, body)
	}
	v = append(v, getState(t, ts.URL, a.Code, "").Version)
	bid(t, ts.URL, a.Code, a.Token, kindling.Bid{1, 0, 0, 0, 0}, 1)
	v = append(v, getState(t, ts.URL, a.Code, "").Version)
	bid(t, ts.URL, a.Code, a.Token, kindling.Bid{2, 0, 0, 0, 0}, 1) // resend replaces the move
	v = append(v, getState(t, ts.URL, a.Code, "").Version)
	bid(t, ts.URL, a.Code, b.Token, kindling.Bid{0, 0, 0, 0, 1}, 1) // resolves
	s := getState(t, ts.URL, a.Code, "")
	v = append(v, s.Version)
	for i := 1; i < len(v); i++ {
		if v[i] <= v[i-1] {
			t.Fatalf("versions %v do not increase on every change", v)
		}
	}
	if s.LastTurn.Bids[0] != (kindling.Bid{2, 0, 0, 0, 0}) {
		t.Fatalf("the resent move did not replace the first: %v", s.LastTurn.Bids[0])
	}
}

func TestSpectatorsSeeNoSecretBids(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	a := create(t, ts.URL, CreateRequest{Name: "A", Seats: 3, Bots: 1})
	join(t, ts.URL, a.Code, "B")
	bid(t, ts.URL, a.Code, a.Token, kindling.Bid{0, 0, 3, 0, 0}, 1)
	st, body := call(t, http.MethodGet, ts.URL+"/api/matches/"+a.Code, "", nil)
	if st != 200 {
		t.Fatalf("spectator GET: %d", st)
	}
	var s map[string]json.RawMessage
	json.Unmarshal(body, &s)
	if string(s["you"]) != "null" || string(s["lastTurn"]) != "null" {
		t.Fatalf("spectator sees you=%s lastTurn=%s, want null for both", s["you"], s["lastTurn"])
	}
	if bytes.Contains(body, []byte(`"bids"`)) {
		t.Fatalf("spectator state shows bids: %s", body)
	}
	// The seat itself sees its own locked move.
	if you := getState(t, ts.URL, a.Code, a.Token).You; you.Bids == nil || *you.Bids != (kindling.Bid{0, 0, 3, 0, 0}) || you.CanMove {
		t.Fatalf("own view after moving: %+v", you)
	}
	// ?token= works like the header.
	if s := getState(t, ts.URL, a.Code+"?token="+a.Token, ""); s.You == nil || s.You.Seat != 0 {
		t.Fatalf("?token= did not identify the seat: %+v", s.You)
	}
}

func TestErrorsHaveTheSpecStatusAndShape(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	_, ts := newServer(t, ServerConfig{Now: clock.Now, CreateLimit: 1000})
	done := create(t, ts.URL, CreateRequest{Name: "D", Seats: 2, Bots: 1, TurnSeconds: 10})
	clock.Advance(time.Hour)
	getState(t, ts.URL, done.Code, "") // all turns expire: finished
	lobby := create(t, ts.URL, CreateRequest{Name: "Host", Seats: 3})
	guest := join(t, ts.URL, lobby.Code, "Guest")
	full := create(t, ts.URL, CreateRequest{Name: "F", Seats: 2, Bots: 1})
	u := ts.URL + "/api/matches/"
	tests := []struct {
		rule   string
		method string
		url    string
		token  string
		body   string
		status int
	}{
		{"create with malformed JSON is 400", "POST", ts.URL + "/api/matches", "", `{"name":`, 400},
		{"create with seats of the wrong type is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","seats":"2"}`, 400},
		{"create with 5 seats is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","seats":5}`, 400},
		{"create with 1 seat is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","seats":1}`, 400},
		{"create with bots = seats is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","seats":2,"bots":2}`, 400},
		{"create with negative bots is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","bots":-1}`, 400},
		{"create with turnSeconds 9 is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","turnSeconds":9}`, 400},
		{"create with turnSeconds 121 is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","turnSeconds":121}`, 400},
		{"create with turnSeconds 30.5 is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","turnSeconds":30.5}`, 400},
		{"create with botLevel expert is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","botLevel":"expert"}`, 400},
		{"create without a name is 400", "POST", ts.URL + "/api/matches", "", `{"seats":2}`, 400},
		{"create with a 33-character name is 400", "POST", ts.URL + "/api/matches", "", `{"name":"` + strings.Repeat("x", 33) + `"}`, 400},
		{"create with an unprintable name is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a\u0007b"}`, 400},
		{"create with kind robot is 400", "POST", ts.URL + "/api/matches", "", `{"name":"a","kind":"robot"}`, 400},
		{"create with a body over 64 KiB is 413", "POST", ts.URL + "/api/matches", "", `{"name":"` + strings.Repeat("x", 70000) + `"}`, 413},
		{"join an unknown code is 404", "POST", u + "ZZZZZ/join", "", `{"name":"x"}`, 404},
		{"join a full, started match is 409", "POST", u + full.Code + "/join", "", `{"name":"x"}`, 409},
		{"join without a name is 400", "POST", u + lobby.Code + "/join", "", `{}`, 400},
		{"start without a token is 401", "POST", u + lobby.Code + "/start", "", `{}`, 401},
		{"start with an unknown token is 401", "POST", u + lobby.Code + "/start", "not-a-token", `{}`, 401},
		{"start by a non-host is 403", "POST", u + lobby.Code + "/start", guest.Token, `{}`, 403},
		{"start of a started match is 409", "POST", u + full.Code + "/start", full.Token, `{}`, 409},
		{"state of an unknown code is 404", "GET", u + "ZZZZZ", "", ``, 404},
		{"state with an unknown token is 401", "GET", u + lobby.Code, "forged", ``, 401},
		{"log of an unknown code is 404", "GET", u + "ZZZZZ/log", "", ``, 404},
		{"bids without a token are 401", "POST", u + full.Code + "/bids", "", `{"bids":[1,0,0,0,0]}`, 401},
		{"bids with another match's token are 401", "POST", u + full.Code + "/bids", lobby.Token, `{"bids":[1,0,0,0,0]}`, 401},
		{"bids in a lobby are 409", "POST", u + lobby.Code + "/bids", lobby.Token, `{"bids":[1,0,0,0,0]}`, 409},
		{"bids after the finish are 409", "POST", u + done.Code + "/bids", done.Token, `{"bids":[1,0,0,0,0]}`, 409},
		{"bids for a stale turn are 409", "POST", u + full.Code + "/bids", full.Token, `{"bids":[1,0,0,0,0],"turn":0}`, 409},
		{"bids for a future turn are 409", "POST", u + full.Code + "/bids", full.Token, `{"bids":[1,0,0,0,0],"turn":2}`, 409},
		{"bids of 4 numbers are 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":[1,0,0,0]}`, 400},
		{"bids with a negative are 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":[-1,0,0,0,1]}`, 400},
		{"bids over the sparks are 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":[3,3,0,0,0]}`, 400},
		{"bids with a fraction are 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":[1.5,0,0,0,0]}`, 400},
		{"bids as strings are 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":["1",0,0,0,0]}`, 400},
		{"bids missing are 400", "POST", u + full.Code + "/bids", full.Token, `{"turn":1}`, 400},
		{"a turn that is not a number is 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":[1,0,0,0,0],"turn":"1"}`, 400},
		{"malformed bids body is 400", "POST", u + full.Code + "/bids", full.Token, `{"bids":[1,0,0,0,0]`, 400},
		{"an unknown endpoint is 404", "GET", ts.URL + "/api/nothing", "", ``, 404},
		{"GET on a POST endpoint is 405", "GET", u + full.Code + "/bids", "", ``, 405},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var body []byte
			if tt.body != "" {
				body = []byte(tt.body)
			}
			st, reply := call(t, tt.method, tt.url, tt.token, body)
			if st != tt.status {
				t.Fatalf("status %d (%s), want %d", st, reply, tt.status)
			}
			var e map[string]any
			if err := json.Unmarshal(reply, &e); err != nil {
				t.Fatalf("error body %q is not JSON", reply)
			}
			msg, _ := e["error"].(string)
			hint, _ := e["hint"].(string)
			if msg == "" || hint == "" || len(e) != 2 {
				t.Fatalf("error body %s is not {\"error\": ..., \"hint\": ...}", reply)
			}
		})
	}
	// A legal bid on the same match still works after all that.
	if st, body := bid(t, ts.URL, full.Code, full.Token, kindling.Bid{1, 1, 1, 1, 1}, 1); st != 200 {
		t.Fatalf("legal bid after the errors: %d %s", st, body)
	}
}

func TestCreatesAreLimitedPerAddress(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	_, ts := newServer(t, ServerConfig{Now: clock.Now, CreateLimit: 3, CreateWindow: time.Minute})
	if st, _ := call(t, http.MethodPost, ts.URL+"/api/matches", "", []byte(`{"name":"a","seats":9}`)); st != 400 {
		t.Fatalf("invalid create: %d", st)
	}
	for i := 0; i < 3; i++ {
		create(t, ts.URL, CreateRequest{Name: "a"})
	}
	st, body := call(t, http.MethodPost, ts.URL+"/api/matches", "", []byte(`{"name":"a"}`))
	if st != http.StatusTooManyRequests || !strings.Contains(string(body), `"hint"`) {
		t.Fatalf("4th create in a minute: %d %s, want 429 with a hint", st, body)
	}
	// The invalid create was not counted; once the window passes, creates work again.
	clock.Advance(time.Minute)
	create(t, ts.URL, CreateRequest{Name: "a"})
}

func TestFinishedMatchesAreDeletedAfterSevenDays(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	srv, ts := newServer(t, ServerConfig{Now: clock.Now})
	a := create(t, ts.URL, CreateRequest{Name: "A", Seats: 2, Bots: 1, TurnSeconds: 10})
	lobby := create(t, ts.URL, CreateRequest{Name: "L", Seats: 2})
	clock.Advance(80 * time.Second) // 8 turns of 10 s: finished at +80 s
	if getState(t, ts.URL, a.Code, "").Phase != PhaseFinished {
		t.Fatal("the match did not finish")
	}
	clock.Advance(7 * 24 * time.Hour)
	srv.Sweep()
	if st, _ := call(t, http.MethodGet, ts.URL+"/api/matches/"+a.Code, "", nil); st != 200 {
		t.Fatalf("a match finished exactly 7 days ago is gone (%d)", st)
	}
	if st, _ := call(t, http.MethodGet, ts.URL+"/api/matches/"+lobby.Code, "", nil); st != 404 {
		t.Fatalf("a lobby untouched for over 7 days is still served (%d)", st)
	}
	clock.Advance(time.Second)
	srv.Sweep()
	st, body := call(t, http.MethodGet, ts.URL+"/api/matches/"+a.Code, "", nil)
	if st != 404 {
		t.Fatalf("a match finished over 7 days ago is still served (%d)", st)
	}
	if !strings.Contains(string(body), "deleted after 7 days") {
		t.Fatalf("the 404 of an expired match does not state the retention: %s", body)
	}
	if srv.Matches() != 0 {
		t.Fatalf("%d matches held after the sweep", srv.Matches())
	}
}

func TestTokensAndCodes(t *testing.T) {
	_, ts := newServer(t, ServerConfig{CreateLimit: 1000, LobbiesPerAddr: 1000})
	seen := map[string]bool{}
	for i := 0; i < 50; i++ {
		s := create(t, ts.URL, CreateRequest{Name: "a"})
		if len(s.Token) < 32 || seen[s.Token] || seen[s.Code] {
			t.Fatalf("token %q (want at least 128 random bits, unique), code %q", s.Token, s.Code)
		}
		if len(s.Code) != 5 || strings.Trim(s.Code, codeAlphabet) != "" {
			t.Fatalf("code %q is not 5 characters of %s", s.Code, codeAlphabet)
		}
		seen[s.Token], seen[s.Code] = true, true
	}
}

func TestCORSAndRules(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	req, _ := http.NewRequest(http.MethodOptions, ts.URL+"/api/matches", nil)
	req.Header.Set("Origin", "https://example.org")
	req.Header.Set("Access-Control-Request-Method", "POST")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent || resp.Header.Get("Access-Control-Allow-Origin") != "*" ||
		!strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight: %d %v", resp.StatusCode, resp.Header)
	}
	st, body := call(t, http.MethodGet, ts.URL+"/api/rules", "", nil)
	var r Rules
	if st != 200 || json.Unmarshal(body, &r) != nil {
		t.Fatalf("rules: %d %s", st, body)
	}
	if r.Turns != 8 || r.StartSparks != 5 || r.Income != 5 || r.SparkCap != 12 || r.ValueCap != 9 ||
		r.Players.Min != 2 || r.Players.Max != 4 || r.TurnSeconds != (Range{10, 120, 45}) ||
		len(r.Beacons) != 5 || r.Beacons[2] != (RuleBeacon{2, "Crown", 4}) {
		t.Fatalf("rules %+v do not state the spec's constants", r)
	}
}

// The lobby's host can start early: open seats fill with house bots.
func TestHostStartFillsWithHouseBots(t *testing.T) {
	_, house := realHouse(t)
	_, ts := newServer(t, ServerConfig{HouseBot: house})
	a := create(t, ts.URL, CreateRequest{Name: "A", Seats: 4, BotLevel: "easy"})
	st, body := call(t, http.MethodPost, ts.URL+"/api/matches/"+a.Code+"/start", a.Token, nil)
	if st != 200 {
		t.Fatalf("start: %d %s", st, body)
	}
	s := getState(t, ts.URL, a.Code, a.Token)
	if s.Phase != PhasePlaying || len(s.Players) != 4 {
		t.Fatalf("after start: %s with %d players", s.Phase, len(s.Players))
	}
	for _, p := range s.Players[1:] {
		if p.Kind != KindBot || !p.LockedIn {
			t.Fatalf("filled seat %+v is not a locked-in house bot", p)
		}
	}
}
