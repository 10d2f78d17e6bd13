package acb

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// fogMap is a 40x40 map with one core per player in the top rows, far
// from the action around row 20.
func fogMap(players int, walls, energy []Pos) *Map {
	m := &Map{Rows: 40, Cols: 40, Walls: walls, Energy: energy}
	for p := 0; p < players; p++ {
		m.Cores = append(m.Cores, Core{ID: p, Owner: p, Row: 1, Col: 1 + 3*p})
	}
	return m
}

func TestFogShowsAndHides(t *testing.T) {
	walls := []Pos{{17, 20}, {20, 12}, {13, 20}}
	energy := []Pos{{22, 22}, {30, 30}}
	m := newTestMatch(t, DefaultConfig(), fogMap(2, walls, energy), nil, nil)
	m.setUnits(u(1, 24, 25), u(0, 20, 20), u(1, 20, 28), u(1, 25, 25), u(1, 20, 27))
	v := m.View(0)
	wantBots := []Unit{{Pos{20, 20}, 0}, {Pos{20, 27}, 1}, {Pos{24, 25}, 1}} // dist2 0, 49, 41
	if !reflect.DeepEqual(v.Bots, wantBots) {
		t.Errorf("bots %v, want %v (dist2 49 seen; 64 and 50 hidden; sorted by row, col)", v.Bots, wantBots)
	}
	if want := []Pos{{13, 20}, {17, 20}}; !reflect.DeepEqual(v.Walls, want) {
		t.Errorf("walls %v, want %v", v.Walls, want)
	}
	if want := []Pos{{22, 22}}; !reflect.DeepEqual(v.Energy, want) {
		t.Errorf("energy %v, want %v", v.Energy, want)
	}
	// Own core seen from itself, the enemy core 3 tiles away through it.
	wantCores := []CoreView{{Pos{1, 1}, 0, true}, {Pos{1, 4}, 1, true}}
	if !reflect.DeepEqual(v.Cores, wantCores) {
		t.Errorf("cores %v, want %v", v.Cores, wantCores)
	}
	if v.Turn != 0 || v.You != (PlayerInfo{ID: 0}) || v.Zone != nil || v.Config != m.Config() {
		t.Errorf("turn %d you %+v zone %v; want turn 0, player 0, no zone, the match config", v.Turn, v.You, v.Zone)
	}
	if len(v.Dead) != 0 {
		t.Errorf("dead %v before any turn", v.Dead)
	}
	// Player 1 sees from each of its units and from its core.
	v1 := m.View(1)
	if len(v1.Bots) != 5 {
		t.Errorf("player 1 sees %d units, want all 5", len(v1.Bots))
	}
}

func TestFogHidesEmptyEnergy(t *testing.T) {
	m := newTestMatch(t, DefaultConfig(), fogMap(2, nil, []Pos{{20, 21}}), nil, nil)
	m.setUnits(u(0, 20, 21))
	step(t, m) // collects: the tile is empty now
	if v := m.View(0); len(v.Energy) != 0 {
		t.Fatalf("energy %v, want the emptied tile left out", v.Energy)
	}
}

func TestFogVisionFromCoresAndWrapping(t *testing.T) {
	m := newTestMatch(t, DefaultConfig(), fogMap(2, nil, nil), nil, nil)
	m.setUnits(u(0, 0, 20))
	tests := []struct {
		name string
		p    Pos
		want bool
	}{
		{"own unit's tile", Pos{0, 20}, true},
		{"across the top edge (dist2 1)", Pos{39, 20}, true},
		{"across the top edge (dist2 49)", Pos{33, 20}, true},
		{"across the top edge (dist2 64)", Pos{32, 20}, false},
		{"around the active core (1,1)", Pos{1, 8}, true},
		{"across the left edge from the core", Pos{1, 35}, true},
		{"beyond vision", Pos{20, 20}, false},
	}
	for _, tt := range tests {
		if got := m.Visible(0, tt.p); got != tt.want {
			t.Errorf("%s: Visible(%v) = %v, want %v", tt.name, tt.p, got, tt.want)
		}
	}
	m.cores[0].active = false
	m.visTurn[0] = -1
	if m.Visible(0, Pos{1, 8}) {
		t.Error("a razed core still gives vision")
	}
	if n := len(m.VisibleTiles(0)); n != 149 {
		t.Errorf("one unit sees %d tiles, want 149 (lattice points within radius2 49)", n)
	}
}

