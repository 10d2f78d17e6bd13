package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/ladder"
)

var (
	rowRE  = regexp.MustCompile(`(?s)<tr[^>]*>(.*?)</tr>`)
	cellRE = regexp.MustCompile(`(?s)<td[^>]*>(.*?)</td>`)
	tagRE  = regexp.MustCompile(`<[^>]*>`)
)

// htmlTable returns the text cells of the rows of the first table of class
// class after marker in page.
func htmlTable(t *testing.T, page, marker, class string) [][]string {
	t.Helper()
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatalf("page has no %q", marker)
	}
	j := strings.Index(page[i:], `<table class="`+class+`">`)
	if j < 0 {
		t.Fatalf("no table %s after %q", class, marker)
	}
	body := page[i+j:]
	body = body[strings.Index(body, "<tbody>"):strings.Index(body, "</table>")]
	var rows [][]string
	for _, r := range rowRE.FindAllStringSubmatch(body, -1) {
		var cells []string
		for _, c := range cellRE.FindAllStringSubmatch(r[1], -1) {
			cells = append(cells, strings.TrimSpace(unescapeHTML(tagRE.ReplaceAllString(c[1], ""))))
		}
		rows = append(rows, cells)
	}
	return rows
}

func unescapeHTML(s string) string {
	return strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&#43;", "+").Replace(s)
}

