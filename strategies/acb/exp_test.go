package acb

import (
	"os"
	"strings"
	"testing"

	acbe "crucible/engine/acb"
)

func TestExp(t *testing.T) {
	spec := os.Getenv("EXP")
	if spec == "" {
		t.Skip()
	}
	names := strings.Split(spec, ",")
	cfg := acbe.DefaultConfig()
	wins := map[string]int{}
	for s := uint64(1); s <= 10; s++ {
		ns := names
		if s%2 == 0 {
			ns = []string{names[1], names[0]}
		}
		m := play(t, cfg, ns, s, measureOpts{})
		line := ""
		for p, st := range m.stats {
			if m.ranks[p] == 1 && m.ranks[1-p] != 1 {
				wins[ns[p]]++
			}
			line += " | " + ns[p] + " " + strings.TrimPrefix(strings.ReplaceAll(strings.ReplaceAll(strings.Trim(fmtStats(st), "{}"), "Lost", "L"), "Energy", "E"), "")
		}
		t.Logf("seed %d turns %d ranks %v%s", s, m.turns, m.ranks, line)
	}
	t.Logf("wins %v", wins)
}

func TestExpSweep(t *testing.T) {
	opp := os.Getenv("SWEEP")
	if opp == "" {
		t.Skip()
	}
	cfg := acbe.DefaultConfig()
	n := 10
	for _, s := range All() {
		if s.Name == opp {
			continue
		}
		wins, losses := 0, 0
		turns := 0
		var col, kill, lost [2]int
		for k := 0; k < n; k++ {
			seed := uint64(100 + k)
			ns := []string{s.Name, opp}
			me := 0
			if k%2 == 1 {
				ns = []string{opp, s.Name}
				me = 1
			}
			m := play(t, cfg, ns, seed, measureOpts{})
			if m.ranks[me] == 1 && m.ranks[1-me] != 1 {
				wins++
			} else if m.ranks[me] != 1 {
				losses++
			}
			turns += m.turns
			col[0] += m.stats[me].EnergyCollected
			col[1] += m.stats[1-me].EnergyCollected
			kill[0] += m.stats[me].Kills
			lost[0] += m.stats[me].LostCombat
		}
		t.Logf("%-16s vs %s: won %2d lost %2d of %d, mean turns %4d, collected %4d vs %4d, kills %3d lost %3d",
			s.Name, opp, wins, losses, n, turns/n, col[0]/n, col[1]/n, kill[0]/n, lost[0]/n)
	}
}
