package acb

import (
	"fmt"
	"math/rand/v2"

	"crucible/engine"
)

// mapStream is the engine.Mix stream of the map generator: the map of a
// match with seed s is GenerateMap(cfg, players, s).
const mapStream = 0x6d6170 // "map"

// GenerateMap builds the map of a match for players seats from the match
// seed, deterministically. The grid size is MapSize of the config's rows
// and cols; each seat gets cfg.CoresPerPlayer cores.
//
// Every seat is equivalent: the map is invariant under a group of grid
// isometries (MapSymmetries) that carries seat 0's cores onto every other
// seat's, so whatever one seat sees, every other seat sees mapped by a
// symmetry. The group depends on the player count:
//
//   - 2 players: the 180-degree rotation about the centre (rows/2, cols/2).
//   - 4 players on a square grid: the 90-degree rotations about the centre.
//     (On a non-square grid: the 180-degree rotation and the translation by
//     half the grid, a group of order 4.)
//   - 3 players: the translations by k*(rows/3, cols/3), k = 0, 1, 2. A
//     square grid has no symmetry of order 3 (so no 120-degree rotation),
//     but a wrapping grid whose sides are multiples of 3 does: three
//     congruent diagonal bands, each mapped onto the next by a translation.
//   - 6 players: those three translations combined with the 180-degree
//     rotation about the centre (a group of order 6 in which the rotation
//     inverts the translations).
//
// For 3 and 6 players the storm circle (centred on the grid, see the zone
// rule) is not invariant under the translations, so with the zone enabled
// those seats are equivalent in terrain but not in their distance to the
// storm; for 2 and 4 players the group fixes the centre and the zone too.
//
// Terrain: walls grow as clumps and ridges until 10-14% of the tiles are
// walls (never within one tile of a core); energy tiles number about one per
// 100 tiles, at least 4 per player, a multiple of the player count; every
// seat's cores are at least 8 tiles (Euclidean, wrapped) from every other
// seat's; every open tile is reachable from every core. A candidate that
// fails a check is discarded and generation goes on from the same random
// stream, so the result is still a function of the seed alone: walls that
// cut one core off from another are regenerated; small open pockets that
// walls enclose away from the cores are filled with wall (when walls stay
// within 15%), so the map is checked connected before energy is placed.
func GenerateMap(cfg Config, players int, seed uint64) (*Map, error) {
	rows, cols := MapSize(players, cfg.Rows, cfg.Cols)
	group, err := MapSymmetries(players, rows, cols)
	if err != nil {
		return nil, err
	}
	if cfg.CoresPerPlayer < 1 || cfg.CoresPerPlayer > 8 {
		return nil, fmt.Errorf("acb: cores_per_player = %d is outside its allowed range 1..8", cfg.CoresPerPlayer)
	}
	g := &mapGen{
		rows: rows, cols: cols, group: group, cpp: cfg.CoresPerPlayer,
		rng: rand.New(rand.NewPCG(engine.Mix(seed, mapStream), engine.Mix(seed, mapStream+1))),
	}
	for attempt := 0; attempt < 200; attempt++ {
		if m := g.try(attempt); m != nil {
			return m, nil
		}
	}
	return nil, fmt.Errorf("acb: could not generate a %dx%d map for %d players with %d cores each (cores 8 tiles apart, all tiles connected); use a larger grid or fewer cores", rows, cols, players, cfg.CoresPerPlayer)
}

// mapGen holds one generation's state.
type mapGen struct {
	rows, cols int
	group      []Symmetry
	cpp        int
	rng        *rand.Rand

	cores  []Pos // seat-major: seat i core k at i*cpp+k
	wall   []bool
	near   []bool // within dist2 2 of a core: kept open
	energy []bool
	nWalls int
}

func (g *mapGen) tile(p Pos) int { return p.Row*g.cols + p.Col }

func (g *mapGen) randPos() Pos {
	return Pos{Row: g.rng.IntN(g.rows), Col: g.rng.IntN(g.cols)}
}

