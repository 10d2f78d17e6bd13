package acbstrat

import (
	"fmt"
	"testing"

	"crucible/engine/acb"
)

// sketch builds a View from a picture of the board. Legend: '.' open,
// '#' wall, '*' full energy, 'C' own active core, 'D' enemy core (owner
// 1), 'a' own unit, 'b' enemy unit (owner 1), 'c' enemy unit (owner 2),
// 'A' own unit on an own core, 'B' enemy unit on an enemy core. The player
// is 0. Everything drawn is visible.
func sketch(rows []string, turn int) *acb.View {
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols = len(rows), len(rows[0])
	v := &acb.View{Turn: turn, Config: cfg, You: acb.PlayerInfo{ID: 0}}
	for r, line := range rows {
		if len(line) != cfg.Cols {
			panic(fmt.Sprintf("row %d has %d columns, want %d", r, len(line), cfg.Cols))
		}
		for c, ch := range line {
			p := acb.Pos{Row: r, Col: c}
			switch ch {
			case '#':
				v.Walls = append(v.Walls, p)
			case '*':
				v.Energy = append(v.Energy, p)
			case 'C':
				v.Cores = append(v.Cores, acb.CoreView{Position: p, Owner: 0, Active: true})
			case 'D':
				v.Cores = append(v.Cores, acb.CoreView{Position: p, Owner: 1, Active: true})
			case 'a':
				v.Bots = append(v.Bots, acb.Unit{Position: p, Owner: 0})
			case 'b':
				v.Bots = append(v.Bots, acb.Unit{Position: p, Owner: 1})
			case 'c':
				v.Bots = append(v.Bots, acb.Unit{Position: p, Owner: 2})
			case 'A':
				v.Cores = append(v.Cores, acb.CoreView{Position: p, Owner: 0, Active: true})
				v.Bots = append(v.Bots, acb.Unit{Position: p, Owner: 0})
			case 'B':
				v.Cores = append(v.Cores, acb.CoreView{Position: p, Owner: 1, Active: true})
				v.Bots = append(v.Bots, acb.Unit{Position: p, Owner: 1})
			}
		}
	}
	return v
}

func TestGridWrapsBothAxes(t *testing.T) {
	g := newGrid(16, 20)
	tests := []struct {
		name     string
		a, b     acb.Pos
		dist2    int
		manhattn int
	}{
		{"same tile", acb.Pos{Row: 3, Col: 4}, acb.Pos{Row: 3, Col: 4}, 0, 0},
		{"plain offset", acb.Pos{Row: 1, Col: 1}, acb.Pos{Row: 4, Col: 5}, 25, 7},
		{"shorter across the top edge", acb.Pos{Row: 0, Col: 0}, acb.Pos{Row: 15, Col: 0}, 1, 1},
		{"shorter across the left edge", acb.Pos{Row: 0, Col: 1}, acb.Pos{Row: 0, Col: 18}, 9, 3},
		{"both axes wrap", acb.Pos{Row: 15, Col: 19}, acb.Pos{Row: 1, Col: 1}, 8, 4},
		{"half way round is the farthest", acb.Pos{Row: 0, Col: 0}, acb.Pos{Row: 8, Col: 10}, 164, 18},
	}
	for _, tc := range tests {
		a, b := g.idx(tc.a), g.idx(tc.b)
		if got := g.dist2(a, b); got != tc.dist2 {
			t.Errorf("%s: dist2 = %d, want %d", tc.name, got, tc.dist2)
		}
		if got := g.dist2(b, a); got != tc.dist2 {
			t.Errorf("%s: dist2 not symmetric: %d", tc.name, got)
		}
		if got := g.manhattan(a, b); got != tc.manhattn {
			t.Errorf("%s: manhattan = %d, want %d", tc.name, got, tc.manhattn)
		}
	}
	// Stepping off an edge comes back on the other side.
	corner := g.idx(acb.Pos{Row: 0, Col: 0})
	want := map[acb.Dir]acb.Pos{
		acb.North: {Row: 15, Col: 0}, acb.West: {Row: 0, Col: 19},
		acb.South: {Row: 1, Col: 0}, acb.East: {Row: 0, Col: 1},
	}
	for k, d := range dirs {
		if got := g.pos(g.nbr[int(corner)*4+k]); got != want[d] {
			t.Errorf("neighbour %v of (0,0) = %v, want %v", d, got, want[d])
		}
		if got := g.dirTo(corner, g.nbr[int(corner)*4+k]); got != d {
			t.Errorf("dirTo neighbour %v = %v", d, got)
		}
	}
}

