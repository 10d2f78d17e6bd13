package acb

import (
	"reflect"
	"testing"
)

func TestMoveThroughStep(t *testing.T) {
	wall := Pos{Row: 9, Col: 10}
	tests := []struct {
		name   string
		units  []UnitInfo
		moves0 []Move
		moves1 []Move
		want   map[int]Pos    // living units after the turn
		died   map[int]string // deaths with cause
	}{
		{"each direction moves one tile",
			[]UnitInfo{u(0, 10, 4), u(0, 12, 6), u(0, 14, 8), u(0, 16, 12)},
			[]Move{mv(10, 4, North), mv(12, 6, East), mv(14, 8, South), mv(16, 12, West)}, nil,
			map[int]Pos{0: {9, 4}, 1: {12, 7}, 2: {15, 8}, 3: {16, 11}}, map[int]string{}},
		{"moves wrap at the edges",
			[]UnitInfo{u(0, 0, 10), u(0, 12, 0), u(0, 19, 14), u(0, 16, 19)},
			[]Move{mv(0, 10, North), mv(12, 0, West), mv(19, 14, South), mv(16, 19, East)}, nil,
			map[int]Pos{0: {19, 10}, 1: {12, 19}, 2: {0, 14}, 3: {16, 0}}, map[int]string{}},
		{"a move into a wall stays",
			[]UnitInfo{u(0, 10, 10)}, []Move{mv(10, 10, North)}, nil,
			map[int]Pos{0: {10, 10}}, map[int]string{}},
		{"own units may swap places",
			[]UnitInfo{u(0, 10, 10), u(0, 10, 11)}, []Move{mv(10, 10, East), mv(10, 11, West)}, nil,
			map[int]Pos{0: {10, 11}, 1: {10, 10}}, map[int]string{}},
		{"two own units moving onto one tile both die",
			[]UnitInfo{u(0, 10, 12), u(0, 10, 14)}, []Move{mv(10, 12, East), mv(10, 14, West)}, nil,
			map[int]Pos{}, map[int]string{0: CauseCollision, 1: CauseCollision}},
		{"moving onto a staying own unit kills both",
			[]UnitInfo{u(0, 10, 12), u(0, 10, 13), u(0, 15, 15)}, []Move{mv(10, 12, East)}, nil,
			map[int]Pos{2: {15, 15}}, map[int]string{0: CauseCollision, 1: CauseCollision}},
		{"three own units on one tile all die",
			[]UnitInfo{u(0, 11, 13), u(0, 12, 12), u(0, 12, 14)}, []Move{mv(11, 13, South), mv(12, 12, East), mv(12, 14, West)}, nil,
			map[int]Pos{}, map[int]string{0: CauseCollision, 1: CauseCollision, 2: CauseCollision}},
		{"units of different owners may share a tile (and then fight)",
			[]UnitInfo{u(0, 10, 12), u(1, 10, 14)}, []Move{mv(10, 12, East)}, []Move{mv(10, 14, West)},
			map[int]Pos{}, map[int]string{0: CauseCombat, 1: CauseCombat}},
		{"moves for empty tiles and enemy units are ignored",
			[]UnitInfo{u(0, 10, 2), u(1, 16, 16)}, []Move{mv(16, 16, North), mv(5, 5, East), mv(-1, 40, East)}, nil,
			map[int]Pos{0: {10, 2}, 1: {16, 16}}, map[int]string{}},
		{"a second move for the same unit is ignored",
			[]UnitInfo{u(0, 10, 2)}, []Move{mv(10, 2, East), mv(10, 2, West), mv(10, 2, South)}, nil,
			map[int]Pos{0: {10, 3}}, map[int]string{}},
		{"an unknown direction is ignored",
			[]UnitInfo{u(0, 10, 2)}, []Move{mv(10, 2, Dir(9))}, nil,
			map[int]Pos{0: {10, 2}}, map[int]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mp := testMap(2, 2, []Pos{wall}, nil)
			m := newTestMatch(t, DefaultConfig(), mp,
				scripted{map[int][]Move{0: tt.moves0}}, scripted{map[int][]Move{0: tt.moves1}})
			m.setUnits(tt.units...)
			step(t, m)
			if got := alive(m); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("units after the move = %v, want %v", got, tt.want)
			}
			if got := causes(m); !reflect.DeepEqual(got, tt.died) {
				t.Errorf("deaths = %v, want %v", got, tt.died)
			}
		})
	}
}

// TestPhaseMove calls the move phase on boards. Rule (shared/specs/acb.md,
// "One turn, in order", 1): "Each living unit moves one tile N, E, S or W as
// ordered, or stays. A move into a wall stays. After all moves: if two or
// more units of one owner stand on one tile, all of them die
// (self-collision). Units of different owners may share a tile. Units may
// swap places." The grid wraps on both axes ("Geometry").
func TestPhaseMove(t *testing.T) {
	tests := []struct {
		name          string
		before, after string
		died          []string
	}{
		{name: "each living unit moves one tile N, E, S or W as ordered, or stays",
			before: `. .  .  . .
			         . 0^ .  . .
			         . 0> 0v . .
			         . 0< .  0= 0`,
			after: `. 0 . . .
			        . . . . .
			        . . 0 . .
			        0 . 0 0 0`,
			died: []string{}},
		{name: "a move into a wall stays",
			before: `. #  .
			         # 0^ .
			         . 0< .`,
			after: `. # .
			        # 0 .
			        0 . .`,
			died: []string{}},
		{name: "moves wrap at the edges of the grid",
			before: `0^ . 0>
			         .  . .
			         0< . 0v`,
			after: `0 . 0
			        . . .
			        0 . 0`,
			died: []string{}},
		{name: "units may swap places",
			before: `0> 0< 1`,
			after:  `0 0 1`,
			died:   []string{}},
		{name: "two units of one owner ending on one tile both die",
			before: `0> . 0< 1`,
			after:  `. . . 1`,
			died:   []string{"p0 (0,1) collision", "p0 (0,1) collision"}},
		{name: "moving onto an own unit that stays kills both",
			before: `0> 0 . 1`,
			after:  `. . . 1`,
			died:   []string{"p0 (0,1) collision", "p0 (0,1) collision"}},
		{name: "three units of one owner on one tile all die",
			before: `. 0v .
			         0> . 0<
			         . . 1`,
			after: `. . .
			        . . .
			        . . 1`,
			died: []string{"p0 (1,1) collision", "p0 (1,1) collision", "p0 (1,1) collision"}},
		{name: "units of different owners may share a tile",
			before: `0> . 1<`,
			after:  `. 01 .`,
			died:   []string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := board(t, DefaultConfig(), 1, tt.before)
			m.phaseMove(1)
			wantBoard(t, m, false, tt.after)
			if got := deathList(m); !reflect.DeepEqual(got, tt.died) {
				t.Errorf("deaths %q, want %q", got, tt.died)
			}
		})
	}
}
