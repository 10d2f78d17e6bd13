package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/evolver"
	"crucible/reports"
	"crucible/strategies"
)

// reportFile runs `crucible report` with args and returns the written
// page (empty when the command failed) and the error.
func reportFile(t *testing.T, out string, args ...string) (string, error) {
	t.Helper()
	_, _, err := execRoot(t, append([]string{"report", "--out", out}, args...)...)
	if err != nil {
		return "", err
	}
	data, rerr := os.ReadFile(out)
	if rerr != nil {
		t.Fatalf("report succeeded but %s is unreadable: %v", out, rerr)
	}
	return string(data), nil
}

// leaderboardNames returns the player names of the page's first
// leaderboard table in row order.
func leaderboardNames(t *testing.T, page string) []string {
	t.Helper()
	i := strings.Index(page, `<table class="leaderboard">`)
	if i < 0 {
		t.Fatal("page has no leaderboard")
	}
	table := page[i : i+strings.Index(page[i:], "</table>")]
	var names []string
	for _, part := range strings.Split(table, `<td class="name">`)[1:] {
		names = append(names, part[:strings.Index(part, "</td>")])
	}
	return names
}

// TestReportResults checks the arena page of a small Kindling round robin
// against the rating package: the leaderboard is arena.Leaderboard's in
// the model asked for (Bradley–Terry by default, as crucible arena and
// crucible rate print it), with the same figures; the plots, the
// non-transitive field and the method are there. The same file gives the
// same bytes.
func TestReportResults(t *testing.T) {
	results := filepath.Join(t.TempDir(), "r.jsonl")
	if _, _, err := execRoot(t, "arena", "--players", "normal,easy,even,greedy", "--seeds", "3", "--out", results, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	res, err := arena.LoadResults(results)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"normal", "easy", "even", "greedy"}
	board := func(opt rating.Options) rating.Summary {
		opt.Field = true
		s, err := arena.Leaderboard(names, res.Records, opt)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	tests := []struct {
		name string
		args []string
		want rating.Summary
		cell func(rating.Standing) string
	}{
		{"bradley-terry by default", nil, board(rating.Options{}),
			func(st rating.Standing) string {
				return fmt.Sprintf("<td>%+.0f ± %.0f</td><td>[%+.0f, %+.0f]</td>", st.BT.Elo, st.BT.SE, st.BT.Lo, st.BT.Hi)
			}},
		{"glicko2, one period as crucible rate", []string{"--rating", "glicko2"}, board(rating.Options{Model: rating.ModelGlicko2}),
			func(st rating.Standing) string {
				return fmt.Sprintf("<td>%.0f ± %.0f</td><td>%.0f</td>", st.Rating.Rating, st.RD, st.Conservative)
			}},
		{"glicko2, rounds as periods", []string{"--rating", "glicko2", "--periods", "rounds"}, board(rating.Options{Model: rating.ModelGlicko2, Periods: rating.RoundPeriods}),
			func(st rating.Standing) string {
				return fmt.Sprintf("<td>%.0f ± %.0f</td><td>%.0f</td>", st.Rating.Rating, st.RD, st.Conservative)
			}},
		{"weng-lin", []string{"--rating", "weng-lin"}, board(rating.Options{Model: rating.ModelWengLin}),
			func(st rating.Standing) string {
				return fmt.Sprintf("<td>%.2f ± %.2f</td><td>%.2f</td>", st.WengLin.Mu, st.WengLin.Sigma, st.WengLin.Ordinal)
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "report.html")
			page, err := reportFile(t, out, append([]string{"--results", results}, tt.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			var want []string
			for _, st := range tt.want.Standings {
				want = append(want, st.Name)
				units := fmt.Sprint(st.Units)
				if st.Distinct < st.Units {
					units = fmt.Sprintf("%d (%d distinct)", st.Units, st.Distinct)
				}
				row := fmt.Sprintf(`<td class="name">%s</td>%s<td>%d</td><td>%s</td><td>%d-%d-%d</td><td>%.1f</td><td>%.1f-%.1f</td>`,
					st.Name, tt.cell(st), st.Games, units, st.Wins, st.Draws, st.Losses, 100*st.Score, 100*st.ScoreLo, 100*st.ScoreHi)
				row = strings.ReplaceAll(row, "+", "&#43;") // as html/template writes it
				if !strings.Contains(page, row) {
					t.Errorf("page lacks %s's row with the summary's figures:\n%s", st.Name, row)
				}
			}
			if got := leaderboardNames(t, page); strings.Join(got, ",") != strings.Join(want, ",") {
				t.Fatalf("leaderboard order %v, the summary's %v", got, want)
			}
			for _, id := range []string{`id="ratings-plot"><svg`, `id="matrix-plot"><svg`, `<section id="field">`, `<section id="method">`, "Ordered by <strong>" + tt.want.Model.Title()} {
				if !strings.Contains(page, id) {
					t.Errorf("page lacks %s", id)
				}
			}
			for _, fact := range []string{"<dd>kindling</dd>", fmt.Sprintf("<dd>%d</dd>", len(res.Records)), "<dd>3</dd>", "<dt>independent units</dt>"} {
				if !strings.Contains(page, fact) {
					t.Errorf("facts lack %s", fact)
				}
			}
			for _, st := range tt.want.Standings {
				if row := fmt.Sprintf(`<td class="name">%s</td><td>%.3f</td>`, st.Name, *st.AlphaRank); !strings.Contains(page, row) {
					t.Errorf("the field section lacks %s's α-Rank mass: %s", st.Name, row)
				}
			}
			again, err := reportFile(t, out, append([]string{"--results", results}, tt.args...)...)
			if err != nil || again != page {
				t.Fatalf("a second report of the same file differs (%v)", err)
			}
		})
	}
}

// TestReportEscapesAndFailures writes records by hand: a player named
// <b>x</b> appears only escaped, a failed match is listed and left out,
// and --prior starts a player from its file.
func TestReportEscapesAndFailures(t *testing.T) {
	dir := t.TempDir()
	results := filepath.Join(dir, "r.jsonl")
	p := func(n string) arena.PlayerRef { return arena.PlayerRef{Name: n, Strategy: "normal"} }
	recs := []arena.Record{
		{Job: "r0-0v1", Game: "kindling", Round: 0, Seed: 5, Players: []arena.PlayerRef{p("<b>x</b>"), p("plain")}, Scores: []float64{9, 3}, Ranks: []int{1, 2}, Turns: 8, Reason: "turns"},
		{Job: "r0-1v0", Game: "kindling", Round: 0, Seed: 5, Players: []arena.PlayerRef{p("plain"), p("<b>x</b>")}, Scores: []float64{4, 4}, Ranks: []int{1, 1}, Turns: 8, Reason: "turns"},
		{Job: "r1-0v1", Game: "kindling", Round: 1, Seed: 6, Players: []arena.PlayerRef{p("<b>x</b>"), p("plain")}, Error: "player <b>x</b> (normal) failed on seed 6: <boom>"},
	}
	var lines []string
	for _, r := range recs {
		b, _ := json.Marshal(r)
		lines = append(lines, string(b))
	}
	os.WriteFile(results, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	prior := filepath.Join(dir, "prior.json")
	os.WriteFile(prior, []byte(`{"plain": {"rating": 1800, "rd": 60, "volatility": 0.06}}`), 0o644)

	page, err := reportFile(t, filepath.Join(dir, "x.html"), "--results", results, "--rating", "glicko2", "--prior", prior)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page, "<b>x</b>") || strings.Contains(page, "<boom>") {
		t.Fatal("a name or an error message appears unescaped")
	}
	if !strings.Contains(page, `<td class="name">&lt;b&gt;x&lt;/b&gt;</td>`) {
		t.Fatal("the player <b>x</b> is not in the leaderboard, escaped")
	}
	if !strings.Contains(page, "r1-0v1: player &lt;b&gt;x&lt;/b&gt; (normal) failed on seed 6: &lt;boom&gt;") ||
		!strings.Contains(page, "3 (1 failed and left out of the ratings)") {
		t.Fatal("the failed match is not listed")
	}
	var c arena.Collector
	for _, r := range recs {
		c.Add(r)
	}
	start, _ := rating.ParseRatings([]byte(`{"plain": {"rating": 1800, "rd": 60, "volatility": 0.06}}`), "prior")
	sum, err := c.Leaderboard([]string{"<b>x</b>", "plain"}, rating.Options{Model: rating.ModelGlicko2, Prior: start})
	if err != nil {
		t.Fatal(err)
	}
	if got := leaderboardNames(t, page); got[0] != "plain" || sum.Standings[0].Name != "plain" {
		t.Fatalf("the player with the 1800 prior does not lead: page %v", got)
	}
	if want := fmt.Sprintf("<td>%.0f ± %.0f</td>", sum.Standings[0].Rating.Rating, sum.Standings[0].RD); !strings.Contains(page, want) {
		t.Fatalf("page lacks plain's rating from the prior, %s", want)
	}
}

// TestReportEvolveRun evolves a tiny real run and reports it: settings,
// the generations plot, the champion's parameters against the base's
// defaults, the held-out comparison and the tournament. Then the same run
// without its final files (a run stopped during the search) still reports
// what it has, and one with an empty report.json falls back on
// champion.json.
func TestReportEvolveRun(t *testing.T) {
	run, stdout := smallKindlingRun(t, "contrarian")
	// The head-to-head's table is followed by why the champion may come
	// last in it.
	if i := strings.Index(stdout, "Finalists head-to-head"); i < 0 || !strings.Contains(stdout[i:], reports.HeadToHeadNote) {
		t.Errorf("evolve prints the finalists' head-to-head without saying why the champion may come last:\n%s", stdout)
	}
	champ, err := strategies.LoadVariant(filepath.Join(run, evolver.ChampionFile))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "evo.html")
	page, err := reportFile(t, out, "--run", run)
	if err != nil {
		t.Fatal(err)
	}
	reg, _ := newRegistry()
	base, _ := reg.Lookup("kindling", "contrarian")
	checks := []string{
		`id="fitness-plot"><svg`, "<dd>contrarian</dd>", "<dd>ga</dd>", "<dd>3</dd>",
		"<strong class=\"name\">" + champ.Label() + "</strong>", "Held-out comparison", "Ranking of the champion among the reference strategies",
		`<tr class="champion"><td>`, `id="ratings-plot"><svg`,
		`<section id="head-to-head">`, "every pair on 2 fresh seeds", "its place here, even last, is expected",
	}
	for _, p := range base.Schema {
		checks = append(checks, fmt.Sprintf(`<td class="name">%s</td>`, p.Name))
	}
	for _, want := range checks {
		if !strings.Contains(page, want) {
			t.Errorf("run report lacks %q", want)
		}
	}
	if n := strings.Count(page, `<svg class="bar" width="160" height="16"`); n != len(base.Schema) {
		t.Errorf("%d parameter bars for %d parameters", n, len(base.Schema))
	}

	// report.json left empty: champion.json and leaderboard.json stand in.
	rep := filepath.Join(run, evolver.ReportFile)
	os.WriteFile(rep, []byte("\n"), 0o644)
	page, err = reportFile(t, out, "--run", run)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page, "report.json is missing or empty") || !strings.Contains(page, champ.Label()) || !strings.Contains(page, "Ranking of the champion among the reference strategies") {
		t.Error("a run with an empty report.json does not fall back on champion.json and leaderboard.json")
	}

	// A run stopped during the search: no final files.
	for _, f := range []string{evolver.ReportFile, evolver.ChampionFile, evolver.LeaderboardFile} {
		os.Remove(filepath.Join(run, f))
	}
	os.RemoveAll(filepath.Join(run, evolver.RankedDir))
	page, err = reportFile(t, out, "--run", run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The final stages have not run", `id="fitness-plot"><svg`, "the search&#39;s latest champion (hall/"} {
		if !strings.Contains(page, want) {
			t.Errorf("a stopped run's report lacks %q", want)
		}
	}
	if strings.Contains(page, "Ranking of the champion among the reference strategies") || strings.Contains(page, "Held-out comparison") {
		t.Error("a stopped run's report shows final stages it never ran")
	}
}