// orbit returns the images of p under the group, seat order.
func (g *mapGen) orbit(p Pos, buf []Pos) []Pos {
	buf = buf[:0]
	for _, s := range g.group {
		buf = append(buf, s.Apply(p, g.rows, g.cols))
	}
	return buf
}

// try makes one attempt; nil when a check failed.
func (g *mapGen) try(attempt int) *Map {
	// Ask for well-separated seats first, then settle for the rule's 8 tiles.
	n := g.rows * g.cols
	goal := n / len(g.group) / 4
	if goal < 64 || attempt >= 20 {
		goal = 64
	}
	if !g.placeCores(goal) {
		return nil
	}
	for wallTry := 0; wallTry < 20; wallTry++ {
		if !g.placeWalls() {
			continue
		}
		if !g.placeEnergy() {
			continue
		}
		return g.build()
	}
	return nil
}

// placeCores picks seat 0's cores near one another and maps them to the
// other seats; it fails unless all cores are distinct and every pair from
// different seats is at least goal apart (squared).
func (g *mapGen) placeCores(goal int) bool {
	N := len(g.group)
	var buf []Pos
	for try := 0; try < 200; try++ {
		own := make([]Pos, 0, g.cpp)
		own = append(own, g.randPos())
		for len(own) < g.cpp {
			ok := false
			for k := 0; k < 100 && !ok; k++ {
				c := Pos{Row: wrap(own[0].Row+g.rng.IntN(13)-6, g.rows), Col: wrap(own[0].Col+g.rng.IntN(13)-6, g.cols)}
				ok = true
				for _, o := range own {
					if Dist2(c, o, g.rows, g.cols) < 9 {
						ok = false
						break
					}
				}
				if ok {
					own = append(own, c)
				}
			}
			if !ok {
				break
			}
		}
		if len(own) < g.cpp {
			continue
		}
		cores := make([]Pos, N*g.cpp)
		for k, c := range own {
			buf = g.orbit(c, buf)
			for i, p := range buf {
				cores[i*g.cpp+k] = p
			}
		}
		ok := true
		for a := 0; a < len(cores) && ok; a++ {
			for b := a + 1; b < len(cores); b++ {
				if cores[a] == cores[b] {
					ok = false
					break
				}
				if a/g.cpp != b/g.cpp && Dist2(cores[a], cores[b], g.rows, g.cols) < goal {
					ok = false
					break
				}
			}
		}
		if ok {
			g.cores = cores
			return true
		}
	}
	return false
}

