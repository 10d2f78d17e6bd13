package arena

import (
	"errors"
	"fmt"

	"crucible/stats"
)

// RoundRobinSettled finds how many rounds of a round robin settle the top
// order as an adaptive schedule measures it: the smallest s such that the
// records of rounds 0 to s-1 (AdaptiveFit, stats.TopOrderCertainty with
// draws and seed) give the top top players' order a probability of at
// least confidence. It returns s, the matches of those rounds and the
// certainty then, or 0, every match and the certainty after the last
// round when no prefix settles it. The units of a round share its seed
// (in AI Code Battle its map), so AdaptiveFit clusters them by seed and a
// single round settles nothing: with one round only it returns
// stats.ErrFewClusters.
func RoundRobinSettled(entrants []Entrant, recs []Record, top int, confidence float64, draws int, seed uint64) (rounds, matches int, cert stats.TopOrder, err error) {
	index := map[string]int{}
	for i, e := range entrants {
		index[e.Name] = i
	}
	last := -1
	for _, r := range recs {
		if r.Error == "" {
			last = max(last, r.Round)
		}
	}
	if last < 0 {
		return 0, 0, cert, fmt.Errorf("no finished match to rate")
	}
	byRound := make([][]Record, last+1)
	for _, r := range recs {
		if r.Error == "" {
			byRound[r.Round] = append(byRound[r.Round], r)
		}
	}
	var upTo []Record
	for s := 1; s <= last+1; s++ {
		upTo = append(upTo, byRound[s-1]...)
		fit, err := AdaptiveFit(entrants, index, upTo)
		if errors.Is(err, stats.ErrFewClusters) && s < last+1 {
			continue // one round: its pairs share one seed, wait for the next
		}
		if err != nil {
			return 0, 0, cert, err
		}
		if cert, err = stats.TopOrderCertainty(fit.Fit, top, draws, seed); err != nil {
			return 0, 0, cert, err
		}
		if cert.Prob >= confidence {
			return s, len(upTo), cert, nil
		}
	}
	return 0, len(upTo), cert, nil
}
