package acb

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestMovePhase(t *testing.T) {
	wall := Pos{Row: 9, Col: 10}
	tests := []struct {
		name   string
		units  []UnitInfo
		moves0 []Move
		moves1 []Move
		want   map[int]Pos    // living units after the turn
		died   map[int]string // deaths with cause
	}{
		{"each direction moves one tile",
			[]UnitInfo{u(0, 10, 4), u(0, 12, 6), u(0, 14, 8), u(0, 16, 12)},
			[]Move{mv(10, 4, North), mv(12, 6, East), mv(14, 8, South), mv(16, 12, West)}, nil,
			map[int]Pos{0: {9, 4}, 1: {12, 7}, 2: {15, 8}, 3: {16, 11}}, map[int]string{}},
		{"moves wrap at the edges",
			[]UnitInfo{u(0, 0, 10), u(0, 12, 0), u(0, 19, 14), u(0, 16, 19)},
			[]Move{mv(0, 10, North), mv(12, 0, West), mv(19, 14, South), mv(16, 19, East)}, nil,
			map[int]Pos{0: {19, 10}, 1: {12, 19}, 2: {0, 14}, 3: {16, 0}}, map[int]string{}},
		{"a move into a wall stays",
			[]UnitInfo{u(0, 10, 10)}, []Move{mv(10, 10, North)}, nil,
			map[int]Pos{0: {10, 10}}, map[int]string{}},
		{"own units may swap places",
			[]UnitInfo{u(0, 10, 10), u(0, 10, 11)}, []Move{mv(10, 10, East), mv(10, 11, West)}, nil,
			map[int]Pos{0: {10, 11}, 1: {10, 10}}, map[int]string{}},
		{"two own units moving onto one tile both die",
			[]UnitInfo{u(0, 10, 12), u(0, 10, 14)}, []Move{mv(10, 12, East), mv(10, 14, West)}, nil,
			map[int]Pos{}, map[int]string{0: CauseCollision, 1: CauseCollision}},
		{"moving onto a staying own unit kills both",
			[]UnitInfo{u(0, 10, 12), u(0, 10, 13), u(0, 15, 15)}, []Move{mv(10, 12, East)}, nil,
			map[int]Pos{2: {15, 15}}, map[int]string{0: CauseCollision, 1: CauseCollision}},
		{"three own units on one tile all die",
			[]UnitInfo{u(0, 11, 13), u(0, 12, 12), u(0, 12, 14)}, []Move{mv(11, 13, South), mv(12, 12, East), mv(12, 14, West)}, nil,
			map[int]Pos{}, map[int]string{0: CauseCollision, 1: CauseCollision, 2: CauseCollision}},
		{"units of different owners may share a tile (and then fight)",
			[]UnitInfo{u(0, 10, 12), u(1, 10, 14)}, []Move{mv(10, 12, East)}, []Move{mv(10, 14, West)},
			map[int]Pos{}, map[int]string{0: CauseCombat, 1: CauseCombat}},
		{"moves for empty tiles and enemy units are ignored",
			[]UnitInfo{u(0, 10, 2), u(1, 16, 16)}, []Move{mv(16, 16, North), mv(5, 5, East), mv(-1, 40, East)}, nil,
			map[int]Pos{0: {10, 2}, 1: {16, 16}}, map[int]string{}},
		{"a second move for the same unit is ignored",
			[]UnitInfo{u(0, 10, 2)}, []Move{mv(10, 2, East), mv(10, 2, West), mv(10, 2, South)}, nil,
			map[int]Pos{0: {10, 3}}, map[int]string{}},
		{"an unknown direction is ignored",
			[]UnitInfo{u(0, 10, 2)}, []Move{mv(10, 2, Dir(9))}, nil,
			map[int]Pos{0: {10, 2}}, map[int]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mp := testMap(2, 2, []Pos{wall}, nil)
			m := newTestMatch(t, DefaultConfig(), mp,
				scripted{map[int][]Move{0: tt.moves0}}, scripted{map[int][]Move{0: tt.moves1}})
			m.setUnits(tt.units...)
			step(t, m)
			if got := alive(m); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units after the move = %v, want %v", got, tt.want)
			}
			if got := causes(m); !reflect.DeepEqual(got, tt.died) {
				t.Errorf("deaths = %v, want %v", got, tt.died)
			}
		})
	}
}

