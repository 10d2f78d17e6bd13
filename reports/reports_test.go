package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// sample is a small summary with a clear order, a draw and a player
// without games.
func sample() rating.Summary {
	g := rating.Default()
	outs := []rating.Outcome{
		{A: "gatherer", B: "rusher", Score: 1}, {A: "rusher", B: "gatherer", Score: 0},
		{A: "gatherer", B: "turtle", Score: 0.5}, {A: "turtle", B: "gatherer", Score: 0},
		{A: "rusher", B: "turtle", Score: 1}, {A: "turtle", B: "rusher", Score: 0.5},
	}
	prior := g.Initials([]string{"gatherer", "rusher", "turtle", "idle"})
	return rating.Summarize(g.RatePeriod(prior, outs), outs)
}

// sampleRecords are four seeds of a three-player round robin in both
// seat orders (and idle, who plays nothing): gatherer and turtle draw the
// same game on every seed (one distinct outcome), the other pairs vary.
func sampleRecords() []arena.Record {
	// first seat's rank in each seat order, per seed: 1 win, 2 loss, 0 draw.
	type pair struct {
		a, b  string
		ranks [4][2]int
		fixed bool
	}
	pairs := []pair{
		{"gatherer", "rusher", [4][2]int{{1, 2}, {1, 0}, {1, 2}, {2, 1}}, false},
		{"gatherer", "turtle", [4][2]int{{0, 0}, {0, 0}, {0, 0}, {0, 0}}, true},
		{"rusher", "turtle", [4][2]int{{1, 2}, {1, 1}, {1, 2}, {2, 1}}, false},
	}
	var recs []arena.Record
	for seed := range 4 {
		for _, p := range pairs {
			for order, seats := range [][2]string{{p.a, p.b}, {p.b, p.a}} {
				r := arena.Record{Job: fmt.Sprintf("r%d-%s-%d", seed, p.a+p.b, order), Game: "acb", Round: seed, Seed: uint64(100 + seed),
					Players: refs(seats[0], seats[1]), Turns: 100 + seed, Reason: "turns", Scores: []float64{1, 1}, Ranks: []int{1, 1}}
				if p.fixed {
					r.Turns = 300
				}
				switch p.ranks[seed][order] {
				case 1:
					r.Ranks, r.Scores = []int{1, 2}, []float64{2, 1}
				case 2:
					r.Ranks, r.Scores = []int{2, 1}, []float64{1, 2}
				}
				recs = append(recs, r)
			}
		}
	}
	return recs
}

// clusteredSample is the leaderboard of sampleRecords in a model, with
// the field analysis.
func clusteredSample(m rating.Model) rating.Summary {
	s, err := arena.Leaderboard([]string{"gatherer", "rusher", "turtle", "idle"}, sampleRecords(), rating.Options{Model: m, Field: true})
	if err != nil {
		panic(err)
	}
	return s
}

// TestGolden checks each format's bytes against testdata/summary.<format>
// (go test ./reports -update rewrites them after a deliberate change).
func TestGolden(t *testing.T) {
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSummary(&buf, Format(f), sample(), SummaryOptions{Matrix: true, Pairs: true}); err != nil {
				t.Fatal(err)
			}
			buf.WriteString("\n")
			if err := WriteSummary(&buf, Format(f), clusteredSample(rating.ModelBT), SummaryOptions{Matrix: true, Pairs: true, Field: true}); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "summary."+f)
			if *update {
				os.WriteFile(path, buf.Bytes(), 0o644)
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Fatalf("%s output differs from %s:\n%s", f, path, buf.String())
			}
		})
	}
}

// TestFormatsCarryTheLeaderboard checks the content rules of each format:
// the table lists players in leaderboard order with rating ± RD, JSON
// decodes back to the summary, CSV has one line per player.
func TestFormatsCarryTheLeaderboard(t *testing.T) {
	s := sample()
	var tbl bytes.Buffer
	WriteSummary(&tbl, Table, s, SummaryOptions{Matrix: true})
	text := tbl.String()
	last := -1
	for _, st := range s.Standings {
		i := strings.Index(text, st.Name)
		if i < 0 || i < last {
			t.Fatalf("table does not list %s in leaderboard order:\n%s", st.Name, text)
		}
		last = i
	}
	if !strings.Contains(text, "Score % of row against column") {
		t.Fatalf("table lacks the matrix:\n%s", text)
	}

	var js bytes.Buffer
	WriteSummary(&js, JSON, s, SummaryOptions{})
	var back rating.Summary
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if len(back.Standings) != 4 || !reflect.DeepEqual(back.Standings[0], s.Standings[0]) || len(back.Pairs) != len(s.Pairs) {
		t.Fatalf("JSON round trip lost data: %+v", back)
	}

	var cs bytes.Buffer
	WriteSummary(&cs, CSV, s, SummaryOptions{})
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil || len(recs) != 5 || recs[0][1] != "name" || recs[1][1] != s.Standings[0].Name {
		t.Fatalf("CSV %v (%v)", recs, err)
	}
}

// TestParseFormat checks that an unknown format is refused with the list.
func TestParseFormat(t *testing.T) {
	if f, err := ParseFormat("markdown"); err != nil || f != Markdown {
		t.Fatalf("ParseFormat(markdown) = %v, %v", f, err)
	}
	_, err := ParseFormat("html")
	if err == nil || !strings.Contains(err.Error(), `format "html" is not one of table, json, csv, markdown`) {
		t.Fatalf("ParseFormat(html) error %v", err)
	}
}
