// Package reports renders the lab's results for people and scripts: the
// leaderboard and pairwise statistics of a rating.Summary as a terminal
// table, Markdown, JSON or CSV, and self-contained HTML pages with SVG plots
// of an arena's results or an evolution run (html.go, plots.go).
package reports

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"

	"crucible/arena/rating"
)

// Format is an output format of the reports.
type Format string

// The formats every report can be written in.
const (
	// Table is a boxed table for the terminal.
	Table Format = "table"
	// JSON is indented JSON of the whole summary.
	JSON Format = "json"
	// CSV is one header line and one line per player, for spreadsheets.
	CSV Format = "csv"
	// Markdown is GitHub-flavoured Markdown tables.
	Markdown Format = "markdown"
)

// Formats lists the format names, for help texts and errors.
var Formats = []string{string(Table), string(JSON), string(CSV), string(Markdown)}

// ParseFormat checks a format name given on the command line.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats {
		if s == f {
			return Format(s), nil
		}
	}
	return "", fmt.Errorf("format %q is not one of %s", s, strings.Join(Formats, ", "))
}

// SummaryOptions choose the parts of a summary report.
type SummaryOptions struct {
	// Matrix adds the pairwise score matrix (table and Markdown).
	Matrix bool
	// Pairs adds the per-pair table with Wilson intervals (table and
	// Markdown).
	Pairs bool
}

// WriteSummary writes a leaderboard and, as opt asks, the pairwise matrix
// and pair list. JSON holds the whole summary whatever opt says; CSV holds
// the leaderboard only.
func WriteSummary(w io.Writer, f Format, s rating.Summary, opt SummaryOptions) error {
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	case CSV:
		return writeCSV(w, s.Standings)
	case Table, Markdown:
	default:
		return fmt.Errorf("format %q is not one of %s", f, strings.Join(Formats, ", "))
	}
	if err := writeTable(w, f, "Leaderboard", []int{1}, leaderboardHeader(), leaderboardRows(s.Standings)); err != nil {
		return err
	}
	if opt.Matrix && len(s.Matrix.Players) > 1 {
		head, rows := matrixRows(s.Matrix)
		if err := writeTable(w, f, "Score % of row against column", []int{1}, head, rows); err != nil {
			return err
		}
	}
	if opt.Pairs && len(s.Pairs) > 0 {
		if err := writeTable(w, f, "Pairs (score of the first, Wilson 95% interval)", []int{0, 1}, pairsHeader(), pairsRows(s.Pairs)); err != nil {
			return err
		}
	}
	return nil
}

// WriteLeaderboard writes the leaderboard alone.
func WriteLeaderboard(w io.Writer, f Format, s rating.Summary) error {
	return WriteSummary(w, f, s, SummaryOptions{})
}

// writeTable renders one titled table in the terminal or Markdown style.
// The columns listed in left hold names and are aligned left, the others
// (figures) right.
func writeTable(w io.Writer, f Format, title string, left []int, head []string, rows [][]string) error {
	var opts []tablewriter.Option
	if f == Markdown {
		if _, err := fmt.Fprintf(w, "\n### %s\n\n", title); err != nil {
			return err
		}
		opts = append(opts, tablewriter.WithRenderer(renderer.NewMarkdown()))
	} else if _, err := fmt.Fprintf(w, "%s\n", title); err != nil {
		return err
	}
	opts = append(opts,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{Global: tw.AlignRight, PerColumn: aligns(len(head), left)}),
	)
	t := tablewriter.NewTable(w, opts...)
	t.Header(head)
	for _, r := range rows {
		if err := t.Append(r); err != nil {
			return err
		}
	}
	return t.Render()
}

// aligns aligns the columns in left to the left and the others right.
func aligns(cols int, left []int) []tw.Align {
	out := make([]tw.Align, cols)
	for i := range out {
		out[i] = tw.AlignRight
	}
	for _, i := range left {
		out[i] = tw.AlignLeft
	}
	return out
}

func leaderboardHeader() []string {
	return []string{"#", "player", "rating ± RD", "rating-2RD", "games", "W-D-L", "score %", "95% interval", "Elo vs field"}
}

func leaderboardRows(st []rating.Standing) [][]string {
	rows := make([][]string, len(st))
	for i, s := range st {
		score, interval, elo := "-", "-", "-"
		if s.Games > 0 {
			score = fmt.Sprintf("%.1f", 100*s.Score)
			interval = fmt.Sprintf("%.1f-%.1f", 100*s.ScoreLo, 100*s.ScoreHi)
			elo = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", s.Elo, s.EloLo, s.EloHi)
		}
		rows[i] = []string{
			strconv.Itoa(s.Rank), s.Name,
			fmt.Sprintf("%.0f ± %.0f", s.Rating.Rating, s.RD),
			fmt.Sprintf("%.0f", s.Conservative),
			strconv.Itoa(s.Games),
			fmt.Sprintf("%d-%d-%d", s.Wins, s.Draws, s.Losses),
			score, interval, elo,
		}
	}
	return rows
}

// matrixRows lays out the score matrix with numbered columns, so that wide
// fields of players still fit a terminal.
func matrixRows(m rating.Matrix) ([]string, [][]string) {
	head := []string{"#", "player"}
	for j := range m.Players {
		head = append(head, strconv.Itoa(j+1))
	}
	rows := make([][]string, len(m.Players))
	for i, name := range m.Players {
		row := []string{strconv.Itoa(i + 1), name}
		for j := range m.Players {
			t := m.Cells[i][j]
			if i == j || t.Games() == 0 {
				row = append(row, "-")
				continue
			}
			row = append(row, fmt.Sprintf("%.0f", 100*t.Rate()))
		}
		rows[i] = row
	}
	return head, rows
}

func pairsHeader() []string {
	return []string{"player", "opponent", "W-D-L", "score %", "95% interval"}
}

func pairsRows(ps []rating.Pair) [][]string {
	rows := make([][]string, len(ps))
	for i, p := range ps {
		rows[i] = []string{
			p.A, p.B, fmt.Sprintf("%d-%d-%d", p.Wins, p.Draws, p.Losses),
			fmt.Sprintf("%.1f", 100*p.Score), fmt.Sprintf("%.1f-%.1f", 100*p.Lo, 100*p.Hi),
		}
	}
	return rows
}

// writeCSV writes the leaderboard with full-precision numbers.
func writeCSV(w io.Writer, st []rating.Standing) error {
	cw := csv.NewWriter(w)
	cw.Write([]string{"rank", "name", "rating", "rd", "volatility", "conservative", "games", "wins", "draws", "losses",
		"score", "score_lo", "score_hi", "elo", "elo_lo", "elo_hi"})
	num := func(v float64) string {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	}
	for _, s := range st {
		cw.Write([]string{
			strconv.Itoa(s.Rank), s.Name, num(s.Rating.Rating), num(s.RD), num(s.Volatility), num(s.Conservative),
			strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses),
			num(s.Score), num(s.ScoreLo), num(s.ScoreHi), num(s.Elo), num(s.EloLo), num(s.EloHi),
		})
	}
	cw.Flush()
	return cw.Error()
}
