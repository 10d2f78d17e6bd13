package kindlingapi

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/engine/kindling"
	"crucible/protocol/httpguard/guardtest"
)

// Every endpoint answers another method with a JSON 405 naming the one it
// takes (and an Allow header), and any other path with a JSON 404: the
// bodies the server sent before its routes moved to ServeMux patterns.
func TestRoutesAnswerJSON404And405(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	tests := []struct {
		method, path string
		status       int
		allow        string
		err          string
	}{
		{"POST", "/api/rules", 405, "GET", "POST /api/rules is not allowed; use GET"},
		{"GET", "/api/matches", 405, "POST", "GET /api/matches is not allowed; use POST"},
		{"DELETE", "/api/matches/ABCDE", 405, "GET", "DELETE /api/matches/ABCDE is not allowed; use GET"},
		{"POST", "/api/matches/ABCDE/log", 405, "GET", "POST /api/matches/ABCDE/log is not allowed; use GET"},
		{"GET", "/api/matches/ABCDE/join", 405, "POST", "GET /api/matches/ABCDE/join is not allowed; use POST"},
		{"PUT", "/api/matches/ABCDE/start", 405, "POST", "PUT /api/matches/ABCDE/start is not allowed; use POST"},
		{"GET", "/api/matches/ABCDE/bids", 405, "POST", "GET /api/matches/ABCDE/bids is not allowed; use POST"},
		{"GET", "/api/nothing", 404, "", "no such endpoint: GET /api/nothing"},
		{"POST", "/", 404, "", "no such endpoint: POST /"},
		{"GET", "/index.html", 404, "", "no such endpoint: GET /index.html"},
		{"GET", "/ui/nothing.js", 404, "", "no such endpoint: GET /ui/nothing.js"},
		{"POST", "/api/matches/ABCDE/resign", 404, "", "no such endpoint: POST /api/matches/ABCDE/resign"},
		{"GET", "/api/matches/ABCDE/log/x", 404, "", "no such endpoint: GET /api/matches/ABCDE/log/x"},
		{"GET", "/api/matches/zzzzz", 404, "", `no match with code "ZZZZZ"`},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			req, err := http.NewRequest(tt.method, ts.URL+tt.path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			want := ErrorBody{Error: tt.err, Hint: pathHint}
			if tt.status == 404 && strings.HasPrefix(tt.err, "no match") {
				want.Hint = "match codes are 5 characters, as returned by create; finished matches are deleted after 7 days, lobbies not started within 1 hour (15 minutes if nobody joined)"
			}
			if resp.StatusCode != tt.status || string(body) != string(mustJSON(t, want))+"\n" {
				t.Fatalf("%d %s\nwant %d %s", resp.StatusCode, body, tt.status, mustJSON(t, want))
			}
			if got := resp.Header.Get("Allow"); got != tt.allow {
				t.Fatalf("Allow = %q, want %q", got, tt.allow)
			}
			if resp.Header.Get("Content-Type") != "application/json" || resp.Header.Get("Access-Control-Allow-Origin") != "*" {
				t.Fatalf("headers %v", resp.Header)
			}
		})
	}
}

// rawPost opens a TCP connection to addr and sends a POST to path that
// declares a body of declared bytes, of which it sends the first sent,
// then stalls.
func rawPost(t testing.TB, addr, path string, declared, sent int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: k\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, declared)
	go func() {
		c.SetWriteDeadline(time.Now().Add(time.Minute))
		c.Write(spaces[:sent])
	}()
	return c
}

// spaces is what rawPost sends as a body, shared by every connection.
var spaces = bytes.Repeat([]byte{' '}, MaxBody)

// awaitClose reads until the server closes c or limit passes; it reports
// what arrived and whether the server closed the connection.
func awaitClose(c net.Conn, limit time.Duration) ([]byte, bool) {
	c.SetReadDeadline(time.Now().Add(limit))
	got, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return got, false
	}
	return got, true
}

