package stats

import (
	"math"
	"sort"
)

// GlickoScale converts between the Glicko scale (ratings around 1500) and
// the Glicko-2 scale (around 0): mu = (r - 1500) / GlickoScale.
const GlickoScale = 173.7178

// GlickoRating is one player's Glicko-2 state on the familiar Glicko
// scale.
type GlickoRating struct {
	// Rating is the estimated strength (mu on the 1500 scale).
	Rating float64 `json:"rating"`
	// RD is the rating deviation: one standard deviation of the estimate.
	RD float64 `json:"rd"`
	// Volatility is the expected fluctuation of the player's strength.
	Volatility float64 `json:"volatility"`
}

// Conservative is the rating minus two rating deviations: a strength the
// player very likely exceeds. Glicko-2 leaderboards are ordered by it.
func (r GlickoRating) Conservative() float64 { return r.Rating - 2*r.RD }

// Outcome is one pairwise game result between two named players: A
// scored Score against B, 1 for a win, 0.5 for a draw and 0 for a loss.
type Outcome struct {
	A, B  string
	Score float64
}

// Glicko2 rates players with the Glicko-2 system (Glickman, "Example of
// the Glicko-2 system"). Its fields are the system's tunables; the zero
// value is not usable, start from DefaultGlicko2.
type Glicko2 struct {
	// Tau constrains the change of volatility between periods (the paper
	// suggests 0.3 to 1.2). Default 0.5.
	Tau float64
	// Initial is the rating of a player never seen before. Default
	// 1500 / 350 / 0.06.
	Initial GlickoRating
	// Epsilon is the convergence tolerance of the volatility iteration
	// (Illinois algorithm). Default 0.000001.
	Epsilon float64
}

// DefaultGlicko2 returns the paper's defaults: tau 0.5, a new player at
// 1500 with RD 350 and volatility 0.06, and epsilon 0.000001.
func DefaultGlicko2() *Glicko2 {
	return &Glicko2{
		Tau:     0.5,
		Initial: GlickoRating{Rating: 1500, RD: 350, Volatility: 0.06},
		Epsilon: 0.000001,
	}
}

// GlickoGame is one game of a rating period from a player's point of
// view: the opponent's rating before the period and the player's score
// (1, 0.5, 0).
type GlickoGame struct {
	Opponent GlickoRating
	Score    float64
}

// Update returns r after one rating period with games. A player who played
// no game keeps rating and volatility while its deviation grows to
// sqrt(RD^2 + volatility^2) (on the Glicko-2 scale).
func (g *Glicko2) Update(r GlickoRating, games []GlickoGame) GlickoRating {
	mu := (r.Rating - 1500) / GlickoScale
	phi := r.RD / GlickoScale
	sigma := r.Volatility
	if len(games) == 0 {
		return GlickoRating{
			Rating:     r.Rating,
			RD:         math.Sqrt(phi*phi+sigma*sigma) * GlickoScale,
			Volatility: sigma,
		}
	}
	// Steps 3 and 4: estimated variance v and improvement delta.
	var invV, sum float64
	for _, gm := range games {
		muJ := (gm.Opponent.Rating - 1500) / GlickoScale
		phiJ := gm.Opponent.RD / GlickoScale
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
	return GlickoRating{
		Rating:     muNew*GlickoScale + 1500,
		RD:         phiNew * GlickoScale,
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
func (g *Glicko2) RatePeriod(prior map[string]GlickoRating, outcomes []Outcome) map[string]GlickoRating {
	before := g.WithPlayers(prior, outcomes)
	games := make(map[string][]GlickoGame, len(before))
	for _, o := range outcomes {
		if o.A == o.B {
			continue
		}
		games[o.A] = append(games[o.A], GlickoGame{Opponent: before[o.B], Score: o.Score})
		games[o.B] = append(games[o.B], GlickoGame{Opponent: before[o.A], Score: 1 - o.Score})
	}
	after := make(map[string]GlickoRating, len(before))
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
func (g *Glicko2) RatePeriods(prior map[string]GlickoRating, periods [][]Outcome) map[string]GlickoRating {
	cur := prior
	if cur == nil {
		cur = map[string]GlickoRating{}
	}
	for _, p := range periods {
		cur = g.RatePeriod(cur, p)
	}
	return cur
}

// Initials returns a ratings map with every name at g.Initial, the prior of
// a tournament whose players are all new.
func (g *Glicko2) Initials(names []string) map[string]GlickoRating {
	m := make(map[string]GlickoRating, len(names))
	for _, n := range names {
		m[n] = g.Initial
	}
	return m
}

// WithPlayers returns a copy of ratings that also holds every player of
// outcomes missing from it, at g.Initial.
func (g *Glicko2) WithPlayers(ratings map[string]GlickoRating, outcomes []Outcome) map[string]GlickoRating {
	out := make(map[string]GlickoRating, len(ratings))
	for name, r := range ratings {
		out[name] = r
	}
	for _, o := range outcomes {
		for _, name := range [2]string{o.A, o.B} {
			if _, ok := out[name]; !ok {
				out[name] = g.Initial
			}
		}
	}
	return out
}

// gameLess orders games by opponent rating, deviation, volatility, score.
func gameLess(a, b GlickoGame) bool {
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
