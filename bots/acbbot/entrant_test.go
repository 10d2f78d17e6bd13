package acbbot_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/acbbot"
	"crucible/bots/botproc"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/examples/acb-go/strategy"
)

// TestExamplesPlayBuiltins plays the example bots (Python and Go), started
// and stopped by the manager as real processes, against built-in
// strategies through the arena: every match ends without error or crash,
// the bot scores or wins somewhere, each match's lease is given back, and
// the processes are reused. The two bots play one strategy in two
// languages, so they must play every match alike.
func TestExamplesPlayBuiltins(t *testing.T) {
	needPython(t)
	results := map[string][]arena.Record{}
	for _, name := range []string{"acb-python", "acb-go"} {
		t.Run(name, func(t *testing.T) {
			mgr := newManager(t)
			m := loadExample(t, name)
			if name == "acb-go" {
				m = goBot(t)
			}
			es := []arena.Entrant{botEntrant(t, mgr, m, nil), builtin(t, "gatherer"), builtin(t, "rusher")}
			jobs := arena.Gauntlet([]int{0}, []int{1, 2}, arena.Seeds(11, 2))
			recs := play(t, es, jobs, arena.Options{Workers: 2, Config: shortConfig(120)})
			if len(recs) != len(jobs) {
				t.Fatalf("%d records for %d jobs", len(recs), len(jobs))
			}
			active := false
			for _, r := range recs {
				if r.Error != "" {
					t.Fatalf("match %s: %s", r.Job, r.Error)
				}
				seat := 0
				if r.Players[1].Name == es[0].Name {
					seat = 1
				}
				if r.Crashed != nil && r.Crashed[seat] {
					t.Fatalf("match %s: the bot went inactive (its turns failed): %+v", r.Job, r)
				}
				if r.Turns == 0 {
					t.Fatalf("match %s played no turn", r.Job)
				}
				if r.Scores[seat] > 0 || r.Ranks[seat] == 1 {
					active = true
				}
			}
			if !active {
				t.Fatalf("the bot neither scored nor won a match: %+v", recs)
			}
			st := mgr.Stats()
			if len(st) != 1 || st[0].Leases != len(jobs) || st[0].Processes > 2 || st[0].Restarts != 0 {
				t.Fatalf("stats %+v: want %d leases on at most 2 processes (one per worker)", st, len(jobs))
			}
			results[name] = recs
		})
	}
	byJob := map[string]arena.Record{}
	for _, r := range results["acb-go"] {
		byJob[r.Job] = r
	}
	for _, py := range results["acb-python"] {
		g := byJob[py.Job]
		if fmt.Sprint(py.Scores, py.Ranks, py.Turns, py.Reason) != fmt.Sprint(g.Scores, g.Ranks, g.Turns, g.Reason) {
			t.Errorf("match %s: Python %v %v %d %s, Go %v %v %d %s", py.Job, py.Scores, py.Ranks, py.Turns, py.Reason, g.Scores, g.Ranks, g.Turns, g.Reason)
		}
	}
	// The Go example's strategy played in-process (the overhead
	// benchmark's baseline) plays the same matches as its binary.
	es := []arena.Entrant{inProcessGoExample(strategy.Params{Gather: 0.9, Wave: 3}), builtin(t, "gatherer"), builtin(t, "rusher")}
	inProc := play(t, es, arena.Gauntlet([]int{0}, []int{1, 2}, arena.Seeds(11, 2)), arena.Options{Workers: 2, Config: shortConfig(120)})
	for _, r := range inProc {
		g := byJob[r.Job]
		if r.Error != "" || fmt.Sprint(r.Scores, r.Ranks, r.Turns, r.Reason) != fmt.Sprint(g.Scores, g.Ranks, g.Turns, g.Reason) {
			t.Errorf("match %s: in-process %v %v %d %s %s, Go binary %v %v %d %s", r.Job, r.Scores, r.Ranks, r.Turns, r.Reason, r.Error, g.Scores, g.Ranks, g.Turns, g.Reason)
		}
	}
}

