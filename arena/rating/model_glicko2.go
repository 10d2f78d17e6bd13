package rating

import (
	"fmt"
	"iter"

	"crucible/stats"
)

// Rating is one player's Glicko-2 state on the Glicko scale: the figures
// of Standing and of the ratings files (stats.GlickoRating).
type Rating = stats.GlickoRating

// Glicko2 is the Glicko-2 system (stats.Glicko2), Game one game of a
// rating period and Outcome one pairwise result by name.
type (
	Glicko2 = stats.Glicko2
	Game    = stats.GlickoGame
	Outcome = stats.Outcome
)

// Default returns Glicko-2 with the paper's defaults
// (stats.DefaultGlicko2).
func Default() *Glicko2 { return stats.DefaultGlicko2() }

// glicko2Spec is Glicko-2, ordered by the conservative rating (rating -
// 2 RD); the ladder's rating. Options.Periods says how the batch is rated
// and Options.Prior where the players start. Its figures are the
// standing's Rating and Conservative.
var glicko2Spec = &Spec{
	Name:    ModelGlicko2,
	Aliases: []string{"glicko", "glicko-2"},
	Title:   "Glicko-2 conservative rating (rating − 2 RD)",
	Rating:  true,
	Rate:    rateGlicko,
	Key: func(s Standing) ([]float64, bool) {
		return []float64{s.Conservative, s.Rating.Rating}, true
	},
	Columns: []string{"rating ± RD", "rating-2RD"},
	Cells: func(s Standing) []string {
		return []string{fmt.Sprintf("%.0f ± %.0f", s.Rating.Rating, s.RD), fmt.Sprintf("%.0f", s.Conservative)}
	},
	Plot: func(s Summary) Plot {
		p := Plot{
			Label:   "Glicko-2 rating: point ± 2 RD (the left end, rating − 2 RD, orders the leaderboard)",
			Caption: "Each player's Glicko-2 rating (dot) with a bar of ± 2 rating deviations, in leaderboard order. The dashed line is the initial rating, 1500.",
			Ref:     Default().Initial.Rating,
			Pad:     20,
		}
		for _, st := range s.Standings {
			p.Points = append(p.Points, PlotPoint{st.Name, st.Rating.Rating, st.Rating.Rating - 2*st.RD, st.Rating.Rating + 2*st.RD})
		}
		return p
	},
}

// rateGlicko sets the Glicko-2 ratings of every player.
func rateGlicko(b *Batch, st []Standing, opt Options) (string, []string, error) {
	g := opt.Glicko2
	if g == nil {
		g = Default()
	}
	start := g.Initials(b.Names)
	for n, r := range opt.Prior {
		if _, ok := start[n]; ok {
			start[n] = r
		}
	}
	var after map[string]Rating
	var method string
	switch opt.Periods {
	case PriorIsRating:
		after = start
		method = "the Glicko-2 ratings given, not updated by these matches"
	case OnePeriod:
		after = g.RatePeriod(start, outcomes(b.Matches(), func(Match) bool { return true }))
		method = "one Glicko-2 rating period for the whole batch"
	case RoundPeriods:
		var rounds []int
		for m := range b.Matches() {
			if len(rounds) == 0 || rounds[len(rounds)-1] != m.Round {
				rounds = append(rounds, m.Round)
			}
		}
		periods := make([][]Outcome, len(rounds))
		for i, r := range rounds {
			periods[i] = outcomes(b.Matches(), func(m Match) bool { return m.Round == r })
		}
		after = g.RatePeriods(start, periods)
		method = "one Glicko-2 rating period per round of the schedule"
	}
	for p := range st {
		r := after[b.Names[p]]
		st[p].Rating, st[p].Conservative = r, r.Conservative()
	}
	return method, nil, nil
}

// outcomes are the pairwise outcomes of the matches keep accepts.
func outcomes(matches iter.Seq[Match], keep func(Match) bool) []Outcome {
	var out []Outcome
	for m := range matches {
		if keep(m) {
			out = append(out, Pairwise(m.Players, m.Ranks)...)
		}
	}
	return out
}

// pairScore is the score of a seat ranked a against one ranked b: the
// better rank (lower) wins, equal ranks draw.
func pairScore[T int | int32](a, b T) float64 {
	switch {
	case a < b:
		return 1
	case a > b:
		return 0
	}
	return 0.5
}

// Pairwise turns the ranking of one match into pairwise outcomes: for every
// two seats the better-ranked one wins, equal ranks draw. players and ranks
// are in seat order (ranks: 1 is best). Seats held by the same name are not
// paired with each other.
func Pairwise(players []string, ranks []int) []Outcome {
	var out []Outcome
	for i := range players {
		for j := i + 1; j < len(players) && j < len(ranks); j++ {
			if players[i] == players[j] {
				continue
			}
			out = append(out, Outcome{A: players[i], B: players[j], Score: pairScore(ranks[i], ranks[j])})
		}
	}
	return out
}
