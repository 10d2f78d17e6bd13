package arena_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
)

// benchRecords is a round robin of 21 players in both seat orders, 100,000
// records (239 seeds of the 210 pairings, 100,380 matches), each player's
// strength 40 Elo above the previous one, a fifth of the games drawn; every
// record has its own result, so no unit merges.
func benchRecords() ([]string, []arena.Record) {
	const players, seeds = 21, 239
	names := make([]string, players)
	for i := range names {
		names[i] = fmt.Sprintf("s%02d", i)
	}
	rng := rand.New(rand.NewPCG(5, 6))
	var recs []arena.Record
	for s := range seeds {
		seed := uint64(1000 + s)
		for i := range players {
			for j := i + 1; j < players; j++ {
				for _, o := range [][2]int{{i, j}, {j, i}} {
					p := 1 / (1 + math.Pow(10, -40*float64(o[0]-o[1])/400))
					ranks, u := []int{1, 1}, rng.Float64()
					switch {
					case u < 0.8*p:
						ranks = []int{1, 2}
					case u > 1-0.8*(1-p):
						ranks = []int{2, 1}
					}
					recs = append(recs, arena.Record{Job: fmt.Sprintf("r%d-%dv%d", s, o[0], o[1]), Game: "toy", Round: s, Seed: seed,
						Players: []arena.PlayerRef{{Name: names[o[0]]}, {Name: names[o[1]]}}, Ranks: ranks,
						Scores: []float64{float64(3 - ranks[0]), float64(3 - ranks[1])}, Turns: rng.IntN(500), Reason: "turns"})
				}
			}
		}
	}
	return names, recs
}

// BenchmarkLeaderboard is the whole leaderboard of a 100,000-record round
// robin of 21 players from its records, as crucible arena, rate and report
// compute it: units, merged repeats, clustered intervals, every pair's
// interval, the inversion check, the model's fit, and (Field) α-Rank, Nash
// averaging and the cycles.
//
//	go test ./arena -run '^$' -bench Leaderboard -benchtime 10x
func BenchmarkLeaderboard(b *testing.B) {
	names, recs := benchRecords()
	for _, tc := range []struct {
		name string
		opt  rating.Options
	}{
		{"bt", rating.Options{}},
		{"bt+field", rating.Options{Field: true}},
		{"glicko2", rating.Options{Model: rating.ModelGlicko2}},
		{"weng-lin", rating.Options{Model: rating.ModelWengLin}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := arena.Leaderboard(names, recs, tc.opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
