package rating

import (
	"maps"
	"math"
	"slices"
	"sort"

	"crucible/stats"
)

// Confidence is the level of the intervals the summaries report.
const Confidence = 0.95

// EloDiff is the Elo rating difference that predicts score rate p against
// an opponent: -400 log10(1/p - 1). It is -Inf at 0 and +Inf at 1.
func EloDiff(p float64) float64 {
	return -400 * math.Log10(1/p-1)
}

// Tally counts one player's pairwise results.
type Tally struct {
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
}

// Games is the number of pairwise games.
func (t Tally) Games() int { return t.Wins + t.Draws + t.Losses }

// Points is the score: one per win, a half per draw.
func (t Tally) Points() float64 { return float64(t.Wins) + float64(t.Draws)/2 }

// Rate is the score rate, points per game; 0.5 when no game was played.
func (t Tally) Rate() float64 {
	if t.Games() == 0 {
		return 0.5
	}
	return t.Points() / float64(t.Games())
}

// Interval is the Wilson 95% score interval of Rate, taking every game
// as independent evidence (Summarize's intervals; Leaderboard computes
// them over independent units instead).
func (t Tally) Interval() (lo, hi float64) {
	return stats.Wilson(t.Points(), float64(t.Games()), Confidence)
}

// add counts one result with score s (1, 0.5 or 0).
func (t *Tally) add(s float64) {
	switch {
	case s > 0.5:
		t.Wins++
	case s < 0.5:
		t.Losses++
	default:
		t.Draws++
	}
}

// Matrix is the table of pairwise results: Cells[i][j] tallies Players[i]
// against Players[j].
type Matrix struct {
	Players []string  `json:"players"`
	Cells   [][]Tally `json:"cells"`
}

// NewMatrix tallies outcomes between players. Names of outcomes that are
// not in players are added after them, sorted.
func NewMatrix(players []string, outcomes []Outcome) Matrix {
	index := make(map[string]int, len(players))
	names := append([]string(nil), players...)
	for i, n := range names {
		index[n] = i
	}
	var extra []string
	for _, o := range outcomes {
		for _, n := range []string{o.A, o.B} {
			if _, ok := index[n]; !ok {
				index[n] = -1
				extra = append(extra, n)
			}
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		index[n] = len(names)
		names = append(names, n)
	}
	cells := make([][]Tally, len(names))
	for i := range cells {
		cells[i] = make([]Tally, len(names))
	}
	for _, o := range outcomes {
		a, b := index[o.A], index[o.B]
		if a == b {
			continue
		}
		cells[a][b].add(o.Score)
		cells[b][a].add(1 - o.Score)
	}
	return Matrix{Players: names, Cells: cells}
}

// Field is player i's tally against everyone.
func (m Matrix) Field(i int) Tally {
	var t Tally
	for _, c := range m.Cells[i] {
		t.Wins += c.Wins
		t.Draws += c.Draws
		t.Losses += c.Losses
	}
	return t
}

// Pair is the head-to-head record of two players, from A's side.
type Pair struct {
	A      string `json:"a"`
	B      string `json:"b"`
	Wins   int    `json:"wins"`
	Draws  int    `json:"draws"`
	Losses int    `json:"losses"`
	// Score is A's score rate against B; Lo and Hi bound its 95%
	// interval: over the seeds the pair met on (Leaderboard), or Wilson's
	// over games (Summarize).
	Score float64 `json:"score"`
	Lo    float64 `json:"lo"`
	Hi    float64 `json:"hi"`
	// Units counts the seeds the pair met on, Distinct the distinct
	// outcomes among its independent units: rounds that repeated another
	// exactly count once (Leaderboard only).
	Units    int `json:"units,omitempty"`
	Distinct int `json:"distinct,omitempty"`
	// Method says how Lo and Hi were computed when the pair met in fewer
	// than stats.MinUnits distinct units that all gave it the same score
	// (stats.SmallSampleRate: exact-extreme, or none: not available, [0,
	// 1]); "" otherwise.
	Method stats.Method `json:"method,omitempty"`
}

// Pairs lists every pair that played, in matrix order (A before B).
func (m Matrix) Pairs() []Pair {
	var out []Pair
	for i := range m.Players {
		for j := i + 1; j < len(m.Players); j++ {
			t := m.Cells[i][j]
			if t.Games() == 0 {
				continue
			}
			lo, hi := t.Interval()
			out = append(out, Pair{
				A: m.Players[i], B: m.Players[j],
				Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
				Score: t.Rate(), Lo: lo, Hi: hi,
			})
		}
	}
	return out
}

// Standing is one line of the leaderboard.
type Standing struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Rating is the Glicko-2 state, set when the leaderboard is ordered
	// by Glicko-2 (Summary.Model glicko2 or ""), and Conservative is
	// Rating - 2 RD, that order.
	Rating
	Conservative float64 `json:"conservative"`
	// BT is the Bradley–Terry Elo, WengLin the Weng–Lin skill, AlphaRank
	// the α-Rank mass and Nash the Nash-averaging figures; each is set
	// when computed (the ordering model's always).
	BT        *Elo          `json:"bt,omitempty"`
	WengLin   *WengLinSkill `json:"weng_lin,omitempty"`
	AlphaRank *float64      `json:"alpharank,omitempty"`
	Nash      *NashShare    `json:"nash,omitempty"`
	// Figures are the figures of the models registered beyond the
	// built-in ones (Spec), by model.
	Figures map[Model]Figures `json:"figures,omitempty"`
	// Games counts pairwise games: an N-seat match is N-1 games for each
	// of its players.
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Draws  int `json:"draws"`
	Losses int `json:"losses"`
	// Score is the score rate against the field; ScoreLo and ScoreHi
	// bound its 95% interval: over the player's independent units, one
	// per seed it played on (Leaderboard), or Wilson's over games
	// (Summarize).
	Score   float64 `json:"score"`
	ScoreLo float64 `json:"score_lo"`
	ScoreHi float64 `json:"score_hi"`
	// Units counts the seeds the player played on, Distinct the distinct
	// outcomes among its independent units (its results on one seed, all
	// opponents together; Leaderboard only).
	Units    int `json:"units,omitempty"`
	Distinct int `json:"distinct,omitempty"`
	// FewUnits marks a player with games in fewer than stats.MinUnits
	// distinct units (Leaderboard only), on which the large-sample
	// intervals are not valid: ScoreMethod then says how ScoreLo and
	// ScoreHi were computed (stats.SmallSampleRate: exact-extreme,
	// clustered-t on two different units, or none: not available, [0,
	// 1]); Elo vs field (EloLo and EloHi are 0) and the Bradley–Terry
	// interval are not available, and the tables show "n/a".
	FewUnits    bool         `json:"few_units,omitempty"`
	ScoreMethod stats.Method `json:"score_method,omitempty"`
	// Elo is the Elo difference against the field implied by Score, and
	// EloLo and EloHi those implied by the ends of its interval. A record
	// of all wins or all losses has no finite Elo difference: it is taken
	// half a game from the edge (n-1/2 or 1/2 points of n), for the figure
	// and for its interval, so the bar stays finite, keeps the figure
	// inside and grows with the points and the games played.
	Elo   float64 `json:"elo"`
	EloLo float64 `json:"elo_lo"`
	EloHi float64 `json:"elo_hi"`
}