// TestReportBadInput checks every refused input: the error names the flag
// and the value, and neither the --out file nor a temporary file is left
// behind (an earlier report stays whole).
func TestReportBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	good := `{"job":"a","game":"kindling","round":0,"seed":1,"players":[{"name":"x","strategy":"easy"},{"name":"y","strategy":"easy"}],"scores":[1,0],"ranks":[1,2],"turns":8,"reason":"turns","duration_ms":1}` + "\n"
	goodFile := write("good.jsonl", good)
	corrupt := write("corrupt.jsonl", good+"{not json}\n"+good)
	empty := write("empty.jsonl", "")
	notRun := filepath.Join(dir, "notrun")
	os.Mkdir(notRun, 0o755)
	os.WriteFile(filepath.Join(notRun, "notes.txt"), []byte("hi"), 0o644)
	badGens := filepath.Join(dir, "badgens")
	os.Mkdir(badGens, 0o755)
	os.WriteFile(filepath.Join(badGens, evolver.CheckpointFile), []byte(`{"format":"crucible-evolve-checkpoint/1","meta":{"game":"kindling","base":"easy","algorithm":"ga"}}`), 0o644)
	os.WriteFile(filepath.Join(badGens, evolver.GenerationsFile), []byte("{\"generation\":0}\n{\"generation\":\"x\"}\n{\"generation\":2}\n"), 0o644)
	badCheckpoint := filepath.Join(dir, "badcp")
	os.Mkdir(badCheckpoint, 0o755)
	os.WriteFile(filepath.Join(badCheckpoint, evolver.CheckpointFile), []byte(`{"format":"something else"}`), 0o644)
	prior := write("prior.json", `{"x": {"rating": 1500, "rd": -3, "volatility": 0.06}}`)

	out := filepath.Join(dir, "out", "report.html")
	os.Mkdir(filepath.Dir(out), 0o755)
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"neither input", nil, []string{"--results FILE", "--run DIR"}},
		{"both inputs", []string{"--results", goodFile, "--run", notRun}, []string{"either --results", "or --run", "not both"}},
		{"prior with a run", []string{"--run", notRun, "--prior", prior}, []string{"--prior applies to --results only"}},
		{"periods with a run", []string{"--run", notRun, "--periods", "one"}, []string{"--periods applies to --results only"}},
		{"unknown periods", []string{"--results", goodFile, "--rating", "glicko2", "--periods", "weekly"}, []string{`--periods "weekly" is not one of one, rounds`}},
		{"periods without glicko2", []string{"--results", goodFile, "--periods", "rounds"}, []string{"--periods applies to --rating glicko2 only"}},
		{"prior with bt", []string{"--results", goodFile, "--rating", "bt", "--prior", prior}, []string{"--prior is a Glicko-2 ratings file", "--rating glicko2"}},
		{"unknown rating", []string{"--results", goodFile, "--rating", "elo-ish"}, []string{`--rating: model "elo-ish" is not one of bt, glicko2, weng-lin`}},
		{"rating with a run", []string{"--run", notRun, "--rating", "bt"}, []string{"--rating applies to --results only"}},
		{"missing results file", []string{"--results", filepath.Join(dir, "nope.jsonl")}, []string{"--results", "nope.jsonl", "no such file"}},
		{"corrupt results line", []string{"--results", corrupt}, []string{"--results", "corrupt.jsonl:2", "not a result record"}},
		{"empty results file", []string{"--results", empty}, []string{"--results " + empty + " holds no match"}},
		{"bad prior", []string{"--results", goodFile, "--prior", prior}, []string{"--prior", "prior.json"}},
		{"missing run directory", []string{"--run", filepath.Join(dir, "gone")}, []string{"--run " + filepath.Join(dir, "gone") + ": the run directory does not exist"}},
		{"run is a file", []string{"--run", goodFile}, []string{"--run " + goodFile + " is not a directory"}},
		{"not a run directory", []string{"--run", notRun}, []string{"--run " + notRun + " is not an evolve run directory", "checkpoint.json"}},
		{"foreign checkpoint", []string{"--run", badCheckpoint}, []string{"--run " + badCheckpoint, `format "something else"`}},
		{"corrupt generation line", []string{"--run", badGens}, []string{"--run " + badGens, "generations.jsonl:2", "not a generation line"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := execRoot(t, append([]string{"report", "--out", out}, tt.args...)...)
			if err == nil {
				t.Fatal("accepted")
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			entries, _ := os.ReadDir(filepath.Dir(out))
			if len(entries) != 0 {
				t.Fatalf("a refused report left %v behind", entries)
			}
		})
	}

	// --out that cannot be written: named with its value, an earlier
	// report untouched.
	outTests := []struct {
		name, out string
		want      string
	}{
		{"missing directory", filepath.Join(dir, "no", "where.html"), "directory " + filepath.Join(dir, "no") + " does not exist"},
		{"a directory", filepath.Dir(out), "--out " + filepath.Dir(out) + " is a directory"},
		{"empty", "", "--out must name the HTML file"},
	}
	for _, tt := range outTests {
		t.Run("out "+tt.name, func(t *testing.T) {
			_, _, err := execRoot(t, "report", "--results", goodFile, "--out", tt.out)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	earlier := write("earlier.html", "an earlier report")
	if _, _, err := execRoot(t, "report", "--results", corrupt, "--out", earlier); err == nil {
		t.Fatal("corrupt results accepted")
	}
	if data, _ := os.ReadFile(earlier); string(data) != "an earlier report" {
		t.Fatalf("a failed report changed the earlier file to %q", data)
	}
}
