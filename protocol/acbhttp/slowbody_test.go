package acbhttp

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"crucible/protocol/httpguard/guardtest"
)

// rawTurn opens a TCP connection to addr and sends a POST /turn whose
// headers pass the checks made before the body (all five present, the
// timestamp now) and which declares a body of declared bytes, of which it
// sends the first send bytes (in the background: a server that does not
// read fills the socket buffers), then stalls.
func rawTurn(t testing.TB, addr string, declared, send int) net.Conn {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if _, err := c.Write(stalledTurnHeaders(declared)); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.SetWriteDeadline(time.Now().Add(time.Minute))
		c.Write(spaces[:send]) // fails once the server hangs up
	}()
	return c
}

// stalledTurnHeaders is the head of a POST /turn that passes every check
// made before the body (all five headers present, the timestamp now, a
// signature of 64 hex characters, though not the right one) and declares
// a body of declared bytes.
func stalledTurnHeaders(declared int) []byte {
	var h bytes.Buffer
	fmt.Fprintf(&h, "POST /turn HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", declared)
	fmt.Fprintf(&h, "%s: m\r\n%s: 1\r\n%s: %d\r\n%s: b\r\n%s: %s\r\n\r\n",
		HeaderMatchID, HeaderTurn, HeaderTimestamp, time.Now().Unix(), HeaderBotID, HeaderSignature, strings.Repeat("0", 64))
	return h.Bytes()
}

// spaces is what rawTurn sends as a body: one buffer shared by every
// connection, so that the clients' memory does not hide the server's.
var spaces = bytes.Repeat([]byte{' '}, 4<<20)

// awaitClose reads what the server sends on c until it closes the
// connection, giving up after limit. It returns the bytes received and
// whether the server closed the connection.
func awaitClose(c net.Conn, limit time.Duration) ([]byte, bool) {
	c.SetReadDeadline(time.Now().Add(limit))
	got, err := io.ReadAll(c)
	if ne, ok := err.(net.Error); ok && ne.Timeout() {
		return got, false
	}
	return got, true
}

// A body that stalls is cut off: the server answers 400 once the body
// timeout has passed and closes the connection. The limit of the wait is
// many times the timeout: the test shows the mechanism, not its precision.
func TestServerCutsOffAStalledBody(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory, BodyTimeout: 200 * time.Millisecond})
	addr := ts.Listener.Addr().String()
	for _, tt := range []struct {
		rule           string
		declared, sent int
	}{
		{"a body that stops after its first bytes", 4<<20 - 1, 64 << 10},
		{"a small body that never comes", 1000, 0},
		{"a body one byte short", 200, 199},
	} {
		t.Run(tt.rule, func(t *testing.T) {
			c := rawTurn(t, addr, tt.declared, tt.sent)
			got, closed := awaitClose(c, 10*time.Second)
			if !closed {
				t.Fatalf("the connection was still open 10 s after the body stalled (got %q)", got)
			}
			status, _, _ := bytes.Cut(got, []byte("\r\n"))
			if string(status) != "HTTP/1.1 400 Bad Request" || !bytes.Contains(got, []byte("did not arrive within 200ms")) {
				t.Fatalf("reply %q, want 400 naming the body timeout", got)
			}
		})
	}
	if created, _ := rec.snapshot(); created != 0 {
		t.Fatalf("a stalled body reached the strategy")
	}
}

// A body over MaxBody is refused 400 and its connection closed, not
// drained for the next request.
func TestServerClosesTheConnectionOfAnOversizedBody(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory, MaxBody: 64 << 10})
	c := rawTurn(t, ts.Listener.Addr().String(), 74<<10, 74<<10)
	got, closed := awaitClose(c, 5*time.Second)
	if !closed || !bytes.HasPrefix(got, []byte("HTTP/1.1 400")) || !bytes.Contains(got, []byte("body is over 65536 bytes")) {
		t.Fatalf("reply %q (closed %v), want 400 naming the limit, then the connection closed", got, closed)
	}
}

// Headers that stall are cut off too (Serve's header timeout).
func TestServeCutsOffStalledHeaders(t *testing.T) {
	rec := &recorder{}
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: rec.factory, HeaderTimeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", guardtest.Serve(t, srv.Serve))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "POST /turn HTTP/1.1\r\nHost: bot\r\nX-ACB-Match")
	if got, closed := awaitClose(c, 10*time.Second); !closed {
		t.Fatalf("the connection was still open 10 s after its headers stalled (got %q)", got)
	}
}

