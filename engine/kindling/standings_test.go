package kindling

import (
	"reflect"
	"testing"
)

func TestStandings(t *testing.T) {
	tests := []struct {
		rule          string
		scores        []int
		sparks        []int
		wantStandings []int
		wantWinners   []int
		wantRanks     []int
	}{
		{"score descending", []int{3, 9, 5}, []int{0, 0, 0}, []int{1, 2, 0}, []int{1}, []int{3, 1, 2}},
		{"equal scores: more sparks left ranks higher", []int{7, 7, 2}, []int{1, 4, 9}, []int{1, 0, 2}, []int{1}, []int{2, 1, 3}},
		{"equal on both at the top: a shared win", []int{7, 7, 7, 2}, []int{4, 4, 3, 12}, []int{0, 1, 2, 3}, []int{0, 1}, []int{1, 1, 3, 4}},
		{"a shared win lists the seats in seat order", []int{1, 8, 3, 8}, []int{0, 2, 0, 2}, []int{1, 3, 2, 0}, []int{1, 3}, []int{4, 1, 3, 1}},
		{"ties below the top keep seat order and share a rank", []int{9, 4, 4}, []int{0, 5, 5}, []int{0, 1, 2}, []int{0}, []int{1, 2, 2}},
		{"everyone equal: everyone wins", []int{0, 0}, []int{12, 12}, []int{0, 1}, []int{0, 1}, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			s := mustState(t, len(tt.scores))
			copy(s.Scores[:], tt.scores)
			copy(s.Sparks[:], tt.sparks)
			s.Finished = true
			st, w := Standings(&s)
			if !reflect.DeepEqual(st, tt.wantStandings) || !reflect.DeepEqual(w, tt.wantWinners) {
				t.Fatalf("Standings = %v winners %v, want %v winners %v", st, w, tt.wantStandings, tt.wantWinners)
			}
			if r := ranksOf(&s); !reflect.DeepEqual(r, tt.wantRanks) {
				t.Fatalf("Ranks = %v, want %v", r, tt.wantRanks)
			}
			if r := resultOf(&s).Ranks; !reflect.DeepEqual(r, tt.wantRanks) {
				t.Fatalf("Result ranks = %v, want %v", r, tt.wantRanks)
			}
		})
	}
}

// ranksOf is the test's reading of the ranks, to check resultOf against:
// each seat's place by the standings key, 1 for the best; seats equal on
// both score and sparks share a place (1, 1, 3).
func ranksOf(s *State) []int {
	ranks := make([]int, s.Seats)
	for a := range ranks {
		ranks[a] = 1
		for b := 0; b < s.Seats; b++ {
			if better(s, b, a) {
				ranks[a]++
			}
		}
	}
	return ranks
}
