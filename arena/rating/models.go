package rating

import (
	"fmt"
	"strings"

	"crucible/stats"
)

// Model names what a leaderboard is ordered by.
type Model string

// The models a leaderboard can be ordered by.
const (
	// ModelBT is the maximum-likelihood Bradley–Terry (Elo) fit of the
	// whole batch (stats.BradleyTerry.FitGames), with cluster-robust
	// intervals over the units; the default for a batch of results. On a
	// round robin its order is the order of the scores.
	ModelBT Model = "bt"
	// ModelGlicko2 is Glicko-2, ordered by the conservative rating
	// (rating - 2 RD); the ladder's rating.
	ModelGlicko2 Model = "glicko2"
	// ModelWengLin is the Weng–Lin Bayesian rating (openskill's
	// Plackett–Luce model) of each match's full ranking, ordered by the
	// ordinal mu - 3 sigma; made for free-for-all matches.
	ModelWengLin Model = "weng-lin"
	// ModelAlphaRank orders by the α-Rank mass of the score matrix
	// (stats.AlphaRank): the share of time an evolving population spends
	// on each player.
	ModelAlphaRank Model = "alpharank"
	// ModelNash orders by the payoff against the maximum-entropy Nash
	// equilibrium of the score margins (Nash averaging,
	// stats.NashAverage), then by the player's mass in it.
	ModelNash Model = "nash"
)

// RatingModels are the models of the --rating flags; Models adds the
// rankings of non-transitive fields (crucible rate --method).
var (
	RatingModels = []Model{ModelBT, ModelGlicko2, ModelWengLin}
	Models       = []Model{ModelBT, ModelGlicko2, ModelWengLin, ModelAlphaRank, ModelNash}
)

// ParseModel checks a model name against the allowed ones ("bradley-terry"
// is accepted for bt, "wenglin" and "openskill" for weng-lin).
func ParseModel(s string, allowed []Model) (Model, error) {
	m := Model(strings.ToLower(strings.TrimSpace(s)))
	switch m {
	case "bradley-terry", "elo":
		m = ModelBT
	case "wenglin", "openskill", "weng_lin":
		m = ModelWengLin
	case "glicko", "glicko-2":
		m = ModelGlicko2
	case "alpha-rank", "α-rank":
		m = ModelAlphaRank
	}
	names := make([]string, len(allowed))
	for i, a := range allowed {
		names[i] = string(a)
		if a == m {
			return m, nil
		}
	}
	return "", fmt.Errorf("model %q is not one of %s", s, strings.Join(names, ", "))
}

// Title is how a table names the model it is ordered by.
func (m Model) Title() string {
	switch m {
	case ModelBT:
		return "Bradley–Terry Elo (maximum likelihood)"
	case ModelGlicko2, "":
		return "Glicko-2 conservative rating (rating − 2 RD)"
	case ModelWengLin:
		return "Weng–Lin ordinal (μ − 3σ, Plackett–Luce)"
	case ModelAlphaRank:
		return "α-Rank mass"
	case ModelNash:
		return "payoff against the Nash equilibrium (Nash averaging)"
	}
	return string(m)
}

// Periods chooses how Glicko-2 rates a batch.
type Periods string

// The ways Glicko-2 can rate a batch.
const (
	// OnePeriod rates the whole batch as one rating period: every player
	// is updated once from all its games against the others' starting
	// ratings. The order then follows the scores (from equal starts, on a
	// round robin); the default.
	OnePeriod Periods = "one"
	// RoundPeriods rates one period per round of the schedule, the
	// rounds in order. A batch's rounds are not a history, yet later
	// rounds move the ratings differently from earlier ones (the
	// deviations shrink as the rounds go), so the order can disagree with
	// the scores; offered for comparison with earlier versions.
	RoundPeriods Periods = "rounds"
	// PriorIsRating does not rate: Options.Prior holds the ratings (a
	// ladder's, say) and the batch only gives the statistics beside them.
	PriorIsRating Periods = "none"
)

// Options tune Leaderboard. The zero value orders by Bradley–Terry at
// 95%.
type Options struct {
	// Model is the ordering model; "" means ModelBT.
	Model Model
	// Glicko2 is the Glicko-2 system of ModelGlicko2; nil means Default().
	Glicko2 *Glicko2
	// Periods is how Glicko-2 rates the batch; "" means OnePeriod.
	Periods Periods
	// Prior are the Glicko-2 ratings the players start from (players
	// missing from it start at Glicko2.Initial); with PriorIsRating, the
	// ratings themselves.
	Prior map[string]Rating
	// WengLin is the Weng–Lin model of ModelWengLin; nil means
	// stats.DefaultWengLin().
	WengLin *stats.WengLin
	// Level is the confidence level of every interval; 0 means
	// Confidence (0.95).
	Level float64
	// Field asks for the analysis of a non-transitive field (α-Rank,
	// Nash averaging, cycles; see Field). It is always made for
	// ModelAlphaRank and ModelNash.
	Field bool
}
