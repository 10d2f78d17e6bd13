package kindling

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"crucible/engine"
)

// TurnRecord is one resolved turn: the state's lastTurn and one entry of
// the log's turns. Its JSON form is the seed's:
//
//	{"turn":2,"values":[1,2,4,3,2],"bids":[[...],[...]],"strength":[[...],[...]],
//	 "winners":[null,0,1,null,0],"points":[3,4],"scores":[6,4],
//	 "embers":[[...],[...]],"missed":[]}
//
// with one entry per seat in bids, strength, points, scores and embers.
// A zero TurnRecord (Turn 0) stands for "no turn resolved yet".
type TurnRecord struct {
	// Seats is the number of seats (the length of the JSON seat arrays).
	Seats int
	// Turn is the turn resolved, 1..Turns.
	Turn int
	// Values are the beacons' values during that turn.
	Values [Beacons]int
	// Bids are the bids as revealed (zeros for a seat that missed).
	Bids [MaxSeats]Bid
	// Strength[s][i] is bids plus the embers held before the turn.
	Strength [MaxSeats][Beacons]int
	// Winners[i] is the seat that lit beacon i, or NoWinner.
	Winners [Beacons]int
	// Points are what each seat scored this turn.
	Points [MaxSeats]int
	// Scores are the cumulative scores after the turn.
	Scores [MaxSeats]int
	// Embers are every seat's embers after the turn.
	Embers [MaxSeats][Beacons]int
	// Missed marks the seats that did not move and bid nothing.
	Missed [MaxSeats]bool
}

