package reports

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/stats"
)

// arenaSample is a small results file's page: the sample summary's
// players, one failed match, a draw and a player without games.
func arenaSample() ArenaPage {
	recs := []arena.Record{
		{Job: "r0-0v1", Game: "acb", Config: "abc123", Round: 0, Seed: 11, Players: refs("gatherer", "rusher"), Ranks: []int{1, 2}, Scores: []float64{3, 1}, Turns: 100, Reason: "elimination"},
		{Job: "r0-1v0", Game: "acb", Config: "abc123", Round: 0, Seed: 11, Players: refs("rusher", "gatherer"), Ranks: []int{2, 1}, Scores: []float64{0, 2}, Turns: 300, Reason: "turns"},
		{Job: "r1-0v2", Game: "acb", Config: "abc123", Round: 1, Seed: 12, Players: refs("gatherer", "turtle"), Error: "strategy turtle panicked on seed 12"},
	}
	sum := clusteredSample(rating.ModelBT)
	return ArenaPage{Source: "results.jsonl", Method: sum.Method, Facts: NewArenaFacts(recs), Summary: sum}
}

func refs(names ...string) []arena.PlayerRef {
	out := make([]arena.PlayerRef, len(names))
	for i, n := range names {
		out[i] = arena.PlayerRef{Name: n, Strategy: n}
	}
	return out
}

// evolveSample is a small evolution run's page with every section.
func evolveSample() EvolvePage {
	lb := sample()
	return EvolvePage{
		Dir:      "runs/x",
		Settings: []Fact{{"game", "kindling"}, {"base strategy", "gatherer"}, {"algorithm", "ga"}},
		Outcome:  []Fact{{"generations", "3"}, {"stopped by", "generations"}},
		Generations: []Generation{
			{Generation: 0, Best: 0.55, Base: 0.5, Mean: 0.45, Min: 0.2, Max: 0.55},
			{Generation: 1, Best: 0.62, Base: 0.51, Mean: 0.5, Min: 0.3, Max: 0.66},
			{Generation: 2, Best: 0.6, Base: 0.5, Mean: 0.52, Min: 0.35, Max: 0.64},
		},
		Champion: "gatherer#0123456789", ChampionNote: "evolved by ga",
		Params: []ParamRow{
			{Name: "reach", Description: "how far it looks", Ranged: true, Min: 0, Max: 10, Integer: true, Default: 4, Value: 10},
			{Name: "greed", Description: "share spent", Ranged: true, Min: 0.5, Max: 1, Default: 0.75, Value: 0.5},
			{Name: "calm", Ranged: true, Min: 0, Max: 1, Default: 0.3, Value: 0.3},
		},
		Holdout: &Holdout{A: "gatherer#0123456789", B: "gatherer (defaults)", Opponents: []string{"rusher", "turtle"},
			Seeds: 8, GamesPerSide: 64, RateA: 0.61, RateB: 0.5, Diff: 0.11, Lo: 0.02, Hi: 0.2},
		Leaderboard: &lb, Base: "turtle", Evolved: []string{"gatherer"},
	}
}

// TestHTMLGolden checks both pages' bytes against testdata/*.html
// (go test ./reports -update rewrites them after a deliberate change): the
// same page gives the same bytes, plots included.
func TestHTMLGolden(t *testing.T) {
	tests := []struct {
		file  string
		write func(*bytes.Buffer) error
	}{
		{"arena.html", func(b *bytes.Buffer) error { return WriteArenaHTML(b, arenaSample()) }},
		{"evolve.html", func(b *bytes.Buffer) error { return WriteEvolveHTML(b, evolveSample()) }},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var a, b bytes.Buffer
			if err := tt.write(&a); err != nil {
				t.Fatal(err)
			}
			if err := tt.write(&b); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatal("two renderings of the same page differ")
			}
			path := filepath.Join("testdata", tt.file)
			if *update {
				os.WriteFile(path, a.Bytes(), 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Bytes(), want) {
				t.Fatalf("%s differs from %s (rerun with -update after a deliberate change)", tt.file, path)
			}
		})
	}
}

var cellRE = regexp.MustCompile(`<td[^>]*>([^<]*)</td>`)