// The ladder report, on each store, against the store: the standings'
// names and ratings with the regressed version marked, a history plot per
// entrant with its version change, the last night's counts, pairs and
// matches, and the regression tests' counts, LLR and verdicts; the same
// ladder gives the same bytes.
func TestLadderReport(t *testing.T) {
	weak := variantFile(t, "normal", map[string]float64{"sparkValue": 0, "emberValue": 0})
	for _, b := range ladderDBs {
		t.Run(b.name, func(t *testing.T) {
			ctx := context.Background()
			db := b.make(t)
			setupLadder(t, db, "normal", "sniper", "greedy")
			lad(t, db, "add", "bot", "--strategy", "normal")
			lad(t, db, "run", "--night", "n1", "--seeds-per-night", "2", "--budget", "0")
			lad(t, db, "add", "bot", "--variant", weak)
			if _, _, err := execRoot(t, "ladder", "run", "--night", "n2", "--seeds-per-night", "2", "--budget", "0", "--sprt-pairs", "600", "--db", db); exitStatus(err) != exitRegression {
				t.Fatalf("night 2: %v, want the regression of bot@v2", err)
			}
			out := filepath.Join(t.TempDir(), "ladder.html")
			lad(t, db, "report", "--out", out)
			data, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			page := string(data)

			s, err := ladder.Open(ctx, db)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			st, err := s.Standings(ctx)
			if err != nil {
				t.Fatal(err)
			}
			tests, err := s.RegressionTests(ctx)
			if err != nil {
				t.Fatal(err)
			}

			// Standings: the store's leaderboard, row by row, the
			// regressed version marked, and the alarm at the top.
			rows := htmlTable(t, page, `<section id="standings">`, "leaderboard")
			if len(rows) != len(st.Summary.Standings) {
				t.Fatalf("%d leaderboard rows, the store has %d", len(rows), len(st.Summary.Standings))
			}
			for i, line := range st.Summary.Standings {
				name := line.Name
				if name == "bot@v2" {
					name += " [REGRESSION]"
				}
				// The standings' intervals are over independent units
				// (a pair's games on one seed), shown beside the games.
				want := []string{strconv.Itoa(i + 1), name, fmt.Sprintf("%.0f ± %.0f", line.Rating.Rating, line.RD), fmt.Sprintf("%.0f", line.Conservative),
					strconv.Itoa(line.Games), strconv.Itoa(line.Units), fmt.Sprintf("%d-%d-%d", line.Wins, line.Draws, line.Losses)}
				for j, w := range want {
					if rows[i][j] != w {
						t.Fatalf("leaderboard row %d column %d: %q, the store gives %q (row %q)", i+1, j, rows[i][j], w, rows[i])
					}
				}
			}
			alarm := page[strings.Index(page, `<div class="errors">`):]
			alarm = alarm[:strings.Index(alarm, "</div>")]
			if !strings.Contains(alarm, "bot@v2: H0: weaker than bot") {
				t.Fatalf("the page does not flag the regression at the top:\n%s", alarm)
			}

			// A history per entrant: one SVG each, the version change of
			// bot marked in its plot and caption.
			hist := page[strings.Index(page, `<section id="history">`):strings.Index(page, `<section id="night">`)]
			for _, name := range []string{"bot", "normal", "sniper", "greedy"} {
				i := strings.Index(hist, `<h3 class="name">`+name+`</h3>`)
				if i < 0 {
					t.Fatalf("no history of %s", name)
				}
				fig := hist[i:]
				fig = fig[:strings.Index(fig, "</figure>")]
				h, _ := s.History(ctx, name)
				last := h[len(h)-1]
				if strings.Count(fig, "<svg") != 1 || !strings.Contains(fig, fmt.Sprintf("%.0f ± %.0f after night n2 (%s)", last.Rating.Rating, last.RD, last.Label)) {
					t.Fatalf("history of %s: want one plot and the caption of its last rating %+v", name, last)
				}
				for _, n := range []string{">n1<", ">n2<"} {
					if !strings.Contains(fig, n) {
						t.Fatalf("history plot of %s lacks the night %s", name, n)
					}
				}
				if marked := strings.Contains(fig, ">v2<"); marked != (name == "bot") {
					t.Fatalf("history plot of %s: version 2 marked %v", name, marked)
				}
			}
			if !strings.Contains(hist, "New version 2 (bot@v2) from night n2.") {
				t.Fatal("the history of bot does not name its new version")
			}

			// The last night: its counts, its pairs and its first matches
			// are the store's.
			nights, _ := s.Nights(ctx)
			n2 := nights[1]
			var rated, games []arena.Record
			s.Export(ctx, n2.ID, func(r arena.Record) error {
				if ladder.IsRegressionGame(r.Job) {
					games = append(games, r)
				} else {
					rated = append(rated, r)
				}
				return nil
			})
			night := page[strings.Index(page, `<section id="night">`):strings.Index(page, `<section id="regression">`)]
			if want := fmt.Sprintf("%d recorded of %d planned: %d rated, %d games of regression tests", len(rated)+len(games), n2.Planned, len(rated), len(games)); !strings.Contains(night, want) {
				t.Fatalf("night facts lack %q", want)
			}
			if len(games) != 1200 || len(rated) != n2.Planned-1200 {
				t.Fatalf("night 2: %d rated matches and %d regression games", len(rated), len(games))
			}
			wins := map[string][3]int{}
			for _, r := range rated {
				for _, o := range r.Outcomes() {
					a, bb, sc := o.A, o.B, o.Score
					if a > bb {
						a, bb, sc = bb, a, 1-sc
					}
					w := wins[a+" "+bb]
					switch {
					case sc > 0.5:
						w[0]++
					case sc < 0.5:
						w[2]++
					default:
						w[1]++
					}
					wins[a+" "+bb] = w
				}
			}
			pairs := htmlTable(t, night, "<h3>Pairs</h3>", "pairs")
			if len(pairs) != len(wins) {
				t.Fatalf("%d pairs on the page, %d in the night", len(pairs), len(wins))
			}
			for _, p := range pairs {
				w := wins[p[0]+" "+p[1]]
				if p[3] != fmt.Sprintf("%d-%d-%d", w[0], w[1], w[2]) {
					t.Fatalf("pair %s-%s: %s, the night gives %v", p[0], p[1], p[3], w)
				}
			}
			ms := htmlTable(t, night, "<h3>Rated matches</h3>", "matches")
			gs := htmlTable(t, night, "<h3>Regression games</h3>", "matches")
			if len(ms) != min(len(rated), 100) || len(gs) != 20 {
				t.Fatalf("%d rated matches and %d regression games listed", len(ms), len(gs))
			}
			for i, m := range ms {
				r := rated[i]
				if m[0] != r.Job || m[2] != strconv.FormatUint(r.Seed, 10) || m[3] != r.Players[0].Name+" – "+r.Players[1].Name {
					t.Fatalf("rated match %d: %q, the store has %s %d %v", i, m, r.Job, r.Seed, r.Players)
				}
			}
			if gs[0][0] != games[0].Job || gs[1][0] != games[1].Job {
				t.Fatalf("first regression games %q %q, the store has %s %s", gs[0][0], gs[1][0], games[0].Job, games[1].Job)
			}

			// The regression test: its counts, LLR and verdict.
			trs := htmlTable(t, page, `<section id="regression">`, "tests")
			if len(trs) != len(tests) || len(tests) != 1 {
				t.Fatalf("%d tests on the page, %d in the store", len(trs), len(tests))
			}
			tt := tests[0]
			c := tt.Counts
			want := []string{"bot@v2", "bot", "n2", "1", "600", fmt.Sprintf("%d-%d-%d-%d-%d", c[0], c[1], c[2], c[3], c[4])}
			for j, w := range want {
				if trs[0][j] != w {
					t.Fatalf("test column %d: %q, the store gives %q", j, trs[0][j], w)
				}
			}
			if trs[0][8] != fmt.Sprintf("%.2f (%.2f, %.2f)", tt.LLR, tt.Lower, tt.Upper) || trs[0][10] != "H0: weaker" {
				t.Fatalf("test row %q, the store gives LLR %v and %s", trs[0], tt.LLR, tt.Verdict)
			}

			// Same ladder, same bytes.
			again := filepath.Join(t.TempDir(), "again.html")
			lad(t, db, "report", "--out", again)
			if data2, _ := os.ReadFile(again); string(data2) != page {
				t.Fatal("two reports of the same ladder differ")
			}
		})
	}
}

// A ladder without nights still has a page, and --out is checked first.
func TestLadderReportEmpty(t *testing.T) {
	db := filepath.Join(t.TempDir(), "l.db")
	setupLadder(t, db, "normal")
	out := filepath.Join(t.TempDir(), "l.html")
	lad(t, db, "report", "--out", out)
	data, _ := os.ReadFile(out)
	for _, want := range []string{"No night has been closed yet.", "No entrant has had a new version yet.", ">normal<"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("page of a new ladder lacks %q", want)
		}
	}
	if _, _, err := execRoot(t, "ladder", "report", "--out", "/nonexistent/dir/l.html", "--db", db); err == nil || !strings.Contains(err.Error(), "--out /nonexistent/dir/l.html") {
		t.Errorf("report to a missing directory: %v", err)
	}
	if _, _, err := execRoot(t, "ladder", "report", "--out", db, "--db", db); err == nil || !strings.Contains(err.Error(), "is the --db file") {
		t.Errorf("report over the ladder's own database: %v", err)
	}
}