// A body that stalls is cut off: 408 once the body timeout has passed,
// and the connection closed. The wait allowed is many times the timeout:
// the test shows the mechanism, not its precision.
func TestStalledBodiesAreCutOff(t *testing.T) {
	_, ts := newServer(t, ServerConfig{BodyTimeout: 200 * time.Millisecond})
	seated := create(t, ts.URL, CreateRequest{Name: "host", Seats: 3})
	addr := ts.Listener.Addr().String()
	for _, path := range []string{"/api/matches", "/api/matches/" + seated.Code + "/join", "/api/rules"} {
		t.Run(path, func(t *testing.T) {
			c := rawPost(t, addr, path, 1000, 10)
			got, closed := awaitClose(c, 10*time.Second)
			if !closed {
				t.Fatalf("the connection was still open 10 s after its body stalled (got %q)", got)
			}
			if path != "/api/rules" && !bytes.HasPrefix(got, []byte("HTTP/1.1 408")) {
				t.Fatalf("reply %q, want 408", got)
			}
		})
	}
}

// A body over MaxBody is answered 413 and its connection closed, not
// drained for the next request.
func TestOversizedBodyClosesTheConnection(t *testing.T) {
	_, ts := newServer(t, ServerConfig{})
	c := rawPost(t, ts.Listener.Addr().String(), "/api/matches", MaxBody+10<<10, MaxBody)
	go c.Write(spaces[:10<<10])
	got, closed := awaitClose(c, 5*time.Second)
	if !closed || !bytes.HasPrefix(got, []byte("HTTP/1.1 413")) {
		t.Fatalf("reply %q (closed %v), want 413, then the connection closed", got, closed)
	}
}

// Headers that stall are cut off by Serve's header timeout.
func TestServeCutsOffStalledHeaders(t *testing.T) {
	srv, err := NewServer(ServerConfig{HouseBot: testHouse, HeaderTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", guardtest.Serve(t, srv.Serve))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /api/matches HTTP/1.1\r\nHost: k\r\nContent-Le")
	if got, closed := awaitClose(c, 10*time.Second); !closed {
		t.Fatalf("the connection was still open 10 s after its headers stalled (got %q)", got)
	}
}

// While MaxBodies bodies are being read, another waits for a slot and is
// answered 503 (with Retry-After) when its body timeout passes; a request
// without a body is served meanwhile. (The test takes the slots itself, so
// the outcome does not hang on which deadline fires first.)
func TestBodiesReadAtOnceAreCapped(t *testing.T) {
	srv, ts := newServer(t, ServerConfig{MaxBodies: 2, BodyTimeout: 100 * time.Millisecond})
	release := srv.takeSlots(2)
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/matches", strings.NewReader(`{"name":"a"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !bytes.Contains(body, []byte("its limit of 2 bodies")) {
		t.Fatalf("a create while both slots are taken: %d %s, want 503 naming the limit, with Retry-After", resp.StatusCode, body)
	}
	if st, _ := call(t, http.MethodGet, ts.URL+"/api/rules", "", nil); st != 200 {
		t.Fatalf("GET /api/rules while the slots are taken: %d", st)
	}
	release()
	create(t, ts.URL, CreateRequest{Name: "a"})
}

