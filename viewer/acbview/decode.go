package acbview

import (
	"encoding/json"
	"errors"
	"fmt"

	"crucible/engine/acb"
)

// replay is a replay as the page reads it: the engine's typed replay
// (acb.ParseReplay, the one declaration of the format) and whether the
// document has its result (a match still being written has none).
type replay struct {
	*acb.Replay
	finished bool
}

// ErrNotReplay is wrapped by the error of a document that is not an AI
// Code Battle replay.
var ErrNotReplay = errors.New("not an AI Code Battle replay")

// Recognize reports whether data is a JSON object whose "format" is an AI
// Code Battle replay's, for a hint when another game's viewer is given
// it.
func Recognize(data []byte) bool {
	var top struct {
		Format *string `json:"format"`
	}
	return json.Unmarshal(data, &top) == nil && top.Format != nil && *top.Format == acb.ReplayFormat
}

// decode decodes a replay with acb.ParseReplay and checks what the page
// relies on. Errors say which field is wrong and with which value.
func decode(data []byte) (*replay, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: the file is not a JSON object: %v", ErrNotReplay, err)
	}
	format, ok := top["format"]
	if !ok {
		return nil, fmt.Errorf("%w: it has no \"format\" field (want %q)", ErrNotReplay, acb.ReplayFormat)
	}
	var f string
	if err := json.Unmarshal(format, &f); err != nil || f != acb.ReplayFormat {
		return nil, fmt.Errorf("%w: format is %s, want %q", ErrNotReplay, format, acb.ReplayFormat)
	}
	parsed, err := acb.ParseReplay(data)
	if err != nil {
		return nil, err
	}
	res, ok := top["result"]
	r := &replay{Replay: parsed, finished: ok && string(res) != "null"}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	return r, nil
}

// check verifies what the page relies on: sizes in range, every unit,
// core and tile on the grid, owners and core ids that exist, turns
// numbered 1, 2, ... with one score entry per player.
func (r *replay) check() error {
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
		if err := onGrid("map.walls", i, w.Row, w.Col); err != nil {
			return err
		}
	}
	for i, e := range m.Energy {
		if err := onGrid("map.energy", i, e.Row, e.Col); err != nil {
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
	units := func(field string, us []acb.ReplayUnit) error {
		for i, u := range us {
			if u.Owner < 0 || u.Owner >= np {
				return fmt.Errorf("%s[%d] owner = %d is not a player 0..%d", field, i, u.Owner, np-1)
			}
			if err := onGrid(field, i, u.Row, u.Col); err != nil {
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
	if r.finished && r.Result.Winner != nil && (*r.Result.Winner < 0 || *r.Result.Winner >= np) {
		return fmt.Errorf("result.winner = %d is not a player 0..%d", *r.Result.Winner, np-1)
	}
	return nil
}
