package rating

import (
	"math"
	"strings"
	"testing"

	"crucible/stats"
)

func standing(t *testing.T, s Summary, name string) Standing {
	t.Helper()
	for _, st := range s.Standings {
		if st.Name == name {
			return st
		}
	}
	t.Fatalf("no standing for %s", name)
	return Standing{}
}

// Issue 23.5: on one or two independent units an interval is computed by
// a method valid at that size or marked not available, and a
// Bradley–Terry difference is never significant on two games.
func TestSmallSamples(t *testing.T) {
	tests := []struct {
		name    string
		matches []Match
		check   func(t *testing.T, s Summary)
	}{
		{"one round won 2-0: the BT interval is not available, the score's is exact",
			round("normal", "sniper", 1, 2),
			func(t *testing.T, s Summary) {
				n := standing(t, s, "normal")
				if n.BT == nil || !n.BT.NoInterval || n.BT.Lo > 0 && n.BT.Hi > 0 {
					t.Errorf("normal's BT %+v: want no interval (before: +140 ± 69 [+4, +276], 'significant' on two games)", n.BT)
				}
				if n.ScoreMethod != stats.ExactExtreme || math.Abs(n.ScoreLo-0.025) > 1e-12 || n.ScoreHi != 1 {
					t.Errorf("normal's score interval %s [%v, %v], want exact-extreme [0.025, 1]", n.ScoreMethod, n.ScoreLo, n.ScoreHi)
				}
				if !n.FewUnits {
					t.Errorf("normal is not marked as having few units")
				}
				cells := btSpec.Cells(n)
				if cells[0] != "+140" || cells[1] != "n/a" {
					t.Errorf("BT cells %q, want +140 and n/a", cells)
				}
			}},
		{"a 1-1 split in one round: no zero-width interval",
			round("a", "b", 1, 1),
			func(t *testing.T, s Summary) {
				for _, st := range s.Standings {
					if st.BT == nil || !st.BT.NoInterval {
						t.Errorf("%s: BT %+v, want no interval (before: 0 ± 0 [0, 0])", st.Name, st.BT)
					}
					if st.ScoreMethod != stats.NotAvailable || st.ScoreLo != 0 || st.ScoreHi != 1 {
						t.Errorf("%s: score interval %s [%v, %v], want none [0, 1]", st.Name, st.ScoreMethod, st.ScoreLo, st.ScoreHi)
					}
				}
				if len(s.Pairs) != 1 || s.Pairs[0].Method != stats.NotAvailable {
					t.Errorf("pairs %+v, want the pair's interval not available", s.Pairs)
				}
			}},
		{"one game: no Elo bar of zero width, no -0",
			[]Match{{Players: []string{"a", "b"}, Ranks: []int{1, 1}, Seed: 1}},
			func(t *testing.T, s Summary) {
				a := standing(t, s, "a")
				if !a.FewUnits {
					t.Errorf("a with one game is not marked as having few units")
				}
				if got := Signed(a.Elo, 0); got != "0" || a.Elo != 0 || 1/a.Elo < 0 {
					t.Errorf("a's Elo vs field %v (%s), want +0 (before: -0 [-0, -0])", a.Elo, got)
				}
			}},
		{"three rounds: the intervals of before",
			append(append(round("a", "b", 1, 2), round("a", "b", 2, 1)...), round("a", "b", 3, 2)...),
			func(t *testing.T, s Summary) {
				a := standing(t, s, "a")
				if a.FewUnits || a.BT.NoInterval || a.ScoreMethod != "" {
					t.Errorf("a on three units: %+v, want the large-sample intervals", a)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Leaderboard(nil, tt.matches, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, s)
			if strings.Contains(strings.Join(s.Notes, " "), "fewer than 3 distinct units") != standing(t, s, s.Standings[0].Name).FewUnits {
				t.Errorf("notes %q: want the small-sample note exactly when a player has few units", s.Notes)
			}
		})
	}
}
