package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
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
	base := kindlingPlayOptions{url: "http://127.0.0.1:1", strategy: "greedy", poll: time.Second, seats: 2, bots: 1}
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
	o.url, o.seats = ts.URL, 7
	err := runKindlingPlay(context.Background(), io.Discard, io.Discard, o)
	if err == nil || !strings.Contains(err.Error(), "400") || !strings.Contains(err.Error(), "seats = 7") {
		t.Fatalf("7 seats: %v", err)
	}
}

func TestKindlingServeAnswersAndStops(t *testing.T) {
	port := freeTCPPort(t)
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	o := kindlingServeOptions{addr: "127.0.0.1:" + strconv.Itoa(port), createLimit: 10, createWindow: time.Minute, retention: time.Hour, maxMatches: 10}
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
	} {
		bad := kindlingServeOptions{addr: ":0", createLimit: 10, createWindow: time.Minute, retention: time.Hour, maxMatches: 10}
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
