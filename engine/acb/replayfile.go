package acb

// The replay format as Go types (shared/specs/acb.md, "Replays"): what a
// replay viewer or an analysis reads with ParseReplay. The fields are in
// the order the document writes them.

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"crucible/engine"
)

// ReplayFormat is the "format" field of an ACB replay.
const ReplayFormat = "crucible-acb-replay/1"

// Replay is one match's replay document, format crucible-acb-replay/1:
// everything needed to re-simulate the match, and its states turn by turn.
type Replay struct {
	ReplayHeader
	// Turns are the turns played, in order.
	Turns []ReplayTurn `json:"turns"`
	// Result is the outcome.
	Result ReplayResult `json:"result"`
}

// ReplayHeader is the part of a replay written before the first turn: the
// match, its players, its map and its initial units.
type ReplayHeader struct {
	// Format is ReplayFormat.
	Format string `json:"format"`
	// RulesVersion is the config's rules_version (RulesVersion).
	RulesVersion string `json:"rules_version"`
	// MatchID names the match (the id bots were sent).
	MatchID string `json:"match_id"`
	// Seed is the match seed the map and the players' generators came from.
	Seed uint64 `json:"seed"`
	// Config is the effective configuration (rows and cols are the map's).
	Config Config `json:"config"`
	// Players are the seats in order.
	Players []ReplayPlayer `json:"players"`
	// Map is the terrain and the cores.
	Map Map `json:"map"`
	// Initial holds the units before the first turn.
	Initial ReplayInitial `json:"initial"`
}

// ReplayPlayer is one seat of the match: its seat number, display name,
// strategy and parameter values ({} when it has none).
type ReplayPlayer struct {
	ID       int                `json:"id"`
	Name     string             `json:"name"`
	Strategy string             `json:"strategy"`
	Params   map[string]float64 `json:"params"`
}

// ReplayInitial is the state before the first turn: one unit on every core.
type ReplayInitial struct {
	Units []ReplayUnit `json:"units"`
}

// ReplayTurn is one turn: the orders that counted and the state at its end.
type ReplayTurn struct {
	// Turn is the turn's number, 1 for the first.
	Turn int `json:"turn"`
	// Orders are the validated moves other than stay, by unit id.
	Orders []ReplayOrder `json:"orders"`
	// Units are the living units at the end of the turn, by id.
	Units []ReplayUnit `json:"units"`
	// CoresRazed lists every razed core so far (cumulative), by id.
	CoresRazed []int `json:"cores_razed"`
	// Energy lists the full energy tiles at the end of the turn, sorted.
	Energy TileList `json:"energy"`
	// Players holds each seat's score and energy held, in seat order.
	Players []ReplayScore `json:"players"`
	// Events are the turn's events in phase order.
	Events []ReplayEvent `json:"events"`
}

// ReplayScore is a seat's score and energy held at the end of a turn.
type ReplayScore struct {
	Score  int `json:"score"`
	Energy int `json:"energy"`
}

// ReplayResult is the outcome: the winning seat (nil for a draw), why the
// match ended, the turns played and each seat's final figures. Adjudicated
// (written only when true) says the match stopped after the last of Turns
// because the rest could not change the result; Turns is then max_turns,
// the result of playing on.
type ReplayResult struct {
	Winner      *int          `json:"winner"`
	Reason      string        `json:"reason"`
	Turns       int           `json:"turns"`
	Players     []ReplayFinal `json:"players"`
	Adjudicated bool          `json:"adjudicated,omitempty"`
}

// ReplayFinal is a seat's final figures in the result.
type ReplayFinal struct {
	Score   int  `json:"score"`
	Energy  int  `json:"energy"`
	Units   int  `json:"units"`
	Cores   int  `json:"cores"`
	Crashed bool `json:"crashed"`
}

// ReplayUnit is a unit in a replay. JSON: [id, owner, row, col].
type ReplayUnit struct {
	ID, Owner int
	Row, Col  int
}

// Pos returns the unit's tile.
func (u ReplayUnit) Pos() Pos { return Pos{Row: u.Row, Col: u.Col} }

// MarshalJSON writes [id, owner, row, col].
func (u ReplayUnit) MarshalJSON() ([]byte, error) {
	return appendReplayUnit(nil, u.ID, u.Owner, u.Row, u.Col), nil
}