func TestCombat(t *testing.T) {
	tests := []struct {
		name   string
		ar2    int
		units  []UnitInfo
		died   []int // ids that die in combat
		scores []int
	}{
		{"1 vs 1 in range kills both", 25, []UnitInfo{u(0, 10, 10), u(1, 10, 14)}, []int{0, 1}, []int{1, 1, 0}},
		{"dist2 equal to attack_radius2 is in range", 25, []UnitInfo{u(0, 10, 10), u(1, 13, 14)}, []int{0, 1}, []int{1, 1, 0}},
		{"dist2 one beyond attack_radius2 is out of range", 25, []UnitInfo{u(0, 10, 10), u(1, 11, 15)}, nil, []int{0, 0, 0}},
		{"enemies on the same tile fight", 1, []UnitInfo{u(0, 10, 10), u(1, 10, 10)}, []int{0, 1}, []int{1, 1, 0}},
		{"2 vs 1 kills only the single unit", 25, []UnitInfo{u(0, 10, 10), u(0, 10, 11), u(1, 10, 14)}, []int{2}, []int{1, 0, 0}},
		{"a unit out of range of all enemies survives", 25,
			[]UnitInfo{u(0, 10, 10), u(1, 10, 14), u(0, 16, 2)}, []int{0, 1}, []int{1, 1, 0}},
		{"range wraps around the grid edge", 25, []UnitInfo{u(0, 10, 0), u(1, 10, 18)}, []int{0, 1}, []int{1, 1, 0}},
		{"counts are taken before deaths: a chain of 1-2-1", 25,
			[]UnitInfo{u(0, 10, 6), u(1, 10, 10), u(0, 10, 14)}, []int{1}, []int{1, 0, 0}},
		{"a unit between two other players dies and both score", 25,
			[]UnitInfo{u(0, 10, 7), u(1, 10, 10), u(2, 10, 13)}, []int{1}, []int{1, 0, 1}},
		{"3 vs 2: the pair dies, the three survive", 25,
			[]UnitInfo{u(0, 10, 10), u(0, 11, 10), u(0, 12, 10), u(1, 10, 13), u(1, 11, 13)}, []int{3, 4}, []int{2, 0, 0}},
		{"every other player in range scores, dying or not", 25,
			[]UnitInfo{u(0, 10, 10), u(1, 10, 12), u(2, 10, 11)}, []int{0, 1, 2}, []int{2, 2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.AttackRadius2 = tt.ar2
			m := newTestMatch(t, cfg, testMap(3, 1, nil, nil), nil, nil, nil)
			m.setUnits(tt.units...)
			step(t, m)
			var died []int
			for id, c := range causes(m) {
				if c != CauseCombat {
					t.Errorf("unit %d died of %s, want combat", id, c)
				}
				died = append(died, id)
			}
			slices.Sort(died)
			if !reflect.DeepEqual(died, tt.died) {
				t.Errorf("died in combat %v, want %v", died, tt.died)
			}
			for p, want := range tt.scores {
				if got := m.Score(p); got != want {
					t.Errorf("player %d score %d, want %d", p, got, want)
				}
			}
		})
	}
}

func TestKillScoreIsConfigurable(t *testing.T) {
	cfg := DefaultConfig()
	cfg.KillScore = 5
	m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
	m.setUnits(u(0, 10, 10), u(0, 10, 11), u(1, 10, 14))
	step(t, m)
	if m.Score(0) != 5 || m.Score(1) != 0 {
		t.Fatalf("scores %d, %d; want 5 (one kill at kill_score 5), 0", m.Score(0), m.Score(1))
	}
	if st := m.Stats(0); st.Kills != 1 {
		t.Fatalf("kills %d, want 1", st.Kills)
	}
	if st := m.Stats(1); st.LostCombat != 1 {
		t.Fatalf("lost in combat %d, want 1", st.LostCombat)
	}
}

func TestZoneRadiusFormula(t *testing.T) {
	cfg := DefaultConfig() // 40x40: R0 = 20, start 10, interval 1, step 1, min 2
	tests := []struct {
		name                  string
		start, interval, step int
		min                   int
		turn, want            int
	}{
		{"before the start the radius is R0", 10, 1, 1, 2, 9, 20},
		{"at the start the radius is R0", 10, 1, 1, 2, 10, 20},
		{"one turn later it shrinks by one step", 10, 1, 1, 2, 11, 19},
		{"it shrinks by step per interval", 10, 1, 1, 2, 27, 3},
		{"it stops at the minimum radius", 10, 1, 1, 2, 28, 2},
		{"and stays there", 10, 1, 1, 2, 400, 2},
		{"interval 3 shrinks every third turn (floor)", 10, 3, 2, 2, 12, 20},
		{"interval 3, turn 13 is one interval in", 10, 3, 2, 2, 13, 18},
		{"interval 3, turn 21 is three intervals in", 10, 3, 2, 2, 21, 14},
		{"a minimum of 0 lets it close", 0, 1, 5, 0, 100, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := cfg
			c.ZoneStartTurn, c.ZoneShrinkInterval, c.ZoneShrinkStep, c.ZoneMinRadius = tt.start, tt.interval, tt.step, tt.min
			if got := ZoneRadius(c, tt.turn); got != tt.want {
				t.Fatalf("ZoneRadius(turn %d) = %d, want %d", tt.turn, got, tt.want)
			}
		})
	}
}

