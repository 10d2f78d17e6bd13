package acb

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// A board is a match state drawn as text, for the phase tests: one line per
// row, one whitespace-separated cell per column. A cell is a terrain mark
// followed by the units standing on it:
//
//	.        open ground (may be left out before units: "0" is ". 0")
//	#        wall
//	*  o     energy tile, full (*) or emptied (o)
//	A..F     active core of player 0..5
//	a..f     razed core of player 0..5
//	0..5     a unit of player 0..5; several digits, several units
//	^ > v <  after a unit's digit: its order this turn (N, E, S, W)
//	=        after a unit's digit: an order to stay
//
// For example "A0 . *" is a row with player 0's core with one of its units
// on it, open ground and a full energy tile, and "01>" is a tile holding a
// unit of player 0 and one of player 1 ordered east. Cores take the ids 0..
// and units the ids 0.. in reading order (rows top to bottom, cells left
// to right, digits left to right). The grid wraps like every map.

// boardDirs are the order marks, by direction.
const boardDirs = "=^>v<"

// board builds the match a picture shows, as it stands before turn turn
// (turn-1 turns played): the units' orders are for turn turn. The match
// has the players the picture names (at least two), idle controllers, cfg
// with the picture's size, and is not validated (boards may be smaller than
// any real map).
func board(t *testing.T, cfg Config, turn int, pic string) *Match {
	t.Helper()
	type boardUnit struct {
		owner   int
		pos     Pos
		ordered bool
		dir     Dir
	}
	mp := &Map{Walls: []Pos{}, Energy: []Pos{}}
	var razed, emptied []Pos
	var units []boardUnit
	players := 2
	for _, line := range strings.Split(strings.TrimSpace(pic), "\n") {
		cells := strings.Fields(line)
		if mp.Rows == 0 {
			mp.Cols = len(cells)
		} else if len(cells) != mp.Cols {
			t.Fatalf("board row %d has %d cells, row 0 has %d", mp.Rows, len(cells), mp.Cols)
		}
		for c, cell := range cells {
			p := Pos{Row: mp.Rows, Col: c}
			rest := cell
			switch ch := cell[0]; {
			case ch == '.':
			case ch == '#':
				mp.Walls = append(mp.Walls, p)
			case ch == '*' || ch == 'o':
				mp.Energy = append(mp.Energy, p)
				if ch == 'o' {
					emptied = append(emptied, p)
				}
			case ch >= 'A' && ch <= 'F' || ch >= 'a' && ch <= 'f':
				owner := int(ch-'A') % 32
				mp.Cores = append(mp.Cores, Core{ID: len(mp.Cores), Owner: owner, Row: p.Row, Col: p.Col})
				players = max(players, owner+1)
				if ch >= 'a' {
					razed = append(razed, p)
				}
			case ch >= '0' && ch <= '5':
				rest = "." + cell
			default:
				t.Fatalf("board cell %q at (%d,%d): unknown mark %q", cell, p.Row, p.Col, ch)
			}
			for _, ch := range rest[1:] {
				switch {
				case ch >= '0' && ch <= '5':
					units = append(units, boardUnit{owner: int(ch - '0'), pos: p})
					players = max(players, int(ch-'0')+1)
				case strings.ContainsRune(boardDirs, ch) && len(units) > 0 && units[len(units)-1].pos == p && !units[len(units)-1].ordered:
					units[len(units)-1].ordered = true
					units[len(units)-1].dir = Dir(strings.IndexRune(boardDirs, ch))
				default:
					t.Fatalf("board cell %q at (%d,%d): %q is not a unit or an order after one", cell, p.Row, p.Col, ch)
				}
			}
		}
		mp.Rows++
	}
	cfg.Rows, cfg.Cols = mp.Rows, mp.Cols
	seats := make([]MatchPlayer, players)
	for i := range seats {
		seats[i] = MatchPlayer{Name: fmt.Sprintf("p%d", i), Controller: Idle{}}
	}
	m := &Match{cfg: cfg, mp: mp, seed: 1, matchID: "board", np: players, winner: NoWinner, turn: turn - 1}
	m.setup(seats)
	for ci := range m.cores {
		if slices.Contains(razed, Pos{Row: m.cores[ci].row, Col: m.cores[ci].col}) {
			m.cores[ci].active = false
		}
	}
	for ei, tile := range m.energyTiles {
		p := Pos{Row: int(tile) / m.cols, Col: int(tile) % m.cols}
		if slices.Contains(emptied, p) {
			m.energyFull[ei] = false
			m.energyEmpty[ei] = turn - 1
			m.empty = append(m.empty, int32(ei))
			m.energyBits[p.Row*m.words+p.Col>>6] &^= 1 << (p.Col & 63)
		}
	}
	m.units = m.units[:0]
	for i, bu := range units {
		u := unit{id: int32(i), owner: int32(bu.owner), row: int32(bu.pos.Row), col: int32(bu.pos.Col), ordered: -1}
		if bu.ordered {
			u.ordered, u.dir = int32(turn), bu.dir
		}
		m.units = append(m.units, u)
	}
	m.nextID = int32(len(units))
	m.rebuildOcc()
	return m
}

