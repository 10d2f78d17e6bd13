// Package guardtest holds what the tests of the servers built on httpguard
// share: taking reading slots by hand, clients and connections from a
// chosen loopback address (Linux routes all of 127.0.0.0/8 to the loopback
// interface, so a test can be many clients at once), and the live heap.
package guardtest

import (
	"context"
	"io"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"crucible/protocol/httpguard"
)

// TakeSlots takes n reading slots of s (as proven requests, which may take
// any slot) and returns the function that gives them back.
func TakeSlots(s *httpguard.Slots, n int) (release func()) {
	var releases []func()
	for range n {
		r, err := s.Acquire(context.Background(), "guardtest", true, time.Now())
		if err != nil {
			panic("guardtest: the slots are already taken: " + err.Error())
		}
		releases = append(releases, r)
	}
	return func() {
		for _, r := range releases {
			r()
		}
	}
}

// Loopback returns the n-th loopback address other than 127.0.0.1 (n from
// 0): 127.0.1.0 + n, spread over the third and fourth bytes.
func Loopback(n int) string {
	n += 256 // start at 127.0.1.0
	return net.IPv4(127, 0, byte(n>>8), byte(n)).String()
}

// Dialer dials from ip (any port).
func Dialer(ip string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
}

// Client returns an HTTP client whose connections come from ip.
func Client(ip string) *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: Dialer(ip).DialContext, MaxIdleConnsPerHost: 16}}
}

// Dial opens a TCP connection to addr from ip, closed when t ends.
func Dial(t testing.TB, ip, addr string) net.Conn {
	t.Helper()
	c, err := Dialer(ip).Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// LiveHeap runs two collections (the second empties sync.Pool's victim
// cache) and returns the heap the last one found live: what is allocated
// after it does not count, so goroutines that keep running while the test
// measures do not blur the figure.
func LiveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Stalled is the live heap of one round of stalled connections: before
// they are opened, while they stall inside the server, and after the
// server has cut every one off; Inside is how many were inside the
// server's handler (waiting for a reading slot or reading) when Held was
// measured, Cut how long the round took.
type Stalled struct {
	Before, Held, After uint64
	Inside              int
	Cut                 time.Duration
}

// Stall runs one round: it opens conns connections with open, waits until
// inside reports them all inside the server's handler (or until half of
// bodyTimeout has passed, so that none is cut off yet), measures the heap,
// then waits until the server has closed every connection, failing the
// test if one is still open bodyTimeout + 20 s after it was opened.
func Stall(t testing.TB, conns int, open func() net.Conn, inside func() int, bodyTimeout time.Duration) Stalled {
	t.Helper()
	var s Stalled
	s.Before = LiveHeap()
	start := time.Now()
	cs := make([]net.Conn, conns)
	for i := range cs {
		cs[i] = open()
	}
	defer func() {
		for _, c := range cs {
			c.Close()
		}
	}()
	for time.Since(start) < bodyTimeout/2 && inside() < conns {
		time.Sleep(5 * time.Millisecond)
	}
	s.Inside = inside()
	s.Held = LiveHeap()
	limit := start.Add(bodyTimeout + 20*time.Second)
	stillOpen := 0
	var one [1]byte
	for _, c := range cs {
		c.SetReadDeadline(limit)
		for {
			_, err := c.Read(one[:])
			if err == nil {
				continue // the server's reply
			}
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				stillOpen++
			}
			break
		}
	}
	s.Cut = time.Since(start)
	if stillOpen > 0 {
		t.Fatalf("%d of %d stalled connections were still open %v after they stalled", stillOpen, conns, s.Cut)
	}
	s.After = LiveHeap()
	return s
}

// PerConn is what one connection of a round held: the heap held over the
// heap before, shared among the connections inside the server.
func (s Stalled) PerConn() uint64 {
	if s.Held <= s.Before || s.Inside == 0 {
		return 0
	}
	return (s.Held - s.Before) / uint64(s.Inside)
}

// HeapBound is the most a round of conns stalled connections may hold
// over the heap before it, given what one connection costs without a body
// (perConn, measured by a round whose connections send no body bytes, in
// the same build and on the same machine, so that the race detector's
// overhead and the load count in it) and what the server may buffer for
// each reading slot: perConn x 5/4 x conns + slots x perSlot + 1 MiB.
func HeapBound(perConn uint64, conns, slots int, perSlot uint64) uint64 {
	return perConn*5/4*uint64(conns) + uint64(slots)*perSlot + 1<<20
}

// Serve runs serve on a new listener of 127.0.0.1 until the test ends
// (then cancels its context and waits for it to return) and returns the
// listener's address; an error from serve fails the test.
func Serve(t testing.TB, serve func(context.Context, net.Listener) error) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	})
	return ln.Addr().String()
}

// Attack keeps perIP connections from each of ips open with open (which
// dials and sends what stalls), dialling again as soon as the server cuts
// one off, until the returned stop is called.
func Attack(ips []string, perIP int, open func(ip string) (net.Conn, error)) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, ip := range ips {
		for range perIP {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-done:
						return
					default:
					}
					c, err := open(ip)
					if err != nil {
						time.Sleep(10 * time.Millisecond)
						continue
					}
					go func() { <-done; c.Close() }()
					io.Copy(io.Discard, c) // until the server cuts it off
					c.Close()
				}
			}()
		}
	}
	return func() { close(done); wg.Wait() }
}

// AwaitStrangers waits (at most a minute, else it fails the test) until n
// slots of s are held by unproven requests: an attack is in force.
func AwaitStrangers(t testing.TB, s *httpguard.Slots, n int) {
	t.Helper()
	for limit := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		_, strangers := s.InUse()
		if strangers >= n {
			return
		}
		if time.Now().After(limit) {
			t.Fatalf("the attack holds %d reading slots after a minute, want %d", strangers, n)
		}
	}
}

// Loopbacks returns the first n addresses of Loopback.
func Loopbacks(n int) []string {
	ips := make([]string, n)
	for i := range ips {
		ips[i] = Loopback(i)
	}
	return ips
}