// tableRows returns the text cells of the page's first leaderboard table,
// row by row.
func tableRows(t *testing.T, page string) [][]string {
	t.Helper()
	start := strings.Index(page, `<table class="leaderboard">`)
	if start < 0 {
		t.Fatal("page has no leaderboard table")
	}
	end := start + strings.Index(page[start:], "</table>")
	var rows [][]string
	for _, tr := range strings.Split(page[start:end], "<tr")[2:] { // skip the text before the head and the head row
		var cells []string
		for _, m := range cellRE.FindAllStringSubmatch(tr, -1) {
			cells = append(cells, m[1])
		}
		rows = append(rows, cells)
	}
	return rows
}

// TestArenaHTMLContent checks the arena page against its summary: every
// player in leaderboard order with the terminal table's figures, names
// escaped, one SVG per plot, the facts and the failed matches.
func TestArenaHTMLContent(t *testing.T) {
	g := rating.Default()
	nasty := []string{"<b>x</b>", `a&b "q"`, "</table><script>alert(1)</script>"}
	outs := []rating.Outcome{
		{A: nasty[0], B: nasty[1], Score: 1}, {A: nasty[1], B: nasty[0], Score: 0.5},
		{A: nasty[0], B: nasty[2], Score: 1}, {A: nasty[2], B: nasty[1], Score: 0},
		{A: "plain", B: nasty[2], Score: 1},
	}
	sum := rating.Summarize(g.RatePeriod(g.Initials(append([]string{"plain"}, nasty...)), outs), outs)
	pg := arenaSample()
	pg.Summary = sum
	var buf bytes.Buffer
	if err := WriteArenaHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	page := buf.String()

	for _, n := range nasty {
		if strings.Contains(page, n) {
			t.Errorf("the name %q appears unescaped", n)
		}
	}
	if !strings.Contains(page, "&lt;b&gt;x&lt;/b&gt;") {
		t.Error("the name <b>x</b> does not appear escaped")
	}
	if strings.Contains(page, "<script") {
		t.Error("a player's name injected a script element")
	}

	rows := tableRows(t, page)
	if len(rows) != len(sum.Standings) {
		t.Fatalf("leaderboard has %d rows, the summary %d players", len(rows), len(sum.Standings))
	}
	want := leaderboardRows(sum)
	for i, st := range sum.Standings {
		got := rows[i][:len(want[i])]
		for j := range want[i] {
			// html/template escapes the cells; compare with the escaped figures.
			if w := escape(want[i][j]); got[j] != w {
				t.Errorf("row %d (%s) column %d: %q, the summary gives %q", i+1, st.Name, j, got[j], w)
			}
		}
	}
	if r := rows[0]; r[1] != escape(sum.Standings[0].Name) || r[2] != fmt.Sprintf("%.0f ± %.0f", sum.Standings[0].Rating.Rating, sum.Standings[0].RD) {
		t.Errorf("first row %q does not lead with the summary's leader", r)
	}

	for _, id := range []string{"ratings-plot", "matrix-plot"} {
		i := strings.Index(page, `id="`+id+`"`)
		if i < 0 {
			t.Fatalf("no %s figure", id)
		}
		fig := page[i : i+strings.Index(page[i:], "</figure>")]
		if strings.Count(fig, "<svg") != 1 || !strings.Contains(fig, "</svg>") {
			t.Errorf("%s does not hold exactly one SVG", id)
		}
	}
	for _, want := range []string{"3 (1 failed and left out of the ratings)", "r1-0v2: strategy turtle panicked on seed 12",
		"elimination 1, turns 1", "abc123", "1 of 3 matches failed"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	if strings.Contains(page, "<?xml") {
		t.Error("an SVG kept its XML prologue")
	}
}

// escape is html/template's escaping of plain text.
func escape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "+", "&#43;")
	return r.Replace(s)
}

