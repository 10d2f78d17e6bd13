package acb

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// torusIsometries lists the linear parts of the grid's isometries: the
// eight rotations and reflections of a square grid, or the four that keep
// the axes of a non-square one.
func torusIsometries(rows, cols int) [][4]int {
	out := [][4]int{{1, 0, 0, 1}, {-1, 0, 0, 1}, {1, 0, 0, -1}, {-1, 0, 0, -1}}
	if rows == cols {
		out = append(out, [4]int{0, 1, 1, 0}, [4]int{0, -1, 1, 0}, [4]int{0, 1, -1, 0}, [4]int{0, -1, -1, 0})
	}
	return out
}

// seatEquivalence checks, without trusting the generator, that for every
// seat j some isometry of the wrapping grid maps the whole map onto itself
// (walls, energy, cores, keeping owners together) and seat 0's cores onto
// seat j's. It returns a description of the first seat without one.
func seatEquivalence(m *Map) error {
	R, C := m.Rows, m.Cols
	walls := map[Pos]bool{}
	for _, p := range m.Walls {
		walls[p] = true
	}
	energy := map[Pos]bool{}
	for _, p := range m.Energy {
		energy[p] = true
	}
	owner := map[Pos]int{}
	for _, c := range m.Cores {
		owner[c.Pos()] = c.Owner
	}
	var first Pos
	for _, c := range m.Cores {
		if c.Owner == 0 {
			first = c.Pos()
			break
		}
	}
	for j := 1; j < m.Players(); j++ {
		found := false
		for _, L := range torusIsometries(R, C) {
			apply0 := func(p Pos) Pos { return Pos{L[0]*p.Row + L[1]*p.Col, L[2]*p.Row + L[3]*p.Col} }
			for _, target := range m.Cores {
				if target.Owner != j || found {
					continue
				}
				l := apply0(first)
				tr, tc := target.Row-l.Row, target.Col-l.Col
				g := func(p Pos) Pos { q := apply0(p); return Pos{wrap(q.Row+tr, R), wrap(q.Col+tc, C)} }
				ok := true
				for p := range walls {
					if !walls[g(p)] {
						ok = false
						break
					}
				}
				for p := range energy {
					if !ok || !energy[g(p)] {
						ok = false
						break
					}
				}
				perm := map[int]int{}
				for p, o := range owner {
					if !ok {
						break
					}
					o2, isCore := owner[g(p)]
					if prev, seen := perm[o]; !isCore || seen && prev != o2 {
						ok = false
						break
					}
					perm[o] = o2
				}
				found = ok && perm[0] == j
			}
		}
		if !found {
			return fmt.Errorf("no symmetry of the grid maps seat 0 onto seat %d", j)
		}
	}
	return nil
}

func TestGeneratedMapsObeyTheRules(t *testing.T) {
	type size struct{ rows, cols int }
	cases := []struct {
		players int
		sizes   []size
		seeds   int
	}{
		{2, []size{{40, 40}, {16, 16}, {25, 60}}, 60},
		{3, []size{{40, 40}, {16, 16}, {45, 30}}, 60},
		{4, []size{{40, 40}, {21, 21}, {30, 50}}, 60},
		{6, []size{{40, 40}, {60, 60}}, 60},
	}
	if testing.Short() {
		for i := range cases {
			cases[i].seeds = 10
		}
	}
	for _, tc := range cases {
		for _, sz := range tc.sizes {
			t.Run(fmt.Sprintf("%d players %dx%d", tc.players, sz.rows, sz.cols), func(t *testing.T) {
				cfg := DefaultConfig()
				cfg.Rows, cfg.Cols = sz.rows, sz.cols
				for seed := uint64(0); seed < uint64(tc.seeds); seed++ {
					m, err := GenerateMap(cfg, tc.players, seed)
					if err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
					checkGeneratedMap(t, m, tc.players, cfg.CoresPerPlayer, seed)
				}
			})
		}
	}
}

