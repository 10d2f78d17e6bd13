package acbbot_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/acbbot"
	"crucible/bots/botproc"
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
