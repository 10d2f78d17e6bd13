package reports

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"crucible/arena/rating"
)

// LadderPage is the content of the HTML report of a persistent ladder
// (crucible ladder report).
type LadderPage struct {
	// Source names the ladder's database.
	Source string
	// Facts describe the ladder: game, entrants, nights, matches.
	Facts []Fact
	// Standings is the leaderboard of the current versions after the
	// last night; Regressed maps the names of versions whose regression
	// test found them weaker than their predecessor to what it found.
	Standings rating.Summary
	Regressed map[string]string
	// Nights are the labels of the closed nights in the order they
	// closed: the x axis of the histories.
	Nights []string
	// Histories are the entrants' ratings night by night.
	Histories []LadderHistory
	// Night is the last closed night, nil before the first.
	Night *LadderNight
	// Tests are the regression tests, oldest first.
	Tests []LadderTest
}

// LadderHistory is one entrant's rating after each night that rated it.
type LadderHistory struct {
	Entrant string
	Points  []LadderPoint
}

// LadderPoint is an entrant's rating after one night.
type LadderPoint struct {
	// Night is the night's index in LadderPage.Nights.
	Night int
	// Version is the version rated and Label its name in matches.
	Version int
	Label   string
	// Rating and RD are its Glicko-2 rating and deviation after the night.
	Rating, RD float64
}

// LadderNight is one night of a ladder: its facts, its pairs' results and
// its first matches.
type LadderNight struct {
	Label string
	Facts []Fact
	// Pairs are the rated pairs' results over the night.
	Pairs []LadderPair
	// Matches are the night's first rated matches in schedule order
	// (MaxLadderMatches at most), and Rated the night's rated matches in
	// all.
	Matches []LadderMatch
	Rated   int
	// Games are the first games of its regression tests in schedule
	// order (MaxLadderGames at most), and TestGames their number.
	Games     []LadderMatch
	TestGames int
}

// LadderPair is the night's result of A against B over their rated
// matches.
type LadderPair struct {
	A, B                string
	Wins, Draws, Losses int
}

// LadderMatch is one match of a night.
type LadderMatch struct {
	Job     string
	Round   int
	Seed    uint64
	Players []string
	Scores  []float64
	Ranks   []int
	Turns   int
	Reason  string
	Error   string
}

// LadderTest is a regression test of a new version against its previous
// version, with its state after the last night that played it.
type LadderTest struct {
	// Version and Baseline are the two versions' labels; Started the
	// night that started the test, Night the last that played it ("" when
	// none did) and Nights how many did.
	Version, Baseline, Started, Night string
	Nights                            int
	// Hypotheses says the bounds, model and error rates.
	Hypotheses string
	// Counts are the pentanomial counts of its game pairs from the new
	// version's side: LL, LD, WL or DD, WD, WW.
	Counts [5]int
	// LLR is the log-likelihood ratio, Lower and Upper its bounds.
	LLR, Lower, Upper float64
	// Verdict is "pending", "running", "H0" (weaker) or "H1" (not weaker).
	Verdict string
	// HasElo tells whether the estimate below exists (some pair played):
	// the new version's score per game and logistic Elo over the baseline,
	// each with its 95% interval.
	HasElo                  bool
	Score, ScoreLo, ScoreHi float64
	Elo, EloLo, EloHi       float64
	// Current is set while the version is its entrant's current one.
	Current bool
}

// MaxLadderMatches and MaxLadderGames are the numbers of rated matches
// and of regression games the report lists of a night.
const (
	MaxLadderMatches = 100
	MaxLadderGames   = 20
)

