package rating

import (
	"reflect"
	"testing"
)

// TestPairwise checks that a match counts as the pairwise results of its
// ranking: better rank wins, equal ranks draw.
func TestPairwise(t *testing.T) {
	tests := []struct {
		name    string
		players []string
		ranks   []int
		want    []Outcome
	}{
		{"two seats, seat 1 wins", []string{"a", "b"}, []int{2, 1}, []Outcome{{A: "a", B: "b", Score: 0}}},
		{"two seats draw", []string{"a", "b"}, []int{1, 1}, []Outcome{{A: "a", B: "b", Score: 0.5}}},
		{"three seats with a shared first place", []string{"a", "b", "c"}, []int{1, 3, 1},
			[]Outcome{{A: "a", B: "b", Score: 1}, {A: "a", B: "c", Score: 0.5}, {A: "b", B: "c", Score: 0}}},
		{"four seats give six pairs", []string{"a", "b", "c", "d"}, []int{4, 3, 2, 1},
			[]Outcome{{A: "a", B: "b", Score: 0}, {A: "a", B: "c", Score: 0}, {A: "a", B: "d", Score: 0}, {A: "b", B: "c", Score: 0}, {A: "b", B: "d", Score: 0}, {A: "c", B: "d", Score: 0}}},
		{"a player twice is not paired with itself", []string{"a", "a", "b"}, []int{1, 2, 3},
			[]Outcome{{A: "a", B: "b", Score: 1}, {A: "a", B: "b", Score: 1}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Pairwise(tt.players, tt.ranks); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Pairwise(%v, %v) = %v, want %v", tt.players, tt.ranks, got, tt.want)
			}
		})
	}
}
