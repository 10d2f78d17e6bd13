package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// requireExport skips a test that exports and runs a bot where that
// cannot be done.
func requireExport(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: skipping the export builds")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("export builds with the go command, which is not on PATH")
	}
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("the export is a linux/amd64 binary; this %s/%s machine cannot run it", runtime.GOOS, runtime.GOARCH)
	}
}

// startExportedBot starts the exported ACB bot in dir as its own process
// on a free port and returns its URL; the bot is stopped (SIGTERM) after
// the test.
func startExportedBot(t *testing.T, dir, secret string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	cmd := exec.Command("./bot", "-host", "127.0.0.1")
	cmd.Dir = dir
	cmd.Env = []string{"SHARED_SECRET=" + secret, "PORT=" + strconv.Itoa(port)}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("bot log of %s:\n%s", dir, logs.String())
		}
	})
	return "http://127.0.0.1:" + strconv.Itoa(port)
}

// replayTurns reads a replay file as JSON without its players (their
// names say who played the seat: a variant file or a bot's URL).
func replayTurns(t *testing.T, path string) map[string]json.RawMessage {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	delete(doc, "players")
	return doc
}

// sameMatch fails unless two replays are the same match: every field but
// the players' names byte for byte, naming the first turn that differs.
func sameMatch(t *testing.T, what, gotPath, wantPath string) {
	t.Helper()
	got, want := replayTurns(t, gotPath), replayTurns(t, wantPath)
	for k, w := range want {
		if bytes.Equal(got[k], w) {
			continue
		}
		if k != "turns" {
			t.Errorf("%s: the replays' %s differ:\n got %.300s\nwant %.300s", what, k, got[k], w)
			continue
		}
		var gt, wt []json.RawMessage
		json.Unmarshal(got[k], &gt)
		json.Unmarshal(w, &wt)
		for i := range max(len(gt), len(wt)) {
			if i >= len(gt) || i >= len(wt) || !bytes.Equal(gt[i], wt[i]) {
				t.Errorf("%s: the exported bot played %d turns, in-process %d; first difference at turn record %d", what, len(gt), len(wt), i)
				break
			}
		}
	}
	if len(got) != len(want) {
		t.Errorf("%s: replay fields %d, want %d", what, len(got), len(want))
	}
}