func appendInts(b []byte, v []int) []byte {
	b = append(b, '[')
	for i, x := range v {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return append(b, ']')
}

func appendGrid(b []byte, g *[MaxSeats][Beacons]int, n int) []byte {
	b = append(b, '[')
	for p := 0; p < n; p++ {
		if p > 0 {
			b = append(b, ',')
		}
		b = appendInts(b, g[p][:])
	}
	return append(b, ']')
}

// AppendJSON appends the record's JSON form to b.
func (r *TurnRecord) AppendJSON(b []byte) []byte {
	n := r.Seats
	b = append(b, `{"turn":`...)
	b = strconv.AppendInt(b, int64(r.Turn), 10)
	b = append(b, `,"values":`...)
	b = appendInts(b, r.Values[:])
	b = append(b, `,"bids":`...)
	b = appendGrid(b, &r.Bids, n)
	b = append(b, `,"strength":`...)
	b = appendGrid(b, &r.Strength, n)
	b = append(b, `,"winners":[`...)
	for i, w := range r.Winners {
		if i > 0 {
			b = append(b, ',')
		}
		if w == NoWinner {
			b = append(b, "null"...)
		} else {
			b = strconv.AppendInt(b, int64(w), 10)
		}
	}
	b = append(b, `],"points":`...)
	b = appendInts(b, r.Points[:n])
	b = append(b, `,"scores":`...)
	b = appendInts(b, r.Scores[:n])
	b = append(b, `,"embers":`...)
	b = appendGrid(b, &r.Embers, n)
	b = append(b, `,"missed":[`...)
	first := true
	for p := 0; p < n; p++ {
		if r.Missed[p] {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = strconv.AppendInt(b, int64(p), 10)
		}
	}
	return append(b, "]}"...)
}

// MarshalJSON writes the seed's lastTurn shape.
func (r TurnRecord) MarshalJSON() ([]byte, error) {
	if r.Seats < MinSeats || r.Seats > MaxSeats {
		return nil, fmt.Errorf("turn record: seats = %d is outside its range %d..%d", r.Seats, MinSeats, MaxSeats)
	}
	return r.AppendJSON(make([]byte, 0, 512)), nil
}

// turnRecordJSON is the wire form UnmarshalJSON decodes before checking.
type turnRecordJSON struct {
	Turn     *int    `json:"turn"`
	Values   []int   `json:"values"`
	Bids     [][]int `json:"bids"`
	Strength [][]int `json:"strength"`
	Winners  []*int  `json:"winners"`
	Points   []int   `json:"points"`
	Scores   []int   `json:"scores"`
	Embers   [][]int `json:"embers"`
	Missed   []int   `json:"missed"`
}

// UnmarshalJSON reads the seed's lastTurn shape, as an agent receives it.
// The number of seats is the length of bids; every other seat array must
// match it, every beacon array must have 5 entries, winners must be null or
// a seat, missed must list seats. A null row of bids reads as
// [0,0,0,0,0] (what a seat that did not move bids); other rows may not be
// null. Unknown fields are ignored (the API may grow). Errors name the
// field.
func (r *TurnRecord) UnmarshalJSON(data []byte) error {
	var w turnRecordJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("turn record: %w", err)
	}
	var out TurnRecord
	n := len(w.Bids)
	if n < MinSeats || n > MaxSeats {
		return fmt.Errorf("turn record: bids has %d seats, want %d..%d", n, MinSeats, MaxSeats)
	}
	out.Seats = n
	if w.Turn == nil || *w.Turn < 1 || *w.Turn > Turns {
		return fmt.Errorf("turn record: turn is missing or outside 1..%d", Turns)
	}
	out.Turn = *w.Turn
	if len(w.Values) != Beacons {
		return fmt.Errorf("turn record: values has %d entries, want %d", len(w.Values), Beacons)
	}
	copy(out.Values[:], w.Values)
	grids := []struct {
		name string
		src  [][]int
		dst  *[MaxSeats][Beacons]int
	}{{"bids", w.Bids, &out.Bids}, {"strength", w.Strength, &out.Strength}, {"embers", w.Embers, &out.Embers}}
	for _, g := range grids {
		if len(g.src) != n {
			return fmt.Errorf("turn record: %s has %d seats, want %d", g.name, len(g.src), n)
		}
		for p, row := range g.src {
			if row == nil && g.dst == &out.Bids {
				continue // null: a seat that did not move bid nothing
			}
			if len(row) != Beacons {
				return fmt.Errorf("turn record: %s[%d] has %d entries, want %d", g.name, p, len(row), Beacons)
			}
			copy(g.dst[p][:], row)
		}
	}
	if len(w.Winners) != Beacons {
		return fmt.Errorf("turn record: winners has %d entries, want %d", len(w.Winners), Beacons)
	}
	for i, x := range w.Winners {
		out.Winners[i] = NoWinner
		if x != nil {
			if *x < 0 || *x >= n {
				return fmt.Errorf("turn record: winners[%d] = %d is not a seat 0..%d", i, *x, n-1)
			}
			out.Winners[i] = *x
		}
	}
	seatArrays := []struct {
		name string
		src  []int
		dst  *[MaxSeats]int
	}{{"points", w.Points, &out.Points}, {"scores", w.Scores, &out.Scores}}
	for _, a := range seatArrays {
		if len(a.src) != n {
			return fmt.Errorf("turn record: %s has %d seats, want %d", a.name, len(a.src), n)
		}
		copy(a.dst[:], a.src)
	}
	for _, p := range w.Missed {
		if p < 0 || p >= n {
			return fmt.Errorf("turn record: missed lists %d, not a seat 0..%d", p, n-1)
		}
		out.Missed[p] = true
	}
	*r = out
	return nil
}

