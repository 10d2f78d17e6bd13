package viewer

// This file is the viewer's only knowledge of the replay and log formats:
// it decodes and checks them into small structs of its own. When the
// engine gets a typed replay, this file is what changes.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"crucible/engine/kindling"
)

// acbFormat is the "format" field of the replays this viewer reads.
const acbFormat = "crucible-acb-replay/1"

// acbConfig holds the config fields the viewer uses.
type acbConfig struct {
	Rows               int  `json:"rows"`
	Cols               int  `json:"cols"`
	MaxTurns           int  `json:"max_turns"`
	VisionRadius2      int  `json:"vision_radius2"`
	CoresPerPlayer     int  `json:"cores_per_player"`
	ZoneEnabled        bool `json:"zone_enabled"`
	ZoneStartTurn      int  `json:"zone_start_turn"`
	ZoneShrinkInterval int  `json:"zone_shrink_interval"`
	ZoneShrinkStep     int  `json:"zone_shrink_step"`
	ZoneMinRadius      int  `json:"zone_min_radius"`
}

// acbPlayer is one entry of the replay's players.
type acbPlayer struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	Strategy string `json:"strategy"`
}

// acbCore is one core of the replay's map.
type acbCore struct {
	ID    int `json:"id"`
	Owner int `json:"owner"`
	Row   int `json:"row"`
	Col   int `json:"col"`
}

// acbTile is a {"row","col"} object (the map's zone_centers).
type acbTile struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// acbMap is the replay's map.
type acbMap struct {
	Rows        int       `json:"rows"`
	Cols        int       `json:"cols"`
	Walls       [][2]int  `json:"walls"`
	Energy      [][2]int  `json:"energy"`
	Cores       []acbCore `json:"cores"`
	ZoneCenters []acbTile `json:"zone_centers"`
}

// acbEvent is one event of a turn; the fields used depend on Type.
type acbEvent struct {
	Type   string `json:"type"`
	Unit   int    `json:"unit"`
	Cause  string `json:"cause"`
	Owner  int    `json:"owner"`
	Core   int    `json:"core"`
	Player int    `json:"player"`
	Row    int    `json:"row"`
	Col    int    `json:"col"`
}

// acbScore is a player's score and energy at the end of a turn.
type acbScore struct {
	Score  int `json:"score"`
	Energy int `json:"energy"`
}

// acbTurn is one turn of the replay: the state at its end and its events.
type acbTurn struct {
	Turn       int        `json:"turn"`
	Units      [][4]int   `json:"units"`
	CoresRazed []int      `json:"cores_razed"`
	Players    []acbScore `json:"players"`
	Events     []acbEvent `json:"events"`
}

// acbResult is the replay's result.
type acbResult struct {
	Winner *int   `json:"winner"`
	Reason string `json:"reason"`
	Turns  int    `json:"turns"`
}

// acbReplay is a decoded AI Code Battle replay (crucible-acb-replay/1).
type acbReplay struct {
	Format  string      `json:"format"`
	MatchID string      `json:"match_id"`
	Seed    uint64      `json:"seed"`
	Config  acbConfig   `json:"config"`
	Players []acbPlayer `json:"players"`
	Map     acbMap      `json:"map"`
	Initial struct {
		Units [][4]int `json:"units"`
	} `json:"initial"`
	Turns  []acbTurn  `json:"turns"`
	Result *acbResult `json:"result"`
}

// ErrNotReplay is wrapped by the error of a document that is not an AI
// Code Battle replay.
var ErrNotReplay = errors.New("not an AI Code Battle replay")

// ErrNotLog is wrapped by the error of a document that is not a Kindling
// log.
var ErrNotLog = errors.New("not a Kindling log")

// looksLikeKindlingLog reports whether a JSON object has the top-level
// fields of a Kindling log.
func looksLikeKindlingLog(top map[string]json.RawMessage) bool {
	_, code := top["code"]
	_, turns := top["turns"]
	return code && turns
}

// decodeACB decodes and checks a replay. Errors say which field is wrong
// and with which value.
func decodeACB(data []byte) (*acbReplay, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: the file is not a JSON object: %v", ErrNotReplay, err)
	}
	format, ok := top["format"]
	if !ok {
		if looksLikeKindlingLog(top) {
			return nil, fmt.Errorf("%w: it has no \"format\" field and looks like a Kindling log (view it with --log)", ErrNotReplay)
		}
		return nil, fmt.Errorf("%w: it has no \"format\" field (want %q)", ErrNotReplay, acbFormat)
	}
	var f string
	if err := json.Unmarshal(format, &f); err != nil || f != acbFormat {
		return nil, fmt.Errorf("%w: format is %s, want %q", ErrNotReplay, format, acbFormat)
	}
	r := new(acbReplay)
	if err := json.Unmarshal(data, r); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return r, nil
}

