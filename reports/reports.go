// Package reports renders the lab's results for people and scripts: the
// leaderboard and pairwise statistics of a rating.Summary as a terminal
// table, Markdown, JSON or CSV, and self-contained HTML pages with SVG plots
// of an arena's results or an evolution run (arena_page.go, evolve_page.go,
// ladder.go; their templates in templates.go, the plots in plot_*.go).
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
	"crucible/stats"
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
	// Pairs adds the per-pair table with intervals (table and Markdown).
	Pairs bool
	// Field adds the analysis of a non-transitive field when the summary
	// has one: α-Rank and Nash masses, and the cycles of significant wins
	// (table and Markdown).
	Field bool
	// Exploit, when set, adds each player's exploitability (a column of
	// the leaderboard in every format; JSON adds an "exploit" list).
	Exploit Exploits
}

// WriteSummary writes a leaderboard and, as opt asks, the pairwise matrix,
// the pair list and the field analysis, with notes on how the intervals
// were computed. JSON holds the whole summary whatever opt says; CSV holds
// the leaderboard only.
func WriteSummary(w io.Writer, f Format, s rating.Summary, opt SummaryOptions) error {
	switch f {
	case JSON:
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if opt.Exploit != nil {
			return enc.Encode(struct {
				rating.Summary
				Exploit []Exploit `json:"exploit"`
			}{s, opt.Exploit.list(s.Standings)})
		}
		return enc.Encode(s)
	case CSV:
		return writeCSV(w, s.Standings, s.Ranks, opt.Exploit)
	case Table, Markdown:
	default:
		return fmt.Errorf("format %q is not one of %s", f, strings.Join(Formats, ", "))
	}
	title := "Leaderboard"
	if s.Model != "" {
		title += ", ordered by " + s.Model.Title()
	}
	head, rows := leaderboardHeader(s), leaderboardRows(s)
	notes := summaryNotes(s)
	if opt.Exploit != nil {
		head, rows = opt.Exploit.addColumn(head, rows, s.Standings)
		notes = append(notes, ExploitNote)
	}
	if err := writeTable(w, f, title, []int{1}, head, rows); err != nil {
		return err
	}
	if err := writeNotes(w, f, notes); err != nil {
		return err
	}
	if s.Ranks != nil {
		if err := writeRanks(w, f, s); err != nil {
			return err
		}
	}
	if opt.Field && s.Field != nil {
		if err := writeField(w, f, s); err != nil {
			return err
		}
	}
	if opt.Matrix && len(s.Matrix.Players) > 1 {
		head, rows := matrixRows(s.Matrix)
		if err := writeTable(w, f, "Score % of row against column (rows in leaderboard order)", []int{1}, head, rows); err != nil {
			return err
		}
	}
	if opt.Pairs && len(s.Pairs) > 0 {
		title := "Pairs (score of the first, Wilson 95% interval over games)"
		if s.Clustered {
			title = "Pairs (score of the first, 95% interval over the seeds the pair met on)"
		}
		if err := writeTable(w, f, title, []int{0, 1}, pairsHeader(s), pairsRows(s)); err != nil {
			return err
		}
	}
	return nil
}

// WriteLeaderboard writes the leaderboard alone.
func WriteLeaderboard(w io.Writer, f Format, s rating.Summary) error {
	return WriteSummary(w, f, s, SummaryOptions{})
}

// IntervalMethod describes how a summary's intervals were computed, in
// one sentence, for notes and help texts.
func IntervalMethod(s rating.Summary) string {
	if !s.Clustered {
		return "Intervals: Wilson 95% over games, every game taken as independent evidence."
	}
	text := fmt.Sprintf("Intervals: 95%%, clustered by seed over %d seeds (every match on a seed is one independent unit, whatever its players: the pairings of a round share its map or deal, so their results move together), never over games or pairings", s.Seeds)
	if s.Distinct < s.Units {
		text += fmt.Sprintf("; rounds that repeated another of their pairing exactly count once: %d distinct outcomes of %d rounds", s.Distinct, s.Units)
		if s.Repeated > 0 {
			text += fmt.Sprintf(", and %d of the %d pairings (groups of players) gave one outcome on every seed", s.Repeated, s.Groups)
		}
	}
	return text + "."
}

