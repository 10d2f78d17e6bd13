package stats

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ErrNoFiniteRatings is wrapped by the error of a fit whose maximum does
// not exist: some group of players never dropped a point against the
// rest (a player who won or lost every game, say). A Prior of virtual
// draws makes such a field finite.
var ErrNoFiniteRatings = errors.New("no finite ratings")

// eloPerNat converts a log-odds difference to Elo: 400 / ln 10.
const eloPerNat = 400 / math.Ln10

// BradleyTerry fits maximum-likelihood Elo ratings to a batch of pairwise
// results: P(i beats j) = 1 / (1 + 10^((E_j - E_i)/400)), a draw counting
// as half a win and half a loss (Ordo's convention, not Davidson's draw
// parameter). The fit is Newton's method on the log-likelihood, which is
// concave, from all ratings equal; it stops when no rating moves by more
// than 1e-10 Elo.
//
// The maximum exists only when the players cannot be split into two
// groups one of which never dropped a point to the other; Fit reports
// such a split. Prior adds virtual draws to keep such fields finite.
type BradleyTerry struct {
	// Prior is the number of virtual draws added to every pair of players
	// that met at least once (BayesElo's idea), pulling each pair's
	// difference towards 0 by about as much as Prior real draws would. The
	// default 0 is the pure maximum-likelihood fit.
	Prior float64
	// Anchor names the player rated 0. The default "" puts the mean
	// rating at 0.
	Anchor string
	// Level is the confidence level of the intervals; 0 means 0.95.
	Level float64
	// MergedRepeats tells FitGames that its units are distinct outcomes:
	// the caller merged exact repeats (the same games with the same
	// results on several seeds) into one unit. A pair whose units all
	// gave it the same score is then not deflated (see FitGames): its
	// units differ in something, so each is evidence. The default false
	// deflates such pairs, taking equal scores for repeats.
	MergedRepeats bool
}

// Rated is one player's line in a fitted ranking.
type Rated struct {
	Name string `json:"name"`
	// Index is the player's position in the names given to the fit.
	Index int `json:"index"`
	// Elo is the fitted rating; SE its standard error and Lo, Hi its
	// interval (Elo ± z SE, normal quantile), all relative to the anchor.
	Elo float64 `json:"elo"`
	SE  float64 `json:"se"`
	Lo  float64 `json:"lo"`
	Hi  float64 `json:"hi"`
	// Games and Points are the player's pairwise games and points, without
	// the prior.
	Games  float64 `json:"games"`
	Points float64 `json:"points"`
}

// BTFit is the result of a Bradley–Terry fit.
type BTFit struct {
	// Ratings lists the players best first (ties by name).
	Ratings []Rated `json:"ratings"`
	// Cov is the covariance of the ratings in Elo², in the order of the
	// names given (anchored like the ratings).
	Cov [][]float64 `json:"cov"`
	// Method says where the covariance comes from: "fisher" (the observed
	// information, games taken as independent), "cluster-robust" (the
	// sandwich over units) or "fisher-distinct" (the information with a
	// pair whose units all agreed counted as one unit).
	Method string `json:"method"`
	// Units is the number of independent units (FitGames only).
	Units int `json:"units,omitempty"`
	// Iterations is the number of Newton steps taken.
	Iterations int `json:"iterations"`
	// LogLik is the log-likelihood at the fit (prior included).
	LogLik float64 `json:"loglik"`
}

// Diff is the rating difference of player i over player j (indices in
// the names given) and its standard error.
func (f BTFit) Diff(i, j int) (diff, se float64) {
	var ei, ej float64
	for _, r := range f.Ratings {
		switch r.Index {
		case i:
			ei = r.Elo
		case j:
			ej = r.Elo
		}
	}
	v := f.Cov[i][i] + f.Cov[j][j] - 2*f.Cov[i][j]
	return ei - ej, math.Sqrt(math.Max(0, v))
}

// Fit rates the players from their pairwise counts: wins[i][j] is the
// number of games i won against j, draws[i][j] (= draws[j][i]) the number
// they drew; draws may be nil. The intervals come from the observed
// Fisher information, which takes every game as independent evidence; use
// FitGames when games share seeds.
func (b BradleyTerry) Fit(names []string, wins, draws [][]float64) (BTFit, error) {
	n := len(names)
	if err := checkSquare("wins", wins, n); err != nil {
		return BTFit{}, err
	}
	if draws != nil {
		if err := checkSquare("draws", draws, n); err != nil {
			return BTFit{}, err
		}
	}
	s, g := newSquare(n), newSquare(n)
	for i := range n {
		for j := range n {
			if !(wins[i][j] >= 0) || math.IsInf(wins[i][j], 0) {
				return BTFit{}, fmt.Errorf("wins[%d][%d] = %v, want a count >= 0", i, j, wins[i][j])
			}
			if draws != nil && (!(draws[i][j] >= 0) || math.IsInf(draws[i][j], 0)) {
				return BTFit{}, fmt.Errorf("draws[%d][%d] = %v, want a count >= 0", i, j, draws[i][j])
			}
			d := 0.0
			if draws != nil {
				d = draws[i][j]
				if d != draws[j][i] {
					return BTFit{}, fmt.Errorf("draws[%d][%d] = %v but draws[%d][%d] = %v; draws between two players are one count", i, j, d, j, i, draws[j][i])
				}
			}
			s[i][j] = wins[i][j] + d/2
			g[i][j] = wins[i][j] + wins[j][i] + d
		}
	}
	st, err := b.solve(names, s, g)
	if err != nil {
		return BTFit{}, err
	}
	return st.result(st.hinv, "fisher", 0)
}

