package stats_test

import (
	"fmt"

	"crucible/stats"
)

// An SPRT on pentanomial counts of seat-swapped pairs: fishtest's
// normalized [0, 2] case.
func ExampleSPRT() {
	test := stats.SPRT{Elo0: 0, Elo1: 2, Alpha: 0.05, Beta: 0.05, Model: stats.Normalized}
	res, err := test.Test(stats.Pentanomial{365, 16618, 36229, 16974, 390}, 0.95)
	if err != nil {
		panic(err)
	}
	fmt.Printf("LLR %.2f in (%.2f, %.2f): %s\n", res.LLR, res.Lower, res.Upper, res.Verdict)
	fmt.Printf("Elo %+.2f [%+.2f, %+.2f] over %d pairs\n", res.Elo.Elo, res.Elo.EloLo, res.Elo.EloHi, res.Elo.Units)
	// Output:
	// LLR 2.25 in (-2.94, 2.94): continue
	// Elo +1.00 [+0.08, +1.92] over 70576 pairs
}

// Counting pairs as they finish: B's score in each game of the pair.
func ExamplePentanomial_Add() {
	var p stats.Pentanomial
	for _, pair := range [][2]float64{{1, 0}, {1, 1}, {0.5, 1}, {0, 0.5}} {
		if err := p.Add(pair[0], pair[1]); err != nil {
			panic(err)
		}
	}
	fmt.Println(p, p.Pairs())
	// Output: [0 1 1 1 1] 4
}

// A deterministic pairing repeated on 50 seeds is one observation.
func ExampleClusteredRate() {
	units := make([]stats.Unit, 50)
	for i := range units {
		units[i] = stats.Unit{Points: 2, Games: 2} // B won both games of every pair
	}
	iv, _ := stats.ClusteredRate(units, 0.95)
	fmt.Printf("%.3f [%.3f, %.3f] %s, %d units, %d distinct\n", iv.Mean, iv.Lo, iv.Hi, iv.Method, iv.Units, iv.Distinct)
	// Output: 1.000 [0.207, 1.000] wilson-distinct, 50 units, 1 distinct
}

// Maximum-likelihood Elo of a small round robin, best first. The fit
// satisfies the score equations: hunter's expected score, 40 games at
// 70.6% against scout and 40 at 66.9% against guardian, is its 55 points.
func ExampleBradleyTerry_Fit() {
	names := []string{"hunter", "scout", "guardian"}
	wins := [][]float64{
		{0, 30, 25},
		{10, 0, 20},
		{15, 20, 0},
	}
	fit, err := stats.BradleyTerry{Anchor: "scout"}.Fit(names, wins, nil)
	if err != nil {
		panic(err)
	}
	for _, r := range fit.Ratings {
		fmt.Printf("%-8s %+6.1f ± %.1f\n", r.Name, r.Elo, r.Hi-r.Elo)
	}
	// Output:
	// hunter   +152.4 ± 94.5
	// guardian  +30.4 ± 90.3
	// scout      +0.0 ± 0.0
}

// Rock, paper, scissors and a player everyone beats: α-Rank and Nash
// averaging both share the mass on the cycle.
func ExampleNashAverage() {
	score := [][]float64{
		{0.5, 0.2, 0.8, 0.9},
		{0.8, 0.5, 0.2, 0.9},
		{0.2, 0.8, 0.5, 0.9},
		{0.1, 0.1, 0.1, 0.5},
	}
	nash, _ := stats.NashAverage(stats.ScoreMargins(score))
	pi, _ := stats.AlphaRank{}.Rank(score)
	fmt.Printf("nash  %.3f\nalpha %.3f\n", nash.Mass, pi)
	// Output:
	// nash  [0.333 0.333 0.333 0.000]
	// alpha [0.333 0.333 0.333 0.000]
}

// openskill's worked four-player free-for-all, finishing in the order
// given: the newcomer in last place loses the most.
func ExampleWengLin_RateFFA() {
	players := []stats.Skill{{Mu: 29.182, Sigma: 4.782}, {Mu: 27.174, Sigma: 4.922}, {Mu: 16.672, Sigma: 6.217}, {Mu: 25, Sigma: 25.0 / 3}}
	after, _ := stats.DefaultWengLin().RateFFA(players, nil)
	for _, s := range after {
		fmt.Printf("%.3f %.3f\n", s.Mu, s.Sigma)
	}
	// Output:
	// 30.210 4.766
	// 27.645 4.883
	// 17.404 6.101
	// 19.215 7.855
}