// summaryNotes are the lines printed under a leaderboard: the model's
// method, the intervals' method, the summary's notes and the inversions.
func summaryNotes(s rating.Summary) []string {
	var out []string
	if s.Method != "" {
		out = append(out, "Rated by "+s.Method+".")
	}
	if s.Model != "" || s.Clustered {
		out = append(out, IntervalMethod(s))
	}
	for _, n := range s.Notes {
		out = append(out, "Note: "+n+".")
	}
	for _, inv := range s.Inversions {
		out = append(out, fmt.Sprintf("Warning: %s is ranked above %s, yet %s's score against the same %d opponents is higher by %+.1f points per 100 games [%+.1f, %+.1f].",
			inv.Above, inv.Below, inv.Below, inv.Opponents, 100*inv.Diff, 100*inv.Lo, 100*inv.Hi))
	}
	return out
}

// writeNotes writes lines of text under a table: as they are for the
// terminal, as a paragraph each in Markdown.
func writeNotes(w io.Writer, f Format, notes []string) error {
	for _, n := range notes {
		if f == Markdown {
			n = "\n" + n + "\n"
		}
		if _, err := fmt.Fprintln(w, n); err != nil {
			return err
		}
	}
	return nil
}

// writeField writes the field analysis: each player's α-Rank and Nash
// masses in leaderboard order, and the cycles.
func writeField(w io.Writer, f Format, s rating.Summary) error {
	var rows [][]string
	for _, st := range s.Standings {
		if st.AlphaRank == nil || st.Nash == nil {
			continue
		}
		rows = append(rows, []string{strconv.Itoa(st.Rank), st.Name, fmt.Sprintf("%.3f", *st.AlphaRank),
			fmt.Sprintf("%.3f", st.Nash.Mass), rating.Signed(100*st.Nash.Payoff, 1), fmt.Sprintf("%.1f", 100*st.Score)})
	}
	if err := writeTable(w, f, "Non-transitive field: α-Rank and Nash averaging", []int{1},
		[]string{"#", "player", "α-Rank mass", "Nash mass", "payoff vs Nash", "score %"}, rows); err != nil {
		return err
	}
	notes := []string{"α-Rank: " + s.Field.AlphaRank + ". Nash: the maximum-entropy Nash equilibrium of the score margins; a player's payoff against it is its expected score against the equilibrium mixture minus 50%, in points per 100 games (0 for the equilibrium's support)."}
	if len(s.Field.Cycles) == 0 {
		notes = append(notes, "Cycles: no 3-cycle of significant wins (every link's 95% interval above 50%).")
		return writeNotes(w, f, notes)
	}
	if err := writeNotes(w, f, notes); err != nil {
		return err
	}
	rows = rows[:0]
	for _, c := range s.Field.Cycles {
		rows = append(rows, []string{cycleText(c), fmt.Sprintf("%.1f / %.1f / %.1f", 100*c.Lo[0], 100*c.Lo[1], 100*c.Lo[2])})
	}
	return writeTable(w, f, "Cycles of significant wins (each link's 95% interval above 50%), strongest first", []int{0},
		[]string{"cycle", "lower ends %"}, rows)
}

