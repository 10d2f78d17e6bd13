package stats

import (
	"errors"
	"fmt"
	"math"
)

// Skill is a Weng–Lin rating: a normal belief about a player's skill.
type Skill struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Ordinal is a conservative skill the player very likely exceeds: Mu - 3
// Sigma, openskill's leaderboard figure.
func (s Skill) Ordinal() float64 { return s.Mu - 3*s.Sigma }

// WengLinModel chooses how a game's ranking is explained.
type WengLinModel int

const (
	// PlackettLuce: the ranking is a sequence of choices, the winner out
	// of everyone, the second out of the rest... (Weng and Lin's
	// algorithm 4). openskill's default.
	PlackettLuce WengLinModel = iota
	// BradleyTerryFull: every pair of teams is compared (algorithm 1 with
	// full pairing).
	BradleyTerryFull
)

// WengLin is the Bayesian online rating of Weng and Lin ("A Bayesian
// approximation method for online ranking", JMLR 2011) as openskill
// implements it (openskill.py 6), for games of two or more teams (a
// free-for-all: teams of one) ranked by their finish. Before a game every
// sigma grows by Tau (sigma² + tau²); the game then moves each team's
// mean by its surprise and shrinks its variance, a team's change shared
// among its players in proportion to their variance; a variance never
// falls below Kappa times its previous value.
type WengLin struct {
	// Mu and Sigma are a new player's rating (25 and 25/3).
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
	// Beta is the spread of a performance around the skill (Sigma/2).
	Beta float64 `json:"beta"`
	// Kappa is the smallest share of its variance a player keeps
	// (0.0001).
	Kappa float64 `json:"kappa"`
	// Tau is the additive dynamics: how much sigma grows before each game
	// (25/300), so ratings keep moving.
	Tau float64 `json:"tau"`
	// Model is PlackettLuce (the default) or BradleyTerryFull.
	Model WengLinModel `json:"model"`
	// LimitSigma keeps a player's sigma from growing over a game (the
	// tau inflation can otherwise exceed the game's shrinkage).
	LimitSigma bool `json:"limit_sigma"`
}

// DefaultWengLin is openskill's model: mu 25, sigma 25/3, beta 25/6,
// kappa 0.0001, tau 25/300, Plackett–Luce.
func DefaultWengLin() WengLin {
	return WengLin{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300}
}

// Initial is a new player's rating.
func (w WengLin) Initial() Skill { return Skill{Mu: w.Mu, Sigma: w.Sigma} }

// RateFFA rates a free-for-all: players[i] finished with ranks[i] (lower
// is better, equal ranks tie; nil means the order given is the finish).
func (w WengLin) RateFFA(players []Skill, ranks []float64) ([]Skill, error) {
	teams := make([][]Skill, len(players))
	for i, p := range players {
		teams[i] = []Skill{p}
	}
	out, err := w.Rate(teams, ranks)
	if err != nil {
		return nil, err
	}
	res := make([]Skill, len(out))
	for i, t := range out {
		res[i] = t[0]
	}
	return res, nil
}