func TestStormKillsOutsideTheSafeCircle(t *testing.T) {
	for _, enabled := range []bool{true, false} {
		cfg := DefaultConfig()
		cfg.ZoneEnabled = enabled
		cfg.ZoneStartTurn = 1 // 20x20: R0 = 10, centre (10,10)
		m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
		// dist2 to (10,10): 200 (out), 100 (on the circle: safe), 101 (out).
		m.setUnits(u(0, 0, 0), u(1, 10, 0), u(0, 0, 9))
		step(t, m)
		want := map[int]string{0: CauseStorm, 2: CauseStorm}
		if !enabled {
			want = map[int]string{}
		}
		if got := causes(m); !reflect.DeepEqual(got, want) {
			t.Errorf("zone enabled=%v: deaths %v, want %v", enabled, got, want)
		}
		if enabled && m.ZoneRadiusNow() != 10 {
			t.Errorf("radius in turn 1 = %d, want 10", m.ZoneRadiusNow())
		}
		if enabled && m.Stats(0).LostStorm != 2 {
			t.Errorf("player 0 lost %d units to the storm, want 2", m.Stats(0).LostStorm)
		}
	}
}

func TestStormWaitsForZoneStartTurn(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 3
	m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
	m.setUnits(u(0, 0, 0), u(1, 10, 10))
	for turn := 1; turn <= 3; turn++ {
		step(t, m)
		_, dead := causes(m)[0]
		if dead != (turn == 3) {
			t.Fatalf("turn %d: unit outside the circle dead=%v, want %v (storm from turn 3)", turn, dead, turn == 3)
		}
	}
}

func TestCapture(t *testing.T) {
	// Player 0's cores are 0 (1,1) and 1 (4,1); player 1's are 2 (1,7) and 3 (4,7).
	t.Run("an enemy on an undefended core razes it and scores 2", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 2, nil, nil), nil, nil)
		m.setUnits(u(1, 1, 1), u(0, 15, 15))
		step(t, m)
		if c := m.Cores()[0]; c.Active {
			t.Fatal("core 0 with only an enemy on it is still active")
		}
		if m.Score(1) != 2 || m.Stats(1).CoresRazed != 1 || m.Stats(1).FirstRazeTurn != 1 || m.Stats(0).CoresLost != 1 {
			t.Fatalf("capturer score %d, stats %+v; want score 2, one raze in turn 1", m.Score(1), m.Stats(1))
		}
		evs := m.Events()
		if len(evs) != 1 || evs[0].Type != EventCaptured || evs[0].Core != 0 || evs[0].Player != 1 {
			t.Fatalf("events %+v, want one capture of core 0 by player 1", evs)
		}
	})
	t.Run("a defended core is not razed (the attacker loses the fight)", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 2, nil, nil), nil, nil)
		m.setUnits(u(0, 1, 1), u(0, 2, 1), u(1, 1, 1))
		step(t, m)
		if !m.Cores()[0].Active || m.Score(1) != 0 {
			t.Fatalf("defended core razed: active=%v, attacker score %d", m.Cores()[0].Active, m.Score(1))
		}
	})
	// Units of different owners cannot both survive combat on one tile, so
	// the capture rules for shared tiles are checked on the phase itself.
	t.Run("capture phase: the owner's unit on the core prevents the raze", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(3, 1, nil, nil), nil, nil, nil)
		m.setUnits(u(0, 1, 1), u(1, 1, 1))
		m.phaseCapture(1)
		if !m.Cores()[0].Active {
			t.Fatal("core razed although its owner stands on it")
		}
	})
	t.Run("capture phase: the lowest enemy player id is the capturer", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(3, 1, nil, nil), nil, nil, nil)
		m.setUnits(u(2, 1, 7), u(0, 1, 7)) // on player 1's core
		m.phaseCapture(1)
		if m.Cores()[1].Active || m.Score(0) != 2 || m.Score(2) != 0 {
			t.Fatalf("core 1 active=%v, scores %d/%d; want razed by player 0", m.Cores()[1].Active, m.Score(0), m.Score(2))
		}
	})
}