// cycleText writes a cycle as "a > b > c > a".
func cycleText(c rating.Cycle) string {
	return strings.Join([]string{c.Players[0], c.Players[1], c.Players[2], c.Players[0]}, " > ")
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

// modelSpec is the model a summary is ordered by; "" (a summary of an
// earlier version) is Glicko-2.
func modelSpec(s rating.Summary) *rating.Spec {
	m := s.Model
	if m == "" {
		m = rating.ModelGlicko2
	}
	return rating.Lookup(m)
}

// modelHeader are the header cells of the ordering model's figures.
func modelHeader(s rating.Summary) []string {
	if spec := modelSpec(s); spec != nil {
		return spec.Columns
	}
	return nil
}

// modelCells are a standing's figures of the ordering model, "-" where
// the player has none (no game).
func modelCells(s rating.Summary, st rating.Standing) []string {
	if spec := modelSpec(s); spec != nil {
		return spec.Cells(st)
	}
	return nil
}

func leaderboardHeader(s rating.Summary) []string {
	head := append([]string{"#", "player"}, modelHeader(s)...)
	head = append(head, "games")
	if s.Clustered {
		head = append(head, "units")
	}
	return append(head, "W-D-L", "score %", "95% interval", "Elo vs field")
}

// unitsCell shows a count of units, with the distinct outcomes when some
// repeated.
func unitsCell(units, distinct int) string {
	if distinct < units {
		return fmt.Sprintf("%d (%d distinct)", units, distinct)
	}
	return strconv.Itoa(units)
}

func leaderboardRows(s rating.Summary) [][]string {
	rows := make([][]string, len(s.Standings))
	for i, st := range s.Standings {
		score, interval, elo, units := "-", "-", "-", "-"
		if st.Games > 0 {
			score = fmt.Sprintf("%.1f", 100*st.Score)
			interval = scoreInterval(st.ScoreLo, st.ScoreHi, st.ScoreMethod)
			elo = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", st.Elo, st.EloLo, st.EloHi)
			if st.FewUnits {
				// Half a game from the edges, one game is always +0.
				elo = rating.NotAvailable
			}
			units = unitsCell(st.Units, st.Distinct)
		}
		row := append([]string{strconv.Itoa(st.Rank), st.Name}, modelCells(s, st)...)
		row = append(row, strconv.Itoa(st.Games))
		if s.Clustered {
			row = append(row, units)
		}
		rows[i] = append(row, fmt.Sprintf("%d-%d-%d", st.Wins, st.Draws, st.Losses), score, interval, elo)
	}
	return rows
}

// scoreInterval writes a score interval in percent, "n/a" when no method
// valid at the sample size gives one.
func scoreInterval(lo, hi float64, m stats.Method) string {
	if m == stats.NotAvailable {
		return rating.NotAvailable
	}
	return fmt.Sprintf("%.1f-%.1f", 100*lo, 100*hi)
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

func pairsHeader(s rating.Summary) []string {
	if s.Clustered {
		return []string{"player", "opponent", "W-D-L", "rounds", "score %", "95% interval"}
	}
	return []string{"player", "opponent", "W-D-L", "score %", "95% interval"}
}

func pairsRows(s rating.Summary) [][]string {
	rows := make([][]string, len(s.Pairs))
	for i, p := range s.Pairs {
		row := []string{p.A, p.B, fmt.Sprintf("%d-%d-%d", p.Wins, p.Draws, p.Losses)}
		if s.Clustered {
			row = append(row, unitsCell(p.Units, p.Distinct))
		}
		rows[i] = append(row, fmt.Sprintf("%.1f", 100*p.Score), scoreInterval(p.Lo, p.Hi, p.Method))
	}
	return rows
}

// writeCSV writes the leaderboard with full-precision numbers: the
// standing's own columns (Glicko-2's first), then every registered
// model's; the figures of a model that did not rate the batch are empty.
// A rank table (when computed and available) adds its columns last.
func writeCSV(w io.Writer, st []rating.Standing, ranks *rating.RankTable, ex Exploits) error {
	if ranks != nil && ranks.Unavailable != "" {
		ranks = nil
	}
	cw := csv.NewWriter(w)
	head := []string{"rank", "name", "rating", "rd", "volatility", "conservative", "games", "wins", "draws", "losses",
		"score", "score_lo", "score_hi", "elo", "elo_lo", "elo_hi", "units", "distinct"}
	specs := rating.Specs()
	for _, spec := range specs {
		head = append(head, spec.CSV...)
	}
	if ranks != nil {
		head = append(head, rankCSVHeader(ranks)...)
	}
	if ex != nil {
		head = append(head, exploitCSVHeader...)
	}
	cw.Write(head)
	num := csvNum
	for _, s := range st {
		glicko := []string{num(s.Rating.Rating), num(s.RD), num(s.Volatility), num(s.Conservative)}
		if s.RD == 0 {
			glicko = []string{"", "", "", ""}
		}
		row := append([]string{strconv.Itoa(s.Rank), s.Name}, glicko...)
		scoreLo, scoreHi, eloLo, eloHi := s.ScoreLo, s.ScoreHi, s.EloLo, s.EloHi
		if s.ScoreMethod == stats.NotAvailable {
			scoreLo, scoreHi = math.NaN(), math.NaN()
		}
		if s.FewUnits {
			eloLo, eloHi = math.NaN(), math.NaN()
		}
		row = append(row, strconv.Itoa(s.Games), strconv.Itoa(s.Wins), strconv.Itoa(s.Draws), strconv.Itoa(s.Losses),
			num(s.Score), num(scoreLo), num(scoreHi), num(s.Elo), num(eloLo), num(eloHi),
			strconv.Itoa(s.Units), strconv.Itoa(s.Distinct))
		for _, spec := range specs {
			if len(spec.CSV) > 0 {
				for _, v := range spec.CSVValues(s) {
					row = append(row, num(v))
				}
			}
		}
		if ranks != nil {
			row = append(row, rankCSVValues(ranks, s.Name)...)
		}
		if ex != nil {
			row = append(row, ex.csvValues(s.Name)...)
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

// csvNum writes a number for CSV: empty when it is not finite.
func csvNum(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
