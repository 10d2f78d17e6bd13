package stats

import (
	"fmt"
	"math"
)

// PairBucket is the pentanomial class of a seat-swapped game pair on one
// seed, from B's score in each of its two games (1 a win, 0.5 a draw, 0 a
// loss): the index of the pair's total 0, 0.5, 1, 1.5 or 2 in
// Pentanomial, i.e. LL, LD, WL or DD, WD, WW. The order of the two games
// does not matter.
func PairBucket(first, second float64) (int, error) {
	for _, s := range []float64{first, second} {
		if s != 0 && s != 0.5 && s != 1 {
			return 0, fmt.Errorf("pair score %v is not 0, 0.5 or 1", s)
		}
	}
	return int(2 * (first + second)), nil
}

// RotationScore reduces one seed of an N-seat game to the pairwise score
// of B against A. The group is played once per rotation of the seats (N
// rotations, so each player sits in each seat once); rankA[r] and rankB[r]
// are the two players' finishing ranks in rotation r (1 is best, equal
// ranks tie). In each rotation B scores 1 when ranked ahead of A, 0.5 when
// tied and 0 when behind; the result is the mean over the rotations, in
// [0, 1]. With two seats and two rotations this is the seat-swapped pair's
// total over 2.
func RotationScore(rankA, rankB []int) (float64, error) {
	if len(rankA) != len(rankB) {
		return 0, fmt.Errorf("rotation score: %d ranks for A, %d for B; want one each per rotation", len(rankA), len(rankB))
	}
	if len(rankA) == 0 {
		return 0, fmt.Errorf("rotation score: no rotation")
	}
	s := 0.0
	for r := range rankA {
		if rankA[r] < 1 || rankB[r] < 1 {
			return 0, fmt.Errorf("rotation %d: ranks %d and %d, want >= 1", r, rankA[r], rankB[r])
		}
		switch {
		case rankB[r] < rankA[r]:
			s++
		case rankB[r] == rankA[r]:
			s += 0.5
		}
	}
	return s / float64(len(rankA)), nil
}

// ScoreBucket is the pentanomial class of a pair score s in [0, 1] (a
// seat-swapped pair's total over 2, or a RotationScore): the nearest of
// 0, 1/4, 1/2, 3/4 and 1, i.e. the index round(4 s); a score exactly
// between two classes goes to the one nearer 1/2, so the reduction never
// overstates a difference. With two seats it is PairBucket. With more
// seats the bucketed score can differ from the exact one by up to 1/8;
// the SPRT then tests the bucketed score.
func ScoreBucket(s float64) (int, error) {
	if !(s >= 0 && s <= 1) {
		return 0, fmt.Errorf("pair score %v is not in [0, 1]", s)
	}
	x := 4 * s
	f := math.Floor(x)
	switch frac := x - f; {
	case math.Abs(frac-0.5) < 1e-9:
		if f < 2 {
			f++
		}
	case frac > 0.5:
		f++
	}
	return int(f), nil
}

// PairGame is one pairwise game for FitGames and PairIntervals: player A (an index in the
// names) scored Score against player B (1 a win, 0.5 a draw, 0 a loss;
// any value in [0, 1] is taken as a fractional score). Unit identifies the
// independent unit the game belongs to (its seed, or its game pair):
// games of one unit may be correlated, units are independent.
type PairGame struct {
	// A and B are the players' indices.
	A, B int
	// Score is A's score against B.
	Score float64
	// Unit is the independent unit (seed or game pair) of the game.
	Unit int64
}