// TestNewArenaFacts checks the counting rules: failures are counted and
// listed by round and job up to MaxErrors whatever the order of the lines,
// rounds and seeds are distinct values, reasons are ordered by count.
func TestNewArenaFacts(t *testing.T) {
	var recs []arena.Record
	for i := range 14 {
		r := arena.Record{Job: fmt.Sprintf("j%02d", i), Game: "kindling", Round: i % 3, Seed: uint64(i % 5), Players: refs("a", "b")}
		switch {
		case i < 12:
			r.Error = "boom"
		case i == 12:
			r.Reason, r.Turns, r.Ranks = "turns", 8, []int{1, 2}
		default:
			r.Reason, r.Turns, r.Ranks, r.Players = "elimination", 4, []int{1, 2, 3}, refs("a", "b", "c")
		}
		recs = append(recs, r)
	}
	recs = append(recs, arena.Record{Job: "j14", Game: "kindling", Round: 0, Seed: 0, Players: refs("a", "b"), Reason: "elimination", Turns: 6, Ranks: []int{2, 1}})
	f := NewArenaFacts(recs)
	// Rounds are i % 3: round 0 holds j00 j03 j06 j09, round 1 j01 j04 j07
	// j10, round 2 j02 j05 (the first ten).
	want := "j00 j03 j06 j09 j01 j04 j07 j10 j02 j05"
	var got []string
	for _, e := range f.Errors {
		got = append(got, strings.TrimSuffix(e, ": boom"))
	}
	if f.Matches != 15 || f.Failed != 12 || strings.Join(got, " ") != want {
		t.Fatalf("matches %d failed %d errors %q, want %s", f.Matches, f.Failed, f.Errors, want)
	}
	rev := slices.Clone(recs)
	slices.Reverse(rev)
	if back := NewArenaFacts(rev); fmt.Sprint(back) != fmt.Sprint(f) {
		t.Fatalf("the facts depend on the order of the lines:\n%v\n%v", back, f)
	}
	if f.Rounds != 3 || f.Seeds != 5 || fmt.Sprint(f.Seats) != "[2 3]" || fmt.Sprint(f.Games) != "[kindling]" {
		t.Fatalf("rounds %d seeds %d seats %v games %v", f.Rounds, f.Seeds, f.Seats, f.Games)
	}
	if fmt.Sprint(f.Reasons) != "[{elimination 2} {turns 1}]" || f.MeanTurns != 6 {
		t.Fatalf("reasons %v mean turns %v", f.Reasons, f.MeanTurns)
	}
}