func TestCollect(t *testing.T) {
	e := Pos{Row: 10, Col: 10}
	t.Run("one player on a full energy tile gains 1 and it empties", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, []Pos{e}), nil, nil)
		m.setUnits(u(0, 10, 10))
		step(t, m)
		if m.Energy(0) != 1 || len(m.EnergyFull()) != 0 || m.Stats(0).EnergyCollected != 1 {
			t.Fatalf("energy %d, full tiles %v; want 1 and none", m.Energy(0), m.EnergyFull())
		}
	})
	t.Run("contested energy empties with no gain", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, []Pos{e}), nil, nil)
		m.setUnits(u(0, 10, 10), u(1, 10, 10))
		m.phaseCollect(1)
		if m.Energy(0) != 0 || m.Energy(1) != 0 || len(m.EnergyFull()) != 0 {
			t.Fatalf("energies %d/%d, full tiles %v; want 0/0 and the tile empty", m.Energy(0), m.Energy(1), m.EnergyFull())
		}
	})
	t.Run("an empty tile gives nothing", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, []Pos{e}), nil, nil)
		m.setUnits(u(0, 10, 10))
		m.phaseCollect(1)
		m.phaseCollect(2)
		if m.Energy(0) != 1 {
			t.Fatalf("energy %d after standing two collect phases on one tile, want 1", m.Energy(0))
		}
	})
}

func TestEnergyRefillTiming(t *testing.T) {
	for _, interval := range []int{0, 1, 10} {
		cfg := DefaultConfig()
		cfg.EnergyInterval = interval
		cfg.SpawnCost = 1000 // no spawns
		m := newTestMatch(t, cfg, testMap(2, 1, nil, []Pos{{Row: 10, Col: 10}}), nil, nil)
		m.setUnits(u(0, 10, 10)) // stands on the tile: collects whenever it is full
		var got []int
		for turn := 1; turn <= 25; turn++ {
			before := m.Energy(0)
			step(t, m)
			if m.Energy(0) > before {
				got = append(got, turn)
			}
		}
		// Emptied in turn t, full at the end of t+interval, collected in t+interval+1.
		var want []int
		for turn := 1; turn <= 25; turn += interval + 1 {
			want = append(want, turn)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("interval %d: collected in turns %v, want %v", interval, got, want)
		}
	}
}

func TestSpawn(t *testing.T) {
	t.Run("the core that spawned longest ago goes first", func(t *testing.T) {
		cfg := DefaultConfig()
		m := newTestMatch(t, cfg, testMap(2, 3, nil, nil), nil, nil)
		m.setUnits(u(1, 15, 15))
		m.cores[0].lastSpawn, m.cores[1].lastSpawn, m.cores[2].lastSpawn = 7, 3, 5
		m.players[0].energy = 3
		m.phaseSpawn(8)
		us := m.Units()
		if len(us) != 2 || us[1].Pos != m.Cores()[1].Pos || m.Energy(0) != 0 {
			t.Fatalf("units %v energy %d; want one unit on core 1 (idle since turn 3) and energy 0", us, m.Energy(0))
		}
		if m.Cores()[1].LastSpawn != 8 {
			t.Fatalf("core 1 last spawn %d, want 8", m.Cores()[1].LastSpawn)
		}
	})
	t.Run("ties go to the lowest core id; energy is deducted per unit", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 3, nil, nil), nil, nil)
		m.setUnits(u(1, 15, 15))
		m.players[0].energy = 7
		m.phaseSpawn(1)
		us := m.Units()
		if len(us) != 3 || us[1].Pos != m.Cores()[0].Pos || us[2].Pos != m.Cores()[1].Pos || m.Energy(0) != 1 {
			t.Fatalf("units %v energy %d; want units on cores 0 and 1 and energy 1", us, m.Energy(0))
		}
		if us[1].ID != 1 || us[2].ID != 2 {
			t.Fatalf("spawned ids %d, %d; want the next unused ids 1, 2", us[1].ID, us[2].ID)
		}
	})
	t.Run("an occupied core does not spawn, whoever stands on it", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(3, 2, nil, nil), nil, nil, nil)
		m.setUnits(u(0, 1, 1), u(2, 4, 1))
		m.players[0].energy = 6
		m.phaseSpawn(1)
		if n := len(m.Units()); n != 2 || m.Energy(0) != 6 {
			t.Fatalf("%d units, energy %d; want no spawn on occupied cores", n, m.Energy(0))
		}
	})
	t.Run("spawns happen in the turn loop after collect", func(t *testing.T) {
		cfg := DefaultConfig()
		cfg.SpawnCost = 1
		m := newTestMatch(t, cfg, testMap(2, 1, nil, []Pos{{Row: 10, Col: 10}}), nil, nil)
		m.setUnits(u(0, 10, 10), u(1, 1, 7))
		step(t, m)
		evs := m.Events()
		if len(evs) != 2 || evs[0].Type != EventCollected || evs[1].Type != EventSpawned || evs[1].Unit != 2 || evs[1].Core != 0 {
			t.Fatalf("events %+v; want collected then spawned unit 2 on core 0", evs)
		}
		if m.Stats(0).UnitsSpawned != 1 {
			t.Fatalf("units spawned %d, want 1", m.Stats(0).UnitsSpawned)
		}
	})
}

