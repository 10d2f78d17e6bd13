package kindlingbot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"crucible/bots"
	"crucible/bots/botproc"
	"crucible/bots/kindlingbot"
	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies/bidders"
)

// here is this package's folder.
func here() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// syncBuffer is a bytes.Buffer safe for the host's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// playAgent plays one 2-seat match of the manifest's agent (seat 0)
// against the built-in normal bidder and returns the match's log and the
// host's notices.
func playAgent(t *testing.T, m *bots.Manifest) (kindling.Log, string) {
	t.Helper()
	if _, err := exec.LookPath("python3"); err != nil {
		t.Fatalf("this test runs a Python agent and needs python3 on PATH: %v", err)
	}
	mgr, err := botproc.New(botproc.Options{LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer mgr.Close()
	var warn syncBuffer
	host := kindlingbot.NewHost(&warn, m.Name)
	defer host.Close()
	e, err := kindlingbot.Entrant(mgr, host, m.Own(), "agent")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	agent, err := e.New(ctx, engine.SeatSeed(7, 0), 0)
	if err != nil {
		t.Fatal(err)
	}
	var normal engine.Player
	for _, s := range bidders.All() {
		if s.Name == "normal" {
			normal = s.New(s.Schema.Defaults(), engine.SeatSeed(7, 1), 1)
		}
	}
	var replay bytes.Buffer
	_, err = kindling.Game{}.Play(ctx, engine.MatchSpec{Seed: 7, Replay: &replay,
		Seats: []engine.Seat{{Name: "agent", Player: agent}, {Name: "normal", Player: normal}}})
	agent.(*kindlingbot.Player).Close()
	if err != nil {
		t.Fatal(err)
	}
	var lg kindling.Log
	if err := json.Unmarshal(replay.Bytes(), &lg); err != nil {
		t.Fatal(err)
	}
	return lg, warn.String()
}

// missedTurns counts the turns seat missed.
func missedTurns(lg kindling.Log, seat int) int {
	n := 0
	for _, rec := range lg.Turns {
		if rec.Missed[seat] {
			n++
		}
	}
	return n
}

// The example agent (examples/kindling-python), started as the spec says,
// plays every turn of a match against a built-in bidder on the lab's
// server, through the long poll: no turn missed, no notice about polling.
func TestExampleAgentPlaysEveryTurn(t *testing.T) {
	m, err := bots.Load(filepath.Join(here(), "..", "..", "examples", "kindling-python", "bot.json"), []string{"acb", "kindling"})
	if err != nil {
		t.Fatal(err)
	}
	lg, warn := playAgent(t, m)
	if len(lg.Turns) != kindling.Turns || missedTurns(lg, 0) != 0 {
		t.Errorf("the agent's match has %d turns, %d missed by the agent; want %d, none missed", len(lg.Turns), missedTurns(lg, 0), kindling.Turns)
	}
	if strings.Contains(warn, "polls without") {
		t.Errorf("the host says the long-polling agent polls slowly: %s", warn)
	}
}

// An agent with the seed's loop (a poll every POLL seconds, no wait and
// version) still plays every turn, and the host says once that it polls
// without the long poll.
func TestPollingAgentPlaysAndIsNamed(t *testing.T) {
	data := []byte(`{"kind": "crucible-bot/1", "game": "kindling", "name": "poller",
		"command": ["python3", "poller.py"], "env": {"POLL": "0.05"}}`)
	m, err := bots.Parse(data, filepath.Join(here(), "testdata"), "poller", []string{"kindling"})
	if err != nil {
		t.Fatal(err)
	}
	lg, warn := playAgent(t, m)
	if missedTurns(lg, 0) != 0 {
		t.Errorf("the polling agent missed %d turns", missedTurns(lg, 0))
	}
	if strings.Count(warn, "polls without ?wait=S&version=V") != 1 {
		t.Errorf("notices: %q; want one saying the agent polls without the long poll", warn)
	}
}
