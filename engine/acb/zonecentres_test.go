package acb

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Zone, phase 3: "the zone's centres are the orbit of the tile (rows/2,
// cols/2) under the map's symmetries, duplicates removed: one centre when
// the symmetry fixes that tile, several when seats are related by
// translations (3 and 6 players, non-square 4-player maps)". A generated
// map lists them as zone_centers.
func TestGeneratedMapsListTheOrbitOfTheCentre(t *testing.T) {
	tests := []struct {
		players, rows, cols int
		want                []Pos
	}{
		{2, 40, 40, []Pos{{20, 20}}},
		{2, 30, 44, []Pos{{15, 22}}},
		{4, 40, 40, []Pos{{20, 20}}},
		{4, 40, 30, []Pos{{0, 0}, {20, 15}}},
		{3, 40, 40, []Pos{{6, 6}, {19, 19}, {32, 32}}}, // played as 39x39
		{6, 40, 40, []Pos{{6, 6}, {19, 19}, {32, 32}}},
		{3, 30, 45, []Pos{{5, 7}, {15, 22}, {25, 37}}},
	}
	for _, tt := range tests {
		cfg := DefaultConfig()
		cfg.Rows, cfg.Cols = tt.rows, tt.cols
		for seed := uint64(1); seed <= 3; seed++ {
			m, err := GenerateMap(cfg, tt.players, seed)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.ZoneCenters, tt.want) {
				t.Errorf("%d players %dx%d seed %d: zone_centers %v, want %v", tt.players, tt.rows, tt.cols, seed, m.ZoneCenters, tt.want)
			}
			group, err := MapSymmetries(tt.players, m.Rows, m.Cols)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range group {
				for _, c := range m.ZoneCenters {
					if q := s.Apply(c, m.Rows, m.Cols); !slices.Contains(m.ZoneCenters, q) {
						t.Errorf("%d players: symmetry %+v carries centre %v off the centres to %v", tt.players, s, c, q)
					}
				}
			}
			if err := m.CheckFair(); err != nil {
				t.Errorf("%d players seed %d: generated map is unfair: %v", tt.players, seed, err)
			}
		}
	}
}

// Fairness by symmetry: every seat stands in the same relation to the
// storm. For every seat, the wrapped distances of its cores to the nearest
// centre are the same as seat 0's, and every tile is as safe as its image
// under each symmetry of the map (so a seat's whole surroundings meet the
// storm alike), for 2, 3, 4 and 6 players.
func TestZoneIsFairForEverySeat(t *testing.T) {
	nearest := func(m *Map, p Pos) int {
		best := -1
		for _, c := range m.Centers() {
			if d := Dist2(p, c, m.Rows, m.Cols); best < 0 || d < best {
				best = d
			}
		}
		return best
	}
	for _, players := range []int{2, 3, 4, 6} {
		for seed := uint64(1); seed <= 12; seed++ {
			cfg := DefaultConfig()
			m, err := GenerateMap(cfg, players, seed)
			if err != nil {
				t.Fatal(err)
			}
			perSeat := make([][]int, players)
			for _, c := range m.Cores {
				perSeat[c.Owner] = append(perSeat[c.Owner], nearest(m, c.Pos()))
			}
			for p := range perSeat {
				slices.Sort(perSeat[p])
				if !slices.Equal(perSeat[p], perSeat[0]) {
					t.Fatalf("%d players seed %d: seat %d's cores are %v (dist2) from the nearest centre, seat 0's %v", players, seed, p, perSeat[p], perSeat[0])
				}
			}
			for _, s := range m.Symmetries() {
				for r := 0; r < m.Rows; r += 3 {
					for c := 0; c < m.Cols; c += 2 {
						p := Pos{Row: r, Col: c}
						if a, b := nearest(m, p), nearest(m, s.Apply(p, m.Rows, m.Cols)); a != b {
							t.Fatalf("%d players seed %d: tile %v is %d from the storm's centres, its image under %+v is %d", players, seed, p, a, s.Symmetry, b)
						}
					}
				}
			}
		}
	}
}

// The state sent to bots carries zone {"center", "centers", "radius"} when
// enabled: center is the first centre, centers all of them.
func TestViewCarriesEveryCentre(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ZoneEnabled = true
	m, err := NewMatch(cfg, nil, 5, []Controller{Idle{}, Idle{}, Idle{}})
	if err != nil {
		t.Fatal(err)
	}
	v := m.View(1)
	want := []Pos{{6, 6}, {19, 19}, {32, 32}}
	if v.Zone == nil || !slices.Equal(v.Zone.Centers, want) || v.Zone.Center != want[0] {
		t.Fatalf("view zone %+v, want centres %v with center %v", v.Zone, want, want[0])
	}
	b, err := json.Marshal(v.Zone)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); got != `{"center":{"row":6,"col":6},"centers":[{"row":6,"col":6},{"row":19,"col":19},{"row":32,"col":32}],"radius":19}` {
		t.Fatalf("zone JSON %s", got)
	}
}

// Map files: "a map file without zone_centers uses (rows/2, cols/2)
// alone"; zone_centers round-trip through the map JSON; centres off the
// grid or repeated are refused, and CheckFair refuses centres that the
// map's symmetries do not carry onto centres.
func TestMapFileZoneCentres(t *testing.T) {
	cfg := DefaultConfig()
	gen, err := GenerateMap(cfg, 3, 4)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(gen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"zone_centers":[{"row":6,"col":6},{"row":19,"col":19},{"row":32,"col":32}]`) {
		t.Fatalf("generated map JSON lacks its zone_centers: %.200s...", data)
	}
	back, err := ParseMap(data)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Centers(), gen.ZoneCenters) {
		t.Fatalf("round trip: centres %v, want %v", back.Centers(), gen.ZoneCenters)
	}

	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	write := func(centres any) []byte {
		if centres == nil {
			delete(raw, "zone_centers")
		} else {
			raw["zone_centers"] = centres
		}
		b, err := json.Marshal(raw)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	bare, err := ParseMap(write(nil))
	if err != nil {
		t.Fatal(err)
	}
	if got := bare.Centers(); !slices.Equal(got, []Pos{{19, 19}}) {
		t.Fatalf("a map without zone_centers has centres %v, want the map centre alone", got)
	}
	for _, tc := range []struct {
		centres any
		want    string
	}{
		{[]map[string]int{{"row": 39, "col": 2}}, "zone_centers[0] at (39,2) is outside the 39x39 grid"},
		{[]map[string]int{{"row": 6, "col": 6}, {"row": 6, "col": 6}}, "zone_centers[1] at (6,6) repeats zone_centers[0]"},
	} {
		if _, err := ParseMap(write(tc.centres)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("centres %v: error %v, want %q", tc.centres, err, tc.want)
		}
	}
	lopsided, err := ParseMap(write([]map[string]int{{"row": 6, "col": 6}}))
	if err != nil {
		t.Fatal(err)
	}
	if err := lopsided.CheckFair(); err == nil || !strings.Contains(err.Error(), "zone centres are not symmetric like the seats") {
		t.Fatalf("one centre of three on a 3-player map: CheckFair %v", err)
	}
}
