package rating_test

import (
	"fmt"

	"crucible/arena/rating"
)

// The example of Glickman's Glicko-2 paper: a player at 1500 ± 200 beats a
// 1400 ± 30 player and loses to 1550 ± 100 and 1700 ± 300 in one rating
// period. (The paper prints 1464.06 and 0.05999, having rounded its
// intermediate values.)
func ExampleGlicko2_Update() {
	g := rating.Default()
	player := rating.Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	after := g.Update(player, []rating.Game{
		{Opponent: rating.Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Score: 1},
		{Opponent: rating.Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Score: 0},
		{Opponent: rating.Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Score: 0},
	})
	fmt.Printf("%.2f ± %.2f, volatility %.6f\n", after.Rating, after.RD, after.Volatility)
	// Output:
	// 1464.05 ± 151.52, volatility 0.059996
}

// Rating one period of a three-player tournament by name, from the
// pairwise outcomes of its matches, and listing the leaderboard with each
// player's score and its Wilson 95% interval.
func ExampleSummarize() {
	g := rating.Default()
	var outcomes []rating.Outcome
	// Four matches of three seats each: ranks per seat, 1 is best.
	for _, ranks := range [][]int{{1, 2, 3}, {1, 3, 2}, {2, 1, 3}, {1, 2, 2}} {
		outcomes = append(outcomes, rating.Pairwise([]string{"ada", "bob", "cy"}, ranks)...)
	}
	after := g.RatePeriod(nil, outcomes)
	sum := rating.Summarize(after, outcomes)
	for _, s := range sum.Standings {
		fmt.Printf("%d %-3s %4.0f ± %3.0f  %d-%d-%d  score %.2f [%.2f, %.2f]\n",
			s.Rank, s.Name, s.Rating.Rating, s.RD, s.Wins, s.Draws, s.Losses, s.Score, s.ScoreLo, s.ScoreHi)
	}
	// Output:
	// 1 ada 1805 ± 163  7-0-1  score 0.88 [0.53, 0.98]
	// 2 bob 1449 ± 163  3-1-4  score 0.44 [0.17, 0.74]
	// 3 cy  1245 ± 163  1-1-6  score 0.19 [0.04, 0.53]
}

// Ranking a batch by Bradley–Terry: three players, the pairs of a round
// on one seed in both seat orders. Each interval is over the seeds
// (independent units), not over games nor pairings: on each of seeds 1-3
// bob lost both games to ada and won both against cy, so his three units
// are each 1/2 (over the six pair-rounds, 0 and 1 alternating, the
// interval was [0, 1]).
func ExampleLeaderboard() {
	var ms []rating.Match
	win := func(a, b string, seed uint64) {
		ms = append(ms,
			rating.Match{Players: []string{a, b}, Ranks: []int{1, 2}, Seed: seed, Result: seed*10 + 1},
			rating.Match{Players: []string{b, a}, Ranks: []int{2, 1}, Seed: seed, Result: seed*10 + 2})
	}
	for _, seed := range []uint64{1, 2, 3} {
		win("ada", "bob", seed)
		win("bob", "cy", seed)
	}
	win("cy", "ada", 4) // one upset keeps the fit finite
	ms = append(ms, rating.Match{Players: []string{"ada", "cy"}, Ranks: []int{1, 2}, Seed: 5, Result: 51})
	sum, err := rating.Leaderboard(nil, ms, rating.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("ordered by", sum.Model.Title())
	for _, s := range sum.Standings {
		fmt.Printf("%d %-3s Elo %+4.0f  %d-%d-%d  score %.2f [%.2f, %.2f] over %d seeds\n",
			s.Rank, s.Name, s.BT.Elo, s.Wins, s.Draws, s.Losses, s.Score, s.ScoreLo, s.ScoreHi, s.Units)
	}
	// Output:
	// ordered by Bradley–Terry Elo (maximum likelihood)
	// 1 ada Elo +171  7-0-2  score 0.78 [0.17, 1.00] over 5 seeds
	// 2 bob Elo   +0  6-0-6  score 0.50 [0.13, 0.87] over 3 seeds
	// 3 cy  Elo -171  2-0-7  score 0.22 [0.00, 0.83] over 5 seeds
}