// TestEntrantRefusesOtherGame checks that a Kindling manifest does not
// become an AI Code Battle entrant.
func TestEntrantRefusesOtherGame(t *testing.T) {
	m := loadExample(t, "kindling-python")
	mgr, err := botproc.New(botproc.Options{LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer mgr.Close()
	if _, err := acbbot.Entrant(mgr, m.Own(), "k"); err == nil || !strings.Contains(err.Error(), "plays kindling, not acb") {
		t.Fatalf("a kindling bot as acb entrant: %v", err)
	}
}

// TestPlatformSpellings checks that both spellings of the port and secret
// work: the Python example reads only the seed's PORT and SHARED_SECRET,
// the Go example only the platform's BOT_PORT and BOT_SECRET (each refuses
// to start with the other spelling alone), and each plays a match when
// the manager starts it.
func TestPlatformSpellings(t *testing.T) {
	needPython(t)
	tests := []struct {
		name    string
		m       *bots.Manifest
		other   []string // the spelling the bot does not read
		refusal string
	}{
		{"acb-python", loadExample(t, "acb-python"), []string{"BOT_PORT=18080", "BOT_SECRET=s"}, "SHARED_SECRET is not set"},
		{"acb-go", goBot(t), []string{"PORT=18080", "SHARED_SECRET=s"}, "BOT_SECRET is not set"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(tc.m.Command[0], tc.m.Command[1:]...)
			cmd.Dir = tc.m.WorkDir()
			cmd.Env = append(withoutBotVars(os.Environ()), tc.other...)
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.refusal) {
				t.Fatalf("with only %v the bot said %q (%v), want a refusal %q", tc.other, out, err, tc.refusal)
			}
			mgr := newManager(t)
			es := []arena.Entrant{botEntrant(t, mgr, tc.m, nil), builtin(t, "gatherer")}
			recs := play(t, es, arena.RoundRobin(2, arena.Seeds(5, 1)), arena.Options{Workers: 1, Config: shortConfig(30)})
			for _, r := range recs {
				if r.Error != "" || r.Crashed != nil {
					t.Fatalf("match %s: error %q, crashed %v", r.Job, r.Error, r.Crashed)
				}
			}
		})
	}
}

// withoutBotVars drops the port and secret variables of both spellings.
func withoutBotVars(env []string) []string {
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k != "PORT" && k != "SHARED_SECRET" && k != "BOT_PORT" && k != "BOT_SECRET" {
			out = append(out, kv)
		}
	}
	return out
}

// killer is a leased bot's player that kills the bot's process before
// turn kill is sent: the crash of an outside bot in the middle of a match.
type killer struct {
	*acbbot.Player
	kill int
	pid  func() int
}

func (k *killer) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	if v.Turn == k.kill {
		syscall.Kill(k.pid(), syscall.SIGKILL)
	}
	return k.Player.Turn(ctx, v, buf)
}

// TestBotCrashMidMatch kills the Go example's process in the middle of a
// match: the match still ends with a result (the bot's failed turns are
// no-ops, as the seed says), the manager restarts the process and counts
// the restart, and the next match is played by the new process without a
// failure.
func TestBotCrashMidMatch(t *testing.T) {
	var mu sync.Mutex
	pid := 0
	mgr, err := botproc.New(botproc.Options{LogDir: t.TempDir(), Events: func(e botproc.Event) {
		if e.Kind == botproc.Started {
			mu.Lock()
			pid = e.PID
			mu.Unlock()
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer mgr.Close()
	e := botEntrant(t, mgr, goBot(t), nil)
	build := e.New
	first := true
	e.New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
		p, err := build(ctx, seed, seat)
		if err != nil || !first {
			return p, err
		}
		first = false
		return &killer{Player: p.(*acbbot.Player), kill: 20, pid: func() int {
			mu.Lock()
			defer mu.Unlock()
			return pid
		}}, nil
	}
	es := []arena.Entrant{e, builtin(t, "gatherer")}
	jobs := []arena.Job{{ID: "crash", Seats: []int{0, 1}, Seed: 3}, {ID: "after", Seats: []int{0, 1}, Seed: 4}}
	recs := play(t, es, jobs, arena.Options{Workers: 1, Config: shortConfig(200)})
	for _, r := range recs {
		if r.Error != "" || r.Turns == 0 {
			t.Fatalf("match %s: %+v", r.Job, r)
		}
		if r.Job == "after" && r.Crashed != nil {
			t.Fatalf("the match after the restart saw failed turns: %+v", r)
		}
	}
	waitStats(t, mgr, func(s botproc.Stats) bool { return s.Restarts == 1 && s.Starts == 2 })
}

// waitStats polls the manager's only variant's figures until cond holds.
func waitStats(t *testing.T, mgr *botproc.Manager, cond func(botproc.Stats) bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		st := mgr.Stats()
		if len(st) == 1 && cond(st[0]) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("stats %+v", st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
