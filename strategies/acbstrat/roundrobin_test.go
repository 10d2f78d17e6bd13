package acbstrat_test

// The round robin lives in an external test package: the strategies
// themselves never import the arena.

import (
	"context"
	"slices"
	"sort"
	"testing"

	"crucible/arena"
	"crucible/engine/acb"
	"crucible/strategies/acbstrat"
)

func entrants() []arena.Entrant {
	var es []arena.Entrant
	for _, s := range acbstrat.All() {
		es = append(es, arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults()))
	}
	return es
}

// roundRobin plays jobs with the given worker count and returns the records
// by job id.
func roundRobin(t *testing.T, es []arena.Entrant, jobs []arena.Job, cfg acb.Config, workers int) map[string]arena.Record {
	t.Helper()
	out := make(map[string]arena.Record, len(jobs))
	err := arena.Run(context.Background(), acb.Game{}, es, jobs, arena.Options{Workers: workers, Config: cfg}, func(r arena.Record) error {
		if r.Error != "" {
			t.Errorf("job %s failed: %s", r.Job, r.Error)
		}
		r.DurationMS = 0 // the only field allowed to differ between runs
		out[r.Job] = r
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRoundRobin plays every pair of the 21 strategies at their defaults,
// both seat orders, on three seeds (300-turn matches on the default map),
// and checks the landscape: no strategy wins every pairing, random ends in
// the bottom three by points (a win 1, a draw 1/2), and the first seed
// played again on one worker gives the same records as on two.
func TestRoundRobin(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 1260 matches")
	}
	es := entrants()
	cfg := acb.DefaultConfig()
	cfg.MaxTurns = 300
	seeds := arena.Seeds(2026, 3)
	jobs := arena.RoundRobin(len(es), seeds)
	recs := roundRobin(t, es, jobs, cfg, 2)
	if len(recs) != len(jobs) {
		t.Fatalf("%d records for %d jobs", len(recs), len(jobs))
	}

	n := len(es)
	points := make([]float64, n)
	// wins[a][b]: matches a won against b.
	wins := make([][]int, n)
	for a := range wins {
		wins[a] = make([]int, n)
	}
	for _, j := range jobs {
		r := recs[j.ID]
		a, b := j.Seats[0], j.Seats[1]
		switch {
		case r.Ranks[0] < r.Ranks[1]:
			points[a]++
			wins[a][b]++
		case r.Ranks[1] < r.Ranks[0]:
			points[b]++
			wins[b][a]++
		default:
			points[a] += 0.5
			points[b] += 0.5
		}
	}
	for a := 0; a < n; a++ {
		beaten := 0
		for b := 0; b < n; b++ {
			if b != a && wins[a][b] > wins[b][a] {
				beaten++
			}
		}
		if beaten == n-1 {
			t.Errorf("%s wins every pairing (%d of %d)", es[a].Name, beaten, n-1)
		}
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return points[order[x]] > points[order[y]] })
	var table []string
	for place, i := range order {
		table = append(table, es[i].Name)
		t.Logf("%2d. %-16s %5.1f points", place+1, es[i].Name, points[i])
	}
	if pos := slices.Index(table, "random"); pos < n-3 {
		t.Errorf("random is %d of %d, want it in the bottom three", pos+1, n)
	}

	// Determinism across worker counts: the first seed again on one worker.
	again := roundRobin(t, es, arena.RoundRobin(len(es), seeds[:1]), cfg, 1)
	for id, r := range again {
		if !sameRecord(r, recs[id]) {
			t.Errorf("job %s differs between 1 and 2 workers:\n%+v\n%+v", id, r, recs[id])
		}
	}
}

func sameRecord(a, b arena.Record) bool {
	return a.Job == b.Job && a.Seed == b.Seed && a.Turns == b.Turns && a.Reason == b.Reason &&
		slices.Equal(a.Scores, b.Scores) && slices.Equal(a.Ranks, b.Ranks) && slices.Equal(a.Players, b.Players)
}

// TestZoneRoundRobinAdjudication plays a round robin of strategies with the
// zone at the seed's settings (the "zone" preset) twice, with adjudication
// on and off: every record is the same but for the adjudicated mark, and
// most matches are adjudicated (the storm at radius 2 leaves nothing
// alive long before turn 500).
func TestZoneRoundRobinAdjudication(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 224 matches")
	}
	var es []arena.Entrant
	for _, name := range []string{"gatherer", "rusher", "hunter", "swarm", "zone-driver", "random", "guardian", "economist"} {
		for _, s := range acbstrat.All() {
			if s.Name == name {
				es = append(es, arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults()))
			}
		}
	}
	data, err := acb.Game{}.ParseConfig([]byte(`{"zone_enabled": true}`))
	if err != nil {
		t.Fatal(err)
	}
	cfg := data.(acb.Config)
	jobs := arena.RoundRobin(len(es), arena.Seeds(77, 2))
	play := func(c any) map[string]arena.Record {
		out := map[string]arena.Record{}
		err := arena.Run(context.Background(), acb.Game{}, es, jobs, arena.Options{Workers: 2, Config: c}, func(r arena.Record) error {
			if r.Error != "" {
				t.Errorf("job %s failed: %s", r.Job, r.Error)
			}
			r.DurationMS = 0
			out[r.Job] = r
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	on, off := play(cfg), play(acb.MatchConfig{Config: cfg, NoAdjudication: true})
	adjudicated := 0
	for id, r := range on {
		if r.Adjudicated {
			adjudicated++
		}
		if off[id].Adjudicated {
			t.Errorf("job %s adjudicated with adjudication off", id)
		}
		r.Adjudicated = false
		if !sameRecord(r, off[id]) || !slices.Equal(r.Crashed, off[id].Crashed) {
			t.Errorf("job %s: adjudicated %+v, played out %+v", id, on[id], off[id])
		}
	}
	t.Logf("%d of %d matches adjudicated", adjudicated, len(on))
	if adjudicated < len(on)/2 {
		t.Errorf("only %d of %d zone matches adjudicated", adjudicated, len(on))
	}
}
