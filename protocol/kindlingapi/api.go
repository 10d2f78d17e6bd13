// Package kindlingapi serves and plays the Kindling JSON API of the seed
// (../../../shared/specs/kindling.md): a Server that hosts many matches at once
// with deadlines, house bots and spectators, and an Agent that plays a match
// on any Kindling server (this one or the public one) with an in-process
// Bidder.
//
// The rules are engine/kindling's functions: the server keeps a
// kindling.State per match and calls kindling.Resolve; the agent turns the
// JSON state into a kindling.View and calls the same Bidders the arena
// plays.
package kindlingapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"crucible/engine/kindling"
)

// The match phases of the state's "phase".
const (
	PhaseLobby    = "lobby"
	PhasePlaying  = "playing"
	PhaseFinished = "finished"
)

// The player kinds of the state's players[s].kind.
const (
	KindAgent = "agent"
	KindHuman = "human"
	KindBot   = "bot"
)

// The bounds and defaults of a match's options (spec: "turnSeconds 10 to
// 120, default 45").
const (
	MinTurnSeconds     = 10
	MaxTurnSeconds     = 120
	DefaultTurnSeconds = 45
	MaxNameRunes       = 32
	// MaxBody is the largest request body the server reads (64 KiB); a
	// larger one is answered 413.
	MaxBody = 64 << 10
)

// Beacon is one entry of the state's "beacons".
type Beacon struct {
	ID    int    `json:"id"`
	Name  string `json:"name"`
	Base  int    `json:"base"`
	Value int    `json:"value"`
}

// Player is one entry of the state's "players": every seat's public
// figures.
type Player struct {
	Seat     int                   `json:"seat"`
	Name     string                `json:"name"`
	Kind     string                `json:"kind"`
	Score    int                   `json:"score"`
	Sparks   int                   `json:"sparks"`
	Embers   [kindling.Beacons]int `json:"embers"`
	LockedIn bool                  `json:"lockedIn"`
}

// You is the state's "you": the requesting seat's private view. Bids is its
// locked-in move this turn, null until it moves.
type You struct {
	Seat     int                   `json:"seat"`
	Sparks   int                   `json:"sparks"`
	Embers   [kindling.Beacons]int `json:"embers"`
	LockedIn bool                  `json:"lockedIn"`
	Bids     *kindling.Bid         `json:"bids"`
	CanMove  bool                  `json:"canMove"`
}

// State is the body of GET /api/matches/{code}, the seed's shape. You is
// null for spectators, LastTurn null before the first turn resolves. Seats,
// TurnSeconds and Host are additive fields (the number of seats including
// open ones, the turn length, and the host's seat).
type State struct {
	Code        string               `json:"code"`
	Version     int64                `json:"version"`
	Phase       string               `json:"phase"`
	Turn        int                  `json:"turn"`
	Turns       int                  `json:"turns"`
	SecondsLeft int                  `json:"secondsLeft"`
	Beacons     []Beacon             `json:"beacons"`
	Players     []Player             `json:"players"`
	You         *You                 `json:"you"`
	LastTurn    *kindling.TurnRecord `json:"lastTurn"`
	Winners     []int                `json:"winners"`
	Standings   []int                `json:"standings"`
	Seats       int                  `json:"seats"`
	TurnSeconds int                  `json:"turnSeconds"`
	Host        int                  `json:"host"`

	// lastTurnErr is why a received lastTurn could not be read (see
	// UnmarshalJSON); nil when it was read or absent.
	lastTurnErr error
}