// UnmarshalJSON reads [id, owner, row, col]: exactly four integers.
func (u *ReplayUnit) UnmarshalJSON(data []byte) error {
	var v [4]int
	if err := engine.DecodeStrict(data, &v); err != nil {
		return fmt.Errorf("a unit is [id, owner, row, col]: %w", err)
	}
	*u = ReplayUnit{ID: v[0], Owner: v[1], Row: v[2], Col: v[3]}
	return nil
}

// ReplayOrder is a move that counted. JSON: [unit_id, "N"].
type ReplayOrder struct {
	Unit      int
	Direction Dir
}

// MarshalJSON writes [unit_id, "N"].
func (o ReplayOrder) MarshalJSON() ([]byte, error) {
	return appendReplayOrder(nil, o.Unit, o.Direction), nil
}

// UnmarshalJSON reads [unit_id, direction] with a direction of N, E, S, W
// or stay.
func (o *ReplayOrder) UnmarshalJSON(data []byte) error {
	var v [2]json.RawMessage
	if err := engine.DecodeStrict(data, &v); err != nil {
		return fmt.Errorf("an order is [unit_id, direction]: %w", err)
	}
	var id int
	if err := json.Unmarshal(v[0], &id); err != nil {
		return fmt.Errorf("an order's unit id %s: %w", v[0], err)
	}
	var d Dir
	if err := json.Unmarshal(v[1], &d); err != nil {
		return fmt.Errorf("the order of unit %d: %w", id, err)
	}
	*o = ReplayOrder{Unit: id, Direction: d}
	return nil
}

// TileList is a list of tiles written as [[row, col], ...].
type TileList []Pos

// MarshalJSON writes [[row, col], ...]; an empty or nil list is [].
func (l TileList) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i, p := range l {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPair(b, p.Row, p.Col)
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads [[row, col], ...]: every tile exactly two integers.
func (l *TileList) UnmarshalJSON(data []byte) error {
	var v [][2]int
	if err := engine.DecodeStrict(data, &v); err != nil {
		return fmt.Errorf("tiles are [[row, col], ...]: %w", err)
	}
	*l = posOf(v)
	return nil
}

// ReplayEvent is an event of a turn. Which fields an event has depends on
// its type; the others are -1 (ids, positions) or empty (Cause):
//
//	died:         Unit, Cause              {"type":"died","unit":7,"cause":"combat"}
//	spawned:      Unit, Owner, Core        {"type":"spawned","unit":12,"owner":0,"core":1}
//	collected:    Player, Row, Col         {"type":"collected","player":0,"row":4,"col":9}
//	captured:     Core, Owner, Player      {"type":"captured","core":3,"owner":1,"player":0}
//	bot_inactive: Player                   {"type":"bot_inactive","player":1}
type ReplayEvent struct {
	Type   string
	Unit   int
	Owner  int
	Player int
	Core   int
	Row    int
	Col    int
	Cause  string
}

// MarshalJSON writes the event in the shape of its type.
func (e ReplayEvent) MarshalJSON() ([]byte, error) { return appendReplayEvent(nil, e), nil }

// replayEventOf is the replay's form of a match event.
func replayEventOf(e Event) ReplayEvent {
	return ReplayEvent{Type: e.Type, Unit: e.Unit, Owner: e.Owner, Player: e.Player, Core: e.Core, Row: e.Pos.Row, Col: e.Pos.Col, Cause: e.Cause}
}

// replayEventJSON is the union of the event shapes, for decoding.
type replayEventJSON struct {
	Type   string  `json:"type"`
	Unit   *int    `json:"unit"`
	Owner  *int    `json:"owner"`
	Player *int    `json:"player"`
	Core   *int    `json:"core"`
	Row    *int    `json:"row"`
	Col    *int    `json:"col"`
	Cause  *string `json:"cause"`
}

// UnmarshalJSON reads an event of one of the five types with exactly the
// fields of its type; the fields it does not have are -1 (Cause empty).
func (e *ReplayEvent) UnmarshalJSON(data []byte) error {
	var w replayEventJSON
	if err := engine.DecodeStrict(data, &w); err != nil {
		return fmt.Errorf("event: %w", err)
	}
	fields, ok := eventFields[w.Type]
	if !ok {
		return fmt.Errorf("event type %q is not one of died, spawned, collected, captured, bot_inactive", w.Type)
	}
	has := map[string]bool{"unit": w.Unit != nil, "owner": w.Owner != nil, "player": w.Player != nil, "core": w.Core != nil,
		"row": w.Row != nil, "col": w.Col != nil, "cause": w.Cause != nil}
	for _, name := range [...]string{"unit", "owner", "player", "core", "row", "col", "cause"} {
		if want := strings.Contains(fields, " "+name+" "); has[name] != want {
			if want {
				return fmt.Errorf("event %s lacks its field %q", w.Type, name)
			}
			return fmt.Errorf("event %s has no field %q", w.Type, name)
		}
	}
	or := func(p *int) int {
		if p == nil {
			return -1
		}
		return *p
	}
	*e = ReplayEvent{Type: w.Type, Unit: or(w.Unit), Owner: or(w.Owner), Player: or(w.Player), Core: or(w.Core), Row: or(w.Row), Col: or(w.Col)}
	if w.Cause != nil {
		e.Cause = *w.Cause
	}
	return nil
}

// eventFields lists the fields of each event type, space-separated.
var eventFields = map[string]string{
	EventDied:        " unit cause ",
	EventSpawned:     " unit owner core ",
	EventCollected:   " player row col ",
	EventCaptured:    " core owner player ",
	EventBotInactive: " player ",
}

// ParseReplay decodes a replay document strictly (see engine.DecodeStrict:
// unknown or miscased fields, units that are not four integers, data after
// the document are errors) and checks its format is ReplayFormat. It does
// not re-simulate the match.
func ParseReplay(data []byte) (*Replay, error) {
	var r Replay
	if err := engine.DecodeStrict(data, &r); err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if r.Format != ReplayFormat {
		return nil, fmt.Errorf("replay: format %q is not %q", r.Format, ReplayFormat)
	}
	return &r, nil
}

// appendPair appends [a,b].
func appendPair(b []byte, x, y int) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(x), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(y), 10)
	return append(b, ']')
}

