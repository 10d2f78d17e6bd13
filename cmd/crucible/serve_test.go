package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"crucible/arena"
)

func freeTCPPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// The flags as the command line gives them: --port 0 is refused (it used
// to mean $PORT, else 8080), as are a zero or negative --session-idle.
func TestServeFlagsRefuseWhatTheyCannotMean(t *testing.T) {
	t.Setenv("SHARED_SECRET", "s")
	t.Setenv("PORT", "")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"--port", "0"}, "--port 0 is outside 1..65535"},
		{[]string{"--port", "65536"}, "--port 65536 is outside 1..65535"},
		{[]string{"--session-idle", "0s"}, "--session-idle 0s is not positive"},
		{[]string{"--session-idle", "-5m"}, "--session-idle -5m0s is not positive"},
	} {
		_, _, err := execRoot(t, append([]string{"serve", "--strategy", "gatherer"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("serve %v = %v, want an error mentioning %q", tt.args, err, tt.want)
		}
	}
}

// crucible serve answers, plays an arena and a match acb through the
// http:// player items, and stops cleanly when its context ends.
func TestServeThenArenaAndMatchOverHTTP(t *testing.T) {
	port := freeTCPPort(t)
	t.Setenv("SHARED_SECRET", "cmd-secret")
	t.Setenv("PORT", strconv.Itoa(port))
	t.Setenv("ACB_SECRET", "")
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	go func() {
		root := newRootCmd()
		root.SetOut(io.Discard)
		root.SetErr(&logs)
		root.SetArgs([]string{"serve", "--strategy", "gatherer", "--host", "127.0.0.1"})
		done <- root.ExecuteContext(ctx)
	}()
	url := "http://127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(10 * time.Second)
	for {
		resp, err := http.Get(url + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bot never became healthy: %v\n%s", err, logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	cfg := writeFile(t, "cfg.json", `{"rows":24,"cols":24,"max_turns":80}`)
	out := filepath.Join(t.TempDir(), "res.jsonl")
	if _, errOut, err := execRoot(t, "arena", "--game", "acb", "--players", "random,"+url, "--seeds", "1", "--config", cfg, "--out", out, "--secret", "cmd-secret"); err != nil {
		t.Fatalf("arena with a remote bot: %v\n%s", err, errOut)
	}
	res, err := arena.LoadResults(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 2 {
		t.Fatalf("%d records, want both seat orders", len(res.Records))
	}
	for _, r := range res.Records {
		if r.Error != "" || slices.Contains(r.Crashed, true) {
			t.Fatalf("record %+v", r)
		}
	}
	// A wrong --secret: the bot refuses every turn (401), so it goes
	// inactive after 10 failures and is marked crashed.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if _, errOut, err := execRoot(t, "arena", "--game", "acb", "--players", "random,"+url, "--seeds", "1", "--config", cfg, "--out", bad, "--secret", "not-the-secret"); err != nil {
		t.Fatalf("arena with a wrongly keyed remote bot: %v\n%s", err, errOut)
	}
	badRes, err := arena.LoadResults(bad)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range badRes.Records {
		remoteSeat := 0
		if r.Players[1].Name == url {
			remoteSeat = 1
		}
		if len(r.Crashed) != 2 || !r.Crashed[remoteSeat] || r.Crashed[1-remoteSeat] {
			t.Fatalf("with a wrong secret the remote seat should crash: %+v", r)
		}
	}
	t.Setenv("ACB_SECRET", "cmd-secret") // match acb takes it from the environment
	stdout, _, err := execRoot(t, "match", "acb", "--players", url+",random", "--seed", "3", "--config", cfg)
	if err != nil || !strings.Contains(stdout, url) {
		t.Fatalf("match acb with a remote bot: %v\n%s", err, stdout)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve after cancel: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(logs.String(), "new match") || !strings.Contains(logs.String(), "stopped") {
		t.Fatalf("serve log:\n%s", logs.String())
	}
}

func TestRemotePlayersNeedASecret(t *testing.T) {
	t.Setenv("ACB_SECRET", "")
	t.Setenv("SHARED_SECRET", "")
	_, _, err := execRoot(t, "arena", "--game", "acb", "--players", "random,http://127.0.0.1:1", "--seeds", "1", "--out", filepath.Join(t.TempDir(), "r.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "ACB_SECRET") {
		t.Fatalf("arena with a remote bot and no secret: %v", err)
	}
	t.Setenv("ACB_SECRET", "s")
	_, _, err = execRoot(t, "arena", "--game", "kindling", "--players", "normal,http://127.0.0.1:1", "--seeds", "1", "--out", filepath.Join(t.TempDir(), "r.jsonl"))
	if err == nil || !strings.Contains(err.Error(), "kindling play") {
		t.Fatalf("kindling arena with an http player: %v", err)
	}
}
