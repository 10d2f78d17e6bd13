package rating

import (
	"fmt"
	"slices"

	"crucible/stats"
)

// WengLinSkill is a Weng–Lin rating: the skill's mean and deviation, and
// the ordinal mu - 3 sigma the leaderboard is ordered by.
type WengLinSkill struct {
	Mu      float64 `json:"mu"`
	Sigma   float64 `json:"sigma"`
	Ordinal float64 `json:"ordinal"`
}

// wengLinSpec is the Weng–Lin Bayesian rating (openskill's Plackett–Luce
// model, stats.WengLin) of each match's full ranking, ordered by the
// ordinal mu - 3 sigma; made for free-for-all matches. Options.WengLin
// tunes it. Its figures are Standing.WengLin.
var wengLinSpec = &Spec{
	Name:    ModelWengLin,
	Aliases: []string{"wenglin", "openskill", "weng_lin"},
	Title:   "Weng–Lin ordinal (μ − 3σ, Plackett–Luce)",
	Rating:  true,
	Rate:    rateWengLin,
	Key: func(s Standing) ([]float64, bool) {
		if s.WengLin == nil {
			return nil, false
		}
		return []float64{s.WengLin.Ordinal, s.WengLin.Mu}, true
	},
	Columns: []string{"μ ± σ", "μ-3σ"},
	Cells: func(s Standing) []string {
		if s.WengLin == nil {
			return none(2)
		}
		return []string{fmt.Sprintf("%.2f ± %.2f", s.WengLin.Mu, s.WengLin.Sigma), fmt.Sprintf("%.2f", s.WengLin.Ordinal)}
	},
	CSV: []string{"mu", "sigma", "ordinal"},
	CSVValues: func(s Standing) []float64 {
		if s.WengLin == nil {
			return nan(3)
		}
		return []float64{s.WengLin.Mu, s.WengLin.Sigma, s.WengLin.Ordinal}
	},
	Plot: func(s Summary) Plot {
		p := Plot{
			Label:   "Weng–Lin skill: μ ± 3σ (the left end, μ − 3σ, orders the leaderboard)",
			Caption: "Each player's Weng–Lin skill μ (dot) with a bar of ± 3σ, in leaderboard order. The dashed line is a new player's μ, 25.",
			Ref:     stats.DefaultWengLin().Mu,
			Pad:     1,
		}
		for _, st := range s.Standings {
			if w := st.WengLin; w != nil {
				p.Points = append(p.Points, PlotPoint{st.Name, w.Mu, w.Mu - 3*w.Sigma, w.Mu + 3*w.Sigma})
			}
		}
		return p
	},
}

// rateWengLin rates the matches one after another in canonical order.
func rateWengLin(b *Batch, st []Standing, opt Options) (string, []string, error) {
	w := stats.DefaultWengLin()
	if opt.WengLin != nil {
		w = *opt.WengLin
	}
	skill := make([]stats.Skill, len(b.Names))
	rated := make([]bool, len(b.Names))
	for i := range skill {
		skill[i] = w.Initial()
	}
	var seats []int
	var in []stats.Skill
	var ranks []float64
	for m := range b.Matches() {
		seats, in, ranks = seats[:0], in[:0], ranks[:0]
		for s, p := range m.Players {
			i := b.Index(p)
			if slices.Contains(seats, i) {
				return "", nil, fmt.Errorf("weng-lin: the match of round %d on seed %d seats %s twice; a match rates each player once", m.Round, m.Seed, p)
			}
			seats = append(seats, i)
			in = append(in, skill[i])
			ranks = append(ranks, float64(m.Ranks[s]))
		}
		if len(seats) < 2 {
			continue
		}
		out, err := w.RateFFA(in, ranks)
		if err != nil {
			return "", nil, fmt.Errorf("weng-lin: the match of round %d on seed %d: %w", m.Round, m.Seed, err)
		}
		for k, i := range seats {
			skill[i] = out[k]
			rated[i] = true
		}
	}
	for p := range st {
		if rated[p] {
			s := skill[p]
			st[p].WengLin = &WengLinSkill{Mu: s.Mu, Sigma: s.Sigma, Ordinal: s.Ordinal()}
		}
	}
	return fmt.Sprintf("Weng–Lin (Plackett–Luce) rating of the %d matches' full rankings, one after another in schedule order", b.MatchCount()), nil, nil
}
