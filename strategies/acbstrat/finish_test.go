package acbstrat

import (
	"fmt"
	"slices"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
)

// duel plays strategy name (defaults) in seat `seat` against opponent on
// seed with cfg and returns the result and the subject's stats. An
// opponent "idle" is acb.Idle: its units never leave its cores.
func duel(tb testing.TB, cfg acb.Config, name, opponent string, seed uint64, seat int) (acb.Detail, engine.Result) {
	s := byName(tb, name)
	me := s.New(s.Schema.Defaults(), engine.SeatSeed(seed, seat), seat).(acb.Controller)
	var o acb.Controller = acb.Idle{}
	if opponent != "idle" {
		os := byName(tb, opponent)
		o = os.New(os.Schema.Defaults(), engine.SeatSeed(seed, 1-seat), 1-seat).(acb.Controller)
	}
	ctrls := []acb.Controller{me, o}
	if seat == 1 {
		ctrls = []acb.Controller{o, me}
	}
	m, err := acb.NewMatch(cfg, nil, seed, ctrls)
	if err != nil {
		panic(fmt.Sprintf("building %s v %s: %v", name, opponent, err)) // a bad test config
	}
	if err := m.Run(tb.Context()); err != nil {
		tb.Errorf("%s v %s on seed %d: %v", name, opponent, seed, err)
	}
	r := m.Result()
	return r.Detail.(acb.Detail), r
}

// neverFight are the strategies whose descriptions forbid attacking: they
// finish only what needs no fight.
var neverFight = []string{"pacifist", "defender"}

// TestEveryStrategyFinishes: every strategy but random, against random and
// against idle (units that never leave their cores), seats swapped, on
// four seeds, wins every match, by elimination (razing every enemy core)
// and not at the turn limit, in a median of at most 250 turns. The two
// that never fight finish random too (its cores stand empty while its
// units wander); idle's cores they cannot take without a fight, and they
// win those matches at the turn limit.
func TestEveryStrategyFinishes(t *testing.T) {
	cfg := acb.DefaultConfig()
	type job struct {
		name, opp string
		seed      uint64
		seat      int
	}
	var jobs []job
	for _, s := range All() {
		if s.Name == "random" {
			continue
		}
		for _, opp := range []string{"random", "idle"} {
			for seed := uint64(1); seed <= 4; seed++ {
				for seat := 0; seat < 2; seat++ {
					jobs = append(jobs, job{s.Name, opp, seed, seat})
				}
			}
		}
	}
	type out struct {
		won, elim bool
		turns     int
	}
	res := make([]out, len(jobs))
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		d, r := duel(t, cfg, j.name, j.opp, j.seed, j.seat)
		res[i] = out{won: d.Winner == j.seat, elim: r.Reason == "elimination", turns: r.Turns}
	})
	byPair := map[string][]int{}
	for i, j := range jobs {
		key := j.name + " v " + j.opp
		o := res[i]
		passive := slices.Contains(neverFight, j.name) && j.opp == "idle"
		switch {
		case !o.won:
			t.Errorf("%s lost or drew on seed %d seat %d (%d turns)", key, j.seed, j.seat, o.turns)
		case !passive && !o.elim:
			t.Errorf("%s won at the turn limit on seed %d seat %d, not by elimination", key, j.seed, j.seat)
		case !passive:
			byPair[key] = append(byPair[key], o.turns)
		}
	}
	for key, turns := range byPair {
		slices.Sort(turns)
		med := turns[len(turns)/2]
		t.Logf("%s: eliminated in %v turns", key, turns)
		if med > 250 {
			t.Errorf("%s: median elimination turn %d, want at most 250", key, med)
		}
	}
}

// quietSeeds returns the first n seeds from 1 on whose 2-player default
// map has no energy tile within sight of any core: a player sees no
// energy at the start and must go looking for it.
func quietSeeds(tb testing.TB, n int) []uint64 {
	cfg := acb.DefaultConfig()
	var out []uint64
	for seed := uint64(1); len(out) < n && seed < 5000; seed++ {
		mp, err := acb.GenerateMap(cfg, 2, seed)
		if err != nil {
			tb.Fatal(err)
		}
		seen := false
		for _, c := range mp.Cores {
			for _, e := range mp.Energy {
				if acb.Dist2(c.Pos(), e, mp.Rows, mp.Cols) <= cfg.VisionRadius2 {
					seen = true
				}
			}
		}
		if !seen {
			out = append(out, seed)
		}
	}
	if len(out) < n {
		tb.Fatalf("found %d seeds with no energy in sight of a core, want %d", len(out), n)
	}
	return out
}

// TestNoStrategyFreezes: on maps where no energy is in sight of any core,
// two units each and an opponent that never moves (so no contact but what
// a strategy seeks), every strategy but random has collected energy and
// grown its army by turn 150, in both seats: units that see nothing to do
// go looking instead of standing still.
func TestNoStrategyFreezes(t *testing.T) {
	cfg := acb.DefaultConfig()
	cfg.MaxTurns = 150
	seeds := quietSeeds(t, 3)
	type job struct {
		name string
		seed uint64
		seat int
	}
	var jobs []job
	for _, s := range All() {
		if s.Name == "random" {
			continue
		}
		for _, seed := range seeds {
			for seat := 0; seat < 2; seat++ {
				jobs = append(jobs, job{s.Name, seed, seat})
			}
		}
	}
	stats := make([]acb.PlayerStats, len(jobs))
	parallel(len(jobs), func(i int) {
		j := jobs[i]
		d, _ := duel(t, cfg, j.name, "idle", j.seed, j.seat)
		stats[i] = d.Players[j.seat]
	})
	for i, j := range jobs {
		if st := stats[i]; st.EnergyCollected == 0 || st.UnitsSpawned == 0 {
			t.Errorf("%s on seed %d seat %d: collected %d energy and spawned %d units in 150 turns", j.name, j.seed, j.seat, st.EnergyCollected, st.UnitsSpawned)
		}
	}
}
