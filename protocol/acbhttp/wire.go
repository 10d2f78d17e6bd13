package acbhttp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"crucible/engine/acb"
)

// ErrBody is wrapped by every failure to accept a /turn body after
// authentication: it does not parse, lacks match_id or turn, disagrees with
// the headers, or describes an impossible grid. A bot answers it with 400.
var ErrBody = errors.New("bad request body")

// MaxGridSide bounds rows and cols of a state a bot accepts, so that a body
// cannot make a strategy allocate an absurd grid.
const MaxGridSide = 1000

// turnBody decodes a /turn body. The outer MatchID and Turn shadow the
// embedded View's fields of the same JSON names, which lets the parser tell
// a missing field from a zero one.
type turnBody struct {
	MatchID *string `json:"match_id"`
	Turn    *int    `json:"turn"`
	acb.View
}

// ParseTurnRequest decodes an authenticated /turn body into a View and
// checks that its match_id and turn equal the headers in a (the header turn
// must be a decimal integer). A config without turn_timeout gets the 3 s
// default. Grid positions must lie inside config.rows x config.cols so that
// no strategy indexes outside its grid. Unknown fields are ignored. Every
// error wraps ErrBody and names the field at fault.
func ParseTurnRequest(body []byte, a RequestAuth) (*acb.View, error) {
	var tb turnBody
	if !decodeViewFast(body, &tb) {
		tb = turnBody{}
		if err := json.Unmarshal(body, &tb); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrBody, err)
		}
	}
	if tb.MatchID == nil {
		return nil, fmt.Errorf("%w: field match_id is missing", ErrBody)
	}
	if tb.Turn == nil {
		return nil, fmt.Errorf("%w: field turn is missing", ErrBody)
	}
	if *tb.MatchID != a.MatchID {
		return nil, fmt.Errorf("%w: body match_id %q differs from header %s %q", ErrBody, *tb.MatchID, HeaderMatchID, a.MatchID)
	}
	ht, err := strconv.Atoi(a.Turn)
	if err != nil {
		return nil, fmt.Errorf("%w: header %s %q is not an integer", ErrBody, HeaderTurn, a.Turn)
	}
	if *tb.Turn != ht {
		return nil, fmt.Errorf("%w: body turn %d differs from header %s %d", ErrBody, *tb.Turn, HeaderTurn, ht)
	}
	v := &tb.View
	v.MatchID, v.Turn = *tb.MatchID, *tb.Turn
	if v.Config.TurnTimeout == 0 {
		v.Config.TurnTimeout = acb.DefaultTurnTimeout
	}
	if err := checkGeometry(v); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrBody, err)
	}
	return v, nil
}

// checkGeometry rejects states a strategy cannot index safely.
func checkGeometry(v *acb.View) error {
	c := v.Config
	if c.Rows < 1 || c.Rows > MaxGridSide {
		return fmt.Errorf("config.rows = %d is outside 1..%d", c.Rows, MaxGridSide)
	}
	if c.Cols < 1 || c.Cols > MaxGridSide {
		return fmt.Errorf("config.cols = %d is outside 1..%d", c.Cols, MaxGridSide)
	}
	if c.TurnTimeout < 0 {
		return fmt.Errorf("config.turn_timeout = %d is negative", c.TurnTimeout)
	}
	if v.Turn < 0 {
		return fmt.Errorf("turn = %d is negative", v.Turn)
	}
	if v.You.ID < 0 {
		return fmt.Errorf("you.id = %d is negative", v.You.ID)
	}
	in := func(list string, i int, p acb.Pos) error {
		if p.Row < 0 || p.Row >= c.Rows || p.Col < 0 || p.Col >= c.Cols {
			return fmt.Errorf("%s[%d] at (%d, %d) lies outside the %dx%d grid", list, i, p.Row, p.Col, c.Rows, c.Cols)
		}
		return nil
	}
	for i, u := range v.Bots {
		if err := in("bots", i, u.Position); err != nil {
			return err
		}
	}
	for i, u := range v.Dead {
		if err := in("dead", i, u.Position); err != nil {
			return err
		}
	}
	for i, p := range v.Energy {
		if err := in("energy", i, p); err != nil {
			return err
		}
	}
	for i, p := range v.Walls {
		if err := in("walls", i, p); err != nil {
			return err
		}
	}
	for i, cv := range v.Cores {
		if err := in("cores", i, cv.Position); err != nil {
			return err
		}
	}
	if z := v.Zone; z != nil {
		if z.Radius < 0 {
			return fmt.Errorf("zone.radius = %d is negative", z.Radius)
		}
		if err := in("zone.center", 0, z.Center); err != nil {
			return err
		}
		for i, p := range z.Centers {
			if err := in("zone.centers", i, p); err != nil {
				return err
			}
		}
	}
	return nil
}