// placeWalls grows clumps and ridges, each wall tile with its whole orbit,
// until the target fraction is reached, then checks connectivity.
func (g *mapGen) placeWalls() bool {
	n := g.rows * g.cols
	g.wall = make([]bool, n)
	g.near = make([]bool, n)
	g.nWalls = 0
	for _, c := range g.cores {
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				g.near[wrap(c.Row+dr, g.rows)*g.cols+wrap(c.Col+dc, g.cols)] = true
			}
		}
	}
	target := int(float64(n) * (0.10 + 0.04*g.rng.Float64()))
	maxWalls := n * 14 / 100
	var buf []Pos
	add := func(p Pos) {
		buf = g.orbit(p, buf)
		fresh := 0
		for _, q := range buf {
			if g.near[g.tile(q)] {
				return
			}
			if !g.wall[g.tile(q)] {
				fresh++
			}
		}
		if g.nWalls+fresh > maxWalls {
			return
		}
		for _, q := range buf {
			if !g.wall[g.tile(q)] {
				g.wall[g.tile(q)] = true
				g.nWalls++
			}
		}
	}
	var feature []Pos
	for guard := 0; g.nWalls < target && guard < 10000; guard++ {
		start := g.randPos()
		if g.rng.IntN(2) == 0 {
			// Clump: a blob grown from random neighbours of its tiles.
			size := 4 + g.rng.IntN(9)
			feature = append(feature[:0], start)
			for k := 0; len(feature) < size && k < 4*size; k++ {
				q := Step(feature[g.rng.IntN(len(feature))], Dir(1+g.rng.IntN(4)), g.rows, g.cols)
				dup := false
				for _, f := range feature {
					if f == q {
						dup = true
						break
					}
				}
				if !dup {
					feature = append(feature, q)
				}
			}
		} else {
			// Ridge: a walk along a main direction, sometimes stepping
			// sideways (diagonal ridges when sideStep is about one half).
			length := 5 + g.rng.IntN(10)
			main := Dir(1 + g.rng.IntN(4))
			side := Dir(1 + (int(main)%4+2*g.rng.IntN(2))%4) // perpendicular
			sideStep := [3]float64{0, 0.2, 0.5}[g.rng.IntN(3)]
			feature = append(feature[:0], start)
			p := start
			for len(feature) < length {
				if g.rng.Float64() < sideStep {
					p = Step(p, side, g.rows, g.cols)
				} else {
					p = Step(p, main, g.rows, g.cols)
				}
				feature = append(feature, p)
			}
		}
		for _, f := range feature {
			if g.nWalls >= target {
				break
			}
			add(f)
		}
	}
	if g.nWalls*100 < n*10 {
		return false
	}
	seen := reachable(g.rows, g.cols, g.wall, g.tile(g.cores[0]))
	for _, c := range g.cores {
		if !seen[g.tile(c)] {
			return false
		}
	}
	// Open pockets the walls enclose become wall: the pockets are invariant
	// under the symmetries (the cores' region is), so the map stays
	// symmetric. Too much filling means regenerating instead.
	pockets := 0
	for t := 0; t < n; t++ {
		if !g.wall[t] && !seen[t] {
			pockets++
		}
	}
	if g.nWalls+pockets > n*15/100 {
		return false
	}
	for t := 0; t < n; t++ {
		if !g.wall[t] && !seen[t] {
			g.wall[t] = true
			g.nWalls++
		}
	}
	return true
}

// placeEnergy puts energy orbits on open tiles away from cores and from
// one another.
func (g *mapGen) placeEnergy() bool {
	n := g.rows * g.cols
	N := len(g.group)
	want := (n + 50) / 100
	if want < 4*N {
		want = 4 * N
	}
	want = (want + N - 1) / N * N
	g.energy = make([]bool, n)
	count := 0
	var buf []Pos
	crowded := func(q Pos) bool {
		for dr := -1; dr <= 1; dr++ {
			for dc := -1; dc <= 1; dc++ {
				if g.energy[wrap(q.Row+dr, g.rows)*g.cols+wrap(q.Col+dc, g.cols)] {
					return true
				}
			}
		}
		return false
	}
	for guard := 0; count < want && guard < 20000; guard++ {
		buf = g.orbit(g.randPos(), buf)
		ok := true
		for i, q := range buf {
			t := g.tile(q)
			if g.wall[t] || g.near[t] || crowded(q) {
				ok = false
				break
			}
			for _, o := range buf[:i] {
				if Dist2(o, q, g.rows, g.cols) <= 2 {
					ok = false
					break
				}
			}
			if !ok {
				break
			}
		}
		if !ok {
			continue
		}
		for _, q := range buf {
			g.energy[g.tile(q)] = true
		}
		count += N
	}
	return count >= want
}

// build assembles the Map with sorted lists.
func (g *mapGen) build() *Map {
	m := &Map{Rows: g.rows, Cols: g.cols, Walls: []Pos{}, Energy: []Pos{}}
	for t := range g.wall {
		p := Pos{Row: t / g.cols, Col: t % g.cols}
		if g.wall[t] {
			m.Walls = append(m.Walls, p)
		}
		if g.energy[t] {
			m.Energy = append(m.Energy, p)
		}
	}
	for i, c := range g.cores {
		m.Cores = append(m.Cores, Core{ID: i, Owner: i / g.cpp, Row: c.Row, Col: c.Col})
	}
	m.ZoneCenters = Orbit(MapCenter(g.rows, g.cols), g.group, g.rows, g.cols)
	return m
}