// picture draws the match's board in the notation of board: living units
// only (a unit that died this turn is gone), digits sorted by owner, and
// with orders when orders is set (those for the turn after m.turn).
func picture(m *Match, orders bool) string {
	cells := make([][]string, m.rows)
	for r := range cells {
		cells[r] = make([]string, m.cols)
		for c := range cells[r] {
			cells[r][c] = "."
		}
	}
	for _, p := range m.mp.Walls {
		cells[p.Row][p.Col] = "#"
	}
	for ei, tile := range m.energyTiles {
		mark := "*"
		if !m.energyFull[ei] {
			mark = "o"
		}
		cells[int(tile)/m.cols][int(tile)%m.cols] = mark
	}
	for _, c := range m.cores {
		mark := 'A' + c.owner
		if !c.active {
			mark = 'a' + c.owner
		}
		cells[c.row][c.col] = string(rune(mark))
	}
	on := make(map[Pos][]unit)
	for _, u := range m.units {
		if u.cause == "" {
			p := Pos{Row: int(u.row), Col: int(u.col)}
			on[p] = append(on[p], u)
		}
	}
	for p, us := range on {
		slices.SortStableFunc(us, func(a, b unit) int { return int(a.owner - b.owner) })
		cell := cells[p.Row][p.Col]
		if cell == "." {
			cell = ""
		}
		for _, u := range us {
			cell += string(rune('0' + u.owner))
			if orders && u.ordered == int32(m.turn+1) {
				cell += string(boardDirs[u.dir])
			}
		}
		cells[p.Row][p.Col] = cell
	}
	lines := make([]string, m.rows)
	for r, row := range cells {
		lines[r] = strings.Join(row, " ")
	}
	return strings.Join(lines, "\n")
}

// sameBoard compares two pictures cell by cell (spacing is free).
func sameBoard(a, b string) bool {
	la, lb := strings.Split(strings.TrimSpace(a), "\n"), strings.Split(strings.TrimSpace(b), "\n")
	return slices.EqualFunc(la, lb, func(x, y string) bool { return slices.Equal(strings.Fields(x), strings.Fields(y)) })
}

// wantBoard fails the test unless the match's board (orders included when
// orders is set) is the picture want.
func wantBoard(t *testing.T, m *Match, orders bool, want string) {
	t.Helper()
	if got := picture(m, orders); !sameBoard(got, want) {
		t.Errorf("board after the phase:\n%s\nwant:\n%s", indent(got), indent(want))
	}
}

func indent(pic string) string {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(pic), "\n") {
		b.WriteString("\t" + strings.Join(strings.Fields(line), " ") + "\n")
	}
	return b.String()
}

// deathList lists the deaths of the phase as "p<owner> (row,col) cause",
// in the order they happened.
func deathList(m *Match) []string {
	out := []string{}
	for _, e := range m.events {
		if e.Type == EventDied {
			out = append(out, fmt.Sprintf("p%d (%d,%d) %s", e.Owner, e.Pos.Row, e.Pos.Col, e.Cause))
		}
	}
	return out
}

// scoresOf and energyOf list every player's score and energy.
func scoresOf(m *Match) []int {
	out := make([]int, m.np)
	for p := range out {
		out[p] = m.players[p].score
	}
	return out
}

func energyOf(m *Match) []int {
	out := make([]int, m.np)
	for p := range out {
		out[p] = m.players[p].energy
	}
	return out
}

// TestBoardRoundTrip checks the test helper itself: a picture read with
// board and drawn with picture comes back the same, and the state it
// builds is the one drawn.
func TestBoardRoundTrip(t *testing.T) {
	pic := `
		A0   .   #   *
		.    01> o   .
		b    .   2^  C2=`
	m := board(t, DefaultConfig(), 4, pic)
	if got := picture(m, true); !sameBoard(got, pic) {
		t.Fatalf("round trip:\n%s\nwant:\n%s", indent(got), indent(pic))
	}
	if m.np != 3 || m.rows != 3 || m.cols != 4 || m.cfg.Rows != 3 || m.turn != 3 {
		t.Fatalf("players %d, size %dx%d (config %dx%d), turn %d; want 3 players, 3x4, turn 3", m.np, m.rows, m.cols, m.cfg.Rows, m.cfg.Cols, m.turn)
	}
	want := []UnitInfo{{0, 0, Pos{0, 0}}, {1, 0, Pos{1, 1}}, {2, 1, Pos{1, 1}}, {3, 2, Pos{2, 2}}, {4, 2, Pos{2, 3}}}
	if got := m.Units(); !slices.Equal(got, want) {
		t.Fatalf("units %v, want %v", got, want)
	}
	if m.units[2].ordered != 4 || m.units[2].dir != East || m.units[1].ordered == 4 || m.units[4].ordered != 4 || m.units[4].dir != Stay {
		t.Fatalf("orders: units %+v; want unit 2 ordered east and unit 4 to stay in turn 4, unit 1 without an order", m.units)
	}
	cores := m.Cores()
	if len(cores) != 3 || !cores[0].Active || cores[1].Active || cores[1].Owner != 1 || cores[2].Owner != 2 {
		t.Fatalf("cores %+v; want A (player 0, active), b (player 1, razed), C (player 2)", cores)
	}
	if got := m.EnergyFull(); !slices.Equal(got, []Pos{{0, 3}}) {
		t.Fatalf("full energy %v, want only (0,3)", got)
	}
	if picture(m, false) == picture(m, true) {
		t.Fatal("the picture without orders shows orders")
	}
}