// TestGridAgreesWithEngine: the grid's distances, neighbours and wrapping
// are the engine's (acb.Dist2, acb.Step, acb.Wrap) on every pair of tiles
// of even and odd grids, and delta is a shortest offset.
func TestGridAgreesWithEngine(t *testing.T) {
	for _, sz := range [][2]int{{16, 20}, {17, 19}, {21, 16}} {
		rows, cols := sz[0], sz[1]
		g := newGrid(rows, cols)
		for a := int32(0); a < int32(g.n); a++ {
			pa := g.pos(a)
			for k, d := range dirs {
				if got, want := g.pos(g.nbr[int(a)*4+k]), acb.Step(pa, d, rows, cols); got != want {
					t.Fatalf("%dx%d: neighbour %v of %v = %v, acb.Step gives %v", rows, cols, d, pa, got, want)
				}
			}
			for b := int32(0); b < int32(g.n); b++ {
				pb := g.pos(b)
				want := acb.Dist2(pa, pb, rows, cols)
				if got := g.dist2(a, b); got != want {
					t.Fatalf("%dx%d: dist2(%v, %v) = %d, acb.Dist2 gives %d", rows, cols, pa, pb, got, want)
				}
				dr, dc := g.delta(a, b)
				if dr*dr+dc*dc != want || acb.Wrap(acb.Pos{Row: pa.Row + dr, Col: pa.Col + dc}, rows, cols) != pb {
					t.Fatalf("%dx%d: delta(%v, %v) = (%d, %d) is not a shortest offset (dist2 %d)", rows, cols, pa, pb, dr, dc, want)
				}
			}
		}
		// A stamped disc covers exactly the tiles within its radius by
		// acb.Dist2, wherever it is centred.
		disc := g.disc(13)
		cnt := make([]uint16, g.n)
		for a := int32(0); a < int32(g.n); a++ {
			clear(cnt)
			g.stamp(cnt, a, disc)
			for b := int32(0); b < int32(g.n); b++ {
				if in := acb.Dist2(g.pos(a), g.pos(b), rows, cols) <= 13; (cnt[b] == 1) != in || cnt[b] > 1 {
					t.Fatalf("%dx%d: disc of 13 stamped at %v counts %v %d times (within: %v)", rows, cols, g.pos(a), g.pos(b), cnt[b], in)
				}
			}
		}
		for _, p := range []acb.Pos{{Row: -1, Col: -1}, {Row: rows, Col: 2 * cols}, {Row: -3 * rows, Col: 5}} {
			if got, want := g.pos(g.idx(p)), acb.Wrap(p, rows, cols); got != want {
				t.Errorf("%dx%d: idx of %v is tile %v, acb.Wrap gives %v", rows, cols, p, got, want)
			}
		}
	}
}

// TestZoneCentreFromEngine: the bot's zone centre is the one its view shows
// (even one off the map's centre, as a view may show one day) and, with
// the zone off, the engine's map centre.
func TestZoneCentreFromEngine(t *testing.T) {
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols = 30, 44
	for _, zone := range []bool{false, true} {
		cfg.ZoneEnabled = zone
		m, err := acb.NewMatch(cfg, nil, 3, []acb.Controller{acb.Idle{}, acb.Idle{}})
		if err != nil {
			t.Fatal(err)
		}
		v := m.View(0)
		want := acb.MapCenter(m.Config().Rows, m.Config().Cols)
		if zone {
			want = acb.Pos{Row: 4, Col: 9}
			v.Zone = &acb.Zone{Center: want, Radius: v.Zone.Radius}
		}
		b := newBot(1)
		b.begin(v)
		if len(b.centres) != 1 || b.g.pos(b.centres[0]) != want {
			t.Errorf("zone %v: zone centres %v, want %v alone", zone, b.centres, b.g.idx(want))
		}
	}
}

