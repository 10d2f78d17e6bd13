package acb

import (
	"fmt"
	"slices"
)

// The symmetries of maps: the isometries of the wrapping grid that carry
// one seat onto another (shared/specs/acb.md, "Maps"). GenerateMap builds
// maps invariant under MapSymmetries; Map.Symmetries finds the symmetries
// of any map, and Map.CheckFair uses them to refuse unfair map files.

// Symmetry is an isometry of the wrapping grid, written as an affine map
// of the tile coordinates taken modulo the grid size:
//
//	row' = RR*row + RC*col + DR   (mod rows)
//	col' = CR*row + CC*col + DC   (mod cols)
//
// The linear part is a rotation (or the identity), so Symmetry preserves
// wrapped distances.
type Symmetry struct {
	RR, RC, DR int
	CR, CC, DC int
}

// Apply maps p by s on a rows x cols grid.
func (s Symmetry) Apply(p Pos, rows, cols int) Pos {
	return Pos{
		Row: wrap(s.RR*p.Row+s.RC*p.Col+s.DR, rows),
		Col: wrap(s.CR*p.Row+s.CC*p.Col+s.DC, cols),
	}
}

// MapSize returns the grid size GenerateMap uses for players seats when
// the config asks for rows x cols. The symmetry scheme (see GenerateMap)
// needs it:
//
//   - 2 players: any size.
//   - 4 players: a square grid, any size; a non-square grid needs even rows
//     and cols (odd ones are reduced by one).
//   - 3 and 6 players: rows and cols multiples of 3 (rounded down to the
//     nearest multiple of 3 that is at least 16, e.g. 40 -> 39, 16 -> 18).
func MapSize(players, rows, cols int) (int, int) {
	switch players {
	case 3, 6:
		return mult3(rows), mult3(cols)
	case 4:
		if rows != cols {
			return rows &^ 1, cols &^ 1
		}
	}
	return rows, cols
}

func mult3(n int) int {
	m := n - n%3
	if m < 16 {
		m += 3
	}
	return m
}

// MapSymmetries returns the symmetry group GenerateMap builds maps for
// players seats on a rows x cols grid (as returned by MapSize): element i
// maps seat 0's cores onto seat i's, and the whole map onto itself. See
// GenerateMap for the scheme.
func MapSymmetries(players, rows, cols int) ([]Symmetry, error) {
	pr, pc := rows/2, cols/2 // the centre, also the zone's centre
	id := Symmetry{RR: 1, CC: 1}
	rot180 := Symmetry{RR: -1, DR: 2 * pr, CC: -1, DC: 2 * pc}
	switch players {
	case 2:
		return []Symmetry{id, rot180}, nil
	case 4:
		if rows == cols {
			p := pr
			rot90 := Symmetry{RC: 1, CR: -1, DC: 2 * p}  // (r, c) -> (c, 2p - r)
			rot270 := Symmetry{RC: -1, DR: 2 * p, CR: 1} // (r, c) -> (2p - c, r)
			return []Symmetry{id, rot90, rot180, rot270}, nil
		}
		if rows%2 != 0 || cols%2 != 0 {
			return nil, fmt.Errorf("acb: a non-square map for 4 players needs even rows and cols, not %dx%d", rows, cols)
		}
		half := Symmetry{RR: 1, DR: rows / 2, CC: 1, DC: cols / 2}
		rotHalf := Symmetry{RR: -1, DR: 2*pr - rows/2, CC: -1, DC: 2*pc - cols/2}
		return []Symmetry{id, rot180, half, rotHalf}, nil
	case 3, 6:
		if rows%3 != 0 || cols%3 != 0 {
			return nil, fmt.Errorf("acb: a map for %d players needs rows and cols divisible by 3, not %dx%d", players, rows, cols)
		}
		var g []Symmetry
		for k := 0; k < 3; k++ {
			g = append(g, Symmetry{RR: 1, DR: k * rows / 3, CC: 1, DC: k * cols / 3})
		}
		if players == 6 {
			for k := 0; k < 3; k++ {
				g = append(g, Symmetry{RR: -1, DR: 2*pr - k*rows/3, CC: -1, DC: 2*pc - k*cols/3})
			}
		}
		return g, nil
	}
	return nil, fmt.Errorf("acb: maps exist for 2, 3, 4 or 6 players, not %d", players)
}