// TestEvolveHTMLContent checks the evolution page: the fitness plot, the
// parameters against the defaults with their positions in the range, the
// held-out verdict and the marked tournament rows.
func TestEvolveHTMLContent(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteEvolveHTML(&buf, evolveSample()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	i := strings.Index(page, `id="fitness-plot"`)
	if i < 0 || !strings.Contains(page[i:i+strings.Index(page[i:], "</figure>")], "<svg") {
		t.Fatal("no fitness plot")
	}
	for _, want := range []string{
		"gatherer#0123456789", "champion&#39;s fitness",
		`<td class="name">reach</td><td>[0, 10]</td><td>4</td><td>10</td><td>&#43;6 (&#43;60%)</td>`,
		`<td class="name">greed</td><td>[0.5, 1]</td><td>0.75</td><td>0.5</td><td>-0.25 (-50%)</td>`,
		`<td class="name">calm</td><td>[0, 1]</td><td>0.3</td><td>0.3</td><td>=</td>`,
		"Difference <strong>&#43;0.110</strong>, 95% interval [&#43;0.020, &#43;0.200]: the interval lies above zero",
		`<tr class="champion">`, `<tr class="base">`, "Ranking of the champion among the reference strategies",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// The first/best/last table picks the second generation (shown from
	// 1, as crucible evolve prints it: 2) as the best champion.
	if !strings.Contains(page, "<td class=\"text\">highest fitness</td><td>2</td><td>0.620</td>") {
		t.Error("the best generation is not the second")
	}
}

// TestParamView checks the bar positions: the minimum sits at the left
// end, the maximum at the right end, values outside are held at the ends.
func TestParamView(t *testing.T) {
	tests := []struct {
		name       string
		p          ParamRow
		defX, valX float64
		change     string
	}{
		{"min and max at the ends", ParamRow{Ranged: true, Min: 2, Max: 6, Default: 2, Value: 6, Integer: true}, 6, paramBarW - 6, "+4 (+100%)"},
		{"middle", ParamRow{Ranged: true, Min: 0, Max: 1, Default: 0.5, Value: 0.5}, paramBarW / 2, paramBarW / 2, "="},
		{"outside the range is held at the end", ParamRow{Ranged: true, Min: 0, Max: 1, Default: -1, Value: 2}, 6, paramBarW - 6, "+3 (+300%)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newParamView(tt.p)
			if v.DefX != tt.defX || v.ValX != tt.valX || v.Change != tt.change || !v.Ranged {
				t.Fatalf("got def %v val %v change %q, want %v %v %q", v.DefX, v.ValX, v.Change, tt.defX, tt.valX, tt.change)
			}
		})
	}
	if v := newParamView(ParamRow{Default: 1, Value: 2}); v.Ranged || v.Range != "unknown" {
		t.Fatalf("a parameter without a range shows %+v", v)
	}
}

// TestHoldoutView checks the verdicts: above zero, straddling zero, and
// the unbounded interval of fewer than two seeds (no bar, no NaN).
func TestHoldoutView(t *testing.T) {
	tests := []struct {
		name    string
		h       Holdout
		verdict string
		bar     bool
	}{
		{"above zero", Holdout{Diff: 0.1, Lo: 0.05, Hi: 0.15}, "measurably stronger", true},
		{"straddles zero", Holdout{Diff: 0.01, Lo: -0.05, Hi: 0.07}, "no measurable improvement", true},
		{"one seed", Holdout{Diff: 0.2, Lo: math.Inf(-1), Hi: math.Inf(1)}, "too few held-out seeds", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := newHoldoutView(&tt.h)
			if !strings.Contains(v.Verdict, tt.verdict) || v.Bounded != tt.bar {
				t.Fatalf("verdict %q bounded %v", v.Verdict, v.Bounded)
			}
			if tt.bar && !(v.Lo < v.X && v.X < v.Hi && v.Lo >= 0 && v.Hi <= holdoutBarW) {
				t.Fatalf("bar %v < %v < %v outside [0, %v]", v.Lo, v.X, v.Hi, holdoutBarW)
			}
			var buf bytes.Buffer
			pg := evolveSample()
			pg.Holdout = &tt.h
			if err := WriteEvolveHTML(&buf, pg); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(buf.String(), "NaN") || strings.Contains(buf.String(), "Inf") {
				t.Fatal("the page shows NaN or Inf")
			}
		})
	}
}

// TestTicks checks the axis labels: round values without floating-point
// noise, and whole generations only.
func TestTicks(t *testing.T) {
	var labels []string
	for _, tk := range (niceTicks{N: 5}).Ticks(0, 1) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "0.0 0.2 0.4 0.6 0.8 1.0" {
		t.Fatalf("score ticks %q", got)
	}
	labels = nil
	for _, tk := range (niceTicks{N: 8}).Ticks(1013, 2127) {
		labels = append(labels, tk.Label)
	}
	if got := strings.Join(labels, " "); got != "1200 1400 1600 1800 2000" {
		t.Fatalf("rating ticks %q", got)
	}
	for _, span := range []float64{2, 29, 39, 1000} {
		ticks := (integerTicks{}).Ticks(0, span)
		if len(ticks) < 2 {
			t.Fatalf("generations 0 to %v: %d ticks, want at least 2", span, len(ticks))
		}
		for _, tk := range ticks {
			if tk.Value != math.Trunc(tk.Value) || tk.Label != strconv.Itoa(int(tk.Value)) {
				t.Fatalf("generations 0 to %v: tick %q at %v", span, tk.Label, tk.Value)
			}
		}
	}
}

