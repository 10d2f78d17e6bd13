package reports

import (
	"bytes"
	"strings"
	"testing"

	"crucible/arena/rating"
)

// ladderSample is a small ladder's page: a hostile entrant name, an
// entrant rated once, one with a new version, a regressed version.
func ladderSample() LadderPage {
	g := rating.Default()
	outs := []rating.Outcome{{A: "<b>x</b>", B: "calm@v2", Score: 1}, {A: "calm@v2", B: "plain", Score: 0.5}}
	sum := rating.Summarize(g.RatePeriod(g.Initials([]string{"<b>x</b>", "calm@v2", "plain"}), outs), outs)
	return LadderPage{
		Source:    "ladder.db",
		Facts:     []Fact{{"game", "kindling"}},
		Standings: sum,
		Regressed: map[string]string{"calm@v2": "H0: weaker than calm"},
		Nights:    []string{"n1", "n2", "n3"},
		Histories: []LadderHistory{
			{Entrant: "<b>x</b>", Points: []LadderPoint{{Night: 2, Version: 1, Label: "<b>x</b>", Rating: 1600, RD: 200}}},
			{Entrant: "calm", Points: []LadderPoint{
				{Night: 0, Version: 1, Label: "calm", Rating: 1500, RD: 300},
				{Night: 1, Version: 1, Label: "calm", Rating: 1550, RD: 200},
				{Night: 2, Version: 2, Label: "calm@v2", Rating: 1450, RD: 250}}},
		},
		Night: &LadderNight{Label: "n3", Facts: []Fact{{"night", "n3"}}, Pairs: []LadderPair{{A: "<b>x</b>", B: "calm@v2", Wins: 1}},
			Matches: []LadderMatch{{Job: "n3-r0-1v2", Seed: 9, Players: []string{"<b>x</b>", "calm@v2"}, Scores: []float64{3, 1}, Ranks: []int{1, 2}, Turns: 8, Reason: "turns"}},
			Rated:   1},
		Tests: []LadderTest{{Version: "calm@v2", Baseline: "calm", Started: "n3", Night: "n3", Nights: 1, Hypotheses: "normalized Elo [-1.75, 0.25]",
			Counts: [5]int{3, 1, 0, 0, 0}, LLR: -3.5, Lower: -2.94, Upper: 2.94, Verdict: "H0", Current: true}},
	}
}

// The page escapes names, marks the regressed version in the leaderboard
// and the tests, draws one plot per history (a single night as a bar), and
// marks the new version in its entrant's plot only.
func TestLadderHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteLadderHTML(&buf, ladderSample()); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	if strings.Contains(page, "<b>x</b>") || !strings.Contains(page, "&lt;b&gt;x&lt;/b&gt;") {
		t.Error("the name <b>x</b> is not escaped")
	}
	if !strings.Contains(page, `<tr class="regression">`) || !strings.Contains(page, "calm@v2 [REGRESSION]") {
		t.Error("the regressed version is not marked in the leaderboard")
	}
	if !strings.Contains(page, "<strong>H0: weaker</strong>") {
		t.Error("the verdict H0 is not shown")
	}
	hist := page[strings.Index(page, `<section id="history">`):strings.Index(page, `<section id="night">`)]
	if n := strings.Count(hist, "<svg"); n != 2 {
		t.Errorf("%d history plots, want 2", n)
	}
	if strings.Count(hist, ">v2<") != 1 || !strings.Contains(hist, "New version 2 (calm@v2) from night n3.") {
		t.Error("the new version of calm is not marked once")
	}
	for _, want := range []string{"1600 ± 200 after night n3 (&lt;b&gt;x&lt;/b&gt;)", "The night's 1 rated matches", "3 – 1"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	var again bytes.Buffer
	WriteLadderHTML(&again, ladderSample())
	if again.String() != page {
		t.Error("the same page gave different bytes")
	}
}

// The LLR bar puts the bounds llrBarPad from its ends and 0 between them;
// an LLR past a bound sits at the bar's end.
func TestLLRBar(t *testing.T) {
	tests := []struct {
		llr, want float64
	}{
		{0, 60}, {-2.94, 12}, {2.94, 108}, {1.47, 84}, {-50, 4}, {50, 116},
	}
	for _, tt := range tests {
		v := newTestView(LadderTest{LLR: tt.llr, Lower: -2.94, Upper: 2.94, Verdict: "running", Current: true})
		if v.X != tt.want || v.Lo != 12 || v.Hi != 108 || v.Zero != 60 {
			t.Errorf("LLR %v: at %v (bounds %v, %v, zero %v), want %v", tt.llr, v.X, v.Lo, v.Hi, v.Zero, tt.want)
		}
	}
	if v := newTestView(LadderTest{Verdict: "running"}); v.VerdictText != "stopped (replaced)" || v.ScoreText != "–" {
		t.Errorf("a running test of a replaced version: %q, score %q", v.VerdictText, v.ScoreText)
	}
}

// Night ticks label every night up to 12, about 10 of them beyond.
func TestNightTicks(t *testing.T) {
	few := nightTicks([]string{"a", "b", "c"})
	if len(few) != 3 || few[2].Label != "c" {
		t.Errorf("ticks of 3 nights: %v", few)
	}
	many := make([]string, 95)
	for i := range many {
		many[i] = "n"
	}
	if got := nightTicks(many); len(got) != 10 || got[1].Value != 10 {
		t.Errorf("ticks of 95 nights: %d, second at %v", len(got), got[1].Value)
	}
}
