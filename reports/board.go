package reports

import (
	"html/template"
	"math"
	"slices"
	"strings"

	"crucible/arena/rating"
)

// board is a leaderboard ready for the page: the table's header and
// rows, the ratings plot with its caption and the score heat map.
type board struct {
	Head    []string
	Rows    []boardRow
	Ratings template.HTML
	Caption string
	Matrix  template.HTML
	// EloScale is the Elo difference at either end of the bars.
	EloScale float64
	// Title names the model the table is ordered by and Method says how
	// it rated (the summary's).
	Title, Method string
	// Ranks is the rank probability table, nil when not asked for.
	Ranks *rankView
}

// rankView is the rank probability table of a board: the same cells as
// the terminal's, or why there is none.
type rankView struct {
	Head        []string
	Rows        [][]string
	Notes       []string
	Unavailable string
}

// newRankView lays out a summary's rank table for the page; nil when the
// summary has none.
func newRankView(s rating.Summary) *rankView {
	t := s.Ranks
	if t == nil {
		return nil
	}
	if t.Unavailable != "" {
		return &rankView{Unavailable: t.Unavailable}
	}
	v := &rankView{Head: rankHeader(t), Rows: rankRows(t), Notes: []string{RankNote(t) + " Columns are ranks; each cell is the probability of that rank in percent (· never)."}}
	if m := s.Model; m != "" && m != rating.ModelBT {
		v.Notes = append(v.Notes, "The leaderboard is ordered by "+m.Title()+"; the rank probabilities are those of the Bradley–Terry order.")
	}
	return v
}

// boardRow is one leaderboard line: the same figures as the terminal
// table, with the Elo bar's geometry.
type boardRow struct {
	Cells []string
	// Class marks the champion, evolved variants and the base.
	Class string
	// HasBar is false for a player without games; X, Lo and Hi are the
	// bar's point and ends in the bar's own units (0 to eloBarW).
	HasBar    bool
	X, Lo, Hi float64
}

// eloBarW is the width of the Elo bars in CSS pixels.
const eloBarW = 160.0

func newBoard(s rating.Summary, base string, evolved []string) (board, error) {
	b := board{Title: s.Model.Title(), Method: s.Method, Ranks: newRankView(s)}
	var err error
	if b.Ratings, b.Caption, err = ratingsPlot(s); err != nil {
		return b, err
	}
	for _, h := range leaderboardHeader(s) {
		h = strings.NewReplacer("-2RD", " − 2RD", "-3σ", " − 3σ").Replace(h)
		b.Head = append(b.Head, h)
	}
	if b.Matrix, err = matrixPlot(s.Matrix); err != nil {
		return b, err
	}
	scale := 100.0
	for _, st := range s.Standings {
		if st.Games > 0 {
			scale = math.Max(scale, math.Max(math.Abs(st.EloLo), math.Abs(st.EloHi)))
			scale = math.Max(scale, math.Abs(st.Elo))
		}
	}
	scale = math.Min(1000, math.Ceil(scale/100)*100)
	b.EloScale = scale
	pos := func(v float64) float64 {
		v = math.Max(-scale, math.Min(scale, v))
		return math.Round((eloBarW/2+v/scale*(eloBarW/2-4))*10) / 10
	}
	rows := leaderboardRows(s)
	for i, st := range s.Standings {
		r := boardRow{Cells: rows[i], HasBar: st.Games > 0}
		switch {
		case r.HasBar && st.FewUnits:
			r.X = pos(st.Elo)
			r.Lo, r.Hi = r.X, r.X // the point alone: its interval is not available
		case r.HasBar:
			r.X, r.Lo, r.Hi = pos(st.Elo), pos(st.EloLo), pos(st.EloHi)
		}
		switch {
		case len(evolved) > 0 && st.Name == evolved[0]:
			r.Class = "champion"
		case slices.Contains(evolved, st.Name):
			r.Class = "evolved"
		case base != "" && st.Name == base:
			r.Class = "base"
		}
		b.Rows = append(b.Rows, r)
	}
	return b, nil
}