// ErrMalformed is wrapped by every failure of ParseOrders: the reply is a
// no-op turn for the bot.
var ErrMalformed = errors.New("malformed reply")

// ParseOrders decodes a /turn reply strictly, as the platform does:
// "moves" is required and must be an array or null (the platform's own Go
// starter sends null on a turn with no units, and its engine reads that as
// no moves); every move must have an object
// "position" with integer "row" and "col" and a "direction" in N, E, S, W,
// stay. Any malformed known field invalidates the whole reply. Unknown
// fields are ignored; "debug" is returned untouched. Field names match
// exactly (case-sensitive). The moves are appended to buf.
func ParseOrders(body []byte, buf []acb.Move) ([]acb.Move, json.RawMessage, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(body, &top); err != nil {
		return buf, nil, fmt.Errorf("%w: not a JSON object: %v", ErrMalformed, err)
	}
	if top == nil {
		return buf, nil, fmt.Errorf("%w: reply is null, want an object with moves", ErrMalformed)
	}
	raw, ok := top["moves"]
	if !ok {
		return buf, nil, fmt.Errorf("%w: field moves is missing", ErrMalformed)
	}
	raw = bytes.TrimLeft(raw, " \t\r\n")
	if isNull(raw) {
		return buf, top["debug"], nil
	}
	if len(raw) == 0 || raw[0] != '[' {
		return buf, nil, fmt.Errorf("%w: field moves is not an array", ErrMalformed)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return buf, nil, fmt.Errorf("%w: field moves: %v", ErrMalformed, err)
	}
	start := len(buf)
	for i, it := range items {
		m, err := parseMove(it)
		if err != nil {
			return buf[:start], nil, fmt.Errorf("%w: moves[%d]: %v", ErrMalformed, i, err)
		}
		buf = append(buf, m)
	}
	return buf, top["debug"], nil
}

// parseMove decodes one element of moves strictly.
func parseMove(raw json.RawMessage) (acb.Move, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return acb.Move{}, errors.New("not an object")
	}
	posRaw, ok := m["position"]
	if !ok {
		return acb.Move{}, errors.New("position is missing")
	}
	var pos map[string]json.RawMessage
	if err := json.Unmarshal(posRaw, &pos); err != nil || pos == nil {
		return acb.Move{}, errors.New("position is not an object")
	}
	row, err := intField(pos, "row")
	if err != nil {
		return acb.Move{}, err
	}
	col, err := intField(pos, "col")
	if err != nil {
		return acb.Move{}, err
	}
	dirRaw, ok := m["direction"]
	if !ok || isNull(dirRaw) {
		return acb.Move{}, errors.New("direction is missing")
	}
	var name string
	if err := json.Unmarshal(dirRaw, &name); err != nil {
		return acb.Move{}, fmt.Errorf("direction is not a string: %s", clip(dirRaw))
	}
	d, err := acb.ParseDir(name)
	if err != nil {
		return acb.Move{}, err
	}
	return acb.Move{Position: acb.Pos{Row: row, Col: col}, Direction: d}, nil
}

// intField reads a required integer field: a JSON number without fraction
// or exponent that fits an int.
func intField(m map[string]json.RawMessage, key string) (int, error) {
	raw, ok := m[key]
	if !ok || isNull(raw) {
		return 0, fmt.Errorf("position.%s is missing", key)
	}
	var v int
	if err := json.Unmarshal(raw, &v); err != nil {
		return 0, fmt.Errorf("position.%s = %s is not an integer", key, clip(raw))
	}
	return v, nil
}

func isNull(raw json.RawMessage) bool {
	return string(bytes.TrimSpace(raw)) == "null"
}

// clip shortens a raw value for an error message.
func clip(raw json.RawMessage) string {
	const n = 40
	if len(raw) > n {
		return string(raw[:n]) + "..."
	}
	return string(raw)
}

// MarshalOrders writes a reply body, {"moves":[...]}, byte for byte what
// encoding/json writes for acb.Orders (an empty array, never null, when
// there are no moves) without reflection. A direction outside the five is
// an error (a strategy bug), not a move the engine would reject.
func MarshalOrders(moves []acb.Move) ([]byte, error) {
	b := make([]byte, 0, 16+len(moves)*56)
	b = append(b, `{"moves":[`...)
	for i, m := range moves {
		if m.Direction > acb.West {
			return nil, fmt.Errorf("move %d from (%d, %d) has no direction (value %d)", i, m.Position.Row, m.Position.Col, m.Direction)
		}
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"position":{"row":`...)
		b = strconv.AppendInt(b, int64(m.Position.Row), 10)
		b = append(b, `,"col":`...)
		b = strconv.AppendInt(b, int64(m.Position.Col), 10)
		b = append(b, `},"direction":"`...)
		b = append(b, m.Direction.String()...)
		b = append(b, `"}`...)
	}
	return append(b, "]}"...), nil
}