// UnmarshalJSON reads a state as any Kindling server sends it, ours or the
// public one. The fields an agent plays from (code, version, phase, turn,
// turns, beacons, players, you) must have the seed's types, or the state is
// an error. The others are read when they have the expected type and left
// zero when they do not, so that a server whose extras differ from ours
// (a fractional secondsLeft, rounded up; "seats", "host" or "turnSeconds"
// of another type) can still be played. A lastTurn that cannot be read is
// left nil, and the reason is kept for LastTurnError: the agent then bids
// without it rather than not at all.
func (st *State) UnmarshalJSON(data []byte) error {
	var w struct {
		Code        string          `json:"code"`
		Version     int64           `json:"version"`
		Phase       string          `json:"phase"`
		Turn        int             `json:"turn"`
		Turns       int             `json:"turns"`
		Beacons     []Beacon        `json:"beacons"`
		Players     []Player        `json:"players"`
		You         *You            `json:"you"`
		SecondsLeft json.RawMessage `json:"secondsLeft"`
		LastTurn    json.RawMessage `json:"lastTurn"`
		Winners     json.RawMessage `json:"winners"`
		Standings   json.RawMessage `json:"standings"`
		Seats       json.RawMessage `json:"seats"`
		TurnSeconds json.RawMessage `json:"turnSeconds"`
		Host        json.RawMessage `json:"host"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	out := State{Code: w.Code, Version: w.Version, Phase: w.Phase, Turn: w.Turn, Turns: w.Turns,
		Beacons: w.Beacons, Players: w.Players, You: w.You,
		Winners: optional[[]int](w.Winners), Standings: optional[[]int](w.Standings),
		Seats: optional[int](w.Seats), TurnSeconds: optional[int](w.TurnSeconds), Host: optional[int](w.Host)}
	if secs := optional[float64](w.SecondsLeft); secs > 0 {
		out.SecondsLeft = int(math.Ceil(min(secs, math.MaxInt32)))
	}
	if raw := bytes.TrimSpace(w.LastTurn); len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		var rec kindling.TurnRecord
		if err := json.Unmarshal(raw, &rec); err != nil {
			out.lastTurnErr = fmt.Errorf("lastTurn: %w", err)
		} else {
			out.LastTurn = &rec
		}
	}
	*st = out
	return nil
}

// optional decodes raw as a T, or returns T's zero value when raw is absent
// or not a T.
func optional[T any](raw json.RawMessage) T {
	var v T
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		var zero T
		return zero
	}
	return v
}

// LastTurnError reports why the received state's lastTurn could not be
// read (it is then nil), or nil.
func (st *State) LastTurnError() error { return st.lastTurnErr }

// CreateRequest is the body of POST /api/matches. Fields left out take
// their defaults: seats 2, bots 0, turnSeconds 45, botLevel "normal", kind
// "agent". Name is required.
type CreateRequest struct {
	Name        string `json:"name"`
	Seats       int    `json:"seats,omitempty"`
	Bots        int    `json:"bots"`
	TurnSeconds int    `json:"turnSeconds,omitempty"`
	BotLevel    string `json:"botLevel,omitempty"`
	Kind        string `json:"kind,omitempty"`
}

// JoinRequest is the body of POST /api/matches/{code}/join.
type JoinRequest struct {
	Name string `json:"name"`
	Kind string `json:"kind,omitempty"`
}

// Seated is the reply to create and join: the seat taken, its token, a URL
// to follow the match, and the state as that seat sees it.
type Seated struct {
	Code    string `json:"code"`
	Seat    int    `json:"seat"`
	Token   string `json:"token"`
	PlayURL string `json:"playUrl"`
	State   State  `json:"state"`
}

// BidRequest is the body of POST /api/matches/{code}/bids. Turn is
// optional; when given it must be the current turn (else 409).
type BidRequest struct {
	Bids kindling.Bid `json:"bids"`
	Turn *int         `json:"turn,omitempty"`
}

// ErrorBody is every error reply: {"error": "...", "hint": "..."}.
type ErrorBody struct {
	Error string `json:"error"`
	Hint  string `json:"hint"`
}

// RuleBeacon is a beacon in GET /api/kindling.
type RuleBeacon struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Base int    `json:"base"`
}

// Range is an inclusive range with a default.
type Range struct {
	Min     int `json:"min"`
	Max     int `json:"max"`
	Default int `json:"default"`
}

// Rules is the body of GET /api/rules: the game's constants.
type Rules struct {
	Turns       int          `json:"turns"`
	Players     Range        `json:"players"`
	Beacons     []RuleBeacon `json:"beacons"`
	StartSparks int          `json:"startSparks"`
	Income      int          `json:"income"`
	SparkCap    int          `json:"sparkCap"`
	ValueCap    int          `json:"valueCap"`
	TurnSeconds Range        `json:"turnSeconds"`
	BotLevels   []string     `json:"botLevels"`
	Summary     string       `json:"summary"`
}

// RulesOf returns the constants of engine/kindling as served by
// GET /api/kindling.
func RulesOf() Rules {
	names, base := kindling.BeaconNames(), kindling.BaseValues()
	r := Rules{
		Turns:       kindling.Turns,
		Players:     Range{Min: kindling.MinSeats, Max: kindling.MaxSeats, Default: kindling.MinSeats},
		StartSparks: kindling.StartSparks,
		Income:      kindling.Income,
		SparkCap:    kindling.SparkCap,
		ValueCap:    kindling.ValueCap,
		TurnSeconds: Range{Min: MinTurnSeconds, Max: MaxTurnSeconds, Default: DefaultTurnSeconds},
		BotLevels:   BotLevels(),
		Summary: fmt.Sprintf("Each turn every seat gains %d sparks (cap %d) and secretly splits them over %d beacons. "+
			"Strength = bid + embers; the single strongest seat lights a beacon and scores its value; "+
			"ties or no bids light nothing and the beacon grows by 1 (cap %d). Losing bids leave half their strength as embers. "+
			"After %d turns the highest score wins; ties go to more sparks left.",
			kindling.Income, kindling.SparkCap, kindling.Beacons, kindling.ValueCap, kindling.Turns),
	}
	for i := range names {
		r.Beacons = append(r.Beacons, RuleBeacon{ID: i, Name: names[i], Base: base[i]})
	}
	return r
}

// View converts a state as a seat received it into the Bidder's View: the
// turn, the beacons' values, every seat's score, sparks and embers, the
// requesting seat and the last turn. It fails, naming the field, when the
// state is not a playable turn of a seat (a spectator's state, a lobby, a
// seat list out of order).
func (st *State) View(v *kindling.View) error {
	if st.You == nil {
		return errors.New("state has no \"you\": fetch it with the seat's token")
	}
	n := len(st.Players)
	if n < kindling.MinSeats || n > kindling.MaxSeats {
		return fmt.Errorf("state has %d players, want %d..%d", n, kindling.MinSeats, kindling.MaxSeats)
	}
	if st.Turn < 1 || st.Turn > kindling.Turns {
		return fmt.Errorf("state turn %d is outside 1..%d", st.Turn, kindling.Turns)
	}
	if len(st.Beacons) != kindling.Beacons {
		return fmt.Errorf("state has %d beacons, want %d", len(st.Beacons), kindling.Beacons)
	}
	if st.You.Seat < 0 || st.You.Seat >= n {
		return fmt.Errorf("you.seat %d is not a seat 0..%d", st.You.Seat, n-1)
	}
	*v = kindling.View{Turn: st.Turn, Turns: kindling.Turns, Seats: n, You: st.You.Seat}
	if st.Turns > 0 {
		v.Turns = st.Turns
	}
	for i, b := range st.Beacons {
		if b.ID != i {
			return fmt.Errorf("beacons[%d] has id %d, want %d", i, b.ID, i)
		}
		v.Values[i] = b.Value
	}
	for i, p := range st.Players {
		if p.Seat != i {
			return fmt.Errorf("players[%d] has seat %d, want %d", i, p.Seat, i)
		}
		v.Scores[i], v.Sparks[i], v.Embers[i] = p.Score, p.Sparks, p.Embers
	}
	// The private figures win over the public list if they ever differ.
	v.Sparks[st.You.Seat], v.Embers[st.You.Seat] = st.You.Sparks, st.You.Embers
	if st.LastTurn != nil {
		v.Last = *st.LastTurn
	}
	return nil
}

// describeJSONError turns a decoding error into a message that names the
// field at fault.
func describeJSONError(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("field %s has the wrong type (got a JSON %s, want %s)", te.Field, te.Value, jsonKind(te.Type.Kind().String()))
	case errors.As(err, &se):
		return fmt.Sprintf("body is not valid JSON (at byte %d: %v)", se.Offset, err)
	}
	return "body is not valid JSON: " + err.Error()
}

// jsonKind names a Go kind the way a JSON author thinks of it.
func jsonKind(k string) string {
	switch k {
	case "int", "int64", "int32":
		return "a whole number"
	case "string":
		return "a string"
	case "array", "slice":
		return "an array"
	case "struct", "map":
		return "an object"
	case "bool":
		return "true or false"
	}
	return k
}
