package acb

import "testing"

func TestWrap(t *testing.T) {
	tests := []struct {
		in, want Pos
	}{
		{Pos{Row: 3, Col: 5}, Pos{Row: 3, Col: 5}},
		{Pos{Row: -1, Col: -1}, Pos{Row: 15, Col: 19}},
		{Pos{Row: 16, Col: 20}, Pos{Row: 0, Col: 0}},
		{Pos{Row: -33, Col: 41}, Pos{Row: 15, Col: 1}},
	}
	for _, tt := range tests {
		if got := Wrap(tt.in, 16, 20); got != tt.want {
			t.Errorf("Wrap(%v) on 16x20 = %v, want %v", tt.in, got, tt.want)
		}
	}
	// A step is the wrapped neighbour.
	for _, p := range []Pos{{Row: 0, Col: 0}, {Row: 15, Col: 19}, {Row: 7, Col: 0}} {
		for _, d := range []Dir{North, East, South, West} {
			dr, dc := d.Delta()
			if got, want := Wrap(Pos{Row: p.Row + dr, Col: p.Col + dc}, 16, 20), Step(p, d, 16, 20); got != want {
				t.Errorf("Wrap of %v moved %v = %v, Step gives %v", p, d, got, want)
			}
		}
	}
}

// TestMapCenter: the centre is the fixed point of the 2- and 4-player map
// symmetries and the centre of the storm a match shows in its views.
func TestMapCenter(t *testing.T) {
	for _, tc := range []struct{ players, rows, cols int }{{2, 40, 40}, {2, 41, 37}, {4, 40, 40}, {4, 33, 33}} {
		c := MapCenter(tc.rows, tc.cols)
		syms, err := MapSymmetries(tc.players, tc.rows, tc.cols)
		if err != nil {
			t.Fatal(err)
		}
		for i, s := range syms {
			if got := s.Apply(c, tc.rows, tc.cols); got != c {
				t.Errorf("%d players on %dx%d: symmetry %d moves the centre %v to %v", tc.players, tc.rows, tc.cols, i, c, got)
			}
		}
	}
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.ZoneEnabled = 30, 44, true
	m, err := NewMatch(cfg, nil, 7, []Controller{Idle{}, Idle{}})
	if err != nil {
		t.Fatal(err)
	}
	want := MapCenter(m.Config().Rows, m.Config().Cols)
	if z := m.View(0).Zone; z == nil || z.Center != want {
		t.Fatalf("view's zone %+v, want centre %v", z, want)
	}
	if got := m.mp.Centers(); len(got) != 1 || got[0] != want {
		t.Fatalf("the map's zone centres are %v, want [%v]", got, want)
	}
}
