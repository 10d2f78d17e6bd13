package acb

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// duelMap is a hand-made fair 16x16 map for two: cores at (2,2) and
// (14,14), one energy tile at (8,8), the centre of the 180-degree rotation
// (r, c) -> (-r, -c) that carries one seat onto the other, and walls given
// with their images.
func duelMap(walls ...Pos) *Map {
	m := &Map{Rows: 16, Cols: 16, Energy: []Pos{{8, 8}},
		Cores: []Core{{ID: 0, Owner: 0, Row: 2, Col: 2}, {ID: 1, Owner: 1, Row: 14, Col: 14}}}
	for _, w := range walls {
		m.Walls = append(m.Walls, w, Pos{Row: wrap(-w.Row, 16), Col: wrap(-w.Col, 16)})
	}
	return m
}

// pocketed walls in an open tile of m away from cores and energy, with
// every image under MapSymmetries, so the map stays symmetric and valid
// but has unreachable open tiles.
func pocketed(t *testing.T, m *Map) *Map {
	t.Helper()
	group, err := MapSymmetries(m.Players(), m.Rows, m.Cols)
	if err != nil {
		t.Fatal(err)
	}
	taken := map[Pos]bool{}
	for _, p := range append(slices.Clone(m.Walls), m.Energy...) {
		taken[p] = true
	}
	for _, c := range m.Cores {
		taken[c.Pos()] = true
	}
	for r := 0; r < m.Rows; r++ {
		for c := 0; c < m.Cols; c++ {
			p := Pos{Row: r, Col: c}
			ring := []Pos{Step(p, North, m.Rows, m.Cols), Step(p, East, m.Rows, m.Cols), Step(p, South, m.Rows, m.Cols), Step(p, West, m.Rows, m.Cols)}
			if taken[p] || slices.ContainsFunc(ring, func(q Pos) bool { return taken[q] }) {
				continue
			}
			try := m.Clone()
			for _, s := range group {
				for _, q := range ring {
					try.Walls = append(try.Walls, s.Apply(q, m.Rows, m.Cols))
				}
			}
			slices.SortFunc(try.Walls, cmpPos)
			try.Walls = slices.Compact(try.Walls)
			if try.Validate() == nil {
				return try
			}
		}
	}
	t.Fatal("no tile to enclose")
	return nil
}