// TestDegeneratePlots checks that the edge cases draw or are left out
// without a panic: one generation, one player, a player without games.
func TestDegeneratePlots(t *testing.T) {
	if svg, err := fitnessPlot([]Generation{{Generation: 0, Best: 0.5, Mean: 0.5, Min: 0.5, Max: 0.5, Base: 0.5}}); err != nil || !strings.Contains(string(svg), "<svg") {
		t.Fatalf("one generation: %v", err)
	}
	one := rating.Summarize(map[string]rating.Rating{"solo": rating.Default().Initial}, nil)
	if svg, err := matrixPlot(one.Matrix); err != nil || svg != "" {
		t.Fatalf("a single player's matrix: %q %v", svg, err)
	}
	if svg, _, err := ratingsPlot(one); err != nil || !strings.Contains(string(svg), "solo") {
		t.Fatalf("a single player's ratings: %v", err)
	}
	var buf bytes.Buffer
	if err := WriteArenaHTML(&buf, ArenaPage{Source: "x", Summary: one}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), `id="matrix-plot"`) {
		t.Fatal("a single player got a matrix")
	}
}

// TestArenaHTMLField checks the non-transitive section: every player's
// α-Rank and Nash masses as the summary gives them, the cycles of a
// rock-paper-scissors field with their lower ends, "None" when there is
// no cycle, and the method section.
func TestArenaHTMLField(t *testing.T) {
	pg := arenaSample()
	var buf bytes.Buffer
	if err := WriteArenaHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, st := range pg.Summary.Standings {
		if st.AlphaRank == nil {
			continue
		}
		row := fmt.Sprintf(`<td class="name">%s</td><td>%.3f</td>`, st.Name, *st.AlphaRank)
		if !strings.Contains(page, row) || !strings.Contains(page, fmt.Sprintf("<td>%.3f</td>", st.Nash.Mass)) {
			t.Errorf("field section lacks %s's masses: %s", st.Name, row)
		}
	}
	for _, want := range []string{`<section id="field">`, "None: no three players beat one another", `<section id="method">`,
		"Ordered by <strong>Bradley–Terry Elo (maximum likelihood)</strong>", "<dt>independent units</dt>", "<dd>4 seeds (every match on a seed is one unit)</dd>", "(9 distinct outcomes; 1 of the 3 pairings (groups of players) gave one outcome on every seed)"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}

	var recs []arena.Record
	for s := range 12 {
		for _, p := range [][2]string{{"rock", "scissors"}, {"scissors", "paper"}, {"paper", "rock"}} {
			for o, seats := range [][2]string{{p[0], p[1]}, {p[1], p[0]}} {
				ranks := []int{1, 2}
				if o == 1 {
					ranks = []int{2, 1}
				}
				recs = append(recs, arena.Record{Job: fmt.Sprintf("r%d-%s%d", s, p[0], o), Game: "acb", Round: s, Seed: uint64(s + 1),
					Players: refs(seats[0], seats[1]), Ranks: ranks, Scores: []float64{1, 0}, Turns: 10 + s, Reason: "turns"})
			}
		}
	}
	sum, err := arena.Leaderboard(nil, recs, rating.Options{Field: true})
	if err != nil {
		t.Fatal(err)
	}
	pg.Summary = sum
	buf.Reset()
	if err := WriteArenaHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	page = buf.String()
	lo, _ := stats.Wilson(12, 12, 0.95)
	want := fmt.Sprintf("<td class=\"text name\">paper &gt; rock &gt; scissors &gt; paper</td><td>%.1f%%, %.1f%%, %.1f%%</td>", 100*lo, 100*lo, 100*lo)
	if !strings.Contains(page, want) {
		t.Fatalf("page lacks the cycle %s", want)
	}
}

// TestTablesNameTheirModel checks that every model's table says what
// orders it, with the model's own columns.
func TestTablesNameTheirModel(t *testing.T) {
	for _, m := range rating.Models() {
		s := clusteredSample(m)
		var buf bytes.Buffer
		if err := WriteSummary(&buf, Table, s, SummaryOptions{}); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if !strings.Contains(out, "Leaderboard, ordered by "+m.Title()) {
			t.Errorf("%s: the title does not name the model:\n%s", m, out)
		}
		for _, h := range modelHeader(s) {
			if !strings.Contains(out, h) {
				t.Errorf("%s: the table lacks the column %q", m, h)
			}
		}
		if !strings.Contains(out, "Intervals: 95%, clustered by seed over 4 seeds") {
			t.Errorf("%s: the table does not say how its intervals were computed:\n%s", m, out)
		}
	}
}