func TestDiscCountsEachTileOnce(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		r2         int
		want       int
	}{
		{"attack radius 25 on a big map", 40, 40, 25, 81},
		{"vision radius 49 on a big map", 40, 40, 49, 149},
		{"radius 1 is the cross", 40, 40, 1, 5},
		{"radius larger than the map covers it once", 16, 16, 10000, 256},
	}
	for _, tc := range tests {
		g := newGrid(tc.rows, tc.cols)
		offs := g.disc(tc.r2)
		if len(offs) != tc.want {
			t.Errorf("%s: %d offsets, want %d", tc.name, len(offs), tc.want)
		}
		cnt := make([]uint16, g.n)
		centre := g.idx(acb.Pos{Row: 5, Col: 5})
		g.stamp(cnt, centre, offs)
		for i := range cnt {
			in := g.dist2(centre, int32(i)) <= tc.r2
			if (cnt[i] == 1) != in || cnt[i] > 1 {
				t.Fatalf("%s: tile %v counted %d times, within radius %v", tc.name, g.pos(int32(i)), cnt[i], in)
			}
		}
	}
	// reachDisc: a unit one step away from a within-range tile can reach it.
	g := newGrid(40, 40)
	reach := g.reachDisc(25)
	cnt := make([]uint16, g.n)
	origin := g.idx(acb.Pos{Row: 20, Col: 20})
	g.stamp(cnt, origin, reach)
	for i := int32(0); i < int32(g.n); i++ {
		can := g.dist2(origin, i) <= 25
		for k := 0; k < 4 && !can; k++ {
			can = g.dist2(origin, g.nbr[int(i)*4+k]) <= 25
		}
		if can != (cnt[i] == 1) || cnt[i] > 1 {
			t.Fatalf("reachDisc: tile %v counted %d, reachable %v", g.pos(i), cnt[i], can)
		}
	}
}

func TestBFSWrapsAndWallsBlock(t *testing.T) {
	v := sketch([]string{
		"................",
		"......#.........",
		"......#.........",
		"......#.........",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
	}, 0)
	g := newGrid(16, 16)
	walls := make([]bool, g.n)
	for _, w := range v.Walls {
		walls[g.idx(w)] = true
	}
	f := make(field, g.n)
	q := make([]int32, g.n)
	src := g.idx(acb.Pos{Row: 2, Col: 5})
	g.bfs(f, q, []int32{src}, template(walls), 0)
	tests := []struct {
		name string
		p    acb.Pos
		want int
	}{
		{"source", acb.Pos{Row: 2, Col: 5}, 0},
		{"around the wall column", acb.Pos{Row: 2, Col: 7}, 6},
		{"across the top edge", acb.Pos{Row: 15, Col: 5}, 3},
		{"across the left edge", acb.Pos{Row: 2, Col: 15}, 6},
		{"a wall is never reached", acb.Pos{Row: 2, Col: 6}, far},
	}
	for _, tc := range tests {
		if got := f.at(g.idx(tc.p)); got != tc.want {
			t.Errorf("%s: dist to %v = %d, want %d", tc.name, tc.p, got, tc.want)
		}
	}
	// Depth limit: nothing beyond maxD is labelled.
	g.bfs(f, q, []int32{src}, template(walls), 3)
	for i := range f {
		if d := f.at(int32(i)); d != far && d > 3 {
			t.Fatalf("depth-limited search reached %v at %d", g.pos(int32(i)), d)
		}
	}
	// Several sources: each tile gets the distance to the nearest.
	a, b := g.idx(acb.Pos{Row: 0, Col: 0}), g.idx(acb.Pos{Row: 8, Col: 8})
	g.bfs(f, q, []int32{a, b}, template(walls), 0)
	for _, tc := range []struct {
		p    acb.Pos
		want int
	}{{acb.Pos{Row: 1, Col: 1}, 2}, {acb.Pos{Row: 15, Col: 15}, 2}, {acb.Pos{Row: 7, Col: 9}, 2}, {acb.Pos{Row: 4, Col: 4}, 8}} {
		if got := f.at(g.idx(tc.p)); got != tc.want {
			t.Errorf("distance of %v to the nearer source = %d, want %d", tc.p, got, tc.want)
		}
	}
}