// Many connections that stall their bodies hold a bounded heap while they
// stall and none once they are cut off. What a connection costs is
// measured first, by the same connections sending no body bytes, so that
// the bound follows the build and the machine (guardtest.HeapBound).
func TestStalledBodiesHoldBoundedMemoryAndReleaseIt(t *testing.T) {
	const conns, slots = 200, 8
	srv, err := NewServer(ServerConfig{HouseBot: testHouse, MaxBodies: slots, BodyTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	inside := func() int {
		all, _ := srv.bodies.Slots.InUse()
		return all + srv.bodies.Slots.Waiting()
	}
	round := func(sent int) guardtest.Stalled {
		return guardtest.Stall(t, conns, func() net.Conn { return rawPost(t, ts.Listener.Addr().String(), "/api/matches", MaxBody, sent) }, inside, srv.cfg.BodyTimeout)
	}
	bare := round(0)
	got := round(MaxBody - 1)
	mib := func(b uint64) float64 { return float64(b) / (1 << 20) }
	t.Logf("a connection without its body: %d KiB (%d inside); %d connections: %.1f MiB held over %.1f MiB, %.1f MiB after they are cut",
		bare.PerConn()>>10, bare.Inside, conns, mib(got.Held-min(got.Held, got.Before)), mib(got.Before), mib(got.After))
	if limit := got.Before + guardtest.HeapBound(bare.PerConn(), conns, slots, 2*MaxBody); got.Held > limit {
		t.Fatalf("%d stalled connections hold %.1f MiB, over %.1f MiB (%d KiB a connection, %d slots x 2 x %d KiB)",
			conns, mib(got.Held-got.Before), mib(limit-got.Before), bare.PerConn()>>10, slots, MaxBody>>10)
	}
	if got.After > got.Before+(2<<20) {
		t.Fatalf("after the cut-off the heap is %.1f MiB over its %.1f MiB before", mib(got.After-got.Before), mib(got.Before))
	}
}

// A lobby that is not started within LobbyExpiry is gone: 404 at once,
// and the sweep deletes it, so that lobbies nobody starts do not hold
// MaxMatches for the whole retention. A started match is not affected.
func TestLobbiesThatNeverStartExpire(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1_800_000_000, 0)}
	srv, ts := newServer(t, ServerConfig{Now: clock.Now, MaxMatches: 3, LobbyExpiry: time.Hour, EmptyLobbyExpiry: time.Hour, CreateLimit: 100})
	old := create(t, ts.URL, CreateRequest{Name: "old", Seats: 3})
	played := create(t, ts.URL, CreateRequest{Name: "played", Seats: 2, Bots: 1, TurnSeconds: 120})
	clock.Advance(30 * time.Minute)
	young := create(t, ts.URL, CreateRequest{Name: "young", Seats: 2})
	if st, body := call(t, http.MethodPost, ts.URL+"/api/matches", "", mustJSON(t, CreateRequest{Name: "x"})); st != http.StatusTooManyRequests {
		t.Fatalf("a 4th match with 3 held: %d %s, want 429", st, body)
	}
	clock.Advance(30 * time.Minute) // old has waited exactly the expiry: still there
	srv.Sweep()
	join(t, ts.URL, old.Code, "guest")
	clock.Advance(time.Second)
	st, body := call(t, http.MethodPost, ts.URL+"/api/matches/"+old.Code+"/join", "", mustJSON(t, JoinRequest{Name: "late"}))
	if st != 404 || !strings.Contains(string(body), "lobbies not started within 1 hour") {
		t.Fatalf("joining a lobby 1 h 1 s old: %d %s, want 404 stating the expiry", st, body)
	}
	if ph := getState(t, ts.URL, played.Code, "").Phase; ph != PhaseFinished {
		t.Fatalf("the match started an hour ago is %s, want finished and kept", ph)
	}
	// The full table makes room: a create sweeps it before answering 429.
	create(t, ts.URL, CreateRequest{Name: "new", Seats: 2})
	clock.Advance(30 * time.Minute)
	srv.Sweep()
	if n := srv.Matches(); n != 2 { // played (finished, kept for the retention) and new
		t.Fatalf("%d matches held after young expired, want 2", n)
	}
	if st, _ := call(t, http.MethodGet, ts.URL+"/api/matches/"+young.Code, "", nil); st != 404 {
		t.Fatalf("a lobby 1 h 30 min old is still served (%d)", st)
	}
}

// Every internal failure answers a generic 500; what failed goes to the
// log only.
func TestInternalFailuresExposeNothing(t *testing.T) {
	const detail = "detail-only-the-log-may-see"
	for _, tt := range []struct {
		rule  string
		house HouseBotFunc
	}{
		{"a house bot that cannot be built", func(string, uint64, int) (kindling.Bidder, error) { return nil, errors.New(detail) }},
		{"a house bot factory that panics", func(string, uint64, int) (kindling.Bidder, error) { panic(detail) }},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			var logs syncBuffer
			_, ts := newServer(t, ServerConfig{HouseBot: tt.house, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			st, body := call(t, http.MethodPost, ts.URL+"/api/matches", "", []byte(`{"name":"a","bots":1}`))
			if st != 500 || string(body) != `{"error":"internal error","hint":"this is a server bug"}`+"\n" {
				t.Fatalf("reply %d %s, want 500 internal error", st, body)
			}
			if !strings.Contains(logs.String(), detail) {
				t.Fatalf("the log lacks the detail:\n%s", logs.String())
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
