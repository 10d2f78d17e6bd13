package acb

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestCombatThroughStep(t *testing.T) {
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

// TestPhaseCombat calls the combat phase on boards. Rule (shared/specs/acb.md,
// "One turn, in order", 2): "For every living unit u, enemies(u) = enemy
// units within attack_radius2 of u (same tile included), counted before
// anyone dies. u dies if some enemy e in enemies(u) has |enemies(e)| <=
// |enemies(u)|. All deaths are simultaneous. For each unit that died in
// combat, every other player that had a unit within attack_radius2 of it
// when combat began (dying or not) scores kill_score." "Within r2" means
// dist2 <= r2, the shorter way round each axis ("Geometry").
func TestPhaseCombat(t *testing.T) {
	tests := []struct {
		name          string
		ar2, kill     int
		before, after string
		prep          func(m *Match)
		died          []string
		scores        []int
	}{
		{name: "1 vs 1 in range: both die and both score",
			ar2: 4, before: `0 . 1 . . . .`, after: `. . . . . . .`,
			died: []string{"p0 (0,0) combat", "p1 (0,2) combat"}, scores: []int{1, 1}},
		{name: "dist2 equal to attack_radius2 is within range",
			ar2: 5, before: `0 . . . . . .
			                 . . 1 . . . .`, after: `. . . . . . .
			                                          . . . . . . .`,
			died: []string{"p0 (0,0) combat", "p1 (1,2) combat"}, scores: []int{1, 1}},
		{name: "dist2 one beyond attack_radius2 is out of range",
			ar2: 4, before: `0 . . . . . .
			                 . . 1 . . . .`, after: `0 . . . . . .
			                                          . . 1 . . . .`,
			died: []string{}, scores: []int{0, 0}},
		{name: "enemies on the same tile fight",
			ar2: 1, before: `. 01 . . .`, after: `. . . . .`,
			died: []string{"p0 (0,1) combat", "p1 (0,1) combat"}, scores: []int{1, 1}},
		{name: "range wraps around the edge of the grid",
			ar2: 1, before: `0 . . . . . 1`, after: `. . . . . . .`,
			died: []string{"p0 (0,0) combat", "p1 (0,6) combat"}, scores: []int{1, 1}},
		{name: "2 vs 1: only the single unit dies",
			ar2: 4, before: `. 0 0 1 . . .`, after: `. 0 0 . . . .`,
			died: []string{"p1 (0,3) combat"}, scores: []int{1, 0}},
		{name: "enemies are counted before anyone dies (a 1-2-1 chain)",
			ar2: 4, before: `0 . 1 . 0 . . . .`, after: `0 . . . 0 . . . .`,
			died: []string{"p1 (0,2) combat"}, scores: []int{1, 0}},
		{name: "3 vs 2: the pair dies, the three survive",
			ar2: 25, before: `0 . . 1 . . . .
			                  0 . . 1 . . . .
			                  0 . . . . . . .`, after: `0 . . . . . . .
			                                            0 . . . . . . .
			                                            0 . . . . . . .`,
			died: []string{"p1 (0,3) combat", "p1 (1,3) combat"}, scores: []int{2, 0}},
		{name: "a unit between two other players dies and both score",
			ar2: 4, before: `0 . 1 . 2 . . . .`, after: `0 . . . 2 . . . .`,
			died: []string{"p1 (0,2) combat"}, scores: []int{1, 0, 1}},
		{name: "every other player in range scores, dying or not",
			ar2: 4, before: `0 2 1 . . . .`, after: `. . . . . . .`,
			died:   []string{"p0 (0,0) combat", "p2 (0,1) combat", "p1 (0,2) combat"},
			scores: []int{2, 2, 2}},
		{name: "each kill scores kill_score",
			ar2: 4, kill: 5, before: `. 0 0 1 . . .`, after: `. 0 0 . . . .`,
			died: []string{"p1 (0,3) combat"}, scores: []int{5, 0}},
		{name: "a unit that died in the move phase takes no part in combat",
			ar2: 4, before: `0 . 1 . . . .`, after: `. . 1 . . . .`,
			prep: func(m *Match) { m.units[0].cause = CauseCollision },
			died: []string{}, scores: []int{0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.AttackRadius2 = tt.ar2
			if tt.kill > 0 {
				cfg.KillScore = tt.kill
			}
			m := board(t, cfg, 1, tt.before)
			if tt.prep != nil {
				tt.prep(m)
			}
			m.phaseCombat(1)
			wantBoard(t, m, false, tt.after)
			if got := deathList(m); !reflect.DeepEqual(got, tt.died) {
				t.Errorf("deaths %q, want %q", got, tt.died)
			}
			if got := scoresOf(m); !reflect.DeepEqual(got, tt.scores) {
				t.Errorf("scores %v, want %v", got, tt.scores)
			}
		})
	}
}
