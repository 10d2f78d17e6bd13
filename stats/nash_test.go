package stats

import (
	"math"
	"strings"
	"testing"
)

// TestNashAverage checks the maximum-entropy Nash equilibrium on fields
// whose answer is known by hand.
func TestNashAverage(t *testing.T) {
	tests := []struct {
		name   string
		score  [][]float64
		mass   []float64
		rating []float64 // nil: not checked
	}{
		{
			name:   "rock-paper-scissors is uniform",
			score:  [][]float64{{0.5, 0, 1}, {1, 0.5, 0}, {0, 1, 0.5}},
			mass:   []float64{1.0 / 3, 1.0 / 3, 1.0 / 3},
			rating: []float64{0, 0, 0},
		},
		{
			// 0 beats 1 and 2, 1 beats 2: all mass on 0, the others rated
			// by their margin against it.
			name:   "a transitive field puts everything on the best",
			score:  [][]float64{{0.5, 0.7, 0.9}, {0.3, 0.5, 0.6}, {0.1, 0.4, 0.5}},
			mass:   []float64{1, 0, 0},
			rating: []float64{0, -0.2, -0.4},
		},
		{
			// The fourth loses to everyone: it gets nothing, the cycle
			// shares the mass.
			name: "a cycle and a dominated player",
			score: [][]float64{
				{0.5, 0.2, 0.8, 0.9},
				{0.8, 0.5, 0.2, 0.9},
				{0.2, 0.8, 0.5, 0.9},
				{0.1, 0.1, 0.1, 0.5},
			},
			mass:   []float64{1.0 / 3, 1.0 / 3, 1.0 / 3, 0},
			rating: []float64{0, 0, 0, -0.4},
		},
		{
			// Margins (0,-1,2; 1,0,-1; -2,1,0)/4 have the unique
			// equilibrium (1,2,1)/4: row 1 gives p0 = p2, row 0 p1 = 2 p2.
			name:  "a weighted cycle",
			score: [][]float64{{0.5, 0.25, 1}, {0.75, 0.5, 0.25}, {0, 0.75, 0.5}},
			mass:  []float64{0.25, 0.5, 0.25},
		},
		{
			// Rock twice: every split of rock's third between the copies
			// is an equilibrium; the maximum entropy splits it evenly, so
			// a copy does not change the others' mass (the point of Nash
			// averaging).
			name: "a copied player shares its mass",
			score: [][]float64{
				{0.5, 0.5, 0, 1},
				{0.5, 0.5, 0, 1},
				{1, 1, 0.5, 0},
				{0, 0, 1, 0.5},
			},
			mass:   []float64{1.0 / 6, 1.0 / 6, 1.0 / 3, 1.0 / 3},
			rating: []float64{0, 0, 0, 0},
		},
		{
			name:  "all draws: every mixture is an equilibrium",
			score: [][]float64{{0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}, {0.5, 0.5, 0.5}},
			mass:  []float64{1.0 / 3, 1.0 / 3, 1.0 / 3},
		},
		{
			// 0 and 1 draw and both beat 2: equilibria are the mixtures
			// of 0 and 1; maximum entropy halves them.
			name:   "two equal leaders",
			score:  [][]float64{{0.5, 0.5, 0.8}, {0.5, 0.5, 0.6}, {0.2, 0.4, 0.5}},
			mass:   []float64{0.5, 0.5, 0},
			rating: []float64{0, 0, -0.2},
		},
		{
			// a and b draw; c beats a by 0.3 and loses to b by 0.1, so an
			// equilibrium needs 0.1 p_b >= 0.3 p_a: p_b >= 3/4. The
			// entropy would like (1/2, 1/2); the inequality holds it at
			// (1/4, 3/4), active though c is outside the support.
			name:   "an active inequality",
			score:  [][]float64{{0.5, 0.5, 0.2}, {0.5, 0.5, 0.6}, {0.8, 0.4, 0.5}},
			mass:   []float64{0.25, 0.75, 0},
			rating: []float64{0, 0, 0},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := NashAverage(ScoreMargins(tc.score))
			if err != nil {
				t.Fatal(err)
			}
			for i := range tc.mass {
				if math.Abs(res.Mass[i]-tc.mass[i]) > 1e-9 {
					t.Fatalf("mass %v, want %v", res.Mass, tc.mass)
				}
				if tc.rating != nil && math.Abs(res.Rating[i]-tc.rating[i]) > 1e-9 {
					t.Fatalf("rating %v, want %v", res.Rating, tc.rating)
				}
			}
		})
	}
}

// TestNashAverageIsEquilibrium checks the defining property on a larger
// random antisymmetric field: no player beats the mixture (every rating
// <= 0), and the players with mass are rated 0.
func TestNashAverageIsEquilibrium(t *testing.T) {
	names, wins, draws := syntheticCounts(12, 5, func(i, j int) int { return 20 })
	n := len(names)
	score := newSquare(n)
	for i := range n {
		for j := range n {
			if g := wins[i][j] + wins[j][i] + draws[i][j]; i != j && g > 0 {
				score[i][j] = (wins[i][j] + draws[i][j]/2) / g
			}
		}
	}
	// Make it non-transitive: the weakest three beat the strongest.
	for _, w := range []int{0, 1, 2} {
		score[w][n-1], score[n-1][w] = 0.9, 0.1
	}
	a := ScoreMargins(score)
	res, err := NashAverage(a)
	if err != nil {
		t.Fatal(err)
	}
	total := 0.0
	for i := range n {
		total += res.Mass[i]
		v := 0.0
		for j := range n {
			v += a[i][j] * res.Mass[j]
		}
		if v > 1e-9 {
			t.Errorf("player %d beats the mixture by %v", i, v)
		}
		if res.Mass[i] > 1e-9 && math.Abs(v) > 1e-9 {
			t.Errorf("player %d has mass %v but payoff %v", i, res.Mass[i], v)
		}
	}
	if math.Abs(total-1) > 1e-12 || len(res.Support) < 2 {
		t.Fatalf("mass %v", res.Mass)
	}
}

// TestNashAverageBadInput checks a non-antisymmetric matrix is refused
// naming the entries.
func TestNashAverageBadInput(t *testing.T) {
	_, err := NashAverage([][]float64{{0, 0.7}, {0.3, 0}})
	if err == nil || !strings.Contains(err.Error(), "payoff[0][1] = 0.7 but payoff[1][0] = 0.3") {
		t.Fatalf("error %v", err)
	}
	if _, err := NashAverage(nil); err == nil {
		t.Fatal("empty field accepted")
	}
}