func TestInitialState(t *testing.T) {
	m := newTestMatch(t, DefaultConfig(), testMap(3, 2, nil, nil), nil, nil, nil)
	us := m.Units()
	if len(us) != 6 {
		t.Fatalf("%d initial units, want one per core (6)", len(us))
	}
	for i, c := range m.Cores() {
		if us[i].ID != c.ID || us[i].Owner != c.Owner || us[i].Pos != c.Pos || !c.Active || c.LastSpawn != 0 {
			t.Fatalf("unit %+v core %+v: want unit id = core id, on it, core active, last spawn 0", us[i], c)
		}
	}
	for p := 0; p < 3; p++ {
		if m.Score(p) != 0 || m.Energy(p) != 0 {
			t.Fatalf("player %d starts with score %d energy %d", p, m.Score(p), m.Energy(p))
		}
	}
}

func TestEndgame(t *testing.T) {
	t.Run("elimination when the last core falls", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, nil), nil, nil)
		m.setUnits(u(0, 15, 15), u(1, 1, 1), u(0, 12, 3))
		if !step(t, m) {
			t.Fatal("match not over after player 0's only core fell")
		}
		if m.Reason() != ReasonElimination || m.Winner() != 1 || m.Turn() != 1 {
			t.Fatalf("reason %q winner %d turn %d; want elimination, 1, 1", m.Reason(), m.Winner(), m.Turn())
		}
		if got := causes(m); !reflect.DeepEqual(got, map[int]string{0: CauseEliminated, 2: CauseEliminated}) {
			t.Fatalf("deaths %v; want player 0's units removed as eliminated", got)
		}
		res := m.Result()
		if !reflect.DeepEqual(res.Ranks, []int{2, 1}) || res.Detail.(Detail).Players[0].EliminatedTurn != 1 {
			t.Fatalf("ranks %v detail %+v", res.Ranks, res.Detail)
		}
	})
	t.Run("annihilation when nobody is left is a draw", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(2, 1, nil, nil), nil, nil)
		m.setUnits(u(1, 1, 1), u(0, 1, 7)) // each on the other's only core
		step(t, m)
		if m.Reason() != ReasonAnnihilation || m.Winner() != -1 {
			t.Fatalf("reason %q winner %d; want annihilation and no winner", m.Reason(), m.Winner())
		}
		if r := m.Result().Ranks; !reflect.DeepEqual(r, []int{1, 1}) {
			t.Fatalf("ranks %v, want a shared first place", r)
		}
	})
	t.Run("an eliminated player ranks below the survivors", func(t *testing.T) {
		m := newTestMatch(t, DefaultConfig(), testMap(3, 1, nil, nil), nil, nil, nil)
		m.cfg.MaxTurns = 1
		m.setUnits(u(1, 1, 1), u(2, 15, 15))
		m.players[0].score = 50
		step(t, m)
		if r := m.Result().Ranks; !reflect.DeepEqual(r, []int{3, 1, 2}) {
			t.Fatalf("ranks %v; want the eliminated high scorer last: [3 1 2]", r)
		}
	})
}