func TestFogDeadList(t *testing.T) {
	m := newTestMatch(t, DefaultConfig(), fogMap(3, nil, nil), nil, nil, nil)
	m.setUnits(
		u(0, 20, 19),
		u(2, 20, 26), u(1, 20, 25), // a visible fight: dist2 36 and 49 from (20,19)
		u(2, 26, 19), u(1, 26, 19), // a visible fight on one tile
		u(1, 30, 30), u(2, 30, 31), // out of sight
	)
	step(t, m)
	want := []Unit{{Pos{20, 25}, 1}, {Pos{20, 26}, 2}, {Pos{26, 19}, 1}, {Pos{26, 19}, 2}}
	if got := m.View(0).Dead; !reflect.DeepEqual(got, want) {
		t.Fatalf("dead %v, want %v (visible deaths of this turn, sorted by row, col, owner)", got, want)
	}
	step(t, m)
	if got := m.View(0).Dead; len(got) != 0 {
		t.Fatalf("dead %v one turn later, want none", got)
	}
}

func TestViewCarriesZoneAndTurn(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 2
	var seen []Zone
	var turns []int
	spy := funcCtrl(func(v *View, buf []Move) ([]Move, error) {
		seen = append(seen, *v.Zone)
		turns = append(turns, v.Turn)
		return buf, nil
	})
	m := newTestMatch(t, cfg, fogMap(2, nil, nil), spy, nil)
	m.setUnits(u(0, 20, 20), u(1, 20, 30))
	for range 4 {
		step(t, m)
	}
	// The view of turn t announces the radius of the turn its moves run in.
	// A map without zone_centers has the map centre as its one centre.
	c := []Pos{{20, 20}}
	want := []Zone{{Pos{20, 20}, c, 20}, {Pos{20, 20}, c, 20}, {Pos{20, 20}, c, 19}, {Pos{20, 20}, c, 18}}
	if !reflect.DeepEqual(seen, want) || !reflect.DeepEqual(turns, []int{0, 1, 2, 3}) {
		t.Fatalf("zones %v turns %v; want %v and turns 0..3", seen, turns, want)
	}
}

// TestFogMatchesTheRule compares vision and the view's lists with a direct
// reading of the rule on random grids (narrow and wider than 64 columns),
// random radii and random units.
func TestFogMatchesTheRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 30; trial++ {
		rows, cols := 16+rng.IntN(60), 16+rng.IntN(185)
		cfg := DefaultConfig()
		cfg.VisionRadius2 = 1 + rng.IntN(120)
		mp := &Map{Rows: rows, Cols: cols}
		mp.Cores = []Core{{ID: 0, Owner: 0, Row: 0, Col: 0}, {ID: 1, Owner: 1, Row: rows / 2, Col: cols / 2}}
		used := map[Pos]bool{{0, 0}: true, {rows / 2, cols / 2}: true}
		for len(mp.Walls) < 40 {
			p := Pos{rng.IntN(rows), rng.IntN(cols)}
			if !used[p] {
				used[p] = true
				mp.Walls = append(mp.Walls, p)
			}
		}
		m := newTestMatch(t, cfg, mp, nil, nil)
		var us []UnitInfo
		for len(us) < 12 {
			p := Pos{rng.IntN(rows), rng.IntN(cols)}
			if !used[p] {
				used[p] = true
				us = append(us, u(rng.IntN(2), p.Row, p.Col))
			}
		}
		m.setUnits(us...)
		sources := []Pos{{0, 0}}
		for _, x := range us {
			if x.Owner == 0 {
				sources = append(sources, x.Pos)
			}
		}
		sees := func(p Pos) bool {
			for _, s := range sources {
				if Dist2(s, p, rows, cols) <= cfg.VisionRadius2 {
					return true
				}
			}
			return false
		}
		var wantTiles []Pos
		for r := 0; r < rows; r++ {
			for c := 0; c < cols; c++ {
				if sees(Pos{r, c}) {
					wantTiles = append(wantTiles, Pos{r, c})
				}
			}
		}
		if got := m.VisibleTiles(0); !reflect.DeepEqual(got, wantTiles) {
			t.Fatalf("trial %d (%dx%d, r2 %d): %d visible tiles, want %d", trial, rows, cols, cfg.VisionRadius2, len(got), len(wantTiles))
		}
		v := m.View(0)
		wantWalls := []Pos{}
		for _, w := range mp.Walls {
			if sees(w) {
				wantWalls = append(wantWalls, w)
			}
		}
		slices.SortFunc(wantWalls, cmpPos)
		wantBots := []Unit{}
		for _, x := range us {
			if sees(x.Pos) {
				wantBots = append(wantBots, Unit{x.Pos, x.Owner})
			}
		}
		slices.SortFunc(wantBots, func(a, b Unit) int { return cmpPos(a.Position, b.Position) })
		if !reflect.DeepEqual(v.Walls, wantWalls) || !reflect.DeepEqual(v.Bots, wantBots) {
			t.Fatalf("trial %d (%dx%d, r2 %d): walls %v bots %v, want %v %v", trial, rows, cols, cfg.VisionRadius2, v.Walls, v.Bots, wantWalls, wantBots)
		}
	}
}

