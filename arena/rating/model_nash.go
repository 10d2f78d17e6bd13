package rating

import "fmt"

// NashShare is a player's place in the Nash averaging of the field: its
// mass in the maximum-entropy Nash equilibrium of the score margins, and
// its payoff against that equilibrium: its expected score against the
// equilibrium mixture minus 1/2 (0 for the equilibrium's support).
type NashShare struct {
	Mass   float64 `json:"mass"`
	Payoff float64 `json:"payoff"`
}

// nashSpec orders by the payoff against the maximum-entropy Nash
// equilibrium of the score margins (Nash averaging, stats.NashAverage),
// then by the player's mass in it. It ranks from the field analysis; its
// figures are Standing.Nash.
var nashSpec = &Spec{
	Name:  ModelNash,
	Title: "payoff against the Nash equilibrium (Nash averaging)",
	Field: true,
	Rate: func(*Batch, []Standing, Options) (string, []string, error) {
		return "Nash averaging: the payoff (score margin) against the maximum-entropy Nash equilibrium of the score matrix", nil, nil
	},
	Key: func(s Standing) ([]float64, bool) {
		if s.Nash == nil {
			return nil, false
		}
		return []float64{s.Nash.Payoff, s.Nash.Mass, s.Score}, true
	},
	Columns: []string{"payoff vs Nash", "Nash mass"},
	Cells: func(s Standing) []string {
		if s.Nash == nil {
			return none(2)
		}
		return []string{Signed(100*s.Nash.Payoff, 1), fmt.Sprintf("%.3f", s.Nash.Mass)}
	},
	CSV: []string{"nash_mass", "nash_payoff"},
	CSVValues: func(s Standing) []float64 {
		if s.Nash == nil {
			return nan(2)
		}
		return []float64{s.Nash.Mass, s.Nash.Payoff}
	},
}
