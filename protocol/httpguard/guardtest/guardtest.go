// Package guardtest holds what the tests of the servers built on httpguard
// share: taking reading slots by hand, clients and connections from a
// chosen loopback address (Linux routes all of 127.0.0.0/8 to the loopback
// interface, so a test can be many clients at once), and the live heap.
package guardtest

import (
	"context"
	"net"
	"net/http"
	"runtime"
	"runtime/metrics"
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
