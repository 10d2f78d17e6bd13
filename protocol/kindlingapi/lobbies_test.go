package kindlingapi

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"crucible/protocol/httpguard/guardtest"
)

// createFrom posts a create from the loopback address ip and returns the
// status, the seat (on 200) and the body.
func createFrom(t *testing.T, ip, base string, req CreateRequest) (int, Seated, []byte) {
	t.Helper()
	resp, err := guardtest.Client(ip).Post(base+"/api/matches", "application/json", bytes.NewReader(mustJSON(t, req)))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	var s Seated
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(body, &s); err != nil {
			t.Fatal(err)
		}
	}
	return resp.StatusCode, s, body
}

// Many addresses that fill the match table with lobbies nobody joins (the
// report: 210 addresses made 2,000 lobbies in 1.5 s, and new clients got
// 429 for an hour) do not lock others out: an address holds at most its
// share of lobbies, and a create into a full table deletes the oldest
// unjoined lobby of the address holding most. A lobby someone joined, and
// a match in play, are never deleted to make room. Every client here has
// its own source address.
func TestLobbiesOfSomeAddressesDoNotCrowdOutOthers(t *testing.T) {
	const max, flooders = 40, 12
	srv, ts := newServer(t, ServerConfig{MaxMatches: max, CreateLimit: 1000})
	flood := func(i int) string { return guardtest.Loopback(i) }
	var first Seated
	_, playing, _ := createFrom(t, flood(0), ts.URL, CreateRequest{Name: "playing", Seats: 2, Bots: 1})
	refused := 0
	for i := range flooders {
		for n := 0; ; n++ {
			st, s, body := createFrom(t, flood(i), ts.URL, CreateRequest{Name: "flood", Seats: 4})
			if st != http.StatusOK {
				if st != http.StatusTooManyRequests {
					t.Fatalf("create %d of %s: %d %s", n, flood(i), st, body)
				}
				if want := flood(i) + " already holds 10 lobbies waiting to start, its limit"; i == 0 && !strings.Contains(string(body), want) {
					t.Fatalf("the first address past its share: %d %s, want 429 saying %q", st, body, want)
				}
				refused++
				break
			}
			if i == 0 && n == 0 {
				first = s
				join(t, ts.URL, s.Code, "guest") // someone waits in it
			}
		}
	}
	if refused != flooders || srv.Matches() != max {
		t.Fatalf("%d addresses flooding: %d refused, %d matches held; want each refused once its share is held, the table full at %d", flooders, refused, srv.Matches(), max)
	}
	for i := range 5 {
		if st, _, body := createFrom(t, guardtest.Loopback(100+i), ts.URL, CreateRequest{Name: "newcomer", Seats: 2}); st != http.StatusOK {
			t.Fatalf("newcomer %d into a table full of others' lobbies: %d %s, want 200", i, st, body)
		}
	}
	if srv.Matches() != max {
		t.Fatalf("%d matches held, want the cap %d", srv.Matches(), max)
	}
	for _, s := range []Seated{first, playing} {
		if st, _ := call(t, http.MethodGet, ts.URL+"/api/matches/"+s.Code, "", nil); st != 200 {
			t.Fatalf("match %s (joined, or in play) was deleted to make room (%d)", s.Code, st)
		}
	}
}

// A lobby nobody has joined is deleted after EmptyLobbyExpiry (15 minutes
// by default), one somebody joined only after LobbyExpiry (1 hour).
func TestEmptyLobbiesExpireSooner(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	srv, ts := newServer(t, ServerConfig{Now: clock.Now})
	empty := create(t, ts.URL, CreateRequest{Name: "alone", Seats: 3})
	waited := create(t, ts.URL, CreateRequest{Name: "host", Seats: 3})
	join(t, ts.URL, waited.Code, "guest")
	clock.Advance(DefaultEmptyLobbyExpiry + time.Second)
	st, body := call(t, http.MethodGet, ts.URL+"/api/matches/"+empty.Code, "", nil)
	if st != 404 || !strings.Contains(string(body), "lobbies not started within 1 hour (15 minutes if nobody joined)") {
		t.Fatalf("a lobby nobody joined, 15 min 1 s old: %d %s, want 404 stating both expiries", st, body)
	}
	if ph := getState(t, ts.URL, waited.Code, "").Phase; ph != PhaseLobby {
		t.Fatalf("the joined lobby is %s after 15 min, want still a lobby", ph)
	}
	clock.Advance(DefaultLobbyExpiry - DefaultEmptyLobbyExpiry)
	srv.Sweep()
	if n := srv.Matches(); n != 0 {
		t.Fatalf("%d matches held after 1 h 1 s, want the joined lobby expired too", n)
	}
}

// playUrl is the browser page of the match (the UI at /, the code after
// #, which the page fills in), not the JSON API path.
func TestPlayURLIsTheBrowserPage(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	s := create(t, ts.URL, CreateRequest{Name: "a", Seats: 2})
	if want := ts.URL + "/#" + s.Code; s.PlayURL != want {
		t.Fatalf("playUrl %q, want %q", s.PlayURL, want)
	}
	if j := join(t, ts.URL, s.Code, "b"); j.PlayURL != s.PlayURL {
		t.Fatalf("join's playUrl %q, want %q", j.PlayURL, s.PlayURL)
	}
	resp, err := http.Get(s.PlayURL)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !bytes.Contains(page, []byte("app.js")) {
		t.Fatalf("GET playUrl: %d %s, want the HTML page", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	_, based := newServer(t, ServerConfig{BaseURL: "https://kindling.example/"})
	if got := create(t, based.URL, CreateRequest{Name: "a"}).PlayURL; !strings.HasPrefix(got, "https://kindling.example/#") {
		t.Fatalf("playUrl with a base URL: %q", got)
	}
}
