package reports

import (
	"bytes"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"crucible/arena"
	"crucible/arena/rating"
)

// Fact is one labelled value of a report's facts, e.g. {"game", "kindling"}.
type Fact struct {
	Name, Value string
}

// MaxErrors is the number of failed matches an arena report lists.
const MaxErrors = 10

// ArenaFacts describes the matches of a results file.
type ArenaFacts struct {
	// Games and Configs are the game names and configuration ids seen,
	// sorted.
	Games   []string
	Configs []string
	// Matches counts the records and Failed those with an error.
	Matches, Failed int
	// Rounds and Seeds count the distinct rounds and match seeds.
	Rounds, Seeds int
	// Seats are the distinct seat counts of the matches, sorted.
	Seats []int
	// MeanTurns is the mean length of the finished matches.
	MeanTurns float64
	// Reasons are the finished matches' end reasons with their counts,
	// most frequent first (ties by name).
	Reasons []Fact
	// Errors are "job: error" of the first MaxErrors failed matches by
	// round and job id, so that the page does not depend on the order in
	// which the matches finished.
	Errors []string
}

// NewArenaFacts counts the facts of records.
func NewArenaFacts(recs []arena.Record) ArenaFacts {
	var f ArenaFacts
	games, configs, rounds, seeds, seats := map[string]bool{}, map[string]bool{}, map[int]bool{}, map[uint64]bool{}, map[int]bool{}
	reasons := map[string]int{}
	turns, finished := 0, 0
	var failed []arena.Record
	for _, r := range recs {
		f.Matches++
		games[r.Game] = true
		if r.Config != "" {
			configs[r.Config] = true
		}
		rounds[r.Round] = true
		seeds[r.Seed] = true
		seats[len(r.Players)] = true
		if r.Error != "" {
			f.Failed++
			failed = append(failed, r)
			continue
		}
		finished++
		turns += r.Turns
		reasons[r.Reason]++
	}
	slices.SortStableFunc(failed, func(a, b arena.Record) int {
		if a.Round != b.Round {
			return a.Round - b.Round
		}
		return strings.Compare(a.Job, b.Job)
	})
	for _, r := range failed[:min(len(failed), MaxErrors)] {
		f.Errors = append(f.Errors, r.Job+": "+r.Error)
	}
	f.Games = sortedKeys(games)
	f.Configs = sortedKeys(configs)
	f.Rounds, f.Seeds = len(rounds), len(seeds)
	for s := range seats {
		f.Seats = append(f.Seats, s)
	}
	slices.Sort(f.Seats)
	if finished > 0 {
		f.MeanTurns = float64(turns) / float64(finished)
	}
	for _, name := range sortedKeys(reasons) {
		f.Reasons = append(f.Reasons, Fact{name, strconv.Itoa(reasons[name])})
	}
	slices.SortStableFunc(f.Reasons, func(a, b Fact) int {
		na, _ := strconv.Atoi(a.Value)
		nb, _ := strconv.Atoi(b.Value)
		return nb - na
	})
	return f
}

