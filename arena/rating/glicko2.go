// Package rating turns match outcomes into leaderboards.
//
// Leaderboard ranks a batch of matches by a model: the maximum-likelihood
// Bradley–Terry fit (the default: on a round robin its order is the order
// of the scores), Glicko-2 (Glickman, "Example of the Glicko-2 system"),
// Weng–Lin for free-for-all rankings, α-Rank or Nash averaging. Beside
// the model's figures it gives each player's score against the field,
// every pair's score and the Elo difference the score implies, all with
// intervals over independent units (a round of a pairing: its matches on
// one seed), exact repeats of one outcome counting once; the analysis of
// a non-transitive field (α-Rank, Nash, 3-cycles of significant wins); and
// the pairs the order ranks against their scores. The numeric methods
// are package crucible/stats'.
//
// Summarize is the older summary of Glicko-2 ratings from pairwise
// outcomes without seeds, with Wilson intervals over games.
//
// The package knows players only by name and matches only by their
// players, ranks, round, seed and a fingerprint of the result, so it
// serves the arena, the evolver, the ladder and crucible rate alike.
package rating

import (
	"math"
	"sort"
)

// glickoScale converts between the Glicko scale (ratings around 1500) and
// the Glicko-2 scale (around 0): mu = (r - 1500) / glickoScale.
const glickoScale = 173.7178

// Rating is one player's Glicko-2 state on the familiar Glicko scale.
type Rating struct {
	// Rating is the estimated strength (mu on the 1500 scale).
	Rating float64 `json:"rating"`
	// RD is the rating deviation: one standard deviation of the estimate.
	RD float64 `json:"rd"`
	// Volatility is the expected fluctuation of the player's strength.
	Volatility float64 `json:"volatility"`
}

// Conservative is the rating minus two rating deviations: a strength the
// player very likely exceeds. Leaderboards are ordered by it.
func (r Rating) Conservative() float64 { return r.Rating - 2*r.RD }

// Outcome is one pairwise game result: A scored Score against B, 1 for a
// win, 0.5 for a draw and 0 for a loss.
type Outcome struct {
	A, B  string
	Score float64
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
			s := 0.5
			switch {
			case ranks[i] < ranks[j]:
				s = 1
			case ranks[i] > ranks[j]:
				s = 0
			}
			out = append(out, Outcome{A: players[i], B: players[j], Score: s})
		}
	}
	return out
}

// Glicko2 rates players with the Glicko-2 system. Its fields are the
// system's tunables; the zero value is not usable, start from Default.
type Glicko2 struct {
	// Tau constrains the change of volatility between periods (the paper
	// suggests 0.3 to 1.2). Default 0.5.
	Tau float64
	// Initial is the rating of a player never seen before. Default
	// 1500 / 350 / 0.06.
	Initial Rating
	// Epsilon is the convergence tolerance of the volatility iteration
	// (Illinois algorithm). Default 0.000001.
	Epsilon float64
}

// Default returns the paper's defaults: tau 0.5, a new player at 1500 with
// RD 350 and volatility 0.06, and epsilon 0.000001.
func Default() *Glicko2 {
	return &Glicko2{
		Tau:     0.5,
		Initial: Rating{Rating: 1500, RD: 350, Volatility: 0.06},
		Epsilon: 0.000001,
	}
}

// Game is one game of a rating period from a player's point of view: the
// opponent's rating before the period and the player's score (1, 0.5, 0).
type Game struct {
	Opponent Rating
	Score    float64
}

// Update returns r after one rating period with games. A player who played
// no game keeps rating and volatility while its deviation grows to
// sqrt(RD^2 + volatility^2) (on the Glicko-2 scale).
func (g *Glicko2) Update(r Rating, games []Game) Rating {
	mu := (r.Rating - 1500) / glickoScale
	phi := r.RD / glickoScale
	sigma := r.Volatility
	if len(games) == 0 {
		return Rating{
			Rating:     r.Rating,
			RD:         math.Sqrt(phi*phi+sigma*sigma) * glickoScale,
			Volatility: sigma,
		}
	}
	// Steps 3 and 4: estimated variance v and improvement delta.
	var invV, sum float64
	for _, gm := range games {
		muJ := (gm.Opponent.Rating - 1500) / glickoScale
		phiJ := gm.Opponent.RD / glickoScale
		gj := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		e := 1 / (1 + math.Exp(-gj*(mu-muJ)))
		invV += gj * gj * e * (1 - e)
		sum += gj * (gm.Score - e)
	}
	v := 1 / invV
	delta := v * sum

	// Step 5: the new volatility.
	sigma = g.volatility(phi, sigma, v, delta)

	// Steps 6 to 8: new deviation and rating.
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{
		Rating:     muNew*glickoScale + 1500,
		RD:         phiNew * glickoScale,
		Volatility: sigma,
	}
}

