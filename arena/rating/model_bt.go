package rating

import (
	"errors"
	"fmt"
	"strings"

	"crucible/stats"
)

// Elo is a Bradley–Terry rating: the fitted Elo (the field's mean is 0),
// its standard error and interval.
type Elo struct {
	Elo float64 `json:"elo"`
	SE  float64 `json:"se"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
	// NoInterval marks a player with games in fewer than stats.MinUnits
	// distinct units: the sandwich over one or two units is no valid
	// variance (over one it is 0 at the maximum whatever the results), so
	// SE, Lo and Hi are 0 and the interval is not available.
	NoInterval bool `json:"no_interval,omitempty"`
}

// btSpec is the maximum-likelihood Bradley–Terry (Elo) fit of the whole
// batch (stats.BradleyTerry.FitGames), with cluster-robust intervals
// clustered by seed (Batch.Games' units); the default for a batch of results. On a round robin its
// order is the order of the scores. Its figures are Standing.BT.
var btSpec = &Spec{
	Name:    ModelBT,
	Aliases: []string{"bradley-terry", "elo"},
	Title:   "Bradley–Terry Elo (maximum likelihood)",
	Rating:  true,
	Rate:    rateBT,
	Key: func(s Standing) ([]float64, bool) {
		if s.BT == nil {
			return nil, false
		}
		return []float64{s.BT.Elo}, true
	},
	Columns: []string{"Elo (BT)", "Elo 95% interval"},
	Cells: func(s Standing) []string {
		if s.BT == nil {
			return none(2)
		}
		if s.BT.NoInterval {
			return []string{Signed(s.BT.Elo, 0), NotAvailable}
		}
		return []string{fmt.Sprintf("%s ± %.0f", Signed(s.BT.Elo, 0), s.BT.SE), "[" + Signed(s.BT.Lo, 0) + ", " + Signed(s.BT.Hi, 0) + "]"}
	},
	CSV: []string{"bt_elo", "bt_se", "bt_lo", "bt_hi"},
	CSVValues: func(s Standing) []float64 {
		if s.BT == nil {
			return nan(4)
		}
		if s.BT.NoInterval {
			return append([]float64{s.BT.Elo}, nan(3)...)
		}
		return []float64{s.BT.Elo, s.BT.SE, s.BT.Lo, s.BT.Hi}
	},
	Plot: func(s Summary) Plot {
		p := Plot{
			Label:   "Bradley–Terry Elo: point with its 95% interval (the field's mean is 0)",
			Caption: "Each player's Bradley–Terry Elo (dot) with its 95% cluster-robust interval, in leaderboard order. The dashed line is the field's mean, 0; two players differ by D Elo when the stronger is expected to score 1/(1+10^(−D/400)).",
			Pad:     20,
		}
		for _, st := range s.Standings {
			switch {
			case st.BT == nil:
			case st.BT.NoInterval:
				p.Points = append(p.Points, PlotPoint{st.Name, st.BT.Elo, st.BT.Elo, st.BT.Elo})
			default:
				p.Points = append(p.Points, PlotPoint{st.Name, st.BT.Elo, st.BT.Lo, st.BT.Hi})
			}
		}
		return p
	},
}

// rateBT sets the Bradley–Terry figures of the players with games. A
// field without a finite maximum (a player who won or lost everything)
// is fitted with one virtual draw per pair that met, and the note says
// so.
func rateBT(b *Batch, st []Standing, opt Options) (string, []string, error) {
	const method = "maximum-likelihood Bradley–Terry fit of the batch's pairwise results (a draw is half a win), with cluster-robust (sandwich) intervals clustered by seed"
	var sub []int
	at := make([]int, len(b.Names))
	var names []string
	for p, ok := range b.Played {
		at[p] = -1
		if ok {
			at[p] = len(sub)
			sub = append(sub, p)
			names = append(names, b.Names[p])
		}
	}
	if len(sub) < 2 {
		return method, nil, nil
	}
	// The sandwich is clustered by seed (the games' units): the games of
	// one seed, whatever their pairing, are one cluster.
	games := b.Games // FitGames only reads them
	if len(sub) < len(b.Names) {
		games = make([]stats.PairGame, len(b.Games))
		for k, g := range b.Games {
			games[k] = stats.PairGame{A: at[g.A], B: at[g.B], Score: g.Score, Unit: g.Unit}
		}
	}
	bt := stats.BradleyTerry{Level: opt.Level, MergedRepeats: true}
	fit, err := bt.FitGames(names, games)
	var notes []string
	if errors.Is(err, stats.ErrNoFiniteRatings) {
		why := "a group of players never dropped a point against the rest"
		var edge []string
		for _, p := range sub {
			if s := st[p]; s.Wins == s.Games || s.Losses == s.Games {
				edge = append(edge, s.Name)
			}
		}
		if len(edge) > 0 {
			why = strings.Join(edge, ", ") + " won or lost every game"
		}
		notes = append(notes, fmt.Sprintf("No finite maximum-likelihood ratings (%s): the Bradley–Terry fit adds one virtual draw to every pair that met (BayesElo's prior), which keeps the order of the scores on a round robin", why))
		bt.Prior = 1
		fit, err = bt.FitGames(names, games)
	}
	if err != nil {
		return "", nil, fmt.Errorf("bradley-terry fit: %w", err)
	}
	for _, r := range fit.Ratings {
		e := &Elo{Elo: r.Elo, SE: r.SE, Lo: r.Lo, Hi: r.Hi}
		if st[sub[r.Index]].FewUnits {
			e.SE, e.Lo, e.Hi, e.NoInterval = 0, 0, 0, true
		}
		st[sub[r.Index]].BT = e
	}
	return method, notes, nil
}
