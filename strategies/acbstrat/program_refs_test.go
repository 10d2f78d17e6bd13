package acbstrat

import (
	"fmt"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/strategies"
)

// entrant is a strategy with a genome, for the tests' matches.
type entrant struct {
	s strategies.Strategy
	g strategies.Genome
}

// duelScore plays a against b on the seeds in both seat orders and returns
// a's score: a win counts 1, a draw (shared rank) a half.
func duelScore(t *testing.T, a, b entrant, seeds []uint64) float64 {
	t.Helper()
	total, n := 0.0, 0
	for _, seed := range seeds {
		for swap := 0; swap < 2; swap++ {
			es := []entrant{a, b}
			if swap == 1 {
				es[0], es[1] = b, a
			}
			players := make([]acb.MatchPlayer, 2)
			for i, e := range es {
				ctrl := e.s.New(e.g, engine.SeatSeed(seed, i), i).(acb.Controller)
				players[i] = acb.MatchPlayer{Name: fmt.Sprintf("%s@%d", e.s.Name, i), Strategy: e.s.Name, Controller: ctrl}
			}
			m, err := acb.NewMatchWith(acb.MatchOptions{Config: acb.DefaultConfig(), Seed: seed, Players: players})
			if err != nil {
				t.Fatal(err)
			}
			for {
				done, err := m.Step()
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if done {
					break
				}
			}
			r := m.Result().Ranks
			me, other := r[swap], r[1-swap]
			switch {
			case me < other:
				total++
			case me == other:
				total += 0.5
			}
			n++
		}
	}
	return total / float64(n)
}

// TestProgramRefsPlayLikeOriginals checks the rule of program_refs.go:
// each reference written as a program scores against the field within
// 0.3 of its hand-written original (measured on these seeds: gatherer
// 0.694 against 0.722, rusher 0.528 against 0.472, the hunter-like
// program 0.750 against hunter's 0.833: hunter's packs of a set size per
// prey are not something a rule expresses).
func TestProgramRefsPlayLikeOriginals(t *testing.T) {
	if testing.Short() {
		t.Skip("plays about 200 matches")
	}
	refs, err := ProgramRefs()
	if err != nil {
		t.Fatal(err)
	}
	prog := Program()
	field := []string{"gatherer", "economist", "swarm", "guardian", "rusher", "hunter"}
	seeds := []uint64{101, 102, 103}
	for _, name := range []string{"gatherer", "rusher", "hunter", "swarm"} {
		orig := byName(t, name)
		var so, sp float64
		for _, f := range field {
			opp := byName(t, f)
			so += duelScore(t, entrant{orig, orig.Schema.Defaults()}, entrant{opp, opp.Schema.Defaults()}, seeds)
			sp += duelScore(t, entrant{prog, refs[name]}, entrant{opp, opp.Schema.Defaults()}, seeds)
		}
		so, sp = so/float64(len(field)), sp/float64(len(field))
		t.Logf("%s: original %.3f, program %.3f against %v", name, so, sp, field)
		if d := sp - so; d < -0.3 || d > 0.3 {
			t.Errorf("%s as a program scores %.3f against the field, its original %.3f: more than 0.3 apart", name, sp, so)
		}
	}
}
