package reports

import (
	"bytes"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
)

// rankedSample is the clustered sample with its rank table.
func rankedSample(t *testing.T, m rating.Model) rating.Summary {
	t.Helper()
	s, err := arena.Leaderboard([]string{"gatherer", "rusher", "turtle", "idle"}, sampleRecords(),
		rating.Options{Model: m, Ranks: &rating.RankOptions{Resamples: 200}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Ranks == nil || s.Ranks.Unavailable != "" || len(s.Ranks.Players) != 3 {
		t.Fatalf("rank table %+v", s.Ranks)
	}
	return s
}

// TestRanksTable checks the rank table of the terminal, Markdown and the
// HTML page: one column per rank, the expected rank and the interval,
// the method under it, and the note when the leaderboard is ordered by
// another model.
func TestRanksTable(t *testing.T) {
	s := rankedSample(t, rating.ModelBT)
	var buf bytes.Buffer
	if err := WriteSummary(&buf, Table, s, SummaryOptions{}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	first := s.Ranks.Players[0]
	for _, want := range []string{
		"Probability of each rank (% of resamples; columns are ranks), best first by the Bradley–Terry fit",
		"│ # │  player  │  1   │  2   │  3   │ mean rank │ 95% rank interval │",
		"Rank probabilities: stratified bootstrap of the seeds (every match on a seed is one unit, whatever its players): 200 resamples (seed 1)",
		first.Name, rankInterval(first),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "ordered by Glicko-2") {
		t.Errorf("a BT leaderboard says its ranks are of another order:\n%s", out)
	}
	buf.Reset()
	WriteSummary(&buf, Markdown, rankedSample(t, rating.ModelGlicko2), SummaryOptions{})
	if !strings.Contains(buf.String(), "the leaderboard is ordered by Glicko-2 conservative rating (rating − 2 RD); the rank probabilities are those of the Bradley–Terry order") {
		t.Errorf("markdown of a Glicko-2 leaderboard does not say whose order the ranks are:\n%s", buf.String())
	}
	buf.Reset()
	if err := WriteArenaHTML(&buf, ArenaPage{Source: "r.jsonl", Summary: s}); err != nil {
		t.Fatal(err)
	}
	page := buf.String()
	for _, want := range []string{`<h3 id="ranks">Rank probabilities</h3>`, `<table class="ranks">`, "<th>mean rank</th>", "Columns are ranks"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// Unavailable: one round per pairing.
	s, err := arena.Leaderboard(nil, sampleRecords()[:6], rating.Options{Ranks: &rating.RankOptions{}})
	if err != nil {
		t.Fatal(err)
	}
	buf.Reset()
	WriteArenaHTML(&buf, ArenaPage{Source: "r.jsonl", Summary: s})
	if !strings.Contains(buf.String(), "Not available: seeds that hold the same pairings are resampled together and need at least 3 of them") {
		t.Errorf("page of one round lacks the reason the ranks are not available")
	}
}