func TestFieldCacheReusesAndRefreshes(t *testing.T) {
	g := newGrid(16, 16)
	q := make([]int32, g.n)
	c := newFieldCache(g, q, 2, nil)
	walls := make(field, g.n)
	a := g.idx(acb.Pos{Row: 0, Col: 0})
	b := g.idx(acb.Pos{Row: 0, Col: 2})
	f := c.get(a, walls, 0, 1)
	if f.at(b) != 2 {
		t.Fatalf("dist = %d, want 2", f.at(b))
	}
	// A new wall between them: the stale field is kept within the refresh
	// window and rebuilt after it.
	walls[g.idx(acb.Pos{Row: 0, Col: 1})] = -1
	if got := c.get(a, walls, 1, 2).at(b); got != 2 {
		t.Errorf("field rebuilt too early: %d", got)
	}
	if got := c.get(a, walls, 1, 1+c.refresh).at(b); got != 4 {
		t.Errorf("field after refresh = %d, want 4 (around the wall)", got)
	}
	// Capacity 2: a third target evicts the least recently used.
	c.get(b, walls, 1, 2*c.refresh)
	c.get(g.idx(acb.Pos{Row: 5, Col: 5}), walls, 1, 2*c.refresh+1)
	if len(c.entries) != 2 || c.slot[a] != 0 {
		t.Errorf("least recently used entry not evicted: %d entries, slot[a]=%d", len(c.entries), c.slot[a])
	}
	for i, e := range c.entries {
		if c.slot[e.tile] != int16(i+1) {
			t.Errorf("slot of entry %d is %d", i, c.slot[e.tile])
		}
	}
}

func TestResolverNeverStacksOwnUnits(t *testing.T) {
	g := newGrid(16, 16)
	at := func(r, c int) int32 { return g.idx(acb.Pos{Row: r, Col: c}) }
	tests := []struct {
		name   string
		units  []int32
		wishes [][]int32
		want   []int32
	}{
		{"two units wanting one tile: the first gets it, the second takes its next wish",
			[]int32{at(5, 4), at(5, 6)},
			[][]int32{{at(5, 5)}, {at(5, 5), at(4, 6)}},
			[]int32{at(5, 5), at(4, 6)}},
		{"no other wish: the loser stays",
			[]int32{at(5, 4), at(5, 6)},
			[][]int32{{at(5, 5)}, {at(5, 5)}},
			[]int32{at(5, 5), at(5, 6)}},
		{"a unit that stays keeps its tile",
			[]int32{at(5, 5), at(5, 4)},
			[][]int32{{at(5, 5)}, {at(5, 5), at(5, 4)}},
			[]int32{at(5, 5), at(5, 4)}},
		{"a column advances together (the rear waits for the front)",
			[]int32{at(5, 3), at(5, 4), at(5, 5)},
			[][]int32{{at(5, 4)}, {at(5, 5)}, {at(5, 6)}},
			[]int32{at(5, 4), at(5, 5), at(5, 6)}},
		{"swaps are allowed",
			[]int32{at(5, 4), at(5, 5)},
			[][]int32{{at(5, 5)}, {at(5, 4)}},
			[]int32{at(5, 5), at(5, 4)}},
		{"blocked front: the rear stays rather than stacking",
			[]int32{at(5, 4), at(5, 5)},
			[][]int32{{at(5, 5)}, {at(5, 5)}},
			[]int32{at(5, 4), at(5, 5)}},
		{"a three-unit rotation settles without stacking",
			[]int32{at(5, 5), at(5, 6), at(6, 6)},
			[][]int32{{at(5, 6)}, {at(6, 6)}, {at(5, 5), at(6, 5)}},
			nil},
	}
	for _, tc := range tests {
		r := newResolver(g.n, nil)
		r.reset(tc.units)
		for i, w := range tc.wishes {
			r.setWishes(i, w)
		}
		got := r.resolve()
		seen := map[int32]int{}
		for i, t2 := range got {
			if t2 != tc.units[i] && g.manhattan(t2, tc.units[i]) != 1 {
				t.Errorf("%s: unit %d sent to a non-adjacent tile", tc.name, i)
			}
			if j, dup := seen[t2]; dup {
				t.Errorf("%s: units %d and %d both end on %v", tc.name, j, i, g.pos(t2))
			}
			seen[t2] = i
		}
		if tc.want != nil {
			for i := range tc.want {
				if got[i] != tc.want[i] {
					t.Errorf("%s: unit %d ends on %v, want %v", tc.name, i, g.pos(got[i]), g.pos(tc.want[i]))
				}
			}
		}
	}
}

