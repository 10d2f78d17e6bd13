package stats

import (
	"math/rand/v2"
	"testing"
)

// The benchmarks size the target: a field of 21 players and
// 100,000 seat-swapped game pairs (476 seeds of every pairing: 99,960
// pairs, 199,920 games).
const (
	benchPlayers = 21
	benchSeeds   = 476
)

// BenchmarkSPRT counts 100,000 game pairs into pentanomial classes and
// runs the test (LLR, bounds, verdict, Elo estimate).
func BenchmarkSPRT(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pairs := make([][2]float64, 100_000)
	for i := range pairs {
		pairs[i] = [2]float64{playGame(rng, 5), playGame(rng, 5)}
	}
	for _, m := range []Model{Logistic, Normalized} {
		b.Run(m.String(), func(b *testing.B) {
			s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05, Model: m}
			for b.Loop() {
				var p Pentanomial
				for _, g := range pairs {
					if err := p.Add(g[0], g[1]); err != nil {
						b.Fatal(err)
					}
				}
				if _, err := s.Test(p, 0.95); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkLLR is the test alone on counts, as a running SPRT calls it
// after every pair.
func BenchmarkLLR(b *testing.B) {
	p := Pentanomial{365, 16618, 36229, 16974, 390}
	for _, m := range []Model{Logistic, Normalized} {
		b.Run(m.String(), func(b *testing.B) {
			s := SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: m}
			for b.Loop() {
				if _, err := s.LLR(p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBradleyTerry fits 21 players from the counts of 100,000 game
// pairs (Fit), and from the 199,920 games grouped into their 99,960 units
// with the cluster-robust covariance (FitGames).
func BenchmarkBradleyTerry(b *testing.B) {
	names, games := syntheticGames(benchPlayers, benchSeeds, 3)
	n := len(names)
	wins, draws := newSquare(n), newSquare(n)
	for _, g := range games {
		switch g.Score {
		case 1:
			wins[g.A][g.B]++
		case 0:
			wins[g.B][g.A]++
		default:
			draws[g.A][g.B]++
			draws[g.B][g.A]++
		}
	}
	b.Run("Fit", func(b *testing.B) {
		for b.Loop() {
			if _, err := (BradleyTerry{}).Fit(names, wins, draws); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("FitGames", func(b *testing.B) {
		for b.Loop() {
			if _, err := (BradleyTerry{}).FitGames(names, games); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// benchScores is the 21-player score matrix of the synthetic field, with
// a cycle among the three weakest and the strongest so that the
// non-transitive methods have work to do.
func benchScores() [][]float64 {
	_, wins, draws := syntheticCounts(benchPlayers, 4, func(i, j int) int { return 2 * benchSeeds })
	n := benchPlayers
	score := newSquare(n)
	for i := range n {
		for j := range n {
			if g := wins[i][j] + wins[j][i] + draws[i][j]; i != j && g > 0 {
				score[i][j] = (wins[i][j] + draws[i][j]/2) / g
			} else {
				score[i][j] = 0.5
			}
		}
	}
	for _, w := range []int{0, 1, 2} {
		score[w][n-1], score[n-1][w] = 0.8, 0.2
	}
	return score
}

// BenchmarkAlphaRank ranks the 21-player score matrix (m = 50, alpha =
// 100, both fitness models) and in the infinite-alpha limit.
func BenchmarkAlphaRank(b *testing.B) {
	score := benchScores()
	for _, c := range []struct {
		name string
		a    AlphaRank
	}{{"local", AlphaRank{}}, {"global", AlphaRank{Global: true}}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := c.a.Rank(score); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	b.Run("infinite", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := InfiniteAlphaRank(score); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkNashAverage solves the 21-player field's maximum-entropy Nash.
func BenchmarkNashAverage(b *testing.B) {
	a := ScoreMargins(benchScores())
	for b.Loop() {
		if _, err := NashAverage(a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCycles3 lists the 3-cycles of the 21-player field.
func BenchmarkCycles3(b *testing.B) {
	score := benchScores()
	for b.Loop() {
		if _, err := Cycles3(score); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkClusteredRate computes one player's interval over 100,000
// units.
func BenchmarkClusteredRate(b *testing.B) {
	rng := rand.New(rand.NewPCG(5, 6))
	units := make([]Unit, 100_000)
	for i := range units {
		units[i] = Unit{Points: playGame(rng, 30) + playGame(rng, 30), Games: 2}
	}
	for b.Loop() {
		if _, err := ClusteredRate(units, 0.95); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWengLin rates one 4-player free-for-all.
func BenchmarkWengLin(b *testing.B) {
	w := DefaultWengLin()
	in := []Skill{{29.182, 4.782}, {27.174, 4.922}, {16.672, 6.217}, {25, 25.0 / 3}}
	for b.Loop() {
		if _, err := w.RateFFA(in, nil); err != nil {
			b.Fatal(err)
		}
	}
}
