package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// TestGolden checks each format's bytes against testdata/summary.<format>
// (go test ./reports -update rewrites them after a deliberate change).
func TestGolden(t *testing.T) {
	for _, f := range Formats {
		t.Run(f, func(t *testing.T) {
			var buf bytes.Buffer
			if err := WriteSummary(&buf, Format(f), sample(), SummaryOptions{Matrix: true, Pairs: true}); err != nil {
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
	if len(back.Standings) != 4 || back.Standings[0] != s.Standings[0] || len(back.Pairs) != len(s.Pairs) {
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
