package rating

import "fmt"

// alphaRankSpec orders by the α-Rank mass of the score matrix
// (stats.AlphaRank): the share of time an evolving population spends on
// each player. It ranks from the field analysis; its figure is
// Standing.AlphaRank.
var alphaRankSpec = &Spec{
	Name:    ModelAlphaRank,
	Aliases: []string{"alpha-rank", "α-rank"},
	Title:   "α-Rank mass",
	Field:   true,
	Rate: func(b *Batch, _ []Standing, _ Options) (string, []string, error) {
		return b.Field.AlphaRank, nil, nil
	},
	Key: func(s Standing) ([]float64, bool) {
		if s.AlphaRank == nil {
			return nil, false
		}
		return []float64{*s.AlphaRank, s.Score}, true
	},
	Columns: []string{"α-Rank mass"},
	Cells: func(s Standing) []string {
		if s.AlphaRank == nil {
			return none(1)
		}
		return []string{fmt.Sprintf("%.3f", *s.AlphaRank)}
	},
	CSV: []string{"alpharank"},
	CSVValues: func(s Standing) []float64 {
		if s.AlphaRank == nil {
			return nan(1)
		}
		return []float64{*s.AlphaRank}
	},
}