// TestViewMatchesTheRule checks the view every player would receive after
// every turn of crowded matches against the fog rule read directly from
// the match state: tiles within vision_radius2 of a living own unit or an
// active own core are seen; bots, full energy tiles, cores (razed ones
// too), walls and this turn's deaths on seen tiles are listed, sorted by
// (row, col) (and owner on a shared tile); empty lists are empty, not nil.
func TestViewMatchesTheRule(t *testing.T) {
	for _, c := range []struct {
		seed       uint64
		players    int
		rows, cols int
		r2         int
	}{{3, 2, 20, 70, 49}, {4, 4, 24, 24, 20}, {5, 3, 30, 18, 90}, {6, 6, 30, 30, 49}} {
		cfg := DefaultConfig()
		cfg.Rows, cfg.Cols = c.rows, c.cols
		cfg.VisionRadius2 = c.r2
		cfg.MaxTurns = 120
		cfg.SpawnCost = 0
		cfg.EnergyInterval = 3
		cfg.ZoneEnabled = true
		cfg.ZoneStartTurn = 80
		ctrls := make([]Controller, c.players)
		for i := range ctrls {
			ctrls[i] = crowdCtrl{rand.New(rand.NewPCG(c.seed, uint64(i)))}
		}
		m, err := NewMatch(cfg, nil, c.seed, ctrls)
		if err != nil {
			t.Fatal(err)
		}
		R, C := m.Config().Rows, m.Config().Cols
		deadSeen := 0
		for done := false; !done; {
			done = step(t, m)
			for p := 0; p < c.players; p++ {
				var eyes []Pos
				for _, u := range m.Units() {
					if u.Owner == p {
						eyes = append(eyes, u.Pos)
					}
				}
				for _, core := range m.Cores() {
					if core.Owner == p && core.Active {
						eyes = append(eyes, core.Pos)
					}
				}
				sees := func(q Pos) bool {
					for _, e := range eyes {
						if Dist2(e, q, R, C) <= c.r2 {
							return true
						}
					}
					return false
				}
				want := View{Bots: []Unit{}, Energy: []Pos{}, Cores: []CoreView{}, Walls: []Pos{}, Dead: []Unit{}}
				for _, u := range m.Units() {
					if sees(u.Pos) {
						want.Bots = append(want.Bots, Unit{Position: u.Pos, Owner: u.Owner})
					}
				}
				for _, e := range m.EnergyFull() {
					if sees(e) {
						want.Energy = append(want.Energy, e)
					}
				}
				for _, core := range m.Cores() {
					if sees(core.Pos) {
						want.Cores = append(want.Cores, CoreView{Position: core.Pos, Owner: core.Owner, Active: core.Active})
					}
				}
				for _, w := range m.Map().Walls {
					if sees(w) {
						want.Walls = append(want.Walls, w)
					}
				}
				for _, e := range m.Events() {
					if e.Type == EventDied && sees(e.Pos) {
						want.Dead = append(want.Dead, Unit{Position: e.Pos, Owner: e.Owner})
					}
				}
				byTile := func(a, b Unit) int {
					if d := cmpPos(a.Position, b.Position); d != 0 {
						return d
					}
					return a.Owner - b.Owner
				}
				slices.SortFunc(want.Bots, byTile)
				slices.SortFunc(want.Energy, cmpPos)
				slices.SortFunc(want.Cores, func(a, b CoreView) int { return cmpPos(a.Position, b.Position) })
				slices.SortFunc(want.Walls, cmpPos)
				slices.SortFunc(want.Dead, byTile)
				deadSeen += len(want.Dead)
				v := m.View(p)
				got := View{Bots: v.Bots, Energy: v.Energy, Cores: v.Cores, Walls: v.Walls, Dead: v.Dead}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("seed %d turn %d player %d: view\n got %+v\nwant %+v", c.seed, m.Turn(), p, got, want)
				}
				if v.Turn != m.Turn() || v.You != (PlayerInfo{ID: p, Energy: m.Energy(p), Score: m.Score(p)}) {
					t.Fatalf("seed %d turn %d player %d: turn %d you %+v", c.seed, m.Turn(), p, v.Turn, v.You)
				}
			}
		}
		t.Logf("seed %d: %d turns, %d visible deaths", c.seed, m.Turn(), deadSeen)
		if deadSeen == 0 {
			t.Fatalf("seed %d: no death was ever seen: the case checks too little", c.seed)
		}
	}
}