// TestCheckFair checks each reason a map file is refused, and that fair
// maps pass. Rule (shared/specs/acb.md, "Maps"): "for every seat, some
// symmetry of the torus (a rotation by 90 degrees on square grids or 180
// degrees, followed by a translation, or a translation alone) maps seat 0's
// cores and all walls and energy onto that seat's cores and the same walls
// and energy ..., and every open tile is reachable from every core". Files
// need at least one energy tile (generated maps: at least 4 per player).
func TestCheckFair(t *testing.T) {
	gen := func(players int, seed uint64) *Map {
		m, err := GenerateMap(DefaultConfig(), players, seed)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	tests := []struct {
		name string
		m    *Map
		want []string // reasons; none: fair
	}{
		{"a hand-made duel map with one energy tile is fair", duelMap(Pos{5, 5}, Pos{5, 6}), nil},
		{"generated maps are fair (2 players)", gen(2, 3), nil},
		{"generated maps are fair (3 players: translations)", gen(3, 3), nil},
		{"generated maps are fair (4 players: 90-degree rotations)", gen(4, 3), nil},
		{"generated maps are fair (6 players)", gen(6, 3), nil},
		{"a wall without its image makes the seats unequal", func() *Map {
			m := duelMap(Pos{5, 5})
			m.Walls = m.Walls[:1]
			return m
		}(), []string{"seat(s) 1 not equivalent to seat 0"}},
		{"a moved core makes the seats unequal", func() *Map {
			m := gen(4, 5)
			m.Cores[5].Col = wrap(m.Cores[5].Col+1, m.Cols)
			return m
		}(), []string{"seat(s) 1, 2, 3 not equivalent to seat 0"}},
		{"energy on one side only makes the seats unequal", func() *Map {
			m := duelMap()
			m.Energy = append(m.Energy, Pos{4, 4})
			return m
		}(), []string{"seat(s) 1 not equivalent to seat 0"}},
		{"a map without energy", func() *Map {
			m := gen(2, 4)
			m.Energy = nil
			return m
		}(), []string{"has no energy tile"}},
		{"open tiles no core can reach", pocketed(t, gen(2, 6)), []string{"open tile(s) cannot be reached from the cores"}},
		{"every reason at once", func() *Map {
			m := pocketed(t, gen(3, 7))
			m.Energy = nil
			m.Walls = m.Walls[1:]
			return m
		}(), []string{"has no energy tile", "cannot be reached", "seat(s) 1, 2 not equivalent to seat 0"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.m.Validate(); err != nil {
				t.Fatalf("the case's map is not valid: %v", err)
			}
			err := tt.m.CheckFair()
			if len(tt.want) == 0 {
				if err != nil {
					t.Fatalf("CheckFair = %v, want a fair map", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("CheckFair accepted the map, want %q", tt.want)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tt.want) {
				t.Fatalf("CheckFair gave %d reason(s), want %d:\n%v", len(lines), len(tt.want), err)
			}
			for i, w := range tt.want {
				if !strings.Contains(lines[i], w) {
					t.Fatalf("reason %d is %q, want one containing %q", i, lines[i], w)
				}
			}
		})
	}
	if err := (&Map{Rows: 8, Cols: 20}).CheckFair(); err == nil || !strings.Contains(err.Error(), "rows = 8") {
		t.Fatalf("an invalid map: CheckFair = %v, want the Validate error", err)
	}
}

// TestMapSymmetriesFindTheGeneratorsGroup checks Map.Symmetries against the
// group GenerateMap builds maps for: every element of MapSymmetries is
// found, with the seat it carries seat 0 to, and the identity comes first.
func TestMapSymmetriesFindTheGeneratorsGroup(t *testing.T) {
	for _, tc := range []struct{ players, rows, cols int }{{2, 40, 40}, {2, 25, 60}, {3, 39, 39}, {4, 40, 40}, {4, 30, 50}, {6, 42, 42}} {
		t.Run(fmt.Sprintf("%d players %dx%d", tc.players, tc.rows, tc.cols), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Rows, cfg.Cols = tc.rows, tc.cols
			m, err := GenerateMap(cfg, tc.players, 11)
			if err != nil {
				t.Fatal(err)
			}
			found := m.Symmetries()
			if len(found) == 0 || found[0].Symmetry != linIdentity || !slices.Equal(found[0].Seats, []int{0, 1, 2, 3, 4, 5}[:tc.players]) {
				t.Fatalf("first symmetry %+v, want the identity", found)
			}
			group, _ := MapSymmetries(tc.players, m.Rows, m.Cols)
			for i, g := range group {
				g.DR, g.DC = wrap(g.DR, m.Rows), wrap(g.DC, m.Cols)
				k := slices.IndexFunc(found, func(s MapSymmetry) bool { return s.Symmetry == g })
				if k < 0 {
					t.Fatalf("the generator's symmetry %d %+v is not among the %d found", i, g, len(found))
				}
				if found[k].Seats[0] != i {
					t.Fatalf("symmetry %+v carries seat 0 to %d, want %d", g, found[k].Seats[0], i)
				}
			}
			// Every symmetry found maps the map onto itself: an independent
			// check through the map's own lists.
			for _, s := range found {
				img := &Map{Rows: m.Rows, Cols: m.Cols}
				for _, p := range m.Walls {
					img.Walls = append(img.Walls, s.Apply(p, m.Rows, m.Cols))
				}
				for _, p := range m.Energy {
					img.Energy = append(img.Energy, s.Apply(p, m.Rows, m.Cols))
				}
				img.normalize()
				if !slices.Equal(img.Walls, m.Walls) || !slices.Equal(img.Energy, m.Energy) {
					t.Fatalf("symmetry %+v does not map the walls and energy onto themselves", s.Symmetry)
				}
			}
		})
	}
}

// TestMapSymmetriesKeepSeatsTogether: a symmetry must carry all of one
// seat's cores onto one seat. On this map the 90-degree rotation maps
// every core onto a core but splits seat 0's between seats 1 and 0, so
// only the identity and the 180-degree rotation (which swaps the seats)
// are symmetries.
func TestMapSymmetriesKeepSeatsTogether(t *testing.T) {
	m := &Map{Rows: 16, Cols: 16, Energy: []Pos{{8, 8}}, Cores: []Core{
		{ID: 0, Owner: 0, Row: 2, Col: 2}, {ID: 1, Owner: 0, Row: 14, Col: 2},
		{ID: 2, Owner: 1, Row: 2, Col: 14}, {ID: 3, Owner: 1, Row: 14, Col: 14}}}
	got := m.Symmetries()
	want := []MapSymmetry{{Symmetry: linIdentity, Seats: []int{0, 1}}, {Symmetry: linRot180, Seats: []int{1, 0}}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("symmetries %+v, want %+v", got, want)
	}
	if err := m.CheckFair(); err != nil {
		t.Fatalf("the map is fair through the 180-degree rotation: %v", err)
	}
}