// While MaxBodies bodies are being read, another waits for a slot and is
// refused 400 when its body timeout passes; once a slot frees up, bodies
// are read again. (The slots are taken by the test itself, so the outcome
// does not hang on which deadline fires first; the memory test below shows
// stalled connections taking them.)
func TestServerCapsTheBodiesReadAtOnce(t *testing.T) {
	rec := &recorder{}
	srv, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory, MaxBodies: 2, BodyTimeout: 100 * time.Millisecond})
	release := srv.takeSlots(2)
	v := sampleView("capped", 0, 3)
	resp, err := http.DefaultClient.Do(signedRequest(t, ts.URL, testSecret, v.MatchID, "0", time.Now(), mustJSON(t, v)))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !bytes.Contains(msg, []byte("its limit of 2 bodies")) {
		t.Fatalf("a turn while both reading slots are taken: %d %s, want 400 naming the limit", resp.StatusCode, msg)
	}
	if created, _ := rec.snapshot(); created != 0 {
		t.Fatal("a body that was never read reached the strategy")
	}
	release()
	if moves := postTurn(t, ts.URL, v); len(moves) != 3 {
		t.Fatalf("with a slot free: %d moves, want 3", len(moves))
	}
}

// stalledBodies opens conns connections to a server of cfg, each
// declaring a body of 4 MiB - 1 bytes and sending the first sent of them,
// then stalling, and measures the heap they hold (guardtest.Stall).
func stalledBodies(t testing.TB, cfg ServerConfig, conns, sent int) guardtest.Stalled {
	t.Helper()
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	inside := func() int {
		all, _ := srv.bodies.Slots.InUse()
		return all + srv.bodies.Slots.Waiting()
	}
	return guardtest.Stall(t, conns, func() net.Conn { return rawTurn(t, ts.Listener.Addr().String(), 4<<20-1, sent) }, inside, cfg.BodyTimeout)
}

// Many stalled bodies hold at most MaxBodies bodies' worth of memory while
// they stall, and none once they are cut off. A body being read holds at
// most twice what has arrived (its buffer doubles; three times while it
// is copied into the next); a waiting one holds only its connection. What
// a connection costs is measured first, by the same connections sending
// no body bytes, so that the bound follows the build (the race detector's
// larger goroutines) and the machine rather than a figure read off an idle
// one.
func TestStalledBodiesHoldBoundedMemoryAndReleaseIt(t *testing.T) {
	const conns, sent, slots = 48, 1 << 20, 4
	rec := &recorder{}
	cfg := ServerConfig{Secret: testSecret, New: rec.factory, MaxBodies: slots, BodyTimeout: 3 * time.Second}
	bare := stalledBodies(t, cfg, conns, 0)
	got := stalledBodies(t, cfg, conns, sent)
	mib := func(b uint64) float64 { return float64(b) / (1 << 20) }
	t.Logf("a connection without its body: %d KiB (%d inside); %d connections with %d KiB sent each: %.1f MiB held over %.1f MiB, %.1f MiB after they are cut",
		bare.PerConn()>>10, bare.Inside, conns, sent>>10, mib(got.Held-min(got.Held, got.Before)), mib(got.Before), mib(got.After))
	if limit := got.Before + guardtest.HeapBound(bare.PerConn(), conns, slots, 3*sent); got.Held > limit {
		t.Fatalf("%d stalled connections hold %.1f MiB of heap, over %.1f MiB (%d KiB a connection, %d slots x 3 x %d KiB sent)",
			conns, mib(got.Held-got.Before), mib(limit-got.Before), bare.PerConn()>>10, slots, sent>>10)
	}
	if got.After > got.Before+(4<<20) {
		t.Fatalf("after the cut-off the heap is %.1f MiB, %.1f MiB over its %.1f MiB before", mib(got.After), mib(got.After-got.Before), mib(got.Before))
	}
}

// BenchmarkStalledBodies is the attack of the report: 400 connections that
// each declare a body of 4 MiB - 1 bytes, send all of it but the last
// byte, and stall, against a bot server at its defaults (but for a 2 s
// body timeout, to be quick). It reports the live heap while they stall
// and after they are cut off, and how long the cut-off took.
//
//	go test -run '^$' -bench StalledBodies -benchtime 1x ./protocol/acbhttp
func BenchmarkStalledBodies(b *testing.B) {
	rec := &recorder{}
	for b.Loop() {
		got := stalledBodies(b, ServerConfig{Secret: testSecret, New: rec.factory, BodyTimeout: 2 * time.Second}, 400, 4<<20-2)
		b.ReportMetric(float64(got.Held-min(got.Held, got.Before))/(1<<20), "held_MiB")
		b.ReportMetric(float64(got.After-min(got.After, got.Before))/(1<<20), "after_MiB")
		b.ReportMetric(got.Cut.Seconds(), "cut_s")
	}
}
