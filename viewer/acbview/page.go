// Package acbview is the viewer page of an AI Code Battle replay
// (crucible-acb-replay/1, read with the engine's acb.ParseReplay): an
// animated map (walls, energy, cores, units, fog of one player, the zone)
// with play controls, a legend, charts of score, units, energy and win
// probability, an event ribbon and a commentary of the critical moments.
// The page is one self-contained HTML file (see package viewer).
package acbview

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"

	"crucible/engine/acb"
	"crucible/viewer"
)

//go:embed assets
var assets embed.FS

// derived is what the Go side computes once for the page.
type derived struct {
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
func zoneRadius(c acb.Config, t int) int {
	r0 := max(c.Rows, c.Cols) / 2
	if t < c.ZoneStartTurn {
		return r0
	}
	interval := max(1, c.ZoneShrinkInterval)
	return max(c.ZoneMinRadius, r0-c.ZoneShrinkStep*((t-c.ZoneStartTurn)/interval))
}

// zoneCenters are the map's zone_centers, or (rows/2, cols/2) when it
// lists none.
func zoneCenters(r *replay) [][2]int {
	if len(r.Map.ZoneCenters) == 0 {
		return [][2]int{{r.Map.Rows / 2, r.Map.Cols / 2}}
	}
	out := make([][2]int, len(r.Map.ZoneCenters))
	for i, z := range r.Map.ZoneCenters {
		out[i] = [2]int{z.Row, z.Col}
	}
	return out
}

// derive computes the per-turn figures the page embeds.
func derive(r *replay) derived {
	states := statesOf(r)
	wp := winProbabilities(r, states)
	d := derived{WinProb: make([][]int, len(wp)), Moments: commentary(r, states, wp)}
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

// Write writes the self-contained viewer page of the AI Code Battle
// replay data (crucible-acb-replay/1) to w. A document that is not such a
// replay is refused with an error wrapping ErrNotReplay; an inconsistent
// one with an error naming the field.
func Write(w io.Writer, data []byte) error {
	r, err := decode(data)
	if err != nil {
		return err
	}
	return viewer.Write(w, viewer.Page{
		Title:   fmt.Sprintf("AI Code Battle %s, seed %d", r.MatchID, r.Seed),
		Kind:    "acb",
		Body:    template.HTML(viewer.Asset(assets, "acb.html")),
		CSS:     viewer.Asset(assets, "acb.css"),
		Script:  viewer.Asset(assets, "acb.js"),
		Data:    data,
		Derived: derive(r),
	}, "replay")
}
