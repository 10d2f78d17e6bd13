package pgtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
)

// shared is the one server of a test binary: found or started by the first
// DB call, stopped by Main. It is the package's only global state, and
// exists because a test binary's tests share one server.
var shared struct {
	once sync.Once
	srv  *Server
	err  error
}

// Shared returns the test binary's server, finding or starting it on the
// first call (Start with the default Options, logging to stderr).
func Shared() (*Server, error) {
	shared.once.Do(func() {
		shared.srv, shared.err = Start(context.Background(), Options{Log: os.Stderr})
	})
	return shared.srv, shared.err
}

// DB returns the URL of a new database for t on the shared server, dropped
// when t ends. A server that cannot be found or started fails t (it never
// skips).
func DB(t testing.TB) string {
	t.Helper()
	srv, err := Shared()
	if err != nil {
		t.Fatalf("pgtest: no PostgreSQL server: %v", err)
	}
	url, drop, err := srv.CreateDatabase(context.Background(), "crucible_test_"+t.Name())
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		if err := drop(); err != nil {
			t.Errorf("pgtest: %v", err)
		}
	})
	return url
}

// Main runs a test binary's tests and then stops the shared server if the
// binary started one. Use it from TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(pgtest.Main(m)) }
func Main(m *testing.M) int {
	code := m.Run()
	if shared.srv != nil {
		if err := shared.srv.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "pgtest: stopping the server:", err)
			if code == 0 {
				code = 1
			}
		}
	}
	return code
}