// check verifies what the page relies on: sizes in range, every unit,
// core and tile on the grid, owners and core ids that exist, turns
// numbered 1, 2, ... with one score entry per player.
func (r *acbReplay) check() error {
	m := &r.Map
	if m.Rows < 1 || m.Rows > 1000 || m.Cols < 1 || m.Cols > 1000 {
		return fmt.Errorf("map is %dx%d, want rows and cols in 1..1000", m.Rows, m.Cols)
	}
	if r.Config.Rows != m.Rows || r.Config.Cols != m.Cols {
		return fmt.Errorf("config is %dx%d but the map is %dx%d", r.Config.Rows, r.Config.Cols, m.Rows, m.Cols)
	}
	np := len(r.Players)
	if np < 1 || np > 16 {
		return fmt.Errorf("players has %d entries, want 1..16", np)
	}
	for i, p := range r.Players {
		if p.ID != i {
			return fmt.Errorf("players[%d].id = %d, want %d", i, p.ID, i)
		}
	}
	if r.Config.MaxTurns < 1 {
		return fmt.Errorf("config.max_turns = %d, want at least 1", r.Config.MaxTurns)
	}
	if r.Config.VisionRadius2 < 0 || r.Config.VisionRadius2 > 10000 {
		return fmt.Errorf("config.vision_radius2 = %d is outside 0..10000", r.Config.VisionRadius2)
	}
	onGrid := func(field string, i, row, col int) error {
		if row < 0 || row >= m.Rows || col < 0 || col >= m.Cols {
			return fmt.Errorf("%s[%d] = (%d, %d) is off the %dx%d grid", field, i, row, col, m.Rows, m.Cols)
		}
		return nil
	}
	for i, w := range m.Walls {
		if err := onGrid("map.walls", i, w[0], w[1]); err != nil {
			return err
		}
	}
	for i, e := range m.Energy {
		if err := onGrid("map.energy", i, e[0], e[1]); err != nil {
			return err
		}
	}
	for i, z := range m.ZoneCenters {
		if err := onGrid("map.zone_centers", i, z.Row, z.Col); err != nil {
			return err
		}
	}
	for i, c := range m.Cores {
		if c.ID != i {
			return fmt.Errorf("map.cores[%d].id = %d, want %d", i, c.ID, i)
		}
		if c.Owner < 0 || c.Owner >= np {
			return fmt.Errorf("map.cores[%d].owner = %d is not a player 0..%d", i, c.Owner, np-1)
		}
		if err := onGrid("map.cores", i, c.Row, c.Col); err != nil {
			return err
		}
	}
	units := func(field string, us [][4]int) error {
		for i, u := range us {
			if u[1] < 0 || u[1] >= np {
				return fmt.Errorf("%s[%d] owner = %d is not a player 0..%d", field, i, u[1], np-1)
			}
			if err := onGrid(field, i, u[2], u[3]); err != nil {
				return err
			}
		}
		return nil
	}
	if err := units("initial.units", r.Initial.Units); err != nil {
		return err
	}
	for k := range r.Turns {
		t := &r.Turns[k]
		if t.Turn != k+1 {
			return fmt.Errorf("turns[%d].turn = %d, want %d", k, t.Turn, k+1)
		}
		if err := units(fmt.Sprintf("turns[%d].units", k), t.Units); err != nil {
			return err
		}
		if len(t.Players) != np {
			return fmt.Errorf("turns[%d].players has %d entries, want %d", k, len(t.Players), np)
		}
		for _, c := range t.CoresRazed {
			if c < 0 || c >= len(m.Cores) {
				return fmt.Errorf("turns[%d].cores_razed lists %d, not a core 0..%d", k, c, len(m.Cores)-1)
			}
		}
	}
	if r.Result != nil && r.Result.Winner != nil && (*r.Result.Winner < 0 || *r.Result.Winner >= np) {
		return fmt.Errorf("result.winner = %d is not a player 0..%d", *r.Result.Winner, np-1)
	}
	return nil
}

// decodeKindling decodes and checks a Kindling log with the engine's own
// types (every turn record is checked by kindling.TurnRecord), then checks
// that every turn has the players' seat count and that turns are numbered
// 1, 2, ...
func decodeKindling(data []byte) (*kindling.Log, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: the file is not a JSON object: %v", ErrNotLog, err)
	}
	if f, ok := top["format"]; ok {
		return nil, fmt.Errorf("%w: it has a \"format\" field (%s), as AI Code Battle replays do (view it with --replay)", ErrNotLog, bytes.TrimSpace(f))
	}
	if !looksLikeKindlingLog(top) {
		return nil, fmt.Errorf("%w: it lacks the \"code\" and \"turns\" fields of GET /api/matches/{code}/log", ErrNotLog)
	}
	l := new(kindling.Log)
	if err := json.Unmarshal(data, l); err != nil {
		return nil, fmt.Errorf("kindling log: %w", err)
	}
	n := len(l.Players)
	if n < kindling.MinSeats || n > kindling.MaxSeats {
		return nil, fmt.Errorf("kindling log: players has %d seats, want %d..%d", n, kindling.MinSeats, kindling.MaxSeats)
	}
	for i, p := range l.Players {
		if p.Seat != i {
			return nil, fmt.Errorf("kindling log: players[%d].seat = %d, want %d", i, p.Seat, i)
		}
	}
	for k, t := range l.Turns {
		if t.Turn != k+1 {
			return nil, fmt.Errorf("kindling log: turns[%d].turn = %d, want %d", k, t.Turn, k+1)
		}
		if t.Seats != n {
			return nil, fmt.Errorf("kindling log: turns[%d] has %d seats but players lists %d", k, t.Seats, n)
		}
	}
	if f := l.Final; f != nil && (len(f.Scores) != n || len(f.Sparks) != n) {
		return nil, fmt.Errorf("kindling log: final has %d scores and %d sparks, want %d of each", len(f.Scores), len(f.Sparks), n)
	}
	return l, nil
}
