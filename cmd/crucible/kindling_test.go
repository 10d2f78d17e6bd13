package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"crucible/protocol/kindlingapi"
)

func kindlingTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	reg, err := newRegistry()
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
	v := writeFile(t, "v.json", `{"game":"kindling","base":"sniper","params":{"margin":3}}`)
	for _, o := range []kindlingPlayOptions{
		{strategy: "greedy", seats: 2, bots: 1, botLevel: "easy"},
		{variant: v, seats: 3, bots: 2, botLevel: "normal", name: "my agent"},
	} {
		o.url, o.poll, o.turnSeconds = ts.URL, 10*time.Millisecond, 30
		var out, logs bytes.Buffer
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		err := runKindlingPlay(ctx, &out, &logs, o)
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
	av := writeFile(t, "a.json", `{"game":"acb","base":"gatherer","params":{}}`)
	base := kindlingPlayOptions{url: "http://127.0.0.1:1", strategy: "greedy", poll: time.Second, seats: 2, bots: 1,
		turnSeconds: kindlingapi.DefaultTurnSeconds, botLevel: "normal"}
	given := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	tests := []struct {
		rule  string
		patch func(*kindlingPlayOptions)
		want  string
	}{
		{"no server", func(o *kindlingPlayOptions) { o.url = "" }, "--url"},
		{"a server that is not a URL", func(o *kindlingPlayOptions) { o.url = "localhost:8787" }, "not an http"},
		{"polling faster than 10ms", func(o *kindlingPlayOptions) { o.poll = time.Millisecond }, "--poll"},
		{"no strategy", func(o *kindlingPlayOptions) { o.strategy = "" }, "--strategy NAME or --variant FILE"},
		{"an acb variant", func(o *kindlingPlayOptions) { o.strategy, o.variant = "", av }, "game acb"},
		{"an unknown strategy", func(o *kindlingPlayOptions) { o.strategy = "nobody" }, "unknown kindling strategy"},
		{"a negative --start-after", func(o *kindlingPlayOptions) { o.startAfter = -time.Second }, "--start-after -1s is negative"},
		{"--seats 0 (sent as absent, it meant 2)", func(o *kindlingPlayOptions) { o.seats = 0 }, "--seats 0 is outside 2..4"},
		{"--seats 5", func(o *kindlingPlayOptions) { o.seats = 5 }, "--seats 5 is outside 2..4"},
		{"--bots as many as the seats", func(o *kindlingPlayOptions) { o.bots = 2 }, "--bots 2 is outside 0..1"},
		{"--bots negative", func(o *kindlingPlayOptions) { o.bots = -1 }, "--bots -1 is outside 0..1"},
		{"--turn-seconds 0 (sent as absent, it meant 45)", func(o *kindlingPlayOptions) { o.turnSeconds = 0 }, "--turn-seconds 0 is outside 10..120"},
		{"--turn-seconds 121", func(o *kindlingPlayOptions) { o.turnSeconds = 121 }, "--turn-seconds 121 is outside 10..120"},
		{"--bot-level empty (sent as absent, it meant normal)", func(o *kindlingPlayOptions) { o.botLevel = "" }, `--bot-level "" is not normal or easy`},
		{"--bot-level hard", func(o *kindlingPlayOptions) { o.botLevel = "hard" }, `--bot-level "hard" is not normal or easy`},
		{"--join with --seats", func(o *kindlingPlayOptions) { o.join, o.seats, o.given = "K7QF2", 3, given("seats") }, "--seats shapes a match play creates"},
		{"--join with --start-after", func(o *kindlingPlayOptions) {
			o.join, o.startAfter, o.given = "K7QF2", time.Second, given("start-after")
		}, "--start-after shapes a match play creates"},
		{"--join with a default --seats reaches the server", func(o *kindlingPlayOptions) { o.join, o.given = "K7QF2", given("join") }, "connect"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			o := base
			tt.patch(&o)
			err := runKindlingPlay(context.Background(), io.Discard, io.Discard, o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("runKindlingPlay = %v, want an error mentioning %q", err, tt.want)
			}
		})
	}
	// The server's own validation comes back with its hint.
	ts := kindlingTestServer(t)
	o := base
	o.url, o.name = ts.URL, strings.Repeat("n", 40)
	err := runKindlingPlay(context.Background(), io.Discard, io.Discard, o)
	if err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "name has 40 characters") || !strings.Contains(err.Error(), "hint") {
		t.Fatalf("a 40-character name: %v", err)
	}
	// The command line: the flags given are what --join refuses.
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--start-after", "-1s"}, "--start-after -1s is negative"},
		{[]string{"--join", "K7QF2", "--bots", "1"}, "--bots shapes a match play creates"},
		{[]string{"--join", "K7QF2", "--bot-level", "normal"}, "--bot-level shapes a match play creates"},
		{[]string{"--seats", "0"}, "--seats 0 is outside 2..4"},
	} {
		_, _, err := execRoot(t, append([]string{"kindling", "play", "--url", "http://127.0.0.1:1", "--strategy", "greedy"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("kindling play %v = %v, want an error mentioning %q", tt.args, err, tt.want)
		}
	}
}

func TestKindlingServeAnswersAndStops(t *testing.T) {
	port := freeTCPPort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	o := kindlingServeOptions{addr: "127.0.0.1:" + strconv.Itoa(port), createLimit: 10, createWindow: time.Minute, retention: time.Hour, lobbyExpiry: time.Hour, maxMatches: 10}
	go func() { done <- runKindlingServe(ctx, &logs, o) }()
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
		change func(*kindlingServeOptions)
		want   string
	}{
		{func(o *kindlingServeOptions) { o.createLimit = 0 }, "--create-limit 0 is below 1"},
		{func(o *kindlingServeOptions) { o.maxMatches = -3 }, "--max-matches -3 is below 1"},
		{func(o *kindlingServeOptions) { o.createWindow = 0 }, "--create-window 0s is not positive"},
		{func(o *kindlingServeOptions) { o.retention = -time.Hour }, "--retention -1h0m0s is not positive"},
		{func(o *kindlingServeOptions) { o.lobbyExpiry = 0 }, "--lobby-expiry 0s is not positive"},
		{func(o *kindlingServeOptions) { o.baseURL = "kindling.example" }, `--base-url "kindling.example" is not an http:// or https:// URL`},
		{func(o *kindlingServeOptions) { o.baseURL = "ftp://kindling.example" }, `--base-url "ftp://kindling.example" is not an http://`},
	} {
		bad := kindlingServeOptions{addr: ":0", createLimit: 10, createWindow: time.Minute, retention: time.Hour, lobbyExpiry: time.Hour, maxMatches: 10}
		tt.change(&bad)
		if err := runKindlingServe(context.Background(), io.Discard, bad); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("kindling serve with a bad limit: %v, want %q", err, tt.want)
		}
	}
}

func TestExportCommandNeedsItsFlags(t *testing.T) {
	_, _, err := execRoot(t, "export", "--out", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "--variant") {
		t.Fatalf("export without --variant: %v", err)
	}
	v := writeFile(t, "v.json", `{"game":"kindling","base":"sniper","params":{}}`)
	_, _, err = execRoot(t, "export", "--variant", v, "--out", t.TempDir()+"/x", "--src", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "not the crucible source") {
		t.Fatalf("export with a bad --src: %v", err)
	}
}
