package viewer

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"math"

	"crucible/engine/kindling"
)

//go:embed assets
var assets embed.FS

// pageTmpl is the skeleton of both pages; each page gives its own body,
// style and script.
var pageTmpl = template.Must(template.New("page.html").ParseFS(assets, "assets/page.html"))

// asset returns an embedded file's text (the files are fixed at build
// time, so a missing one is a bug of the package).
func asset(name string) string {
	b, err := assets.ReadFile("assets/" + name)
	if err != nil {
		panic("viewer: missing asset " + name)
	}
	return string(b)
}

// pageData fills pageTmpl.
type pageData struct {
	Title   string
	Kind    string
	Body    template.HTML
	CSS     template.CSS
	Data    template.JS
	Derived template.JS
	Script  template.JS
}

// scriptJSON makes JSON safe to embed in a <script> element: compacted,
// with <, >, &, U+2028 and U+2029 written as \u escapes, so no "</script"
// or "<!--" can appear in it whatever its strings hold.
func scriptJSON(data []byte) (template.JS, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, data); err != nil {
		return "", err
	}
	var safe bytes.Buffer
	json.HTMLEscape(&safe, compact.Bytes())
	return template.JS(safe.String()), nil
}

// render writes the page.
func render(w io.Writer, d pageData) error {
	if err := pageTmpl.Execute(w, d); err != nil {
		return fmt.Errorf("viewer: rendering the page: %w", err)
	}
	return nil
}

// acbDerived is what the Go side computes once for the ACB page.
type acbDerived struct {
	// WinProb[t] is each player's chance to win at the end of turn t in
	// thousandths, then the draw's.
	WinProb [][]int `json:"wp"`
	// Moments is the commentary.
	Moments []moment `json:"moments"`
	// ZoneRadius[t] is the storm's safe radius in turn t (index 0: before
	// the first turn); nil when the zone is off.
	ZoneRadius []int `json:"zone_radius"`
	// ZoneCenters are the storm's centres as [row, col].
	ZoneCenters [][2]int `json:"zone_centers"`
}

// zoneRadius is the spec's safe radius in turn t: R0 = max(rows, cols)/2
// before zone_start_turn, then max(zone_min_radius, R0 -
// zone_shrink_step*floor((t - zone_start_turn)/zone_shrink_interval)).
func zoneRadius(c acbConfig, t int) int {
	r0 := max(c.Rows, c.Cols) / 2
	if t < c.ZoneStartTurn {
		return r0
	}
	interval := max(1, c.ZoneShrinkInterval)
	return max(c.ZoneMinRadius, r0-c.ZoneShrinkStep*((t-c.ZoneStartTurn)/interval))
}

// zoneCenters are the map's zone_centers, or (rows/2, cols/2) when it
// lists none.
func zoneCenters(r *acbReplay) [][2]int {
	if len(r.Map.ZoneCenters) == 0 {
		return [][2]int{{r.Map.Rows / 2, r.Map.Cols / 2}}
	}
	out := make([][2]int, len(r.Map.ZoneCenters))
	for i, z := range r.Map.ZoneCenters {
		out[i] = [2]int{z.Row, z.Col}
	}
	return out
}

// deriveACB computes the per-turn figures the page embeds.
func deriveACB(r *acbReplay) acbDerived {
	states := statesOf(r)
	wp := winProbabilities(r, states)
	d := acbDerived{WinProb: make([][]int, len(wp)), Moments: commentary(r, states, wp)}
	for t, row := range wp {
		d.WinProb[t] = make([]int, len(row))
		for i, p := range row {
			d.WinProb[t][i] = int(math.Round(1000 * p))
		}
	}
	if r.Config.ZoneEnabled {
		d.ZoneRadius = make([]int, len(states))
		for t := range d.ZoneRadius {
			d.ZoneRadius[t] = zoneRadius(r.Config, t)
		}
		d.ZoneCenters = zoneCenters(r)
	}
	return d
}

// WriteACB writes the self-contained viewer page of the AI Code Battle
// replay data (crucible-acb-replay/1) to w. A document that is not such a
// replay is refused with an error wrapping ErrNotReplay; an inconsistent
// one with an error naming the field.
func WriteACB(w io.Writer, data []byte) error {
	r, err := decodeACB(data)
	if err != nil {
		return err
	}
	replay, err := scriptJSON(data)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	derived, err := json.Marshal(deriveACB(r))
	if err != nil {
		return fmt.Errorf("viewer: encoding the derived data: %w", err)
	}
	derivedJS, err := scriptJSON(derived)
	if err != nil {
		return err
	}
	title := fmt.Sprintf("AI Code Battle %s, seed %d", r.MatchID, r.Seed)
	return render(w, pageData{
		Title:   title,
		Kind:    "acb",
		Body:    template.HTML(asset("acb.html")),
		CSS:     template.CSS(asset("common.css") + asset("acb.css")),
		Data:    replay,
		Derived: derivedJS,
		Script:  template.JS(asset("common.js") + asset("acb.js")),
	})
}

// kindlingDerived is what the Go side computes once for the Kindling page.
type kindlingDerived struct {
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

// deriveKindling replays the sparks: StartSparks on turn 1, bids spent,
// income Income up to SparkCap before each later turn.
func deriveKindling(l *kindling.Log) (kindlingDerived, error) {
	n := len(l.Players)
	names := kindling.BeaconNames()
	base := kindling.BaseValues()
	d := kindlingDerived{Beacons: names[:], Base: base[:]}
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

// WriteKindling writes the self-contained viewer page of the Kindling log
// data (the body of GET /api/matches/{code}/log, or `crucible match
// kindling --log`) to w. A document that is not such a log is refused
// with an error wrapping ErrNotLog.
func WriteKindling(w io.Writer, data []byte) error {
	l, err := decodeKindling(data)
	if err != nil {
		return err
	}
	d, err := deriveKindling(l)
	if err != nil {
		return err
	}
	logJS, err := scriptJSON(data)
	if err != nil {
		return fmt.Errorf("kindling log: %w", err)
	}
	derived, err := json.Marshal(d)
	if err != nil {
		return fmt.Errorf("viewer: encoding the derived data: %w", err)
	}
	derivedJS, err := scriptJSON(derived)
	if err != nil {
		return err
	}
	return render(w, pageData{
		Title:   fmt.Sprintf("Kindling %s", l.Code),
		Kind:    "kindling",
		Body:    template.HTML(asset("kindling.html")),
		CSS:     template.CSS(asset("common.css") + asset("kindling.css")),
		Data:    logJS,
		Derived: derivedJS,
		Script:  template.JS(asset("common.js") + asset("kindling.js")),
	})
}
