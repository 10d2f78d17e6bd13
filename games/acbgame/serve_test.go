package acbgame

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"crucible/games"
	"crucible/protocol/acbhttp"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
)

// testEnv is the command line's lending for the game's commands in tests:
// a registry of the game's strategies.
var testEnv = games.CommandEnv{Registry: func() (*strategies.Registry, error) { return strategies.NewRegistry(acbstrat.All()...) }}

func TestServeRefusesBadSetups(t *testing.T) {
	t.Setenv("SHARED_SECRET", "")
	t.Setenv("PORT", "")
	kv := filepath.Join(t.TempDir(), "k.json")
	if err := os.WriteFile(kv, []byte(`{"game":"kindling","base":"normal","params":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	idle := acbhttp.DefaultSessionIdle
	tests := []struct {
		rule string
		o    serveOptions
		env  string
		want string
	}{
		{"no secret is a start-up error, not an open bot", serveOptions{strategy: "gatherer", sessionIdle: idle}, "", "SHARED_SECRET"},
		{"neither strategy nor variant", serveOptions{secret: "s", sessionIdle: idle}, "", "--strategy NAME or --variant FILE"},
		{"both strategy and variant", serveOptions{secret: "s", strategy: "gatherer", variant: kv, sessionIdle: idle}, "", "not both"},
		{"an unknown strategy", serveOptions{secret: "s", strategy: "nobody", sessionIdle: idle}, "", "unknown acb strategy"},
		{"a kindling variant", serveOptions{secret: "s", variant: kv, sessionIdle: idle}, "", "game kindling"},
		{"a PORT that is not a number", serveOptions{secret: "s", strategy: "gatherer", sessionIdle: idle}, "http", "PORT"},
		{"PORT=0", serveOptions{secret: "s", strategy: "gatherer", sessionIdle: idle}, "0", `PORT="0" is not a port number 1..65535`},
		{"a --port out of range", serveOptions{secret: "s", strategy: "gatherer", port: 70000, portSet: true, sessionIdle: idle}, "", "--port 70000 is outside 1..65535"},
		{"--port 0 (it listened on 8080)", serveOptions{secret: "s", strategy: "gatherer", port: 0, portSet: true, sessionIdle: idle}, "9000", "--port 0 is outside 1..65535"},
		{"--port -1", serveOptions{secret: "s", strategy: "gatherer", port: -1, portSet: true, sessionIdle: idle}, "", "--port -1 is outside 1..65535"},
		{"--session-idle 0", serveOptions{secret: "s", strategy: "gatherer"}, "", "--session-idle 0s is not positive"},
		{"--session-idle negative", serveOptions{secret: "s", strategy: "gatherer", sessionIdle: -time.Minute}, "", "--session-idle -1m0s is not positive"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			t.Setenv("PORT", tt.env)
			err := runServe(context.Background(), testEnv, io.Discard, tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("runServe = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
}