func FuzzResolverNoStacking(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9}, uint8(7))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		g := newGrid(16, 16)
		r := newResolver(g.n, nil)
		// Units on distinct tiles in a small block so they crowd.
		var units []int32
		used := map[int32]bool{}
		for i := 0; i < int(n%20) && i < len(data); i++ {
			tl := g.idx(acb.Pos{Row: int(data[i]) % 4, Col: int(data[i]/4) % 4})
			if !used[tl] {
				used[tl] = true
				units = append(units, tl)
			}
		}
		r.reset(units)
		for i, u := range units {
			var w []int32
			for k := 0; k < 3; k++ {
				x := data[(i*3+k)%len(data)] % 5
				if x == 0 {
					w = append(w, u)
				} else {
					w = append(w, g.nbr[int(u)*4+int(x)-1])
				}
			}
			r.setWishes(i, w)
		}
		seen := map[int32]bool{}
		for i, t2 := range r.resolve() {
			if seen[t2] {
				t.Fatalf("two units end on %v", g.pos(t2))
			}
			seen[t2] = true
			if t2 != units[i] && g.manhattan(t2, units[i]) != 1 {
				t.Fatalf("unit moved more than a step")
			}
		}
	})
}

// piece is a unit on the board for the exact focus-fire evaluation, the
// oracle the tests check the strategies' fight estimates against.
type piece struct {
	tile  int32
	owner int
}

// focusFire applies the combat rule to units and reports who dies, in the
// order of units. dead and cnt are scratch of len(units) (cnt is
// overwritten). It is quadratic and meant for small local battles.
func focusFire(g *grid, r2 int, units []piece, cnt []int, dead []bool) {
	for i := range units {
		cnt[i] = 0
		for j := range units {
			if units[j].owner != units[i].owner && g.dist2(units[i].tile, units[j].tile) <= r2 {
				cnt[i]++
			}
		}
	}
	for i := range units {
		dead[i] = false
		for j := range units {
			if units[j].owner != units[i].owner && g.dist2(units[i].tile, units[j].tile) <= r2 && cnt[j] <= cnt[i] {
				dead[i] = true
				break
			}
		}
	}
}

func TestFocusFireRule(t *testing.T) {
	g := newGrid(20, 20)
	at := func(r, c int) int32 { return g.idx(acb.Pos{Row: r, Col: c}) }
	tests := []struct {
		name  string
		units []piece
		dead  []bool
	}{
		{"one against one trade", []piece{{at(5, 5), 0}, {at(5, 8), 1}}, []bool{true, true}},
		{"out of range nobody fights", []piece{{at(5, 5), 0}, {at(5, 11), 1}}, []bool{false, false}},
		{"two against one: the lone unit dies", []piece{{at(5, 5), 0}, {at(6, 5), 0}, {at(5, 8), 1}}, []bool{false, false, true}},
		{"same tile counts as in range", []piece{{at(5, 5), 0}, {at(5, 5), 1}}, []bool{true, true}},
		{"range wraps around the edge", []piece{{at(0, 0), 0}, {at(19, 17), 1}}, []bool{true, true}},
		{"a chain: the middle unit faces two and dies; its attackers, facing one each, survive",
			[]piece{{at(5, 0), 0}, {at(5, 5), 1}, {at(5, 10), 0}}, []bool{false, true, false}},
	}
	for _, tc := range tests {
		dead := make([]bool, len(tc.units))
		cnt := make([]int, len(tc.units))
		focusFire(g, 25, tc.units, cnt, dead)
		for i := range dead {
			if dead[i] != tc.dead[i] {
				t.Errorf("%s: unit %d dead=%v, want %v", tc.name, i, dead[i], tc.dead[i])
			}
		}
	}
}

func TestOddsAgreeWithFocusFire(t *testing.T) {
	// Two of ours next to each other, one enemy in range: moving in wins.
	v := sketch([]string{
		"................",
		"................",
		"..aa............",
		"................",
		".....b..........",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
	}, 5)
	b := newBot(1)
	b.begin(v)
	at := func(r, c int) int32 { return b.g.idx(acb.Pos{Row: r, Col: c}) }
	tests := []struct {
		name string
		t    int32
		want int
	}{
		{"next to the pair, facing one enemy", at(2, 4), fightWin},
		{"far corner, no enemy can reach", at(12, 12), fightNone},
	}
	for _, tc := range tests {
		if got := b.oddsAt(tc.t).class(); got != tc.want {
			t.Errorf("%s: class %d, want %d (odds %+v)", tc.name, got, tc.want, b.oddsAt(tc.t))
		}
	}
	if n := b.enemyNow(at(4, 0)); n != 1 {
		t.Errorf("enemyNow at distance 5 = %d, want 1", n)
	}
	if n := b.enemyNow(at(4, 11)); n != 0 {
		t.Errorf("enemyNow at distance 6 = %d, want 0", n)
	}
	if n := b.enemyNext(at(4, 11)); n != 1 {
		t.Errorf("enemyNext at distance 6 = %d, want 1 (the enemy can step closer)", n)
	}
}