func TestTieBreaksAtMaxTurns(t *testing.T) {
	tests := []struct {
		name          string
		score, energy [2]int
		units         [2]int
		winner        int
		ranks         []int
	}{
		{"the higher score wins", [2]int{3, 5}, [2]int{9, 0}, [2]int{3, 1}, 1, []int{2, 1}},
		{"equal scores: more energy wins", [2]int{4, 4}, [2]int{2, 1}, [2]int{1, 3}, 0, []int{1, 2}},
		{"equal score and energy: more living units win", [2]int{4, 4}, [2]int{2, 2}, [2]int{1, 3}, 1, []int{2, 1}},
		{"all equal is a draw", [2]int{4, 4}, [2]int{2, 2}, [2]int{2, 2}, -1, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.MaxTurns = 1
			cfg.SpawnCost = 1000
			m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), nil, nil)
			var us []UnitInfo
			for p := 0; p < 2; p++ {
				for k := 0; k < tt.units[p]; k++ {
					us = append(us, u(p, 8+2*k, 2+12*p))
				}
				m.players[p].score, m.players[p].energy = tt.score[p], tt.energy[p]
			}
			m.setUnits(us...)
			if !step(t, m) {
				t.Fatal("match not over at max_turns")
			}
			if m.Reason() != ReasonTurns || m.Winner() != tt.winner || !reflect.DeepEqual(m.Result().Ranks, tt.ranks) {
				t.Fatalf("reason %q winner %d ranks %v; want turns, %d, %v", m.Reason(), m.Winner(), m.Result().Ranks, tt.winner, tt.ranks)
			}
		})
	}
}

func TestDist2Wraps(t *testing.T) {
	tests := []struct {
		name string
		a, b Pos
		want int
	}{
		{"same tile", Pos{3, 3}, Pos{3, 3}, 0},
		{"straight", Pos{3, 3}, Pos{3, 8}, 25},
		{"diagonal", Pos{0, 0}, Pos{3, 4}, 25},
		{"wraps on columns", Pos{5, 0}, Pos{5, 19}, 1},
		{"wraps on rows", Pos{0, 5}, Pos{18, 5}, 4},
		{"wraps on both", Pos{0, 0}, Pos{19, 19}, 2},
		{"half way is the longest", Pos{0, 0}, Pos{10, 10}, 200},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Dist2(tt.a, tt.b, 20, 20); got != tt.want {
				t.Fatalf("Dist2(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
			}
			if got := Dist2(tt.b, tt.a, 20, 20); got != tt.want {
				t.Fatalf("Dist2 is not symmetric: %d", got)
			}
		})
	}
}

// TestCombatMatchesTheFormula compares the combat phase with a direct
// reading of the rule on random crowds, for radii that use the per-row
// search and ones that fall back to all pairs.
func TestCombatMatchesTheFormula(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, ar2 := range []int{1, 2, 5, 25, 50, 200} {
		for trial := 0; trial < 40; trial++ {
			cfg := DefaultConfig()
			cfg.AttackRadius2 = ar2
			m := newTestMatch(t, cfg, testMap(3, 1, nil, nil), nil, nil, nil)
			taken := map[UnitInfo]bool{}
			var us []UnitInfo
			for len(us) < 40 {
				x := u(rng.IntN(3), rng.IntN(20), rng.IntN(20))
				if !taken[x] {
					taken[x] = true
					us = append(us, x)
				}
			}
			m.setUnits(us...)
			// The rule, read directly.
			enemies := func(i int) []int {
				var out []int
				for j := range us {
					if us[j].Owner != us[i].Owner && Dist2(us[i].Pos, us[j].Pos, 20, 20) <= ar2 {
						out = append(out, j)
					}
				}
				return out
			}
			wantDead := map[int]string{}
			wantScore := make([]int, 3)
			for i := range us {
				ei := enemies(i)
				dies := false
				for _, e := range ei {
					if len(enemies(e)) <= len(ei) {
						dies = true
					}
				}
				if dies {
					wantDead[i] = CauseCombat
					scored := map[int]bool{}
					for _, e := range ei {
						scored[us[e].Owner] = true
					}
					for p := range scored {
						wantScore[p]++
					}
				}
			}
			m.phaseCombat(1)
			gotDead := map[int]string{}
			for _, e := range m.events {
				gotDead[e.Unit] = e.Cause
			}
			gotScore := []int{m.Score(0), m.Score(1), m.Score(2)}
			if !reflect.DeepEqual(gotDead, wantDead) || !reflect.DeepEqual(gotScore, wantScore) {
				t.Fatalf("ar2 %d trial %d: deaths %v scores %v, want %v %v", ar2, trial, gotDead, gotScore, wantDead, wantScore)
			}
		}
	}
}