// appendReplayUnit appends [id,owner,row,col].
func appendReplayUnit(b []byte, id, owner, row, col int) []byte {
	b = append(b, '[')
	for i, v := range [4]int{id, owner, row, col} {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(v), 10)
	}
	return append(b, ']')
}

// appendReplayOrder appends [id,"N"].
func appendReplayOrder(b []byte, id int, d Dir) []byte {
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(id), 10)
	b = append(b, `,"`...)
	b = append(b, d.String()...)
	return append(b, `"]`...)
}

// Encode writes the replay document exactly as a match records it: compact
// JSON with each turn on a line of its own, ending in a newline. Encoding a
// replay read with ParseReplay gives back the bytes read.
func (r *Replay) Encode() ([]byte, error) {
	b, err := appendReplayHeader(nil, &r.ReplayHeader)
	if err != nil {
		return nil, err
	}
	for i := range r.Turns {
		if b, err = appendReplayTurn(b, i, &r.Turns[i]); err != nil {
			return nil, err
		}
	}
	return appendReplayResult(b, &r.Result)
}

// appendReplayHeader opens the document: the header's fields and the
// opening of the turns list.
func appendReplayHeader(b []byte, h *ReplayHeader) ([]byte, error) {
	enc, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	b = append(b, enc[:len(enc)-1]...) // without the closing brace
	return append(b, ",\"turns\":[\n"...), nil
}

// appendReplayTurn appends the turn with index i of the turns list.
func appendReplayTurn(b []byte, i int, t *ReplayTurn) ([]byte, error) {
	enc, err := json.Marshal(t)
	if err != nil {
		return nil, err
	}
	if i > 0 {
		b = append(b, ",\n"...)
	}
	return append(b, enc...), nil
}

// appendReplayResult closes the turns list and the document with the
// result.
func appendReplayResult(b []byte, res *ReplayResult) ([]byte, error) {
	enc, err := json.Marshal(res)
	if err != nil {
		return nil, err
	}
	b = append(b, "\n],\"result\":"...)
	b = append(b, enc...)
	return append(b, "}\n"...), nil
}
