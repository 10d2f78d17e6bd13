package acb

// This file is the contract between the engine, the strategies and the HTTP
// protocol: the fog-filtered view a player receives each turn and the moves
// it answers with. Its JSON form is exactly the /turn body and reply of the
// seed (../shared/specs/acb.md); in-process players get the same values as
// Go structs, with no JSON on the hot path.

import (
	"context"
	"encoding/json"
	"fmt"
)

// Pos is a tile position. JSON: {"row": r, "col": c}.
type Pos struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// Dir is a move direction.
type Dir uint8

// The five directions of the protocol. Stay is the zero value.
const (
	Stay Dir = iota
	North
	East
	South
	West
)

var dirNames = [...]string{"stay", "N", "E", "S", "W"}

// String returns the protocol's name of d: "N", "E", "S", "W" or "stay".
func (d Dir) String() string {
	if int(d) < len(dirNames) {
		return dirNames[d]
	}
	return fmt.Sprintf("Dir(%d)", d)
}

// ParseDir reads a protocol direction name.
func ParseDir(s string) (Dir, error) {
	for i, n := range dirNames {
		if n == s {
			return Dir(i), nil
		}
	}
	return Stay, fmt.Errorf("direction %q is not one of N, E, S, W, stay", s)
}

// MarshalJSON writes the protocol name.
func (d Dir) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// UnmarshalJSON reads the protocol name; anything else is an error.
func (d *Dir) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("direction must be a string: %w", err)
	}
	v, err := ParseDir(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Delta returns the row and column change of one step in direction d.
// North decreases the row; East increases the column.
func (d Dir) Delta() (dr, dc int) {
	switch d {
	case North:
		return -1, 0
	case East:
		return 0, 1
	case South:
		return 1, 0
	case West:
		return 0, -1
	}
	return 0, 0
}

// PlayerInfo is the "you" object of the state: the receiving player.
type PlayerInfo struct {
	ID     int `json:"id"`
	Energy int `json:"energy"`
	Score  int `json:"score"`
}

// Unit is a visible unit: "bots" and "dead" entries of the state.
type Unit struct {
	Position Pos `json:"position"`
	Owner    int `json:"owner"`
}

// CoreView is a visible core.
type CoreView struct {
	Position Pos  `json:"position"`
	Owner    int  `json:"owner"`
	Active   bool `json:"active"`
}

// Zone is the safe circle of the storm, present when the zone is enabled.
type Zone struct {
	// Center is the first of Centers (the only one on 2-player and square
	// 4-player maps), kept for bots that know one centre.
	Center Pos `json:"center"`
	// Centers are all the storm's centres: a unit is safe within Radius of
	// the nearest one.
	Centers []Pos `json:"centers"`
	Radius  int   `json:"radius"`
}

// View is the fog-filtered state one player receives each turn: the body of
// POST /turn. Lists are sorted by (row, col). Turn is the number of turns
// already played (0 in the first request); the reply's moves are executed as
// turn Turn+1.
//
// In-process the engine reuses a View's slices from turn to turn: a
// Controller must not keep references to them after Turn returns. The
// static part of the state (match id, config) is set once per match; walls
// never change, so a controller that remembers them (WallMemory) is shown
// each wall once, the first turn it is in sight, rather than every turn.
type View struct {
	MatchID string     `json:"match_id"`
	Turn    int        `json:"turn"`
	Config  Config     `json:"config"`
	You     PlayerInfo `json:"you"`
	Bots    []Unit     `json:"bots"`
	Energy  []Pos      `json:"energy"`
	Cores   []CoreView `json:"cores"`
	// Walls are the walls in sight; for a WallMemory controller in
	// process, only those in sight for the first time in the match.
	Walls []Pos  `json:"walls"`
	Dead  []Unit `json:"dead"`
	Zone  *Zone  `json:"zone,omitempty"`
}

// Move orders the unit standing at Position to step in Direction.
type Move struct {
	Position  Pos `json:"position"`
	Direction Dir `json:"direction"`
}

// Orders is the body of a /turn reply.
type Orders struct {
	Moves []Move `json:"moves"`
	// Debug is passed through untouched; the engine ignores it.
	Debug json.RawMessage `json:"debug,omitempty"`
}

// Controller is an AI Code Battle player: it receives its view each turn and
// appends its moves to buf, returning the extended slice (buf arrives with
// length 0 and is reused between turns to avoid allocation). Moves for
// positions without an own unit, and second moves for the same unit, are
// ignored by the engine. A Controller that returns an error ends the match
// with an engine.PlayerError unless it is a remote bot (see Remote), whose
// errors are failed turns; a panic in any Controller ends the match.
type Controller interface {
	Turn(ctx context.Context, v *View, buf []Move) ([]Move, error)
}

// MatchEnder is implemented by in-process controllers that can reuse their
// memory in a later match. Game.Play calls MatchOver once the match it
// played is over (finished or failed); the controller is not called again
// for that match. It changes nothing in the match: it only lets the
// controller's buffers serve another controller.
type MatchEnder interface {
	MatchOver()
}

// WallMemory is implemented by in-process controllers that remember every
// wall their views have listed (walls never move or vanish). Their views
// list in Walls only the walls in sight for the first time in the match:
// what they know of the map is the same as when shown every wall in sight
// each turn, and the engine no longer emits the same walls every turn.
// Remote controllers always get the protocol's full state.
type WallMemory interface {
	Controller
	// RemembersWalls reports true when the controller keeps every wall
	// it has been shown for the rest of the match.
	RemembersWalls() bool
}

// Remote marks controllers that stand for bots across the network. Their
// errors are not fatal: a failed turn is a no-op for the units, and after 10
// consecutive failures the bot becomes inactive (no more calls, a
// bot_inactive event, crashed in the result).
type Remote interface {
	Controller
	// Remote reports true for network bots.
	Remote() bool
}
