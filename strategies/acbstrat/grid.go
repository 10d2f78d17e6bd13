package acbstrat

import (
	"crucible/engine/acb"
)

// grid is the geometry of one match's map: the wrapping (toroidal) grid of
// rows x cols tiles, indexed r*cols+c. It is built once per match from the
// View's config and holds only immutable tables.
type grid struct {
	rows, cols int
	n          int
	// nbr[i*4+k] is the neighbour of tile i in direction k+1 (North, East,
	// South, West), wrapping around the edges.
	nbr []int32
	// row and col of each tile, to avoid divisions on the hot path.
	row, col []int16
	// d2[dr*cols+dc] is the engine's squared distance (acb.Dist2) from
	// (0, 0) to (dr, dc), for dr in 0..rows-1 and dc in 0..cols-1: the
	// distance between any two tiles by their offset, read from a table.
	d2 []uint16
	// wr[r+rows] and wc[c+cols] are the wrapped row (times cols) and column
	// of any r in -rows..2*rows-1 and c in -cols..2*cols-1 (acb.Wrap), so a
	// tile plus a short offset is found without a division.
	wr, wc []int32
}

// dirs lists the four moving directions in the order of grid.nbr.
var dirs = [4]acb.Dir{acb.North, acb.East, acb.South, acb.West}

func newGrid(rows, cols int) *grid {
	g := &grid{rows: rows, cols: cols, n: rows * cols}
	g.nbr = make([]int32, g.n*4)
	g.row = make([]int16, g.n)
	g.col = make([]int16, g.n)
	g.d2 = make([]uint16, g.n)
	g.wr = make([]int32, 3*rows)
	for r := range g.wr {
		g.wr[r] = int32(acb.Wrap(acb.Pos{Row: r - rows}, rows, cols).Row * cols)
	}
	g.wc = make([]int32, 3*cols)
	for c := range g.wc {
		g.wc[c] = int32(acb.Wrap(acb.Pos{Col: c - cols}, rows, cols).Col)
	}
	origin := acb.Pos{}
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			i := r*cols + c
			p := acb.Pos{Row: r, Col: c}
			g.row[i], g.col[i] = int16(r), int16(c)
			g.d2[i] = uint16(acb.Dist2(origin, p, rows, cols))
			for k, d := range dirs {
				g.nbr[i*4+k] = g.idx(acb.Step(p, d, rows, cols))
			}
		}
	}
	return g
}

// wrapIdx returns the index of (r, c) after wrapping both coordinates.
func (g *grid) wrapIdx(r, c int) int {
	p := acb.Wrap(acb.Pos{Row: r, Col: c}, g.rows, g.cols)
	return p.Row*g.cols + p.Col
}

// idx returns the tile index of p (wrapped).
func (g *grid) idx(p acb.Pos) int32 {
	if uint(p.Row) < uint(g.rows) && uint(p.Col) < uint(g.cols) {
		return int32(p.Row*g.cols + p.Col)
	}
	return int32(g.wrapIdx(p.Row, p.Col))
}

// pos returns the position of tile i.
func (g *grid) pos(i int32) acb.Pos { return acb.Pos{Row: int(g.row[i]), Col: int(g.col[i])} }

// delta returns the signed shortest row and column offsets from a to b on
// the torus.
func (g *grid) delta(a, b int32) (dr, dc int) {
	dr = int(g.row[b]) - int(g.row[a])
	dc = int(g.col[b]) - int(g.col[a])
	if dr > g.rows/2 {
		dr -= g.rows
	} else if dr < -g.rows/2 {
		dr += g.rows
	}
	if dc > g.cols/2 {
		dc -= g.cols
	} else if dc < -g.cols/2 {
		dc += g.cols
	}
	return dr, dc
}

// dist2 is the squared distance between tiles a and b, the rules' dist2
// (acb.Dist2), read from the table of offsets.
func (g *grid) dist2(a, b int32) int {
	dr := int(g.row[b]) - int(g.row[a])
	if dr < 0 {
		dr += g.rows
	}
	dc := int(g.col[b]) - int(g.col[a])
	if dc < 0 {
		dc += g.cols
	}
	return int(g.d2[dr*g.cols+dc])
}

// manhattan is the wrapped Manhattan distance between a and b: the number
// of steps on an open map.
func (g *grid) manhattan(a, b int32) int {
	dr, dc := g.delta(a, b)
	if dr < 0 {
		dr = -dr
	}
	if dc < 0 {
		dc = -dc
	}
	return dr + dc
}

// dirTo returns the direction of the single step from a to its neighbour b,
// or Stay when b is a itself or not adjacent.
func (g *grid) dirTo(a, b int32) acb.Dir {
	for k := 0; k < 4; k++ {
		if g.nbr[int(a)*4+k] == b {
			return dirs[k]
		}
	}
	return acb.Stay
}

// offset is a relative tile position.
type offset struct{ dr, dc int16 }

// disc lists the distinct offsets (as residues on the torus) within squared
// radius r2 of a tile. Each tile of the grid appears at most once, however
// large r2 is compared with the grid.
func (g *grid) disc(r2 int) []offset {
	var out []offset
	lo, hi := -((g.rows - 1) / 2), g.rows/2
	clo, chi := -((g.cols - 1) / 2), g.cols/2
	for dr := lo; dr <= hi; dr++ {
		for dc := clo; dc <= chi; dc++ {
			if acb.Dist2(acb.Pos{}, acb.Pos{Row: dr, Col: dc}, g.rows, g.cols) <= r2 {
				out = append(out, offset{int16(dr), int16(dc)})
			}
		}
	}
	return out
}

// reachDisc lists the distinct offsets o such that a unit at o can come
// within squared radius r2 of the origin after one step (or staying): the
// disc grown by one move.
func (g *grid) reachDisc(r2 int) []offset {
	base := g.disc(r2)
	seen := make(map[int]bool, len(base)*2)
	var out []offset
	add := func(dr, dc int) {
		i := g.wrapIdx(dr, dc)
		if seen[i] {
			return
		}
		seen[i] = true
		// Store the shortest residue so applying it is a plain addition.
		r, c := i/g.cols, i%g.cols
		if r > g.rows/2 {
			r -= g.rows
		}
		if c > g.cols/2 {
			c -= g.cols
		}
		out = append(out, offset{int16(r), int16(c)})
	}
	for _, o := range base {
		add(int(o.dr), int(o.dc))
		for _, d := range dirs {
			dr, dc := d.Delta()
			add(int(o.dr)+dr, int(o.dc)+dc)
		}
	}
	return out
}

// stamp adds 1 to cnt at every tile of the offsets around tile i.
func (g *grid) stamp(cnt []uint16, i int32, offs []offset) {
	r0, c0 := int(g.row[i])+g.rows, int(g.col[i])+g.cols
	for _, o := range offs {
		cnt[g.wr[r0+int(o.dr)]+g.wc[c0+int(o.dc)]]++
	}
}
