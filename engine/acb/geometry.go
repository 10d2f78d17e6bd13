package acb

// Exported geometry for players that work on the wrapping grid themselves
// (the strategies), so the rules' geometry is written once, here and in
// grid.go.

// Wrap returns the tile p names on a rows x cols grid that wraps on both
// axes: each coordinate reduced into 0..rows-1 and 0..cols-1.
func Wrap(p Pos, rows, cols int) Pos {
	return Pos{Row: wrap(p.Row, rows), Col: wrap(p.Col, cols)}
}

// MapCenter is the centre tile of a rows x cols map, (rows/2, cols/2): the
// point the map symmetries of 2 and 4 players turn about, and the centre of
// storm on 2-player and square 4-player maps (Map.Centers, View.Zone).
func MapCenter(rows, cols int) Pos { return Pos{Row: rows / 2, Col: cols / 2} }
