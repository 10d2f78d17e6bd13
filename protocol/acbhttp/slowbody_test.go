package acbhttp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
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
	var h bytes.Buffer
	fmt.Fprintf(&h, "POST /turn HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\nContent-Length: %d\r\n", declared)
	fmt.Fprintf(&h, "%s: m\r\n%s: 1\r\n%s: %d\r\n%s: b\r\n%s: %s\r\n\r\n",
		HeaderMatchID, HeaderTurn, HeaderTimestamp, time.Now().Unix(), HeaderBotID, HeaderSignature, strings.Repeat("0", 64))
	if _, err := c.Write(h.Bytes()); err != nil {
		t.Fatal(err)
	}
	go func() {
		c.SetWriteDeadline(time.Now().Add(time.Minute))
		c.Write(spaces[:send]) // fails once the server hangs up
	}()
	return c
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, ln) }()
	defer func() { cancel(); <-done }()
	c, err := net.Dial("tcp", ln.Addr().String())
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

// stalledBodies opens conns connections to srv (its defaults but for
// MaxBodies and BodyTimeout), each declaring a body of 4 MiB - 1 bytes and
// sending the first sent of them, then stalling. It returns the live heap
// (after a GC) before, once every connection has sent what it sends and
// after the server has cut every one off, and how long the cut-off took.
func stalledBodies(t testing.TB, cfg ServerConfig, conns, sent int) (before, held, after uint64, cut time.Duration) {
	t.Helper()
	srv, err := NewServer(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	liveHeap := func() uint64 {
		runtime.GC()
		runtime.GC() // the second empties sync.Pool's victim cache (the server's pooled buffers)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	before = liveHeap()
	start := time.Now()
	cs := make([]net.Conn, conns)
	for i := range cs {
		cs[i] = rawTurn(t, ts.Listener.Addr().String(), 4<<20-1, sent)
	}
	defer func() { // before ts.Close, which waits for the handlers
		for _, c := range cs {
			c.Close()
		}
	}()
	time.Sleep(cfg.BodyTimeout / 2)
	held = liveHeap()
	var wg sync.WaitGroup
	open := make(chan int, conns)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, closed := awaitClose(c, cfg.BodyTimeout+20*time.Second); !closed {
				open <- i
			}
		}()
	}
	wg.Wait()
	cut = time.Since(start)
	close(open)
	if n := len(open); n > 0 {
		t.Fatalf("%d of %d stalled connections were still open %v after they stalled", n, conns, cut)
	}
	after = liveHeap()
	return before, held, after, cut
}

// Many stalled bodies hold at most MaxBodies bodies' worth of memory while
// they stall, and none once they are cut off.
func TestStalledBodiesHoldBoundedMemoryAndReleaseIt(t *testing.T) {
	const conns, sent, slots = 48, 1 << 20, 4
	rec := &recorder{}
	before, held, after, _ := stalledBodies(t, ServerConfig{Secret: testSecret, New: rec.factory, MaxBodies: slots, BodyTimeout: 500 * time.Millisecond}, conns, sent)
	mib := func(b uint64) float64 { return float64(b) / (1 << 20) }
	t.Logf("live heap: %.1f MiB before, %.1f MiB while %d connections stall, %.1f MiB after they are cut", mib(before), mib(held), conns, mib(after))
	// A body being read holds at most twice what has arrived (its buffer
	// doubles); a waiting one holds only its connection's buffers.
	if limit := before + slots*2*sent + conns*perConnSlack; held > limit {
		t.Fatalf("%d stalled connections hold %.1f MiB of heap, over %.1f MiB (%d slots x 2 x %d KiB sent, plus %d KiB a connection)",
			conns, mib(held-before), mib(limit-before), slots, sent>>10, perConnSlack>>10)
	}
	if after > before+(4<<20) {
		t.Fatalf("after the cut-off the heap is %.1f MiB, %.1f MiB over its %.1f MiB before", mib(after), mib(after-before), mib(before))
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
		before, held, after, cut := stalledBodies(b, ServerConfig{Secret: testSecret, New: rec.factory, BodyTimeout: 2 * time.Second}, 400, 4<<20-2)
		b.ReportMetric(float64(held-min(held, before))/(1<<20), "held_MiB")
		b.ReportMetric(float64(after-min(after, before))/(1<<20), "after_MiB")
		b.ReportMetric(cut.Seconds(), "cut_s")
	}
}