// volatility solves step 5 of the paper with the Illinois algorithm.
func (g *Glicko2) volatility(phi, sigma, v, delta float64) float64 {
	tau := g.Tau
	a := math.Log(sigma * sigma)
	d2 := delta * delta
	p2 := phi * phi
	f := func(x float64) float64 {
		ex := math.Exp(x)
		den := p2 + v + ex
		return ex*(d2-p2-v-ex)/(2*den*den) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if d2 > p2+v {
		B = math.Log(d2 - p2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > g.Epsilon && fB != fA && i < 1000; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// RatePeriod rates one rating period: every player of prior or of outcomes
// is updated from its games against the others' ratings before the period.
// Players missing from prior start at g.Initial; players of prior without a
// game in the period only see their deviation grow. The result holds every
// player; prior is not changed. The order of outcomes does not matter.
func (g *Glicko2) RatePeriod(prior map[string]Rating, outcomes []Outcome) map[string]Rating {
	before := withPlayers(prior, outcomes, g.Initial)
	games := make(map[string][]Game, len(before))
	for _, o := range outcomes {
		if o.A == o.B {
			continue
		}
		games[o.A] = append(games[o.A], Game{Opponent: before[o.B], Score: o.Score})
		games[o.B] = append(games[o.B], Game{Opponent: before[o.A], Score: 1 - o.Score})
	}
	after := make(map[string]Rating, len(before))
	for name, r := range before {
		gs := games[name]
		// A canonical order makes the floating-point sums, and so the
		// ratings' bytes, independent of the order outcomes came in.
		sort.Slice(gs, func(i, j int) bool { return gameLess(gs[i], gs[j]) })
		after[name] = g.Update(r, gs)
	}
	return after
}

// RatePeriods rates consecutive periods starting from prior and returns the
// ratings after the last one.
func (g *Glicko2) RatePeriods(prior map[string]Rating, periods [][]Outcome) map[string]Rating {
	cur := prior
	if cur == nil {
		cur = map[string]Rating{}
	}
	for _, p := range periods {
		cur = g.RatePeriod(cur, p)
	}
	return cur
}

// Initials returns a ratings map with every name at g.Initial, the prior of
// a tournament whose players are all new.
func (g *Glicko2) Initials(names []string) map[string]Rating {
	m := make(map[string]Rating, len(names))
	for _, n := range names {
		m[n] = g.Initial
	}
	return m
}

// withPlayers returns a copy of ratings that also holds every player of
// outcomes missing from it, at initial.
func withPlayers(ratings map[string]Rating, outcomes []Outcome, initial Rating) map[string]Rating {
	out := make(map[string]Rating, len(ratings))
	for name, r := range ratings {
		out[name] = r
	}
	for _, o := range outcomes {
		for _, name := range [2]string{o.A, o.B} {
			if _, ok := out[name]; !ok {
				out[name] = initial
			}
		}
	}
	return out
}

// gameLess orders games by opponent rating, deviation, volatility, score.
func gameLess(a, b Game) bool {
	switch {
	case a.Opponent.Rating != b.Opponent.Rating:
		return a.Opponent.Rating < b.Opponent.Rating
	case a.Opponent.RD != b.Opponent.RD:
		return a.Opponent.RD < b.Opponent.RD
	case a.Opponent.Volatility != b.Opponent.Volatility:
		return a.Opponent.Volatility < b.Opponent.Volatility
	}
	return a.Score < b.Score
}

// sortedNames returns the keys of m sorted.
func sortedNames(m map[string]Rating) []string {
	out := make([]string, 0, len(m))
	for n := range m {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