// Summary is a leaderboard with the pairwise statistics beside it.
type Summary struct {
	// Model is what the standings are ordered by; "" (a summary of an
	// earlier version) is Glicko-2. Method says how it was fitted, in
	// words.
	Model  Model  `json:"model,omitempty"`
	Method string `json:"method,omitempty"`
	// Clustered tells that the intervals are clustered by seed (see
	// Leaderboard); false means Wilson's over games (Summarize).
	Clustered bool       `json:"clustered,omitempty"`
	Standings []Standing `json:"standings"`
	Pairs     []Pair     `json:"pairs"`
	// Matrix holds the pairwise tallies with players in leaderboard order.
	Matrix Matrix `json:"matrix"`
	// Seeds counts the independent clusters of the intervals: the seeds
	// (every match on one seed is in one cluster, whatever its players).
	// Units counts the rounds of the pairings (a pairing's matches on one
	// seed) and Distinct the distinct outcomes among them; Groups counts
	// the pairings (or free-for-all groups), Repeated those whose every
	// round repeated one outcome exactly (Leaderboard only).
	Seeds    int `json:"seeds,omitempty"`
	Units    int `json:"units,omitempty"`
	Distinct int `json:"distinct,omitempty"`
	Groups   int `json:"groups,omitempty"`
	Repeated int `json:"repeated,omitempty"`
	// Field is the analysis of a non-transitive field, nil unless asked
	// for.
	Field *Field `json:"field,omitempty"`
	// Inversions are the pairs of players ranked against a significant
	// difference of their scores against the same opponents; none when
	// the order agrees with the scores.
	Inversions []Inversion `json:"inversions,omitempty"`
	// Notes are remarks on the figures (a prior the fit needed, pairs
	// that never met), for the reports to show.
	Notes []string `json:"notes,omitempty"`
	// Ranks is each player's probability of each rank, when asked for
	// (Options.Ranks).
	Ranks *RankTable `json:"ranks,omitempty"`
}

// Summarize builds the leaderboard of every player in ratings, ordered by
// conservative rating (then rating, then name), with the statistics of
// outcomes. Players of outcomes missing from ratings are listed at
// initial, from Default. Outcomes carry no seeds, so the intervals are
// Wilson's over games, every game taken as independent evidence (Summary
// Clustered is false); Leaderboard computes them over independent units.
func Summarize(ratings map[string]Rating, outcomes []Outcome) Summary {
	all := Default().WithPlayers(ratings, outcomes)
	names := slices.Sorted(maps.Keys(all))
	sort.SliceStable(names, func(i, j int) bool {
		a, b := all[names[i]], all[names[j]]
		if a.Conservative() != b.Conservative() {
			return a.Conservative() > b.Conservative()
		}
		return a.Rating > b.Rating
	})
	m := NewMatrix(names, outcomes)
	st := make([]Standing, len(names))
	for i, n := range names {
		r := all[n]
		t := m.Field(i)
		lo, hi := t.Interval()
		st[i] = Standing{
			Rank: i + 1, Name: n, Rating: r, Conservative: r.Conservative(),
			Games: t.Games(), Wins: t.Wins, Draws: t.Draws, Losses: t.Losses,
			Score: t.Rate(), ScoreLo: lo, ScoreHi: hi,
		}
		st[i].Elo, st[i].EloLo, st[i].EloHi = eloBar(t)
	}
	return Summary{Model: ModelGlicko2, Standings: st, Pairs: m.Pairs(), Matrix: m}
}

// eloBar is the Elo difference a tally implies and the ends of its 95%
// error bar (from the Wilson interval of the points). A tally of all wins
// or all losses is taken half a game from the edge; with no game all
// three are 0.
func eloBar(t Tally) (elo, lo, hi float64) {
	n := t.Games()
	if n == 0 {
		return 0, 0, 0
	}
	pts := math.Min(math.Max(t.Points(), 0.5), float64(n)-0.5)
	pl, ph := stats.Wilson(pts, float64(n), Confidence)
	return EloDiff(pts / float64(n)), EloDiff(pl), EloDiff(ph)
}