// FitGames rates the players from individual games grouped into units.
// The ratings are those of Fit on the same counts. The covariance is the
// cluster-robust sandwich H⁻¹ (C/(C-1) Σ_c g_c g_cᵀ) H⁻¹, with H the
// observed information, g_c the score (gradient) of unit c's games and C
// the number of units, so correlated games inside a unit are not counted
// as independent evidence.
//
// When some pair of players met in several units that all gave it the
// same result, the sandwich would still narrow with every repeat. Then
// the covariance is the larger (in total variance) of the sandwich and
// the observed information in which each such pair counts the games of
// one unit only ("fisher-distinct"), so repeating a deterministic outcome
// across seeds does not narrow the intervals. With MergedRepeats the
// caller has merged such repeats into one unit already, and the
// covariance is the sandwich.
func (b BradleyTerry) FitGames(names []string, games []PairGame) (BTFit, error) {
	n := len(names)
	s, g := newSquare(n), newSquare(n)
	for k, gm := range games {
		switch {
		case gm.A < 0 || gm.A >= n || gm.B < 0 || gm.B >= n:
			return BTFit{}, fmt.Errorf("game %d: players %d and %d, want indices below %d", k, gm.A, gm.B, n)
		case gm.A == gm.B:
			return BTFit{}, fmt.Errorf("game %d: player %d against itself", k, gm.A)
		case !(gm.Score >= 0 && gm.Score <= 1):
			return BTFit{}, fmt.Errorf("game %d: score %v is not in [0, 1]", k, gm.Score)
		}
		s[gm.A][gm.B] += gm.Score
		s[gm.B][gm.A] += 1 - gm.Score
		g[gm.A][gm.B]++
		g[gm.B][gm.A]++
	}
	st, err := b.solve(names, s, g)
	if err != nil {
		return BTFit{}, err
	}
	robust, units, deflate := st.clustered(games)
	deterministic := false
	for i := range n {
		if b.MergedRepeats {
			break
		}
		for j := i + 1; j < n; j++ {
			deterministic = deterministic || deflate[i][j] < 1
		}
	}
	if !deterministic {
		return st.result(robust, "cluster-robust", units)
	}
	// The deflated information: deterministic pairs keep 1/units of their
	// weight.
	h := newSquare(n)
	for i := range n {
		for j := range n {
			if i == j || st.games[i][j] == 0 {
				continue
			}
			w := st.weight(i, j) * deflate[i][j]
			h[i][j] -= w
			h[i][i] += w
		}
	}
	hinv, err := pseudoInverse(h)
	if err != nil {
		return BTFit{}, err
	}
	if trace(hinv) > trace(robust) {
		return st.result(hinv, "fisher-distinct", units)
	}
	return st.result(robust, "cluster-robust", units)
}

// result anchors the ratings and covariance and orders the players.
func (st *btState) result(cov [][]float64, method string, units int) (BTFit, error) {
	n := len(st.r)
	level := st.b.Level
	if level == 0 {
		level = 0.95
	}
	z := normalQuantile(level)
	anchor := -1
	if st.b.Anchor != "" {
		anchor = slices.Index(st.names, st.b.Anchor)
	}
	elo := make([]float64, n)
	for i := range n {
		elo[i] = st.r[i] * eloPerNat
		if anchor >= 0 {
			elo[i] -= st.r[anchor] * eloPerNat
		}
	}
	out := newSquare(n)
	for i := range n {
		for j := range n {
			v := cov[i][j]
			if anchor >= 0 {
				v += cov[anchor][anchor] - cov[i][anchor] - cov[anchor][j]
			}
			out[i][j] = v * eloPerNat * eloPerNat
		}
	}
	fit := BTFit{Cov: out, Method: method, Units: units, Iterations: st.iters, LogLik: st.loglik}
	for i, name := range st.names {
		se := math.Sqrt(math.Max(0, out[i][i]))
		r := Rated{Name: name, Index: i, Elo: elo[i], SE: se, Lo: elo[i] - z*se, Hi: elo[i] + z*se}
		for j := range n {
			r.Games += st.raw[i][j]
			r.Points += st.rawPts[i][j]
		}
		fit.Ratings = append(fit.Ratings, r)
	}
	slices.SortStableFunc(fit.Ratings, func(a, b Rated) int {
		if a.Elo != b.Elo {
			if a.Elo > b.Elo {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Name, b.Name)
	})
	return fit, nil
}