// What we export must play unchanged: a program variant and a parametric
// one, exported with `crucible export` and run as their own processes,
// play `crucible match acb` over HTTP with HMAC (as the platform does)
// exactly as the variant files play in-process: the same replay, turn for
// turn, in either seat.
func TestExportedVariantsPlayMatchesAsInProcess(t *testing.T) {
	requireExport(t)
	dir := t.TempDir()
	parametric := filepath.Join(dir, "hunter.json")
	if err := os.WriteFile(parametric, []byte(`{"game":"acb","base":"hunter","params":{"pack":3,"hunt_range":25}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	variants := map[string]string{
		"program":    filepath.Join("..", "..", "examples", "programs", "hunter.variant.json"),
		"parametric": parametric,
	}
	const secret = "export-match-secret"
	for name, file := range variants {
		out := filepath.Join(dir, name)
		if _, stderr, err := execRoot(t, "export", "--variant", file, "--out", out); err != nil {
			t.Fatalf("export %s: %v\n%s", file, err, stderr)
		}
		url := startExportedBot(t, out, secret)
		for _, seed := range []string{"5", "9"} {
			for _, seats := range [][2]string{{"%s", "gatherer"}, {"rusher", "%s"}} {
				players := func(p string) string { return fmt.Sprintf(seats[0]+","+seats[1], p) }
				want := filepath.Join(dir, fmt.Sprintf("%s-%s-%s-in.json", name, seed, seats[0]))
				got := filepath.Join(dir, fmt.Sprintf("%s-%s-%s-http.json", name, seed, seats[0]))
				if _, stderr, err := execRoot(t, "match", "acb", "--players", players(file), "--seed", seed, "--replay", want); err != nil {
					t.Fatalf("in-process match: %v\n%s", err, stderr)
				}
				if _, stderr, err := execRoot(t, "match", "acb", "--players", players(url), "--seed", seed, "--replay", got, "--secret", secret); err != nil {
					t.Fatalf("match against the exported bot: %v\n%s", err, stderr)
				}
				sameMatch(t, fmt.Sprintf("%s, seed %s, players %s", name, seed, players(name)), got, want)
			}
		}
	}
}

// houseLog records the views a house bot was shown: every turn's Last
// holds the bids each seat revealed.
type houseLog struct {
	inner kindling.Bidder
	mu    sync.Mutex
	views []kindling.View
}

func (l *houseLog) Bid(v *kindling.View, out *kindling.Bid) {
	l.inner.Bid(v, out)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.views = append(l.views, *v)
}

// Exported Kindling agents (a program variant, whose jitter draws from
// the seat's generator every turn, and a parametric one), run as their own
// processes against a house bot on our server, bid as the in-process
// bidders with the same seeds: the house bot is shown the same views
// (every seat's revealed bids included) on the server and in an in-process
// match.
func TestExportedKindlingAgentsBidAsInProcess(t *testing.T) {
	requireExport(t)
	dir := t.TempDir()
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	sniper, err := reg.Lookup("kindling", "sniper")
	if err != nil {
		t.Fatal(err)
	}
	params := sniper.Schema.Defaults()
	params[0] = sniper.Schema[0].Max
	variants := map[string]string{
		"program":    `{"game":"kindling","base":"program","program":{"jitter":20,"spend":60,"targets":3,"rules":[{"when":"rival_bid >= 3","then":"favour embers 0.5"},{"when":"turn >= 10 and sparks < 8","then":"save 2"},{"when":"value < 2","then":"skip"}]}}`,
		"parametric": fmt.Sprintf(`{"game":"kindling","base":"sniper","params":{%q:%v}}`, sniper.Schema[0].Name, params[0]),
	}
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	for name, doc := range variants {
		file := filepath.Join(dir, name+".json")
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		out := filepath.Join(dir, name)
		if _, stderr, err := execRoot(t, "export", "--variant", file, "--out", out); err != nil {
			t.Fatalf("export %s: %v\n%s", name, err, stderr)
		}
		v, err := strategies.LoadVariant(file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := reg.Check(v)
		if err != nil {
			t.Fatal(err)
		}
		served, code, houseSeed := playExportedAgent(t, out, house)
		mine, err := kindlingapi.BidderFactory(r.Strategy, r.Genome)(code, 0)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := house("normal", houseSeed, 1)
		if err != nil {
			t.Fatal(err)
		}
		local := &houseLog{inner: theirs}
		if _, err := (kindling.Game{}).Play(t.Context(), engine.MatchSpec{Seats: []engine.Seat{{Name: "agent", Player: mine}, {Name: "house", Player: local}}}); err != nil {
			t.Fatal(err)
		}
		if len(served.views) != len(local.views) || len(local.views) < 2 {
			t.Fatalf("%s: the house bot bid on %d turns on the server, %d in-process", name, len(served.views), len(local.views))
		}
		for i := range local.views {
			if served.views[i] != local.views[i] {
				t.Fatalf("%s: turn %d: the house bot was shown\n%+v\non the server and\n%+v\nin-process (last turn's bids: %v and %v)",
					name, i+1, served.views[i], local.views[i], served.views[i].Last.Bids, local.views[i].Last.Bids)
			}
		}
	}
}

// playExportedAgent runs the exported Kindling agent in dir as its own
// process: it creates a match against one house bot (level normal) on a
// server of ours and plays it to the end. It returns what the house bot
// was shown, the match code and the house bot's seed.
func playExportedAgent(t *testing.T, dir string, house kindlingapi.HouseBotFunc) (*houseLog, string, uint64) {
	t.Helper()
	var (
		mu        sync.Mutex
		served    *houseLog
		houseSeed uint64
	)
	srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: func(level string, seed uint64, seat int) (kindling.Bidder, error) {
		b, err := house(level, seed, seat)
		mu.Lock()
		defer mu.Unlock()
		served, houseSeed = &houseLog{inner: b}, seed
		return served, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cmd := exec.CommandContext(t.Context(), "./bot", "-url", ts.URL, "-poll", "10ms", "-bot-level", "normal")
	cmd.Dir = dir
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Run(); err != nil {
		t.Fatalf("the exported agent in %s: %v\n%s", dir, err, logs.String())
	}
	m := regexp.MustCompile(`match ([A-Z0-9]+): seat 0 `).FindStringSubmatch(logs.String())
	if m == nil {
		t.Fatalf("the agent's log names no match code:\n%s", logs.String())
	}
	mu.Lock()
	defer mu.Unlock()
	if served == nil {
		t.Fatal("the server seated no house bot")
	}
	served.mu.Lock()
	defer served.mu.Unlock()
	return served, m[1], houseSeed
}