func TestMemoryRemembersAndInfersEnergy(t *testing.T) {
	rows := []string{
		"A...*...........",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"...........#....",
		"................",
		"................",
		"................",
	}
	v := sketch(rows, 0)
	v.Walls = append(v.Walls, acb.Pos{Row: 12, Col: 11})
	b := newBot(1)
	b.begin(v)
	e := b.g.idx(acb.Pos{Row: 0, Col: 4})
	wall := b.g.idx(acb.Pos{Row: 12, Col: 11})
	if !b.mem.energy[0].full || b.mem.energy[0].tile != e {
		t.Fatalf("energy tile not remembered as full: %+v", b.mem.energy)
	}
	// Next turn the energy is gone while in sight: empty, due back after
	// energy_interval turns. The wall is out of the list but remembered.
	v2 := sketch(rows, 1)
	v2.Energy = nil
	v2.Walls = nil
	b.begin(v2)
	if b.mem.energy[0].full || b.mem.energy[0].eta != 1+v.Config.EnergyInterval {
		t.Errorf("energy seen empty: %+v, want empty with eta %d", b.mem.energy[0], 1+v.Config.EnergyInterval)
	}
	if !b.mem.wall[wall] {
		t.Error("wall forgotten when out of sight")
	}
	// Out of sight (the unit and core gone far away), it is believed full
	// once the eta has passed.
	far := sketch([]string{
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"................",
		"..........a.....",
		"................",
		"................",
		"................",
		"................",
	}, 12)
	b.begin(far)
	if !b.mem.energy[0].full {
		t.Error("energy out of sight after its refill turn is not believed full")
	}
}

func TestMemorySuspectsMirrorCores(t *testing.T) {
	rows := make([]string, 20)
	for r := range rows {
		rows[r] = "...................."
	}
	rows[3] = "...A................"
	b := newBot(1)
	b.begin(sketch(rows, 0))
	if len(b.enemyCores) != 1 {
		t.Fatalf("suspected enemy cores = %d, want the 180-degree image only", len(b.enemyCores))
	}
	if got := b.g.pos(b.enemyCores[0]); got != (acb.Pos{Row: 17, Col: 17}) {
		t.Errorf("suspect at %v, want (17,17), the 180-degree image about (10,10)", got)
	}
	// Seeing the suspected tile empty clears the suspect.
	rows2 := append([]string(nil), rows...)
	rows2[15] = "................a..."
	b.begin(sketch(rows2, 1))
	if len(b.enemyCores) != 0 {
		t.Errorf("suspect seen empty still listed: %v", b.enemyCores)
	}
}

func TestZoneRadiusFormula(t *testing.T) {
	b := newBot(1)
	v := sketch(make40(), 0)
	v.Config.ZoneEnabled = true
	b.begin(v)
	tests := []struct{ turn, want int }{
		{9, -1}, {10, 20}, {11, 19}, {27, 3}, {28, 2}, {100, 2},
	}
	for _, tc := range tests {
		if got := b.zoneRadius(tc.turn); got != tc.want {
			t.Errorf("zone radius at turn %d = %d, want %d", tc.turn, got, tc.want)
		}
	}
}

func make40() []string {
	rows := make([]string, 40)
	for r := range rows {
		rows[r] = "........................................"
	}
	return rows
}

func TestProximityAgreesWithStamping(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
		r2         int
	}{
		{"default map, attack radius", 40, 40, 25},
		{"odd sizes", 39, 37, 25},
		{"radius wider than half the map", 16, 18, 100},
		{"tiny radius", 20, 20, 1},
		{"small map: a query wraps into the bucket it started in", 16, 16, 25},
		{"large map: the few units' bands span several words", 70, 130, 25},
	}
	for _, tc := range tests {
		g := newGrid(tc.rows, tc.cols)
		for _, offs := range [][]offset{g.disc(tc.r2), g.reachDisc(tc.r2)} {
			p := newProximity(newHood(g, offs), nil)
			// 3 tiles: the set is scanned whole; 30: through the buckets.
			for _, units := range []int{3, 30} {
				want := make([]uint16, g.n)
				var tiles []int32
				for k := 0; k < units; k++ {
					tl := int32((k*7919 + 13) % g.n)
					tiles = append(tiles, tl, tl) // two units on a tile count twice
					g.stamp(want, tl, offs)
					g.stamp(want, tl, offs)
				}
				p.build(tiles)
				for i := int32(0); i < int32(g.n); i++ {
					if got := p.count(i); got != int(want[i]) {
						t.Fatalf("%s, %d units: tile %v counts %d, stamping gives %d", tc.name, 2*units, g.pos(i), got, want[i])
					}
				}
			}
		}
	}
}

