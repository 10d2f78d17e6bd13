package kindlinggame

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"crucible/games"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// testEnv is the command line's lending for the game's commands in tests:
// a registry of the game's strategies.
var testEnv = games.CommandEnv{Registry: func() (*strategies.Registry, error) { return strategies.NewRegistry(bidders.All()...) }}

// writeVariant writes a variant file into a new directory.
func writeVariant(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "v.json")
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// freePort is a TCP port free a moment ago.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func kindlingTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	reg, err := testEnv.Registry()
	if err != nil {
		t.Fatal(err)
	}
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: house})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

func TestKindlingPlayPrintsTheStandings(t *testing.T) {
	ts := kindlingTestServer(t)
	v := writeVariant(t, `{"game":"kindling","base":"sniper","params":{"margin":3}}`)
	for _, o := range []playOptions{
		{strategy: "greedy", seats: 2, bots: 1, botLevel: "easy"},
		{variant: v, seats: 3, bots: 2, botLevel: "normal", name: "my agent"},
	} {
		o.url, o.poll, o.turnSeconds = ts.URL, 10*time.Millisecond, 30
		var out, logs bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err := runPlay(ctx, testEnv, &out, &logs, o)
		cancel()
		if err != nil {
			t.Fatalf("%+v: %v\n%s", o, err, logs.String())
		}
		text := out.String()
		if !strings.Contains(text, "(finished, turn 8 of 8)") || !strings.Contains(text, "(you)") || !strings.Contains(text, "win") {
			t.Fatalf("standings:\n%s", text)
		}
		if !strings.Contains(logs.String(), "turn 8 bid") {
			t.Fatalf("the move log lacks turn 8:\n%s", logs.String())
		}
		if o.name != "" && !strings.Contains(text, o.name) {
			t.Fatalf("standings lack the name %q:\n%s", o.name, text)
		}
	}
}

func TestKindlingPlayRefusesBadSetups(t *testing.T) {
	t.Setenv("KINDLING_URL", "")
	av := writeVariant(t, `{"game":"acb","base":"gatherer","params":{}}`)
	base := playOptions{url: "http://127.0.0.1:1", strategy: "greedy", poll: time.Second, seats: 2, bots: 1,
		turnSeconds: kindlingapi.DefaultTurnSeconds, botLevel: "normal"}
	given := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	tests := []struct {
		rule  string
		patch func(*playOptions)
		want  string
	}{
		{"no server", func(o *playOptions) { o.url = "" }, "--url"},
		{"a server that is not a URL", func(o *playOptions) { o.url = "localhost:8787" }, "not an http"},
		{"polling faster than 10ms", func(o *playOptions) { o.poll = time.Millisecond }, "--poll"},
		{"no strategy", func(o *playOptions) { o.strategy = "" }, "--strategy NAME or --variant FILE"},
		{"an acb variant", func(o *playOptions) { o.strategy, o.variant = "", av }, "game acb"},
		{"an unknown strategy", func(o *playOptions) { o.strategy = "nobody" }, "unknown kindling strategy"},
		{"a negative --start-after", func(o *playOptions) { o.startAfter = -time.Second }, "--start-after -1s is negative"},
		{"--seats 0 (sent as absent, it meant 2)", func(o *playOptions) { o.seats = 0 }, "--seats 0 is outside 2..4"},
		{"--seats 5", func(o *playOptions) { o.seats = 5 }, "--seats 5 is outside 2..4"},
		{"--bots as many as the seats", func(o *playOptions) { o.bots = 2 }, "--bots 2 is outside 0..1"},
		{"--bots negative", func(o *playOptions) { o.bots = -1 }, "--bots -1 is outside 0..1"},
		{"--turn-seconds 0 (sent as absent, it meant 45)", func(o *playOptions) { o.turnSeconds = 0 }, "--turn-seconds 0 is outside 10..120"},
		{"--turn-seconds 121", func(o *playOptions) { o.turnSeconds = 121 }, "--turn-seconds 121 is outside 10..120"},
		{"--bot-level empty (sent as absent, it meant normal)", func(o *playOptions) { o.botLevel = "" }, `--bot-level "" is not normal, easy or hard`},
		{"--bot-level expert", func(o *playOptions) { o.botLevel = "expert" }, `--bot-level "expert" is not normal, easy or hard`},
		{"--join with --seats", func(o *playOptions) { o.join, o.seats, o.given = "K7QF2", 3, given("seats") }, "--seats shapes a match play creates"},
		{"--join with --start-after", func(o *playOptions) {
			o.join, o.startAfter, o.given = "K7QF2", time.Second, given("start-after")
		}, "--start-after shapes a match play creates"},
		{"--join with a default --seats reaches the server", func(o *playOptions) { o.join, o.given = "K7QF2", given("join") }, "connect"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			o := base
			tt.patch(&o)
			err := runPlay(context.Background(), testEnv, io.Discard, io.Discard, o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("runKindlingPlay = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
	// The server's own validation comes back with its hint.
	ts := kindlingTestServer(t)
	o := base
	o.url, o.name = ts.URL, strings.Repeat("n", 40)
	err := runPlay(context.Background(), testEnv, io.Discard, io.Discard, o)
	if err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "name has 40 characters") || !strings.Contains(err.Error(), "hint") {
		t.Fatalf("a 40-character name: %v", err)
	}
}

func TestKindlingServeAnswersAndStops(t *testing.T) {
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	o := serveOptions{addr: "127.0.0.1:" + strconv.Itoa(port), createLimit: 10, createWindow: time.Minute, retention: time.Hour, lobbyExpiry: time.Hour, maxMatches: 10}
	go func() { done <- runServe(ctx, testEnv, &logs, o) }()
	url := "http://" + o.addr + "/api/rules"
	var resp *http.Response
	var err error
	for i := 0; i < 200; i++ {
		if resp, err = http.Get(url); err == nil {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	var rules kindlingapi.Rules
	json.NewDecoder(resp.Body).Decode(&rules)
	resp.Body.Close()
	if resp.StatusCode != 200 || rules.Turns != 8 || len(rules.Beacons) != 5 {
		t.Fatalf("GET /api/rules: %d %+v", resp.StatusCode, rules)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("kindling serve did not stop")
	}
	for _, tt := range []struct {
		change func(*serveOptions)
		want   string
	}{
		{func(o *serveOptions) { o.createLimit = 0 }, "--create-limit 0 is below 1"},
		{func(o *serveOptions) { o.maxMatches = -3 }, "--max-matches -3 is below 1"},
		{func(o *serveOptions) { o.createWindow = 0 }, "--create-window 0s is not positive"},
		{func(o *serveOptions) { o.retention = -time.Hour }, "--retention -1h0m0s is not positive"},
		{func(o *serveOptions) { o.lobbyExpiry = 0 }, "--lobby-expiry 0s is not positive"},
		{func(o *serveOptions) { o.baseURL = "kindling.example" }, `--base-url "kindling.example" is not an http:// or https:// URL`},
		{func(o *serveOptions) { o.baseURL = "ftp://kindling.example" }, `--base-url "ftp://kindling.example" is not an http://`},
	} {
		bad := serveOptions{addr: ":0", createLimit: 10, createWindow: time.Minute, retention: time.Hour, lobbyExpiry: time.Hour, maxMatches: 10}
		tt.change(&bad)
		if err := runServe(context.Background(), testEnv, io.Discard, bad); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("kindling serve with a bad limit: %v, want %q", err, tt.want)
		}
	}
}
