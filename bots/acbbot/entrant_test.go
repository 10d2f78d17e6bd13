package acbbot_test

import (
	"strings"
	"testing"

	"crucible/arena"
	"crucible/bots/acbbot"
	"crucible/bots/botproc"
)

// TestExamplesPlayBuiltins plays the example bots (Python and Go), started
// and stopped by the manager as real processes, against built-in
// strategies through the arena: every match ends without error or crash,
// the bot's units move (it scores or holds energy in some match), each
// match's lease is given back, and the processes are reused.
func TestExamplesPlayBuiltins(t *testing.T) {
	needPython(t)
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
		})
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
