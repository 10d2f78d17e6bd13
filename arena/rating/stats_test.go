package rating

import (
	"math"
	"slices"
	"testing"

	"crucible/stats"
)

// TestEloDiff checks the logistic Elo difference at known points: 50% is
// even, 3/4 is 190.85 (400 log10 3), 10/11 is 400.
func TestEloDiff(t *testing.T) {
	tests := []struct{ p, want float64 }{
		{0.5, 0}, {0.75, 400 * math.Log10(3)}, {10.0 / 11, 400}, {1.0 / 11, -400},
	}
	for _, tt := range tests {
		if got := EloDiff(tt.p); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("EloDiff(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
	if !math.IsInf(EloDiff(1), 1) || !math.IsInf(EloDiff(0), -1) {
		t.Errorf("EloDiff at the edges should be infinite")
	}
}

// TestSummarize checks the leaderboard order (conservative rating), the
// tallies against the field, the pair list and the Elo error bar.
func TestSummarize(t *testing.T) {
	ratings := map[string]Rating{
		"sure":   {Rating: 1600, RD: 30, Volatility: 0.06},  // conservative 1540
		"lucky":  {Rating: 1700, RD: 100, Volatility: 0.06}, // conservative 1500
		"weak":   {Rating: 1400, RD: 30, Volatility: 0.06},  // conservative 1340
		"unseen": {Rating: 1500, RD: 350, Volatility: 0.06}, // conservative 800, never played
	}
	outs := []Outcome{
		{A: "sure", B: "weak", Score: 1}, {A: "sure", B: "weak", Score: 1}, {A: "weak", B: "sure", Score: 0.5},
		{A: "lucky", B: "sure", Score: 1}, {A: "lucky", B: "weak", Score: 0},
	}
	s := Summarize(ratings, outs)
	var order []string
	for _, st := range s.Standings {
		order = append(order, st.Name)
	}
	if want := []string{"sure", "lucky", "weak", "unseen"}; !slices.Equal(order, want) {
		t.Fatalf("leaderboard order %v, want %v (by rating - 2 RD)", order, want)
	}
	sure := s.Standings[0]
	if sure.Wins != 2 || sure.Draws != 1 || sure.Losses != 1 || sure.Games != 4 || sure.Score != 0.625 {
		t.Fatalf("sure's field record %+v, want 2-1-1 over 4 games at 0.625", sure)
	}
	if !(sure.EloLo < sure.Elo && sure.Elo < sure.EloHi) || math.Abs(sure.Elo-EloDiff(0.625)) > 1e-9 {
		t.Fatalf("sure's Elo %v [%v, %v] is not EloDiff(0.625) inside its bar", sure.Elo, sure.EloLo, sure.EloHi)
	}
	if u := s.Standings[3]; u.Games != 0 || u.Elo != 0 || u.Rank != 4 {
		t.Fatalf("a player without games shows %+v", u)
	}
	// Pairs in leaderboard order: sure-lucky, sure-weak, lucky-weak.
	if len(s.Pairs) != 3 {
		t.Fatalf("pairs %+v, want 3", s.Pairs)
	}
	p := s.Pairs[1]
	if p.A != "sure" || p.B != "weak" || p.Wins != 2 || p.Draws != 1 || p.Losses != 0 {
		t.Fatalf("pair %+v, want sure-weak 2-1-0", p)
	}
	lo, hi := stats.Wilson(2.5, 3, 0.95)
	if p.Lo != lo || p.Hi != hi || math.Abs(p.Score-2.5/3) > 1e-12 {
		t.Fatalf("pair interval [%v, %v] score %v, want Wilson [%v, %v]", p.Lo, p.Hi, p.Score, lo, hi)
	}
	// The matrix is antisymmetric: row vs column mirrors column vs row.
	m := s.Matrix
	for i := range m.Players {
		for j := range m.Players {
			a, b := m.Cells[i][j], m.Cells[j][i]
			if a.Wins != b.Losses || a.Draws != b.Draws {
				t.Fatalf("cells %d,%d = %+v and %d,%d = %+v do not mirror", i, j, a, j, i, b)
			}
		}
	}
	// A perfect record still has a finite Elo figure.
	perfect := Summarize(nil, []Outcome{{A: "a", B: "b", Score: 1}, {A: "a", B: "b", Score: 1}})
	if e := perfect.Standings[0]; math.IsInf(e.Elo, 0) || math.IsInf(e.EloLo, 0) || math.IsInf(e.EloHi, 0) || !(e.Elo > 0) {
		t.Fatalf("perfect record gave Elo %v [%v, %v]", e.Elo, e.EloLo, e.EloHi)
	}
}

// TestEloBarOfEdgeRecords checks the Elo error bar of records at the edge
// (all wins, all losses): the figure is taken half a game from the edge,
// the bar around it is finite and two-sided, and it is monotone in the
// points scored, so a perfect record's upper bound lies above that of a
// record with one loss (and mirrored for all losses).
func TestEloBarOfEdgeRecords(t *testing.T) {
	standing := func(wins, losses int) Standing {
		var outs []Outcome
		for i := 0; i < wins; i++ {
			outs = append(outs, Outcome{A: "a", B: "b", Score: 1})
		}
		for i := 0; i < losses; i++ {
			outs = append(outs, Outcome{A: "a", B: "b", Score: 0})
		}
		for _, s := range Summarize(map[string]Rating{"a": {Rating: 1500, RD: 50, Volatility: 0.06}, "b": {Rating: 1400, RD: 50, Volatility: 0.06}}, outs).Standings {
			if s.Name == "a" {
				return s
			}
		}
		t.Fatal("no standing of a")
		return Standing{}
	}
	finite := func(s Standing) bool {
		for _, v := range []float64{s.Elo, s.EloLo, s.EloHi} {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return false
			}
		}
		return true
	}
	tests := []struct {
		name        string
		edge, inner Standing
		above       bool // the edge record lies above the inner one
	}{
		{"10 wins of 10 against 9 of 10", standing(10, 0), standing(9, 1), true},
		{"0 wins of 10 against 1 of 10", standing(0, 10), standing(1, 9), false},
		{"3 wins of 3 against 2 of 3", standing(3, 0), standing(2, 1), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, in := tt.edge, tt.inner
			if !finite(e) || !(e.EloLo < e.Elo && e.Elo < e.EloHi) {
				t.Fatalf("edge record's Elo %v [%v, %v] is not finite with the figure strictly inside its bar", e.Elo, e.EloLo, e.EloHi)
			}
			pts := 0.5 // all losses: half a game won
			if tt.above {
				pts = float64(e.Games) - 0.5 // all wins: half a game lost
			}
			if want := EloDiff(pts / float64(e.Games)); math.Abs(e.Elo-want) > 1e-9 {
				t.Fatalf("edge record's Elo %v, want %v (half a game from the edge)", e.Elo, want)
			}
			if tt.above && !(e.Elo > in.Elo && e.EloLo > in.EloLo && e.EloHi > in.EloHi) {
				t.Fatalf("all wins %v [%v, %v] is not above one loss %v [%v, %v]", e.Elo, e.EloLo, e.EloHi, in.Elo, in.EloLo, in.EloHi)
			}
			if !tt.above && !(e.Elo < in.Elo && e.EloLo < in.EloLo && e.EloHi < in.EloHi) {
				t.Fatalf("all losses %v [%v, %v] is not below one win %v [%v, %v]", e.Elo, e.EloLo, e.EloHi, in.Elo, in.EloLo, in.EloHi)
			}
		})
	}
}