// Rate rates one game of teams: teams[i] finished with ranks[i] (lower is
// better, equal ranks tie; nil means the order given is the finish). It
// returns the new ratings in the same shape.
func (w WengLin) Rate(teams [][]Skill, ranks []float64) ([][]Skill, error) {
	if err := w.validate(); err != nil {
		return nil, err
	}
	k := len(teams)
	if k < 2 {
		return nil, fmt.Errorf("%d teams, want at least 2", k)
	}
	if ranks == nil {
		ranks = make([]float64, k)
		for i := range ranks {
			ranks[i] = float64(i + 1)
		}
	}
	if len(ranks) != k {
		return nil, fmt.Errorf("%d ranks for %d teams", len(ranks), k)
	}
	for i, r := range ranks {
		if math.IsNaN(r) {
			return nil, fmt.Errorf("rank %d is NaN", i)
		}
	}
	type teamRating struct {
		mu, sigma2 float64
	}
	in := make([][]Skill, k)
	tr := make([]teamRating, k)
	for i, team := range teams {
		if len(team) == 0 {
			return nil, fmt.Errorf("team %d has no player", i)
		}
		in[i] = make([]Skill, len(team))
		for j, p := range team {
			if !(p.Sigma > 0) || math.IsInf(p.Sigma, 0) || math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) {
				return nil, fmt.Errorf("team %d player %d: mu %v sigma %v, want finite with sigma > 0", i, j, p.Mu, p.Sigma)
			}
			s := math.Sqrt(p.Sigma*p.Sigma + w.Tau*w.Tau)
			in[i][j] = Skill{Mu: p.Mu, Sigma: s}
			tr[i].mu += p.Mu
			tr[i].sigma2 += s * s
		}
	}
	beta2 := w.Beta * w.Beta
	omega := make([]float64, k)
	delta := make([]float64, k)
	switch w.Model {
	case PlackettLuce:
		c := 0.0
		for _, t := range tr {
			c += t.sigma2 + beta2
		}
		c = math.Sqrt(c)
		// exp(mu/c), shifted by the largest exponent so nothing overflows;
		// only ratios are used.
		top := math.Inf(-1)
		for _, t := range tr {
			top = math.Max(top, t.mu/c)
		}
		e := make([]float64, k)
		for i, t := range tr {
			e[i] = math.Exp(t.mu/c - top)
		}
		sumQ := make([]float64, k)  // over the teams ranked at or below q
		count := make([]float64, k) // teams tied with q
		for q := range k {
			for s := range k {
				if ranks[s] >= ranks[q] {
					sumQ[q] += e[s]
				}
				if ranks[s] == ranks[q] {
					count[q]++
				}
			}
		}
		for i, t := range tr {
			var om, de float64
			for q := range k {
				if ranks[q] > ranks[i] {
					continue
				}
				ratio := e[i] / sumQ[q]
				de += ratio * (1 - ratio) / count[q]
				if q == i {
					om += (1 - ratio) / count[q]
				} else {
					om -= ratio / count[q]
				}
			}
			gamma := math.Sqrt(t.sigma2) / c
			omega[i] = om * t.sigma2 / c
			delta[i] = de * t.sigma2 / (c * c) * gamma
		}
	case BradleyTerryFull:
		for i, ti := range tr {
			for q, tq := range tr {
				if q == i {
					continue
				}
				ciq := math.Sqrt(ti.sigma2 + tq.sigma2 + 2*beta2)
				p := 1 / (1 + math.Exp((tq.mu-ti.mu)/ciq))
				s := 0.0
				switch {
				case ranks[q] > ranks[i]:
					s = 1
				case ranks[q] == ranks[i]:
					s = 0.5
				}
				omega[i] += ti.sigma2 / ciq * (s - p)
				gamma := math.Sqrt(ti.sigma2) / ciq
				delta[i] += gamma * ti.sigma2 / (ciq * ciq) * p * (1 - p)
			}
		}
	default:
		return nil, fmt.Errorf("model %d is not PlackettLuce or BradleyTerryFull", w.Model)
	}
	out := make([][]Skill, k)
	for i, team := range in {
		out[i] = make([]Skill, len(team))
		for j, p := range team {
			share := p.Sigma * p.Sigma / tr[i].sigma2
			sigma := p.Sigma * math.Sqrt(math.Max(1-share*delta[i], w.Kappa))
			if w.LimitSigma {
				sigma = math.Min(sigma, teams[i][j].Sigma)
			}
			out[i][j] = Skill{Mu: p.Mu + share*omega[i], Sigma: sigma}
		}
	}
	return out, nil
}

// validate checks the model's parameters.
func (w WengLin) validate() error {
	switch {
	case !(w.Beta > 0) || math.IsInf(w.Beta, 0):
		return fmt.Errorf("beta %v, want > 0 (DefaultWengLin has 25/6)", w.Beta)
	case !(w.Kappa > 0 && w.Kappa <= 1):
		return fmt.Errorf("kappa %v, want in (0, 1]", w.Kappa)
	case !(w.Tau >= 0) || math.IsInf(w.Tau, 0):
		return fmt.Errorf("tau %v, want >= 0", w.Tau)
	case w.Model != PlackettLuce && w.Model != BradleyTerryFull:
		return errors.New("model is not PlackettLuce or BradleyTerryFull")
	}
	return nil
}