// WriteLadderHTML writes the report of a ladder as one HTML page with
// inline CSS and SVG: the ladder's facts, the standings with their plots,
// a rating-history plot per entrant over the nights with its version
// changes marked, the last night's facts, pairs and first matches, and
// the regression tests with their verdicts. The same page gives the same
// bytes.
func WriteLadderHTML(w io.Writer, pg LadderPage) error {
	b, err := newBoard(pg.Standings, "", nil)
	if err != nil {
		return err
	}
	var regressed []string
	for i, st := range pg.Standings.Standings {
		if what, ok := pg.Regressed[st.Name]; ok {
			b.Rows[i].Class = "regression"
			b.Rows[i].Cells[1] += " [REGRESSION]"
			regressed = append(regressed, st.Name+": "+what)
		}
	}
	var hists []historyView
	for _, h := range pg.Histories {
		svg, err := historyPlot(h, pg.Nights)
		if err != nil {
			return fmt.Errorf("history of %s: %w", h.Entrant, err)
		}
		v := historyView{Entrant: h.Entrant, Plot: svg}
		for i, p := range h.Points {
			if i > 0 && p.Version != h.Points[i-1].Version {
				v.Changes = append(v.Changes, fmt.Sprintf("version %d (%s) from night %s", p.Version, p.Label, pg.Nights[p.Night]))
			}
		}
		if n := len(h.Points); n > 0 {
			last := h.Points[n-1]
			v.Last = fmt.Sprintf("%.0f ± %.0f after night %s (%s)", last.Rating, last.RD, pg.Nights[last.Night], last.Label)
		}
		hists = append(hists, v)
	}
	var tests []testView
	for _, t := range pg.Tests {
		tests = append(tests, newTestView(t))
	}
	var night *nightView
	if n := pg.Night; n != nil {
		night = &nightView{LadderNight: *n}
		for _, p := range n.Pairs {
			games := p.Wins + p.Draws + p.Losses
			score := 0.0
			if games > 0 {
				score = 100 * (float64(p.Wins) + 0.5*float64(p.Draws)) / float64(games)
			}
			night.PairRows = append(night.PairRows, []string{p.A, p.B, strconv.Itoa(games),
				fmt.Sprintf("%d-%d-%d", p.Wins, p.Draws, p.Losses), fmt.Sprintf("%.1f", score)})
		}
		for _, m := range n.Matches {
			night.MatchRows = append(night.MatchRows, newMatchView(m))
		}
		for _, m := range n.Games {
			night.GameRows = append(night.GameRows, newMatchView(m))
		}
	}
	return render(w, "ladder", struct {
		Title     string
		Page      LadderPage
		Board     board
		Regressed []string
		Histories []historyView
		Night     *nightView
		Tests     []testView
	}{"Ladder report: " + pg.Source, pg, b, regressed, hists, night, tests})
}

// historyView is one entrant's history plot and its captions.
type historyView struct {
	Entrant string
	Plot    template.HTML
	Changes []string
	Last    string
}

// nightView is a night with its tables' rows formatted.
type nightView struct {
	LadderNight
	PairRows            [][]string
	MatchRows, GameRows []matchView
}

// matchView is one line of the matches table.
type matchView struct {
	Job, Players, Scores, Ranks, Turns, Reason string
	Round                                      int
	Seed                                       uint64
	Failed                                     bool
}

func newMatchView(m LadderMatch) matchView {
	v := matchView{Job: m.Job, Round: m.Round, Seed: m.Seed, Players: strings.Join(m.Players, " – "),
		Reason: m.Reason, Turns: strconv.Itoa(m.Turns)}
	if m.Error != "" {
		v.Failed, v.Reason, v.Turns = true, "failed: "+m.Error, ""
		return v
	}
	sc := make([]string, len(m.Scores))
	for i, s := range m.Scores {
		sc[i] = strconv.FormatFloat(s, 'f', -1, 64)
	}
	rk := make([]string, len(m.Ranks))
	for i, r := range m.Ranks {
		rk[i] = strconv.Itoa(r)
	}
	v.Scores, v.Ranks = strings.Join(sc, " – "), strings.Join(rk, " – ")
	return v
}

// testView is a regression test formatted for its table row, with the
// geometry of its LLR bar (0 to llrBarW CSS pixels, the bounds at
// llrBarPad from the ends).
type testView struct {
	LadderTest
	Pairs              int
	Counts, LLRText    string
	ScoreText, EloText string
	VerdictText, Class string
	X, Lo, Hi, Zero    float64
}

// llrBarW and llrBarPad size the LLR bars.
const (
	llrBarW   = 120.0
	llrBarPad = 12.0
)

