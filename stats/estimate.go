package stats

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// Estimate is B's strength over A measured from pentanomial or trinomial
// counts: its score per game and the logistic and normalized Elo
// differences that score means, each with its interval.
type Estimate struct {
	// Units is the number of independent units: game pairs for
	// pentanomial counts, games for trinomial ones. Distinct is the number
	// of classes that occurred.
	Units    int `json:"units"`
	Distinct int `json:"distinct"`
	// Score is B's mean score per game; ScoreLo and ScoreHi bound it.
	Score   float64 `json:"score"`
	ScoreLo float64 `json:"score_lo"`
	ScoreHi float64 `json:"score_hi"`
	// SE is the standard error of Score over the units.
	SE float64 `json:"se"`
	// Elo is the logistic Elo difference of Score, EloLo and EloHi those
	// of the interval's ends.
	Elo   float64 `json:"elo"`
	EloLo float64 `json:"elo_lo"`
	EloHi float64 `json:"elo_hi"`
	// NElo is the normalized Elo difference, NEloLo and NEloHi those of
	// the interval's ends.
	NElo   float64 `json:"nelo"`
	NEloLo float64 `json:"nelo_lo"`
	NEloHi float64 `json:"nelo_hi"`
	// LOS is the likelihood of superiority: the probability, under the
	// normal approximation, that B is stronger than A.
	LOS    float64 `json:"los"`
	Method Method  `json:"method"`
}

// EstimateElo measures B's strength from the counts at the given
// confidence level (0.95 for 95%), as fastchess prints it:
//
//   - Score is the mean per-game score over the units (for pairs, the
//     pair's total over 2); SE = sqrt(var / units) with var the variance
//     of a unit's score; the interval is Score ± z SE (normal quantile);
//   - Elo = -400 log10(1/Score - 1), and likewise for the interval's ends;
//   - NElo = 800/ln10 (Score - 1/2) / sigma with sigma the standard
//     deviation of a game's score: sqrt(2 var) for pairs, sqrt(var) for
//     games.
//
// Two edge cases keep the figures finite and honest. When every unit fell
// in one class (var is 0), the interval is the Wilson interval over one
// trial (see ClusteredRate), and sigma is that of the regularised
// distribution the LLR uses (0.001 unit in each empty class). A score of
// 0 or 1 has no finite Elo: scores are taken at least half a game from
// the edge (1/(2 games) and 1 - 1/(2 games)) before conversion.
func EstimateElo(c Counts, level float64) (Estimate, error) {
	if err := c.validate(); err != nil {
		return Estimate{}, err
	}
	if err := checkLevel(level); err != nil {
		return Estimate{}, err
	}
	scores, counts, perUnit := c.outcomes()
	total := 0.0
	e := Estimate{}
	for _, n := range counts {
		total += n
		if n > 0 {
			e.Distinct++
		}
	}
	if total == 0 {
		return Estimate{}, errors.New("no games counted")
	}
	e.Units = int(total)
	p := make([]float64, len(counts))
	for i, n := range counts {
		p[i] = n / total
	}
	mu, v := meanVar(scores, p)
	z := normalQuantile(level)
	e.Score = mu
	if v > 0 {
		e.SE = math.Sqrt(v / total)
		e.ScoreLo, e.ScoreHi = math.Max(0, mu-z*e.SE), math.Min(1, mu+z*e.SE)
		e.Method = NormalPairs
	} else {
		iv := wilsonFallback(Interval{Mean: mu, Distinct: 1}, 0, 1, level)
		e.ScoreLo, e.ScoreHi, e.SE = iv.Lo, iv.Hi, iv.SE
		e.Method = WilsonDistinct
		_, preg := regularized(counts)
		_, v = meanVar(scores, preg)
	}
	games := total * float64(perUnit)
	elo := func(s float64) float64 {
		edge := 0.5 / games
		return LogisticElo(math.Min(math.Max(s, edge), 1-edge))
	}
	e.Elo, e.EloLo, e.EloHi = elo(e.Score), elo(e.ScoreLo), elo(e.ScoreHi)
	sigma := math.Sqrt(float64(perUnit) * v)
	nelo := func(s float64) float64 { return neloPerT * (s - 0.5) / sigma }
	e.NElo, e.NEloLo, e.NEloHi = nelo(e.Score), nelo(e.ScoreLo), nelo(e.ScoreHi)
	e.LOS = distuv.UnitNormal.CDF((e.Score - 0.5) / e.SE)
	return e, nil
}
