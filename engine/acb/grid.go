package acb

// Geometry of the wrapping grid (../shared/specs/acb.md, "Geometry").

// wrap returns v reduced into 0..n-1.
func wrap(v, n int) int {
	v %= n
	if v < 0 {
		v += n
	}
	return v
}

// axisDist is the shorter way round between two coordinates on a ring of
// n tiles.
func axisDist(a, b, n int) int {
	d := a - b
	if d < 0 {
		d = -d
	}
	d %= n
	if 2*d > n {
		d = n - d
	}
	return d
}

// Dist2 is the squared Euclidean distance between a and b on a rows x cols
// grid that wraps on both axes, taking the shorter way round each axis.
// "Within r2" in the rules means Dist2 <= r2.
func Dist2(a, b Pos, rows, cols int) int {
	dr := axisDist(a.Row, b.Row, rows)
	dc := axisDist(a.Col, b.Col, cols)
	return dr*dr + dc*dc
}

// Step returns the tile one step from p in direction d on a wrapping
// rows x cols grid.
func Step(p Pos, d Dir, rows, cols int) Pos {
	dr, dc := d.Delta()
	return Pos{Row: wrap(p.Row+dr, rows), Col: wrap(p.Col+dc, cols)}
}

// isqrt returns floor(sqrt(v)) for v >= 0.
func isqrt(v int) int {
	if v <= 0 {
		return 0
	}
	r := 0
	for (r+1)*(r+1) <= v {
		r++
	}
	return r
}

// lessPos orders positions by (row, col).
func lessPos(a, b Pos) bool {
	if a.Row != b.Row {
		return a.Row < b.Row
	}
	return a.Col < b.Col
}

// cmpPos compares positions by (row, col) for slices.SortFunc.
func cmpPos(a, b Pos) int {
	switch {
	case lessPos(a, b):
		return -1
	case lessPos(b, a):
		return 1
	}
	return 0
}