func newTestView(t LadderTest) testView {
	v := testView{LadderTest: t}
	for _, c := range t.Counts {
		v.Pairs += c
	}
	v.Counts = fmt.Sprintf("%d-%d-%d-%d-%d", t.Counts[0], t.Counts[1], t.Counts[2], t.Counts[3], t.Counts[4])
	v.LLRText = fmt.Sprintf("%.2f (%.2f, %.2f)", t.LLR, t.Lower, t.Upper)
	v.ScoreText, v.EloText = "–", "–"
	if t.HasElo {
		v.ScoreText = fmt.Sprintf("%.1f [%.1f, %.1f]", 100*t.Score, 100*t.ScoreLo, 100*t.ScoreHi)
		v.EloText = fmt.Sprintf("%+.0f [%+.0f, %+.0f]", t.Elo, t.EloLo, t.EloHi)
	}
	switch t.Verdict {
	case "H0":
		v.VerdictText, v.Class = "H0: weaker", "regression"
	case "H1":
		v.VerdictText = "H1: not weaker"
	case "running":
		v.VerdictText = "running"
		if !t.Current {
			v.VerdictText = "stopped (replaced)"
		}
	default:
		v.VerdictText = t.Verdict
	}
	span := t.Upper - t.Lower
	at := func(x float64) float64 {
		px := llrBarPad + (x-t.Lower)/span*(llrBarW-2*llrBarPad)
		return math.Round(math.Max(4, math.Min(llrBarW-4, px))*10) / 10 // beyond a bound: at the bar's end
	}
	if span > 0 {
		v.X, v.Lo, v.Hi, v.Zero = at(t.LLR), at(t.Lower), at(t.Upper), at(0)
	}
	return v
}

func init() {
	// The ladder page joins the shared templates (head, facts, board,
	// boardplots) and is rendered through render like the others.
	template.Must(pages.New("ladder.tmpl").Parse(ladderTemplate))
}

