package stats

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// RankDistribution is how often each player took each rank over samples
// of the players' ratings (bootstrap resamples, say).
type RankDistribution struct {
	// P[i][r] is the share of samples in which player i took rank r+1 (1
	// is best); each row sums to 1.
	P [][]float64 `json:"p"`
	// Mean is each player's expected rank.
	Mean []float64 `json:"mean"`
	// Lo and Hi bound each player's central rank interval at the level:
	// the lowest rank whose cumulative share reaches (1-level)/2 and the
	// lowest whose cumulative share reaches 1-(1-level)/2 (percentile
	// intervals of the rank).
	Lo []int `json:"lo"`
	Hi []int `json:"hi"`
	// Samples counts the samples.
	Samples int `json:"samples"`
}

// Ranks counts the ranks of n players over samples: samples[b][i] is
// player i's rating in sample b, higher is better. Players whose ratings
// in a sample are within tol of one another's (a chain of such gaps)
// tie: they share the ranks they span equally, so two players tied for
// first take half of rank 1 and half of rank 2 each, and two identical
// players come out at one half each rather than by name. level is the
// confidence level of the rank intervals (0.95 for 95%). Every sample
// must rate every player with a finite number.
func Ranks(samples [][]float64, level, tol float64) (RankDistribution, error) {
	if err := checkLevel(level); err != nil {
		return RankDistribution{}, err
	}
	if len(samples) == 0 {
		return RankDistribution{}, fmt.Errorf("ranks: no sample")
	}
	if !(tol >= 0) {
		return RankDistribution{}, fmt.Errorf("ranks: tolerance %v is not >= 0", tol)
	}
	n := len(samples[0])
	d := RankDistribution{P: make([][]float64, n), Mean: make([]float64, n), Lo: make([]int, n), Hi: make([]int, n), Samples: len(samples)}
	for i := range d.P {
		d.P[i] = make([]float64, n)
	}
	order := make([]int, n)
	for b, s := range samples {
		if len(s) != n {
			return RankDistribution{}, fmt.Errorf("ranks: sample %d rates %d players, sample 0 rates %d", b, len(s), n)
		}
		for i, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return RankDistribution{}, fmt.Errorf("ranks: sample %d rates player %d %v, want a finite rating", b, i, v)
			}
			order[i] = i
		}
		slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(s[y], s[x]) })
		for start := 0; start < n; {
			end := start + 1
			for end < n && s[order[end-1]]-s[order[end]] <= tol {
				end++
			}
			share := 1 / float64(end-start)
			for _, i := range order[start:end] {
				for r := start; r < end; r++ {
					d.P[i][r] += share
				}
			}
			start = end
		}
	}
	total := float64(len(samples))
	lowTail := (1 - level) / 2
	const eps = 1e-9 // sums of shares are exact to well within this
	for i, row := range d.P {
		cum := 0.0
		d.Lo[i], d.Hi[i] = 0, 0
		for r := range row {
			row[r] /= total
			d.Mean[i] += float64(r+1) * row[r]
			cum += row[r]
			if d.Lo[i] == 0 && cum >= lowTail-eps {
				d.Lo[i] = r + 1
			}
			if d.Hi[i] == 0 && cum >= 1-lowTail-eps {
				d.Hi[i] = r + 1
			}
		}
		if d.Hi[i] == 0 {
			d.Hi[i] = n
		}
		if d.Lo[i] == 0 {
			d.Lo[i] = n
		}
	}
	return d, nil
}
