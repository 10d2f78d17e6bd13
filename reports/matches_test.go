package reports

import (
	"bytes"
	"strings"
	"testing"

	"crucible/arena"
)

// The match table appears only when the page lists matches; each row
// names the match, its players with score and place (or the failure), and
// links its viewer page, or says it has none. Names are escaped.
func TestArenaHTMLMatchTable(t *testing.T) {
	pg := arenaSample()
	var plain bytes.Buffer
	if err := WriteArenaHTML(&plain, pg); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), `id="matches"`) {
		t.Fatal("a page without matches has a match table")
	}
	recs := []arena.Record{
		{Job: "r0-0v1", Round: 0, Seed: 11, Players: refs("gatherer", "<rusher>"), Ranks: []int{1, 2}, Scores: []float64{3, 1.5}, Turns: 100, Reason: "elimination"},
		{Job: "r1-0v2", Round: 1, Seed: 12, Players: refs("gatherer", "turtle"), Error: "strategy turtle panicked on seed 12"},
	}
	pg.Matches = []MatchRow{NewMatchRow(recs[0], "../replays/r0-0v1.html"), NewMatchRow(recs[1], "")}
	pg.ReplayDir = "replays"
	var buf bytes.Buffer
	if err := WriteArenaHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{
		`<section id="matches">`,
		`<tr><td class="text">r0-0v1</td><td>0</td><td>11</td><td class="text">gatherer 3 (1st) · &lt;rusher&gt; 1.5 (2nd)</td><td>100</td><td class="text">elimination</td><td class="text"><a class="viewer" href="../replays/r0-0v1.html">watch</a></td></tr>`,
		`<tr><td class="text">r1-0v2</td><td>1</td><td>12</td><td class="text">failed: strategy turtle panicked on seed 12</td><td>0</td><td class="text">error</td><td class="text">no replay</td></tr>`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks\n%s", want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 101: "101st", 111: "111th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s, want %s", n, got, want)
		}
	}
}