// TestSuspectsMatchGeneratedMaps: on generated maps, the suspected cores of
// the right seat-count hypothesis are real cores of the seat the symmetry
// names, whichever seat the player holds; hypotheses the owners seen rule
// out are dropped (with three seats seen, four and six remain possible).
func TestSuspectsMatchGeneratedMaps(t *testing.T) {
	for _, players := range []int{2, 3, 4, 6} {
		cfg := acb.DefaultConfig()
		mp, err := acb.GenerateMap(cfg, players, 11)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Rows, cfg.Cols = mp.Rows, mp.Cols
		owner := map[acb.Pos]int{}
		for _, c := range mp.Cores {
			owner[c.Pos()] = c.Owner
		}
		for me := 0; me < players; me++ {
			v := &acb.View{Config: cfg, You: acb.PlayerInfo{ID: me}}
			for _, c := range mp.Cores {
				if c.Owner == me {
					v.Cores = append(v.Cores, acb.CoreView{Position: c.Pos(), Owner: me, Active: true})
				}
			}
			// A unit of the highest seat, far from us, reveals the count.
			v.Bots = append(v.Bots, acb.Unit{Position: mp.Cores[len(mp.Cores)-1].Pos(), Owner: players - 1})
			b := newBot(1)
			b.begin(v)
			matched := 0
			for _, c := range b.mem.cores {
				if !c.suspect || !c.active {
					continue
				}
				if c.hyp != players {
					if c.hyp < players || players != 3 {
						t.Errorf("%d players, seat %d: suspect of the ruled-out %d-seat hypothesis active", players, me, c.hyp)
					}
					continue
				}
				o, ok := owner[b.g.pos(c.tile)]
				if !ok || o != c.owner {
					t.Errorf("%d players, seat %d: suspect at %v for seat %d, the map has %v (core: %v)", players, me, b.g.pos(c.tile), c.owner, o, ok)
					continue
				}
				matched++
			}
			if want := (players - 1) * cfg.CoresPerPlayer; matched != want {
				t.Errorf("%d players, seat %d: %d suspects match enemy cores, want %d", players, me, matched, want)
			}
		}
	}
}

// TestDistanceTerms checks the scoring terms that keep a unit within, at
// least at, or exactly at a distance down a field: a unit three steps east
// of the source, whose options (stay, N, E, S, W) lie 3, 4, 4, 4 and 2
// steps away.
func TestDistanceTerms(t *testing.T) {
	v := sketch(make40()[:16], 0) // 16 x 40, nothing on it
	v.Bots = []acb.Unit{{Position: acb.Pos{Row: 5, Col: 8}, Owner: 0}}
	b := newBot(1)
	b.begin(v)
	u := b.own[0]
	src := b.g.idx(acb.Pos{Row: 5, Col: 5})
	f := b.multi(0, []int32{src}, 0)
	tests := []struct {
		rule string
		term func(sc *[5]float64)
		want [5]float64
	}{
		{"maxDist: w per step beyond r", func(sc *[5]float64) { b.maxDist(u, f, 3, 2, sc) }, [5]float64{0, -2, -2, -2, 0}},
		{"minDist: w per step short of r", func(sc *[5]float64) { b.minDist(u, f, 3, 1, sc) }, [5]float64{0, 0, 0, 0, -1}},
		{"atDist: w per step off r either way", func(sc *[5]float64) { b.atDist(u, f, 3, 0.5, sc) }, [5]float64{0, -0.5, -0.5, -0.5, -0.5}},
	}
	for _, tc := range tests {
		var sc [5]float64
		tc.term(&sc)
		if sc != tc.want {
			t.Errorf("%s: scores %v, want %v", tc.rule, sc, tc.want)
		}
	}
}