// ParseBid reads a move as the API receives it: a JSON array of exactly 5
// whole numbers, each 0 or more (3.0 counts as whole, 1.5 or "3" do not).
// It does not know the seat's sparks; CheckBid checks the sum.
func ParseBid(data []byte) (Bid, error) {
	var raw []json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&raw); err != nil {
		return Bid{}, fmt.Errorf("bids must be an array of %d whole numbers: %w", Beacons, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return Bid{}, fmt.Errorf("bids: unexpected data after the array")
	}
	if raw == nil {
		return Bid{}, fmt.Errorf("bids must be an array of %d whole numbers, not null", Beacons)
	}
	if len(raw) != Beacons {
		return Bid{}, fmt.Errorf("bids has %d entries, want %d", len(raw), Beacons)
	}
	var bid Bid
	for i, r := range raw {
		text := string(bytes.TrimSpace(r))
		if text == "" || !(text[0] == '-' || (text[0] >= '0' && text[0] <= '9')) {
			return Bid{}, fmt.Errorf("bids[%d] = %s is not a whole number", i, text)
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return Bid{}, fmt.Errorf("bids[%d] = %s is not a whole number", i, text)
		}
		switch {
		case math.IsInf(f, 0) || f != math.Trunc(f):
			return Bid{}, fmt.Errorf("bids[%d] = %s is not a whole number", i, text)
		case f < 0:
			return Bid{}, fmt.Errorf("bids[%d] = %s is negative (each bid must be 0 or more)", i, text)
		case f > math.MaxInt32:
			return Bid{}, fmt.Errorf("bids[%d] = %s is far more than any seat's sparks (at most %d)", i, text, SparkCap)
		}
		bid[i] = int(f)
	}
	return bid, nil
}

// Final is the outcome of a finished match in the log: scores and sparks
// left per seat, all seats in standings order, and the winners.
type Final struct {
	Scores    []int `json:"scores"`
	Sparks    []int `json:"sparks"`
	Standings []int `json:"standings"`
	Winners   []int `json:"winners"`
}

// FinalOf returns the outcome of s (meaningful once s.Finished).
func FinalOf(s *State) Final {
	standings, winners := Standings(s)
	return Final{
		Scores:    append([]int(nil), s.Scores[:s.Seats]...),
		Sparks:    append([]int(nil), s.Sparks[:s.Seats]...),
		Standings: standings,
		Winners:   winners,
	}
}

// LogPlayer is one seat in the log's players.
type LogPlayer struct {
	Seat int    `json:"seat"`
	Name string `json:"name"`
	// Kind is "bot", "agent" or "human".
	Kind string `json:"kind"`
}

// Log is a match's full replay, the body of GET /api/matches/{code}/log:
// every resolved turn in order and, once finished, the final standings
// (null before).
type Log struct {
	Code    string       `json:"code"`
	Players []LogPlayer  `json:"players"`
	Turns   []TurnRecord `json:"turns"`
	Final   *Final       `json:"final"`
}

// AppendJSON appends the log's JSON form to b: the bytes json.Marshal
// writes for it, built without reflection over the turns.
func (l *Log) AppendJSON(b []byte) ([]byte, error) {
	code, err := json.Marshal(l.Code)
	if err != nil {
		return b, err
	}
	players, err := json.Marshal(l.Players)
	if err != nil {
		return b, err
	}
	final, err := json.Marshal(l.Final)
	if err != nil {
		return b, err
	}
	b = append(b, `{"code":`...)
	b = append(b, code...)
	b = append(b, `,"players":`...)
	b = append(b, players...)
	b = append(b, `,"turns":`...)
	if l.Turns == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for k := range l.Turns {
			r := &l.Turns[k]
			if r.Seats < MinSeats || r.Seats > MaxSeats {
				return b, fmt.Errorf("log turn %d: seats = %d is outside its range %d..%d", k+1, r.Seats, MinSeats, MaxSeats)
			}
			if k > 0 {
				b = append(b, ',')
			}
			b = r.AppendJSON(b)
		}
		b = append(b, ']')
	}
	b = append(b, `,"final":`...)
	b = append(b, final...)
	return append(b, '}'), nil
}

// MarshalJSON writes the log as AppendJSON does.
func (l Log) MarshalJSON() ([]byte, error) { return l.AppendJSON(make([]byte, 0, 4096)) }

// MatchCode derives a 5-character match code (letters and digits without
// the look-alikes I, O, 0 and 1) from a seed, for headless matches that have
// no MatchID.
func MatchCode(seed uint64) string {
	const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
	z := engine.Mix(seed, 0x6b696e646c)
	var b [5]byte
	for i := range b {
		b[i] = alphabet[z&31]
		z >>= 5
	}
	return string(b[:])
}
