package stats

import (
	"math"
	"strings"
	"testing"
)

func TestRanks(t *testing.T) {
	tests := []struct {
		name    string
		samples [][]float64
		p       [][]float64
		lo, hi  []int
	}{
		{"one order every time", [][]float64{{3, 2, 1}, {5, 0, -1}},
			[][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, []int{1, 2, 3}, []int{1, 2, 3}},
		{"a tie shares its ranks", [][]float64{{1, 1, 0}},
			[][]float64{{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}}, []int{1, 1, 3}, []int{2, 2, 3}},
		{"ties within the tolerance chain", [][]float64{{1, 1 + 5e-7, 1 + 1e-6}},
			[][]float64{{1. / 3, 1. / 3, 1. / 3}, {1. / 3, 1. / 3, 1. / 3}, {1. / 3, 1. / 3, 1. / 3}}, []int{1, 1, 1}, []int{3, 3, 3}},
		{"swaps half the time", [][]float64{{2, 1}, {1, 2}, {2, 1}, {1, 2}},
			[][]float64{{0.5, 0.5}, {0.5, 0.5}}, []int{1, 1}, []int{2, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := Ranks(tt.samples, 0.95, 1e-6)
			if err != nil {
				t.Fatal(err)
			}
			for i := range tt.p {
				for r := range tt.p[i] {
					if math.Abs(d.P[i][r]-tt.p[i][r]) > 1e-12 {
						t.Errorf("P[%d][%d] = %v, want %v", i, r, d.P[i][r], tt.p[i][r])
					}
				}
				if d.Lo[i] != tt.lo[i] || d.Hi[i] != tt.hi[i] {
					t.Errorf("player %d: rank interval [%d, %d], want [%d, %d]", i, d.Lo[i], d.Hi[i], tt.lo[i], tt.hi[i])
				}
			}
		})
	}
}

// A rank taken in 2% of the samples is outside the 95% interval, one
// taken in 3% inside.
func TestRanksIntervalTails(t *testing.T) {
	var s [][]float64
	for k := range 100 {
		switch {
		case k < 2:
			s = append(s, []float64{0, 1})
		default:
			s = append(s, []float64{1, 0})
		}
	}
	d, err := Ranks(s, 0.95, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d.Lo[0] != 1 || d.Hi[0] != 1 || d.Lo[1] != 2 || d.Hi[1] != 2 {
		t.Errorf("2%% swaps: intervals [%d, %d] and [%d, %d], want [1, 1] and [2, 2]", d.Lo[0], d.Hi[0], d.Lo[1], d.Hi[1])
	}
	s[2] = []float64{0, 1}
	d, _ = Ranks(s, 0.95, 0)
	if d.Hi[0] != 2 || d.Lo[1] != 1 {
		t.Errorf("3%% swaps: intervals [%d, %d] and [%d, %d], want [1, 2] and [1, 2]", d.Lo[0], d.Hi[0], d.Lo[1], d.Hi[1])
	}
	if math.Abs(d.Mean[0]-1.03) > 1e-12 {
		t.Errorf("mean rank %v, want 1.03", d.Mean[0])
	}
}

func TestRanksErrors(t *testing.T) {
	tests := []struct {
		samples [][]float64
		want    string
	}{
		{nil, "no sample"},
		{[][]float64{{1, 2}, {1}}, "sample 1 rates 1 players, sample 0 rates 2"},
		{[][]float64{{1, math.NaN()}}, "sample 0 rates player 1 NaN"},
	}
	for _, tt := range tests {
		if _, err := Ranks(tt.samples, 0.95, 0); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.samples, err, tt.want)
		}
	}
}
