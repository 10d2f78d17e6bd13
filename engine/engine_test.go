package engine

import (
	"errors"
	"reflect"
	"testing"
)

func TestRanksFromScores(t *testing.T) {
	tests := []struct {
		name   string
		scores []float64
		want   []int
	}{
		{"distinct scores rank by score", []float64{3, 9, 1}, []int{2, 1, 3}},
		{"a tie at the top shares first place", []float64{5, 5, 1}, []int{1, 1, 3}},
		{"a tie below shares the lower place", []float64{9, 2, 2, 7}, []int{1, 3, 3, 2}},
		{"all equal all first", []float64{0, 0}, []int{1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RanksFromScores(tt.scores); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("RanksFromScores(%v) = %v, want %v", tt.scores, got, tt.want)
			}
		})
	}
}

func TestSeatSeedsDifferAndRepeat(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 50; seed++ {
		for seat := 0; seat < 6; seat++ {
			s := SeatSeed(seed, seat)
			if s != SeatSeed(seed, seat) {
				t.Fatalf("SeatSeed(%d,%d) not repeatable", seed, seat)
			}
			if seen[s] {
				t.Fatalf("SeatSeed(%d,%d) = %d collides", seed, seat, s)
			}
			seen[s] = true
		}
	}
}

func TestRecoveredNamesSeat(t *testing.T) {
	err := Recovered(2, "rusher", "index out of range")
	var pe *PlayerError
	if !errors.As(err, &pe) || pe.Seat != 2 || pe.Name != "rusher" {
		t.Fatalf("Recovered gave %v, want a PlayerError for seat 2 rusher", err)
	}
	if !errors.Is(err, ErrPanic) {
		t.Fatalf("Recovered error %v does not wrap ErrPanic", err)
	}
	if got, want := err.Error(), "seat 2 (rusher): player panicked: index out of range"; got != want {
		t.Fatalf("message %q, want %q", got, want)
	}
}