// Orbit returns the images of p under the symmetries of group on a rows x
// cols grid, duplicates removed, sorted by (row, col): the zone's centres
// are the orbit of the map centre under the map's symmetry group.
func Orbit(p Pos, group []Symmetry, rows, cols int) []Pos {
	out := []Pos{p}
	for _, s := range group {
		if q := s.Apply(p, rows, cols); !slices.Contains(out, q) {
			out = append(out, q)
		}
	}
	slices.SortFunc(out, cmpPos)
	return out
}

// The linear parts a map symmetry may have: the identity and the rotation
// by 180 degrees on any grid, the rotations by 90 and 270 degrees on a
// square one (shared/specs/acb.md, "Maps": "a rotation by 90 degrees on
// square grids or 180 degrees, followed by a translation, or a translation
// alone"). Reflections are not symmetries of a fair map: they would give
// seats mirrored worlds.
var (
	linIdentity = Symmetry{RR: 1, CC: 1}
	linRot180   = Symmetry{RR: -1, CC: -1}
	linRot90    = Symmetry{RC: 1, CR: -1} // (r, c) -> (c, -r)
	linRot270   = Symmetry{RC: -1, CR: 1} // (r, c) -> (-c, r)
)

// MapSymmetry is a symmetry of one map with the seats it carries onto one
// another.
type MapSymmetry struct {
	Symmetry
	// Seats[p] is the seat whose cores seat p's cores are carried onto.
	Seats []int
}

// Symmetries returns the symmetry group of the map: every rotation (by 0 or
// 180 degrees, or 90 and 270 on a square grid) followed by a translation
// that maps every wall onto a wall, every energy tile onto an energy tile
// and every core onto a core, the cores of each seat onto the cores of one
// seat. The identity comes first; translations are reduced modulo the grid
// size, so equal symmetries compare equal. The zone's centres (the orbit of
// the map centre, a later rule) and CheckFair are built on it. A map that
// does not Validate may give any result.
func (m *Map) Symmetries() []MapSymmetry {
	if len(m.Cores) == 0 || m.Rows <= 0 || m.Cols <= 0 {
		return nil
	}
	const (
		open = iota
		wall
		energy
	)
	kind := make([]uint8, m.Rows*m.Cols)
	owner := make([]int8, m.Rows*m.Cols)
	for i := range owner {
		owner[i] = -1
	}
	tile := func(p Pos) int { return p.Row*m.Cols + p.Col }
	for _, p := range m.Walls {
		kind[tile(p)] = wall
	}
	for _, p := range m.Energy {
		kind[tile(p)] = energy
	}
	anchor := m.Cores[0]
	for _, c := range m.Cores {
		owner[tile(c.Pos())] = int8(c.Owner)
		if c.Owner < anchor.Owner || c.Owner == anchor.Owner && c.ID < anchor.ID {
			anchor = c
		}
	}
	lins := []Symmetry{linIdentity, linRot180}
	if m.Rows == m.Cols {
		lins = append(lins, linRot90, linRot270)
	}
	players := m.Players()
	var out []MapSymmetry
	for _, lin := range lins {
		from := lin.Apply(anchor.Pos(), m.Rows, m.Cols)
		for _, target := range m.Cores {
			s := lin
			s.DR, s.DC = wrap(target.Row-from.Row, m.Rows), wrap(target.Col-from.Col, m.Cols)
			if seats := m.carries(s, kind, owner, players); seats != nil {
				out = append(out, MapSymmetry{Symmetry: s, Seats: seats})
			}
		}
	}
	return out
}

// carries checks that s maps walls, energy and cores of m onto their own
// kind (kind and owner are m's tiles) and returns the seat permutation it
// induces, or nil.
func (m *Map) carries(s Symmetry, kind []uint8, owner []int8, players int) []int {
	at := func(p Pos) int {
		q := s.Apply(p, m.Rows, m.Cols)
		return q.Row*m.Cols + q.Col
	}
	for _, p := range m.Walls {
		if kind[at(p)] != kind[p.Row*m.Cols+p.Col] {
			return nil
		}
	}
	for _, p := range m.Energy {
		if kind[at(p)] != kind[p.Row*m.Cols+p.Col] {
			return nil
		}
	}
	seats := make([]int, players)
	for i := range seats {
		seats[i] = -1
	}
	for _, c := range m.Cores {
		o := owner[at(c.Pos())]
		if o < 0 || seats[c.Owner] >= 0 && seats[c.Owner] != int(o) {
			return nil
		}
		seats[c.Owner] = int(o)
	}
	return seats
}
