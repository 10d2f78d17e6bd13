package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"crucible/arena/rating"
	"crucible/stats"
)

// winShare is a toy rating model written outside package rating, as a
// user would add one: it orders the players by the share of their games
// they won outright (draws count for nothing), with a Wilson interval.
// This file and the one Register call below are all it takes.
var winShare = &rating.Spec{
	Name:    "win-share",
	Aliases: []string{"wins"},
	Title:   "share of games won outright",
	Rating:  true,
	Rate: func(b *rating.Batch, st []rating.Standing, opt rating.Options) (string, []string, error) {
		for p := range st {
			if !b.Played[p] {
				continue
			}
			s := &st[p]
			lo, hi := stats.Wilson(float64(s.Wins), float64(s.Games), opt.Level)
			s.SetFigures("win-share", rating.Figures{"share": float64(s.Wins) / float64(s.Games), "lo": lo, "hi": hi})
		}
		return fmt.Sprintf("the share of the %d matches' pairwise games each player won outright", b.MatchCount()), nil, nil
	},
	Key: func(s rating.Standing) ([]float64, bool) {
		f, ok := s.Figures["win-share"]
		return []float64{f["share"]}, ok
	},
	Columns: []string{"won %", "won 95% interval"},
	Cells: func(s rating.Standing) []string {
		f, ok := s.Figures["win-share"]
		if !ok {
			return []string{"-", "-"}
		}
		return []string{fmt.Sprintf("%.1f", 100*f["share"]), fmt.Sprintf("%.1f-%.1f", 100*f["lo"], 100*f["hi"])}
	},
	CSV: []string{"won_share"},
	CSVValues: func(s rating.Standing) []float64 {
		return []float64{s.Figures["win-share"]["share"]}
	},
	Plot: func(s rating.Summary) rating.Plot {
		p := rating.Plot{Label: "won % with its Wilson 95% interval", Caption: "Each player's share of games won outright (toy model).", Ref: 50, Pad: 1}
		for _, st := range s.Standings {
			if f, ok := st.Figures["win-share"]; ok {
				p.Points = append(p.Points, rating.PlotPoint{Name: st.Name, X: 100 * f["share"], Lo: 100 * f["lo"], Hi: 100 * f["hi"]})
			}
		}
		return p
	},
}

var registerWinShare sync.Once

// TestRegisteredModelReachesRateAndReport registers a model from outside
// package rating and checks that crucible rate --method and --rating,
// its help, every format, and crucible report's HTML page pick it up.
func TestRegisteredModelReachesRateAndReport(t *testing.T) {
	registerWinShare.Do(func() {
		if err := rating.Register(winShare); err != nil {
			t.Fatal(err)
		}
	})
	if err := rating.Register(&rating.Spec{Name: "bt", Rate: winShare.Rate, Key: winShare.Key, Columns: winShare.Columns, Cells: winShare.Cells}); err == nil || !strings.Contains(err.Error(), `"bt" is taken by bt`) {
		t.Fatalf("registering a second bt: %v", err)
	}
	results := filepath.Join(t.TempDir(), "r.jsonl")
	if _, _, err := execRoot(t, "arena", "--players", "normal,easy,sniper", "--seeds", "3", "--out", results, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	help, _, err := execRoot(t, "rate", "--help")
	if err != nil || !strings.Contains(help, "nash, win-share") {
		t.Fatalf("rate --help does not list the model (%v):\n%s", err, help)
	}

	stdout, _, err := execRoot(t, "rate", "--results", results, "--method", "wins", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var sum rating.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil {
		t.Fatal(err)
	}
	if sum.Model != "win-share" || !strings.Contains(sum.Method, "won outright") || len(sum.Standings) != 3 {
		t.Fatalf("rate --method wins gave model %q, method %q, %d standings", sum.Model, sum.Method, len(sum.Standings))
	}
	last := 2.0
	for _, st := range sum.Standings {
		share := float64(st.Wins) / float64(st.Games)
		f := st.Figures["win-share"]
		if f["share"] != share || !(f["lo"] <= share && share <= f["hi"]) {
			t.Fatalf("%s: figures %v, want share %v inside its interval", st.Name, f, share)
		}
		if share > last {
			t.Fatalf("standings not ordered by the share won: %s has %v after %v", st.Name, share, last)
		}
		last = share
	}
	// A rating of strength is offered by --rating too.
	if _, _, err := execRoot(t, "rate", "--results", results, "--rating", "win-share"); err != nil {
		t.Fatalf("rate --rating win-share: %v", err)
	}
	table, _, err := execRoot(t, "rate", "--results", results, "--method", "win-share")
	if err != nil || !strings.Contains(table, "Leaderboard, ordered by share of games won outright") || !strings.Contains(table, "won 95% interval") {
		t.Fatalf("table (%v):\n%s", err, table)
	}
	csvOut, _, err := execRoot(t, "rate", "--results", results, "--method", "win-share", "--format", "csv")
	if err != nil || !strings.Contains(strings.SplitN(csvOut, "\n", 2)[0], ",nash_payoff,won_share") {
		t.Fatalf("CSV header lacks the model's column (%v):\n%s", err, csvOut)
	}

	page := filepath.Join(t.TempDir(), "r.html")
	if _, _, err := execRoot(t, "report", "--results", results, "--rating", "win-share", "--out", page); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(page)
	for _, want := range []string{"Ordered by <strong>share of games won outright", "<th>won %</th>", `id="ratings-plot"><svg`,
		"Each player&#39;s share of games won outright (toy model).", "Rated by the share of the"} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the report lacks %q", want)
		}
	}
}