const ladderTemplate = `
{{define "matches"}}<div class="scroll"><table class="matches">
<thead><tr><th class="name">job</th><th>round</th><th>seed</th><th class="name">players</th><th>scores</th><th>ranks</th><th>turns</th><th class="text">end</th></tr></thead>
<tbody>{{range .}}<tr><td class="name">{{.Job}}</td><td>{{.Round}}</td><td>{{.Seed}}</td><td class="name">{{.Players}}</td><td>{{.Scores}}</td><td>{{.Ranks}}</td><td>{{.Turns}}</td><td class="text">{{.Reason}}</td></tr>
{{end}}</tbody>
</table></div>{{end}}

{{define "ladder"}}{{template "head" .}}
<header>
<h1>Ladder report</h1>
<p class="sub">{{.Page.Source}}</p>
</header>
{{if .Regressed}}<div class="errors"><p>Regression: a current version was found weaker than its previous version.</p>
<ul>{{range .Regressed}}<li>{{.}}</li>{{end}}</ul></div>
{{end}}<section id="ladder">
<h2>Ladder</h2>
{{template "facts" .Page.Facts}}
</section>
<section id="standings">
<h2>Standings</h2>
{{if .Board.Rows}}{{template "board" .Board}}
<p class="note">The entrants' current versions at their latest ratings (a version not rated yet at the rating it starts from), ordered by the conservative rating (rating − 2 RD);
W-D-L, score % and Elo against the field are those of the last night. A version whose regression test found it weaker than its predecessor is marked [REGRESSION].</p>
{{template "boardplots" .Board}}{{else}}<p class="note">The ladder has no entrant.</p>{{end}}
</section>
<section id="history">
<h2>Rating history</h2>
{{if .Histories}}<p class="note">Each entrant's Glicko-2 rating after every night that rated it, each version in its own colour with a band of ± 2 RD; a dashed line labelled vN marks the night a new version started.</p>
<div style="display: grid; grid-template-columns: repeat(auto-fill, minmax(520px, 1fr)); gap: 0 2em;">
{{range .Histories}}<div class="history"><h3 class="name">{{.Entrant}}</h3>
{{if .Plot}}<figure class="plot history-plot">{{.Plot}}
<figcaption>{{.Last}}.{{range .Changes}} New {{.}}.{{end}}</figcaption>
</figure>{{else}}<p class="note">Not rated yet.</p>{{end}}</div>
{{end}}</div>
{{else}}<p class="note">No night has been closed yet.</p>
{{end}}</section>
<section id="night">
<h2>Last night</h2>
{{with .Night}}{{template "facts" .Facts}}
{{if .PairRows}}<h3>Pairs</h3>
<div class="scroll"><table class="pairs">
<thead><tr><th class="name">player</th><th class="name">opponent</th><th>games</th><th>W-D-L</th><th>score %</th></tr></thead>
<tbody>{{range .PairRows}}<tr>{{range $i, $c := .}}<td{{if lt $i 2}} class="name"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>{{end}}
{{if .MatchRows}}<h3>Rated matches</h3>
{{template "matches" .MatchRows}}
<p class="note">{{if gt .Rated (len .Matches)}}The first {{len .Matches}} of the night's {{.Rated}} rated matches{{else}}The night's {{.Rated}} rated matches{{end}}, in schedule order.</p>{{end}}
{{if .GameRows}}<h3>Regression games</h3>
{{template "matches" .GameRows}}
<p class="note">{{if gt .TestGames (len .Games)}}The first {{len .Games}} of the night's {{.TestGames}} games{{else}}The night's {{.TestGames}} games{{end}} of regression tests, in schedule order: each pair is one seed in both seat orders, the new version first. They are recorded and exported, not rated.</p>{{end}}
<p class="note">crucible ladder export --night {{.Label}} writes every match of the night as result lines.</p>
{{else}}<p class="note">No night has been closed yet.</p>{{end}}
</section>
<section id="regression">
<h2>Regression tests</h2>
{{if .Tests}}<div class="scroll"><table class="tests">
<thead><tr><th class="name">version</th><th class="name">against</th><th class="text">started</th><th>nights</th><th>pairs</th><th>pentanomial</th><th>score %</th><th>Elo 95%</th><th>LLR (bounds)</th><th class="text">between the bounds</th><th class="text">verdict</th></tr></thead>
<tbody>{{range .Tests}}<tr{{if .Class}} class="{{.Class}}"{{end}}><td class="name">{{.Version}}</td><td class="name">{{.Baseline}}</td><td class="text">{{.Started}}</td><td>{{.Nights}}</td><td>{{.Pairs}}</td><td>{{.Counts}}</td><td>{{.ScoreText}}</td><td>{{.EloText}}</td><td>{{.LLRText}}</td><td class="text"><svg class="bar" width="120" height="14" viewBox="0 0 120 14" role="img" aria-label="LLR between its bounds"><line x1="{{.Lo}}" y1="7" x2="{{.Hi}}" y2="7" stroke="#ccc" stroke-width="2"/><line x1="{{.Lo}}" y1="2" x2="{{.Lo}}" y2="12" stroke="#c0392b" stroke-width="1.5"/><line x1="{{.Hi}}" y1="2" x2="{{.Hi}}" y2="12" stroke="#1b9e77" stroke-width="1.5"/><line x1="{{.Zero}}" y1="4" x2="{{.Zero}}" y2="10" stroke="#999" stroke-width="1"/><circle cx="{{.X}}" cy="7" r="3.5" fill="#1f5fa8"/></svg></td><td class="text">{{if .Class}}<strong>{{.VerdictText}}</strong>{{else}}{{.VerdictText}}{{end}}</td></tr>
{{end}}</tbody>
</table></div>
<p class="note">A new version of an entrant plays game pairs (one seed, both seat orders) against its previous version, night after night, in a pentanomial SPRT ({{(index .Tests 0).Hypotheses}} unless a test says otherwise):
counts are the pairs by the new version's total in the pair, from two losses (LL) to two wins (WW); the test ends when the log-likelihood ratio crosses a bound:
the lower (red) accepts H0, a regression; the upper (green) H1, not weaker. Score % and Elo are the new version's against the previous one, with their 95% intervals over the pairs.</p>
{{else}}<p class="note">No entrant has had a new version yet.</p>{{end}}
</section>
<footer>Written by crucible ladder report from {{.Page.Source}}.</footer>
</body>
</html>
{{end}}
`