func sortedKeys[K interface{ ~string }, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// ArenaPage is the content of the HTML report of an arena results file.
type ArenaPage struct {
	// Source names the results file and Prior the ratings file the
	// players started from ("" for none).
	Source, Prior string
	// Method says how the ratings were computed (shown under the
	// leaderboard), e.g. "one Glicko-2 rating period per round".
	Method string
	// Facts describe the matches.
	Facts ArenaFacts
	// Summary is the leaderboard with its pairwise statistics.
	Summary rating.Summary
	// Matches, when set, are shown as a table of every match with a link
	// to its viewer page; ReplayDir names the directory of the replays.
	Matches   []MatchRow
	ReplayDir string
}

// Holdout is a paired comparison of the champion (A) with the base (B) on
// held-out seeds.
type Holdout struct {
	// A and B are the compared variants' names.
	A, B string
	// Opponents are the pool both played, Seeds the held-out seeds and
	// GamesPerSide each side's pairwise games.
	Opponents    []string
	Seeds        int
	GamesPerSide float64
	// RateA and RateB are the score rates, Diff = RateA - RateB, and Lo
	// and Hi bound its 95% interval (infinite with fewer than two seeds).
	RateA, RateB, Diff, Lo, Hi float64
}

// ParamRow is one parameter of the champion against the base's default.
type ParamRow struct {
	// Name and Description are the schema's.
	Name, Description string
	// Ranged tells whether Min and Max (the parameter's bounds) are known;
	// Integer marks whole-number parameters.
	Ranged   bool
	Min, Max float64
	Integer  bool
	// Default is the base's value and Value the champion's.
	Default, Value float64
}

// EvolvePage is the content of the HTML report of an evolution run.
type EvolvePage struct {
	// Dir is the run directory.
	Dir string
	// Settings are the run's configuration and Outcome what the search
	// did (generations, matches, time, why it stopped), in display order.
	Settings, Outcome []Fact
	// Generations are the lines of generations.jsonl.
	Generations []Generation
	// Notes are remarks shown at the top (e.g. a run whose final stages
	// have not run).
	Notes []string
	// Champion is the champion's name and ChampionNote where it came
	// from; Params compares its parameters with the base's defaults.
	Champion, ChampionNote string
	Params                 []ParamRow
	// Holdout is the held-out comparison, nil when none was made.
	Holdout *Holdout
	// Leaderboard is the ranking tournament's (the champion and the
	// reference strategies on fresh seeds), nil when it has not run.
	// Base names the base strategy and Evolved the evolved variants on
	// it, which the table marks.
	Leaderboard *rating.Summary
	Base        string
	Evolved     []string
	// Archive is the MAP-Elites archive of a map-elites run, nil for
	// other runs.
	Archive *Archive
}

// WriteArenaHTML writes the report of an arena results file as one HTML
// page with inline CSS and SVG: the run's facts, the leaderboard with how
// its figures were computed, the ratings with their bars, the
// non-transitive field (α-Rank, Nash averaging, cycles) when the summary
// has it, and the pairwise score heat map. The same page gives the same
// bytes.
func WriteArenaHTML(w io.Writer, pg ArenaPage) error {
	lb, err := newBoard(pg.Summary, "", nil)
	if err != nil {
		return err
	}
	facts := []Fact{
		{"results file", pg.Source},
		{"game", orNone(strings.Join(pg.Facts.Games, ", "))},
		{"matches", matchesFact(pg.Facts)},
		{"rounds", strconv.Itoa(pg.Facts.Rounds)},
		{"seeds", strconv.Itoa(pg.Facts.Seeds)},
		{"players", strconv.Itoa(len(pg.Summary.Standings))},
		{"seats per match", joinInts(pg.Facts.Seats)},
	}
	if pg.Facts.Matches > pg.Facts.Failed {
		facts = append(facts, Fact{"mean turns", fmt.Sprintf("%.1f", pg.Facts.MeanTurns)})
		var rs []string
		for _, r := range pg.Facts.Reasons {
			rs = append(rs, r.Name+" "+r.Value)
		}
		facts = append(facts, Fact{"end reasons", strings.Join(rs, ", ")})
	}
	if len(pg.Facts.Configs) > 0 {
		facts = append(facts, Fact{"game configuration", strings.Join(pg.Facts.Configs, ", ")})
	}
	model := pg.Summary.Model
	if model == "" {
		model = rating.ModelGlicko2
	}
	facts = append(facts, Fact{"ordered by", model.Title()})
	if model == rating.ModelGlicko2 {
		prior := "none (every player starts at 1500 ± 350)"
		if pg.Prior != "" {
			prior = pg.Prior
		}
		facts = append(facts, Fact{"prior ratings", prior})
	}
	if pg.Method != "" {
		facts = append(facts, Fact{"rated as", pg.Method})
	}
	if s := pg.Summary; s.Clustered {
		u := strconv.Itoa(s.Units)
		if s.Distinct < s.Units {
			u += fmt.Sprintf(" (%d distinct outcomes; %d of the %d pairings (groups of players) gave one outcome on every seed)", s.Distinct, s.Repeated, s.Groups)
		}
		facts = append(facts, Fact{"independent units", u})
	}
	field, err := newFieldView(pg.Summary)
	if err != nil {
		return err
	}
	return render(w, "arena", struct {
		Title  string
		Page   ArenaPage
		Facts  []Fact
		Board  board
		Notes  []string
		Field  *fieldView
		Errors []string
	}{"Arena report: " + pg.Source, pg, facts, lb, summaryNotes(pg.Summary), field, pg.Facts.Errors})
}

// fieldView is the non-transitive field section: each player's α-Rank
// and Nash masses with their bars (0 to massBarW), and the cycles.
type fieldView struct {
	AlphaRank string
	Rows      []fieldRow
	Cycles    []cycleView
	Unmet     int
}

type fieldRow struct {
	Rank                      int
	Name, Alpha, Nash, Payoff string
	AlphaW, NashW             float64
	InSupport                 bool
}

type cycleView struct {
	Text, Lows string
}

// massBarW is the width of the mass bars in CSS pixels.
const massBarW = 160.0

func newFieldView(s rating.Summary) (*fieldView, error) {
	f := s.Field
	if f == nil {
		return nil, nil
	}
	v := &fieldView{AlphaRank: f.AlphaRank, Unmet: f.Unmet}
	bar := func(m float64) float64 { return math.Round(m*massBarW*10) / 10 }
	for _, st := range s.Standings {
		if st.AlphaRank == nil || st.Nash == nil {
			continue
		}
		v.Rows = append(v.Rows, fieldRow{Rank: st.Rank, Name: st.Name,
			Alpha: fmt.Sprintf("%.3f", *st.AlphaRank), Nash: fmt.Sprintf("%.3f", st.Nash.Mass), Payoff: rating.Signed(100*st.Nash.Payoff, 1),
			AlphaW: bar(*st.AlphaRank), NashW: bar(st.Nash.Mass), InSupport: st.Nash.Mass > 0})
	}
	for _, c := range f.Cycles {
		v.Cycles = append(v.Cycles, cycleView{Text: cycleText(c), Lows: fmt.Sprintf("%.1f%%, %.1f%%, %.1f%%", 100*c.Lo[0], 100*c.Lo[1], 100*c.Lo[2])})
	}
	return v, nil
}

// WriteEvolveHTML writes the report of an evolution run as one HTML page
// with inline CSS and SVG: the settings, the fitness over the generations,
// the champion's parameters against the base's defaults, the held-out
// comparison and the final tournament. The same page gives the same bytes.
func WriteEvolveHTML(w io.Writer, pg EvolvePage) error {
	fit, err := fitnessPlot(pg.Generations)
	if err != nil {
		return err
	}
	var b *board
	if pg.Leaderboard != nil {
		bb, err := newBoard(*pg.Leaderboard, pg.Base, pg.Evolved)
		if err != nil {
			return err
		}
		b = &bb
	}
	var params []paramView
	for _, p := range pg.Params {
		params = append(params, newParamView(p))
	}
	var gens []genView
	if n := len(pg.Generations); n > 0 {
		first, last := pg.Generations[0], pg.Generations[n-1]
		best := first
		for _, g := range pg.Generations {
			if g.Best > best.Best {
				best = g
			}
		}
		for _, g := range []struct {
			label string
			g     Generation
		}{{"first", first}, {"highest fitness", best}, {"last", last}} {
			gens = append(gens, genView{g.label, g.g.Generation, num3(g.g.Best), num3(g.g.Mean),
				num3(g.g.Min) + "–" + num3(g.g.Max), num3(g.g.Base)})
		}
	}
	return render(w, "evolve", struct {
		Title    string
		Page     EvolvePage
		Fitness  template.HTML
		GenRows  []genView
		Params   []paramView
		Holdout  *holdoutView
		Board    *board
		HasBoard bool
	}{"Evolution report: " + pg.Dir, pg, fit, gens, params, newHoldoutView(pg.Holdout), b, b != nil})
}

// render executes the named page template into a buffer first, so a
// failing template writes nothing.
func render(w io.Writer, name string, data any) error {
	var buf bytes.Buffer
	if err := pages.ExecuteTemplate(&buf, name, data); err != nil {
		return fmt.Errorf("rendering the %s report: %w", name, err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return orNone(strings.Join(s, ", "))
}

func matchesFact(f ArenaFacts) string {
	if f.Failed == 0 {
		return strconv.Itoa(f.Matches)
	}
	return fmt.Sprintf("%d (%d failed and left out of the ratings)", f.Matches, f.Failed)
}

func num3(v float64) string { return fmt.Sprintf("%.3f", v) }

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
	var b board
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
		if r.HasBar {
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

// genView is one line of the generations summary table.
type genView struct {
	Label                       string
	Generation                  int
	Best, Mean, Spread, BaseStr string
}

// paramView is a ParamRow with its figures formatted and the positions of
// the default and the champion in the parameter's range (0 to paramBarW).
type paramView struct {
	Name, Description, Range, Default, Value, Change string
	Ranged                                           bool
	DefX, ValX                                       float64
	Moved                                            bool
}

// paramBarW is the width of the parameter bars in CSS pixels.
const paramBarW = 160.0

func newParamView(p ParamRow) paramView {
	v := paramView{Name: p.Name, Description: p.Description, Default: fmtParam(p.Default, p.Integer),
		Value: fmtParam(p.Value, p.Integer), Ranged: p.Ranged, Moved: p.Value != p.Default}
	d := p.Value - p.Default
	switch {
	case d == 0:
		v.Change = "="
	case p.Integer:
		v.Change = fmt.Sprintf("%+.0f", d)
	default:
		v.Change = fmt.Sprintf("%+.3g", d)
	}
	if p.Ranged && p.Max > p.Min {
		v.Range = "[" + fmtParam(p.Min, p.Integer) + ", " + fmtParam(p.Max, p.Integer) + "]"
		at := func(x float64) float64 {
			f := math.Max(0, math.Min(1, (x-p.Min)/(p.Max-p.Min)))
			return math.Round((6+f*(paramBarW-12))*10) / 10
		}
		v.DefX, v.ValX = at(p.Default), at(p.Value)
		if d != 0 {
			v.Change += fmt.Sprintf(" (%+.0f%%)", 100*d/(p.Max-p.Min))
		}
	} else {
		v.Ranged = false
		v.Range = "unknown"
	}
	return v
}

// fmtParam shows a parameter value: whole numbers as such, others with
// four significant digits.
func fmtParam(v float64, integer bool) string {
	if integer || v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// holdoutView is the held-out comparison with its figures formatted and
// the interval bar's geometry (0 to holdoutBarW).
type holdoutView struct {
	Holdout
	Opponents              string
	RateAStr, RateBStr     string
	DiffStr, Interval      string
	Verdict                string
	Significant, Bounded   bool
	Zero, X, Lo, Hi, Scale float64
}

// holdoutBarW is the width of the held-out interval bar in CSS pixels.
const holdoutBarW = 360.0

func newHoldoutView(h *Holdout) *holdoutView {
	if h == nil {
		return nil
	}
	v := &holdoutView{Holdout: *h, Opponents: strings.Join(h.Opponents, ", "),
		RateAStr: fmt.Sprintf("%.3f", h.RateA), RateBStr: fmt.Sprintf("%.3f", h.RateB),
		DiffStr: fmt.Sprintf("%+.3f", h.Diff), Significant: h.Lo > 0}
	v.Bounded = !math.IsInf(h.Lo, 0) && !math.IsInf(h.Hi, 0) && !math.IsNaN(h.Lo) && !math.IsNaN(h.Hi)
	switch {
	case !v.Bounded:
		v.Interval = "unbounded (fewer than two held-out seeds)"
		v.Verdict = "too few held-out seeds to measure a difference"
	case v.Significant:
		v.Interval = fmt.Sprintf("[%+.3f, %+.3f]", h.Lo, h.Hi)
		v.Verdict = "the interval lies above zero: the champion is measurably stronger than the base"
	default:
		v.Interval = fmt.Sprintf("[%+.3f, %+.3f]", h.Lo, h.Hi)
		v.Verdict = "the interval does not lie above zero: no measurable improvement over the base"
	}
	if v.Bounded {
		scale := math.Max(0.05, math.Max(math.Abs(h.Lo), math.Abs(h.Hi)))
		scale = math.Ceil(scale*20) / 20 // a multiple of 0.05
		v.Scale = scale
		at := func(x float64) float64 {
			return math.Round((holdoutBarW/2+x/scale*(holdoutBarW/2-10))*10) / 10
		}
		v.Zero, v.X, v.Lo, v.Hi = at(0), at(h.Diff), at(h.Lo), at(h.Hi)
	}
	return v
}

var pages = template.Must(template.New("pages").Funcs(template.FuncMap{
	"add":   func(a, b float64) float64 { return a + b },
	"neg":   func(a float64) float64 { return -a },
	"signf": func(v float64) string { return fmt.Sprintf("%+.2f", v) },
	"half":  func() float64 { return eloBarW / 2 },
}).Parse(pageTemplates))

const pageTemplates = `
{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; color: #222; background: #fff; margin: 2em auto; max-width: 1200px; padding: 0 1.5em; line-height: 1.4; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
.sub { color: #555; margin-top: 0; word-break: break-all; }
dl.facts { display: grid; grid-template-columns: max-content auto; gap: 0.25em 1.5em; }
dl.facts dt { color: #555; }
dl.facts dd { margin: 0; word-break: break-word; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; margin: 0.5em 0; }
th, td { padding: 0.3em 0.5em; border-bottom: 1px solid #e4e4e4; text-align: right; vertical-align: middle; white-space: nowrap; }
td.wrap { white-space: normal; text-align: left; min-width: 14em; max-width: 28em; }
.scroll { overflow-x: auto; }
th { background: #f4f4f4; font-weight: 600; border-bottom: 1px solid #bbb; }
td.name, th.name, td.text, th.text { text-align: left; }
td.name { font-family: "Liberation Mono", Menlo, Consolas, monospace; font-size: 0.92em; }
tbody tr:nth-child(even) { background: #fafafa; }
tr.champion td { background: #fdebd9; font-weight: 600; }
tr.evolved td { background: #fff6ec; }
tr.base td { background: #e8f0fa; }
.bar { display: block; }
.note { color: #555; font-size: 0.92em; max-width: 60em; }
.warn { background: #fff4d6; border-left: 4px solid #d9a400; padding: 0.5em 0.8em; }
.errors { background: #fdecea; border-left: 4px solid #c0392b; padding: 0.5em 0.8em; }
.errors li { font-family: "Liberation Mono", Menlo, Consolas, monospace; font-size: 0.9em; word-break: break-word; }
figure.plot { margin: 0.8em 0; }
figure.plot svg { max-width: 100%; height: auto; }
figure.plot svg text { font-family: "Liberation Sans", Arial, Helvetica, sans-serif !important; }
figcaption { color: #555; font-size: 0.92em; max-width: 60em; }
.key { display: inline-block; width: 0.8em; height: 0.8em; vertical-align: baseline; margin: 0 0.2em 0 0.6em; }
footer { margin-top: 3em; color: #888; font-size: 0.85em; }
</style>
</head>
<body>
{{end}}

{{define "facts"}}<dl class="facts">{{range .}}
<dt>{{.Name}}</dt><dd>{{.Value}}</dd>{{end}}
</dl>{{end}}

{{define "board"}}<div class="scroll"><table class="leaderboard">
<thead><tr>{{range $i, $h := .Head}}<th{{if eq $i 1}} class="name"{{end}}>{{$h}}</th>{{end}}<th class="text">Elo bar, ±{{.EloScale}}</th></tr></thead>
<tbody>{{range .Rows}}
<tr{{if .Class}} class="{{.Class}}"{{end}}>{{range $i, $c := .Cells}}<td{{if eq $i 1}} class="name"{{end}}>{{$c}}</td>{{end}}<td class="text">{{if .HasBar}}<svg class="bar" width="160" height="14" viewBox="0 0 160 14" role="img" aria-label="Elo bar"><line x1="{{half}}" y1="1" x2="{{half}}" y2="13" stroke="#999" stroke-width="1"/><line x1="{{.Lo}}" y1="7" x2="{{.Hi}}" y2="7" stroke="#1f5fa8" stroke-width="2"/><line x1="{{.Lo}}" y1="3" x2="{{.Lo}}" y2="11" stroke="#1f5fa8" stroke-width="1.5"/><line x1="{{.Hi}}" y1="3" x2="{{.Hi}}" y2="11" stroke="#1f5fa8" stroke-width="1.5"/><circle cx="{{.X}}" cy="7" r="3" fill="#1f5fa8"/></svg>{{end}}</td></tr>{{end}}
</tbody>
</table></div>{{end}}

{{define "boardplots"}}
{{if .Ratings}}<figure class="plot" id="ratings-plot">{{.Ratings}}
<figcaption>{{.Caption}}</figcaption>
</figure>{{end}}
{{if .Matrix}}<h3>Pairwise score</h3>
<figure class="plot" id="matrix-plot">{{.Matrix}}
<figcaption>Score % of the row player against the column player (win 1, draw ½, loss 0), rows and columns in leaderboard order.
Red: the row player scores more than half; blue: less; a dash: the pair did not play; struck through: a player against itself.</figcaption>
</figure>{{end}}
{{end}}

{{define "arena"}}{{template "head" .}}
<header>
<h1>Arena report</h1>
<p class="sub">{{.Page.Source}}</p>
</header>
<section id="run">
<h2>Run</h2>
{{template "facts" .Facts}}
{{if .Errors}}<div class="errors"><p>{{.Page.Facts.Failed}} of {{.Page.Facts.Matches}} matches failed and are left out of the ratings{{if gt .Page.Facts.Failed (len .Errors)}} (the first {{len .Errors}} are listed){{end}}:</p>
<ul>{{range .Errors}}<li>{{.}}</li>{{end}}</ul></div>{{end}}
</section>
<section id="leaderboard">
<h2>Leaderboard</h2>
<p>Ordered by <strong>{{if .Page.Summary.Model}}{{.Page.Summary.Model.Title}}{{else}}Glicko-2 conservative rating (rating − 2 RD){{end}}</strong>.</p>
{{template "board" .Board}}
{{range .Notes}}<p class="note">{{.}}</p>
{{end}}{{template "boardplots" .Board}}
</section>
{{with .Field}}<section id="field">
<h2>Non-transitive field</h2>
<p class="note">When strengths are not one scale (A beats B, B beats C, C beats A), one rating misleads. α-Rank is the share of time an evolving population spends on each player, moving towards whoever beats the current one; here the {{.AlphaRank}}.
Nash averaging weighs the players by the maximum-entropy Nash equilibrium of the score margins (the score matrix minus its transpose): a player in its support (payoff 0) is not beaten by the equilibrium mixture; the payoff of the others is their expected score against the mixture minus 50%, in points per 100 games.{{if .Unmet}} {{.Unmet}} pairs of players never met and count as even.{{end}}</p>
<div class="scroll"><table class="field">
<thead><tr><th>#</th><th class="name">player</th><th>α-Rank mass</th><th class="text"></th><th>Nash mass</th><th class="text"></th><th>payoff vs Nash</th></tr></thead>
<tbody>{{range .Rows}}
<tr><td>{{.Rank}}</td><td class="name">{{.Name}}</td><td>{{.Alpha}}</td><td class="text"><svg class="bar" width="160" height="12" viewBox="0 0 160 12" role="img" aria-label="α-Rank mass"><rect x="0" y="2" width="160" height="8" fill="#eee"/><rect x="0" y="2" width="{{.AlphaW}}" height="8" fill="#d95f02"/></svg></td><td>{{.Nash}}</td><td class="text"><svg class="bar" width="160" height="12" viewBox="0 0 160 12" role="img" aria-label="Nash mass"><rect x="0" y="2" width="160" height="8" fill="#eee"/><rect x="0" y="2" width="{{.NashW}}" height="8" fill="#1f5fa8"/></svg></td><td>{{.Payoff}}</td></tr>{{end}}
</tbody>
</table></div>
<h3>Cycles of significant wins</h3>
{{if .Cycles}}<table class="cycles">
<thead><tr><th class="text">cycle</th><th>lower ends of the three links</th></tr></thead>
<tbody>{{range .Cycles}}<tr><td class="text name">{{.Text}}</td><td>{{.Lows}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p>None: no three players beat one another in a circle with every win significant.</p>{{end}}
<p class="note">A link A &gt; B is significant when the lower end of the 95% interval of A's score against B, computed over the rounds they met in, is above 50%. Strongest cycle (largest weakest link) first.</p>
</section>{{end}}
{{template "arenamatches" .Page}}<section id="method">
<h2>How the figures are computed</h2>
<p class="note">Games count pairwise results: an N-seat match is N−1 games for each of its players (the better-ranked seat wins, equal ranks draw). The score % is points per game (a draw is half a point).</p>
<p class="note">Every interval is computed over independent units, never over games. A unit is one round of a pairing: the matches of one group of players on one seed (both seat orders of a pair, every rotation of a free-for-all group), which share the seed's map or deal. A score's interval is the cluster-robust one over its units: the standard error of points over games with each unit's residual taken once, and a Student t quantile. Units of a pairing whose matches repeated another unit's exactly (the same scores, length and end) count as one: a deterministic outcome seen on fifty seeds is one observation, and when every unit gave the same score the interval is Wilson's over the number of distinct outcomes. The Elo against the field is the Elo difference the score implies, with the bar from the ends of its interval (a perfect record is taken half a game from the edge).</p>
<p class="note">Bradley–Terry is the maximum-likelihood Elo fit of all pairwise results (a draw is half a win, as in Ordo), with cluster-robust (sandwich) intervals over the same units; on a round robin its order is the order of the scores. Glicko-2 rates the batch as one rating period (or one per round with --periods rounds); Weng–Lin (openskill's Plackett–Luce model) rates each match's full ranking in schedule order, the free-for-all option. A leaderboard warns when it ranks a player above another whose score against the same opponents is significantly higher.</p>
</section>
<footer>Written by crucible report from {{.Page.Source}}.</footer>
</body>
</html>
{{end}}

{{define "evolve"}}{{template "head" .}}
<header>
<h1>Evolution report</h1>
<p class="sub">{{.Page.Dir}}</p>
</header>
{{range .Page.Notes}}<p class="warn">{{.}}</p>
{{end}}<section id="settings">
<h2>Run</h2>
{{template "facts" .Page.Settings}}
{{if .Page.Outcome}}<h3>Search</h3>
{{template "facts" .Page.Outcome}}{{end}}
</section>
<section id="fitness">
<h2>Fitness over the generations</h2>
{{if .Fitness}}<figure class="plot" id="fitness-plot">{{.Fitness}}
<figcaption>Orange: the fitness of the hall of fame's leader after each generation (its seed-adjusted score rate over every game it played).
Blue: the mean score rate of the generation's candidates, with the band from the worst to the best of them.
Grey dashes: the base strategy's running score rate; it plays every generation as the anchor of the fitness.</figcaption>
</figure>
<table>
<thead><tr><th class="text"></th><th>generation</th><th>champion's fitness</th><th>candidates' mean</th><th>min–max</th><th>base</th></tr></thead>
<tbody>{{range .GenRows}}<tr><td class="text">{{.Label}}</td><td>{{.Generation}}</td><td>{{.Best}}</td><td>{{.Mean}}</td><td>{{.Spread}}</td><td>{{.BaseStr}}</td></tr>
{{end}}</tbody>
</table>{{else}}<p class="note">No generation has been recorded yet.</p>{{end}}
</section>
{{if .Params}}<section id="champion">
<h2>Champion</h2>
<p><strong class="name">{{.Page.Champion}}</strong>{{if .Page.ChampionNote}}: {{.Page.ChampionNote}}{{end}}</p>
<div class="scroll"><table class="params">
<thead><tr><th class="name">parameter</th><th>range</th><th>base default</th><th>champion</th><th>change (% of range)</th><th class="text">position in the range</th><th class="text">what it does</th></tr></thead>
<tbody>{{range .Params}}
<tr><td class="name">{{.Name}}</td><td>{{.Range}}</td><td>{{.Default}}</td><td>{{.Value}}</td><td>{{.Change}}</td><td class="text">{{if .Ranged}}<svg class="bar" width="160" height="16" viewBox="0 0 160 16" role="img" aria-label="position in the range"><rect x="6" y="6" width="148" height="4" rx="2" fill="#e4e4e4"/>{{if .Moved}}<line x1="{{.DefX}}" y1="8" x2="{{.ValX}}" y2="8" stroke="#f0b080" stroke-width="4"/>{{end}}<circle cx="{{.ValX}}" cy="8" r="4.5" fill="#d95f02"/><rect x="{{add .DefX -1}}" y="1" width="2" height="14" fill="#444"/></svg>{{end}}</td><td class="wrap">{{.Description}}</td></tr>{{end}}
</tbody>
</table></div>
<p class="note">In the position bars the range runs from its minimum (left) to its maximum (right); <span class="key" style="background:#444"></span>the base's default, <span class="key" style="background:#d95f02"></span>the champion's value.</p>
</section>{{end}}
{{with .Holdout}}<section id="holdout">
<h2>Held-out comparison</h2>
<table>
<thead><tr><th class="name">variant</th><th>score rate</th></tr></thead>
<tbody>
<tr class="champion"><td class="name">{{.A}}</td><td>{{.RateAStr}}</td></tr>
<tr class="base"><td class="name">{{.B}}</td><td>{{.RateBStr}}</td></tr>
</tbody>
</table>
<p>Difference <strong>{{.DiffStr}}</strong>, 95% interval {{.Interval}}: {{.Verdict}}.</p>
{{if .Bounded}}<svg class="bar" width="360" height="40" viewBox="0 0 360 40" role="img" aria-label="95% interval of the difference">
<line x1="10" y1="16" x2="350" y2="16" stroke="#ddd" stroke-width="1"/>
<line x1="{{.Zero}}" y1="4" x2="{{.Zero}}" y2="28" stroke="#888" stroke-width="1"/>
<line x1="{{.Lo}}" y1="16" x2="{{.Hi}}" y2="16" stroke="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}" stroke-width="3"/>
<line x1="{{.Lo}}" y1="9" x2="{{.Lo}}" y2="23" stroke="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}" stroke-width="2"/>
<line x1="{{.Hi}}" y1="9" x2="{{.Hi}}" y2="23" stroke="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}" stroke-width="2"/>
<circle cx="{{.X}}" cy="16" r="4.5" fill="{{if .Significant}}#d95f02{{else}}#1f5fa8{{end}}"/>
<text x="10" y="38" font-size="11" fill="#555">{{signf (neg .Scale)}}</text>
<text x="{{.Zero}}" y="38" font-size="11" fill="#555" text-anchor="middle">0</text>
<text x="350" y="38" font-size="11" fill="#555" text-anchor="end">{{signf .Scale}}</text>
</svg>{{end}}
<p class="note">Both played every opponent ({{.Opponents}}) on the same {{.Seeds}} held-out seeds in both seat orders ({{printf "%.0f" .GamesPerSide}} pairwise games each); seeds no generation and no tournament played. The interval is Student's t over the per-seed differences, paired by seed.</p>
</section>{{end}}
{{with .Page.Archive}}{{template "archive" .}}
{{end}}{{if .HasBoard}}<section id="tournament">
<h2>Ranking of the champion among the reference strategies</h2>
{{template "board" .Board}}
<p class="note">A round robin of the evolved finalists and the reference strategies, every pair on every tournament seed in both seat orders, one Glicko-2 rating period per seed; ordered by the conservative rating (rating − 2 RD).
Orange rows are evolved variants (the champion in bold), the blue row the base strategy at its defaults.</p>
{{template "boardplots" .Board}}
</section>{{end}}
<footer>Written by crucible report from the run directory {{.Page.Dir}}.</footer>
</body>
</html>
{{end}}
`