func checkGeneratedMap(t *testing.T, m *Map, players, cpp int, seed uint64) {
	t.Helper()
	n := m.Rows * m.Cols
	if err := m.Validate(); err != nil {
		t.Fatalf("seed %d: generated map does not validate: %v", seed, err)
	}
	if m.Players() != players || m.CoresPerPlayer() != cpp {
		t.Fatalf("seed %d: %d players with %d cores, want %d with %d", seed, m.Players(), m.CoresPerPlayer(), players, cpp)
	}
	if err := seatEquivalence(m); err != nil {
		t.Fatalf("seed %d: %v\n%s", seed, err, m.ASCII())
	}
	if err := m.CheckFair(); err != nil {
		t.Fatalf("seed %d: a generated map is not fair: %v", seed, err)
	}
	// Every open tile reachable from every core (a flood fill of its own).
	wall := map[Pos]bool{}
	for _, p := range m.Walls {
		wall[p] = true
	}
	open := n - len(m.Walls)
	for _, c := range m.Cores {
		seen := map[Pos]bool{c.Pos(): true}
		stack := []Pos{c.Pos()}
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for d := North; d <= West; d++ {
				q := Step(p, d, m.Rows, m.Cols)
				if !wall[q] && !seen[q] {
					seen[q] = true
					stack = append(stack, q)
				}
			}
		}
		if len(seen) != open {
			t.Fatalf("seed %d: core %d reaches %d of %d open tiles", seed, c.ID, len(seen), open)
		}
		if c.Owner > 0 {
			break // connectivity is symmetric: one core of another seat shows it too
		}
	}
	// Cores of different seats at least 8 tiles apart.
	for _, a := range m.Cores {
		for _, b := range m.Cores {
			if a.Owner != b.Owner && Dist2(a.Pos(), b.Pos(), m.Rows, m.Cols) < 64 {
				t.Fatalf("seed %d: cores %d and %d are only sqrt(%d) apart", seed, a.ID, b.ID, Dist2(a.Pos(), b.Pos(), m.Rows, m.Cols))
			}
		}
	}
	if frac := float64(len(m.Walls)) / float64(n); frac < 0.10 || frac > 0.15 {
		t.Fatalf("seed %d: walls are %.1f%% of the tiles, want 10-15%%", seed, 100*frac)
	}
	e := len(m.Energy)
	if e < 4*players || e%players != 0 || e > max(4*players, n/100+players) || e < n/100-players {
		t.Fatalf("seed %d: %d energy tiles on %d tiles for %d players", seed, e, n, players)
	}
}

func TestGenerateMapIsDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	for _, players := range []int{2, 3, 4, 6} {
		a, err := GenerateMap(cfg, players, 42)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := GenerateMap(cfg, players, 42)
		c, _ := GenerateMap(cfg, players, 43)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("%d players: the same seed gave different maps", players)
		}
		if reflect.DeepEqual(a, c) {
			t.Fatalf("%d players: seeds 42 and 43 gave the same map", players)
		}
	}
}

func TestMapSize(t *testing.T) {
	tests := []struct {
		name          string
		players, r, c int
		wantR, wantC  int
	}{
		{"2 players keep any size", 2, 41, 37, 41, 37},
		{"3 players round down to multiples of 3", 3, 40, 40, 39, 39},
		{"3 players never go below 16", 3, 16, 17, 18, 18},
		{"6 players as 3", 6, 200, 100, 198, 99},
		{"4 players on a square keep it", 4, 41, 41, 41, 41},
		{"4 players on a non-square need even sides", 4, 41, 30, 40, 30},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if r, c := MapSize(tt.players, tt.r, tt.c); r != tt.wantR || c != tt.wantC {
				t.Fatalf("MapSize(%d, %d, %d) = %dx%d, want %dx%d", tt.players, tt.r, tt.c, r, c, tt.wantR, tt.wantC)
			}
		})
	}
}

func TestGenerateMapErrors(t *testing.T) {
	cfg := DefaultConfig()
	if _, err := GenerateMap(cfg, 5, 1); err == nil || !strings.Contains(err.Error(), "2, 3, 4 or 6 players, not 5") {
		t.Fatalf("5 players: err = %v", err)
	}
	cfg.Rows, cfg.Cols, cfg.CoresPerPlayer = 16, 16, 8
	if _, err := GenerateMap(cfg, 6, 1); err == nil || !strings.Contains(err.Error(), "could not generate") {
		t.Fatalf("48 cores on 18x18: err = %v", err)
	}
}

func TestSeatEquivalenceCheckerNoticesABrokenMap(t *testing.T) {
	for _, players := range []int{2, 3, 4, 6} {
		m, err := GenerateMap(DefaultConfig(), players, 8)
		if err != nil {
			t.Fatal(err)
		}
		broken := m.Clone()
		broken.Walls = broken.Walls[1:]
		if seatEquivalence(broken) == nil {
			t.Fatalf("%d players: removing one wall kept every seat equivalent", players)
		}
		moved := m.Clone()
		moved.Cores[0].Col = wrap(moved.Cores[0].Col+1, moved.Cols)
		if seatEquivalence(moved) == nil {
			t.Fatalf("%d players: moving one core kept every seat equivalent", players)
		}
	}
}
