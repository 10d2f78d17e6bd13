package reports

import (
	"fmt"
	"html/template"
	"strconv"
	"strings"

	"crucible/arena"
)

// MatchRow is one match of an arena report's match table, with a link to
// its viewer page when its replay was kept.
type MatchRow struct {
	// Job, Round and Seed identify the match in the schedule.
	Job   string
	Round int
	Seed  uint64
	// Players lists each seat's player with its score and place, in seat
	// order ("normal 23 (1st) · easy 12 (2nd)"), or the error of a failed
	// match.
	Players string
	// Turns and Reason say how the match ended.
	Turns  int
	Reason string
	// Viewer is the URL of the match's viewer page relative to the report
	// (see crucible replay), "" when it has none.
	Viewer string
}

// NewMatchRow is the row of record r whose viewer page is at viewer (a
// URL relative to the report, "" for none).
func NewMatchRow(r arena.Record, viewer string) MatchRow {
	row := MatchRow{Job: r.Job, Round: r.Round, Seed: r.Seed, Turns: r.Turns, Reason: r.Reason, Viewer: viewer}
	if r.Error != "" {
		row.Players, row.Reason = "failed: "+r.Error, "error"
		return row
	}
	seats := make([]string, len(r.Players))
	for s, p := range r.Players {
		seats[s] = p.Name
		if s < len(r.Scores) && s < len(r.Ranks) {
			seats[s] += fmt.Sprintf(" %s (%s)", strconv.FormatFloat(r.Scores[s], 'f', -1, 64), ordinal(r.Ranks[s]))
		}
	}
	row.Players = strings.Join(seats, " · ")
	return row
}

// ordinal writes a place: 1st, 2nd, 3rd, 4th, 11th, 21st.
func ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// The match table of the arena page: shown when the page lists matches
// (the report was given the run's replays).
var _ = template.Must(pages.New("arenamatches").Parse(`{{define "arenamatches"}}{{if .Matches}}<section id="matches">
<h2>Matches</h2>
<p class="note">Every match of the run; "watch" opens its viewer page, written beside its replay in {{.ReplayDir}} (a self-contained HTML file: it opens from disk in any browser).</p>
<div class="scroll"><table class="matches">
<thead><tr><th class="text">match</th><th>round</th><th>seed</th><th class="text">players, score (place)</th><th>turns</th><th class="text">end</th><th class="text">viewer</th></tr></thead>
<tbody>{{range .Matches}}
<tr><td class="text">{{.Job}}</td><td>{{.Round}}</td><td>{{.Seed}}</td><td class="text">{{.Players}}</td><td>{{.Turns}}</td><td class="text">{{.Reason}}</td><td class="text">{{if .Viewer}}<a class="viewer" href="{{.Viewer}}">watch</a>{{else}}no replay{{end}}</td></tr>{{end}}
</tbody>
</table></div>
</section>
{{end}}{{end}}`))
