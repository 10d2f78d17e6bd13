// Package kindlingview is the viewer page of a Kindling match log (the
// body of GET /api/matches/{code}/log, or `crucible match kindling
// --log`): the ridge of five beacons turn by turn, each seat's bids,
// strengths, embers, who lit what, sparks and scores. The page is one
// self-contained HTML file (see package viewer).
package kindlingview

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"

	"crucible/engine/kindling"
	"crucible/viewer"
)

//go:embed assets
var assets embed.FS

// derived is what the Go side computes once for the page.
type derived struct {
	// Beacons are the beacons' names in id order.
	Beacons []string `json:"beacons"`
	// Base are the beacons' base values (the values of turn 1).
	Base []int `json:"base"`
	// Sparks[t][s] is seat s's sparks before bidding in turn t+1, and
	// Left[t][s] what it kept after its bids.
	Sparks [][]int `json:"sparks"`
	Left   [][]int `json:"left"`
	// Standings and Winners are the final ones (nil while unfinished).
	Standings []int `json:"standings"`
	Winners   []int `json:"winners"`
}

// derive replays the sparks: StartSparks on turn 1, bids spent, income
// Income up to SparkCap before each later turn.
func derive(l *kindling.Log) (derived, error) {
	n := len(l.Players)
	names := kindling.BeaconNames()
	base := kindling.BaseValues()
	d := derived{Beacons: names[:], Base: base[:]}
	sparks := make([]int, n)
	for s := range sparks {
		sparks[s] = kindling.StartSparks
	}
	for k, t := range l.Turns {
		if k > 0 {
			for s := range sparks {
				sparks[s] = min(kindling.SparkCap, sparks[s]+kindling.Income)
			}
		}
		left := make([]int, n)
		for s := range n {
			spent := 0
			for _, b := range t.Bids[s] {
				spent += b
			}
			if spent > sparks[s] {
				return d, fmt.Errorf("kindling log: turns[%d]: seat %d bids %d sparks but holds %d", k, s, spent, sparks[s])
			}
			left[s] = sparks[s] - spent
		}
		d.Sparks = append(d.Sparks, append([]int(nil), sparks...))
		d.Left = append(d.Left, left)
		copy(sparks, left)
	}
	if f := l.Final; f != nil {
		d.Standings, d.Winners = f.Standings, f.Winners
	}
	return d, nil
}

// Write writes the self-contained viewer page of the Kindling log data
// (the body of GET /api/matches/{code}/log, or `crucible match kindling
// --log`) to w. A document that is not such a log is refused with an
// error wrapping ErrNotLog.
func Write(w io.Writer, data []byte) error {
	l, err := decode(data)
	if err != nil {
		return err
	}
	d, err := derive(l)
	if err != nil {
		return err
	}
	return viewer.Write(w, viewer.Page{
		Title:   fmt.Sprintf("Kindling %s", l.Code),
		Kind:    "kindling",
		Body:    template.HTML(viewer.Asset(assets, "kindling.html")),
		CSS:     viewer.Asset(assets, "kindling.css"),
		Script:  viewer.Asset(assets, "kindling.js"),
		Data:    data,
		Derived: d,
	}, "kindling log")
}

// ErrNotLog is wrapped by the error of a document that is not a Kindling
// log.
var ErrNotLog = errors.New("not a Kindling log")

// looksLikeLog reports whether a JSON object has the top-level fields of a
// Kindling log.
func looksLikeLog(top map[string]json.RawMessage) bool {
	_, code := top["code"]
	_, turns := top["turns"]
	return code && turns
}

// Recognize reports whether data is a JSON object with the top-level
// fields of a Kindling log, for a hint when another game's viewer is
// given it.
func Recognize(data []byte) bool {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return false
	}
	_, format := top["format"]
	return !format && looksLikeLog(top)
}

// decode decodes and checks a Kindling log with the engine's own
// types (every turn record is checked by kindling.TurnRecord), then checks
// that every turn has the players' seat count and that turns are numbered
// 1, 2, ...
func decode(data []byte) (*kindling.Log, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("%w: the file is not a JSON object: %v", ErrNotLog, err)
	}
	if f, ok := top["format"]; ok {
		return nil, fmt.Errorf("%w: it has a \"format\" field (%s), which a Kindling log has not", ErrNotLog, bytes.TrimSpace(f))
	}
	if !looksLikeLog(top) {
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
