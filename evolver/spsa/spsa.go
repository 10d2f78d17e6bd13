// Package spsa is simultaneous perturbation stochastic approximation
// (Spall 1992) as the chess engine testers run it: fishtest
// (official-stockfish/fishtest, server/fishtest/spsa_handler.py and the
// parameter parsing of its run form) and OpenBench (AndyGrant/OpenBench,
// OpenBench/spsa_utils.py and workloads/create_workload.py, whose code
// says it takes fishtest's logic verbatim).
//
// Each parameter has its own final step c_end and final learning rate
// r_end. For a run planned for N iterations, with A = ARatio·N:
//
//	c   = c_end · N^γ                      a = r_end · c_end² · (A + N)^α
//	c_k = max(c / k^γ, MinC)               a_k = a / (A + k)^α
//	R_k = a_k / c_k²                       (k = 1, 2, ... the iteration)
//
// so that c_N = c_end and R_N = r_end at the planned end. An iteration
// draws a flip Δ_i = ±1 per parameter, plays θ + c_k·Δ against θ − c_k·Δ
// and moves every parameter by R_k · c_k · result · Δ_i, result being the
// plus side's wins less its losses, clipped to the parameter's bounds.
// The defaults are those fishtest's runs are started with: α 0.602, γ
// 0.101 (Spall's), A = 0.1·N, and, per parameter, c_end = (max − min)/20
// and r_end = 0.002, the values Stockfish's tune.cpp prints "ready to be
// copy-pasted in fishtest". MinC is OpenBench's floor of the step of an
// integer parameter: half a unit, so that the two sides round to
// different values.
package spsa

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// The defaults of fishtest's and OpenBench's run forms.
const (
	DefaultAlpha  = 0.602
	DefaultGamma  = 0.101
	DefaultARatio = 0.1
	DefaultREnd   = 0.002
	// CEndDivisor divides a parameter's range into its default c_end
	// (Stockfish's tune.cpp: (max − min) / 20).
	CEndDivisor = 20
)

// Param is one tuned parameter.
type Param struct {
	// Min and Max bound θ (updates are clipped to them).
	Min, Max float64
	// CEnd is the step at the planned end (positive) and REnd the
	// learning rate there (at least 0).
	CEnd, REnd float64
	// MinC is the smallest step (0: none; OpenBench's half unit for an
	// integer parameter).
	MinC float64
}

// Schedule holds the exponents of the gain sequences and A's share of
// the planned iterations. Zero fields take the defaults.
type Schedule struct {
	Alpha, Gamma, ARatio float64
}

func (s Schedule) withDefaults() Schedule {
	if s.Alpha == 0 {
		s.Alpha = DefaultAlpha
	}
	if s.Gamma == 0 {
		s.Gamma = DefaultGamma
	}
	if s.ARatio == 0 {
		s.ARatio = DefaultARatio
	}
	return s
}

// Gains returns c_k and R_k of p at iteration k (from 1) of a run planned
// for n iterations (n below k is taken as k: the run went on past its
// plan, and the gains go on decaying as at its end).
func (s Schedule) Gains(p Param, k, n int) (c, r float64) {
	s = s.withDefaults()
	k = max(k, 1)
	n = max(n, k)
	big := s.ARatio * float64(n)
	c0 := p.CEnd * math.Pow(float64(n), s.Gamma)
	a0 := p.REnd * p.CEnd * p.CEnd * math.Pow(big+float64(n), s.Alpha)
	c = math.Max(c0/math.Pow(float64(k), s.Gamma), p.MinC)
	r = a0 / math.Pow(big+float64(k), s.Alpha) / (c * c)
	return c, r
}

// Pair is one iteration's perturbation: the two points to play and what
// the update needs.
type Pair struct {
	// K is the iteration (from 1).
	K int `json:"k"`
	// Flip is Δ, C and R the step and learning rate of each parameter.
	Flip []float64 `json:"flip"`
	C    []float64 `json:"c"`
	R    []float64 `json:"r"`
	// Plus is θ + c·Δ and Minus θ − c·Δ, clipped to the bounds.
	Plus  []float64 `json:"plus"`
	Minus []float64 `json:"minus"`
}

// Tuner is the state of an SPSA run: the current point and the schedule.
type Tuner struct {
	Params   []Param
	Schedule Schedule
	// Theta is the current point, one value per parameter.
	Theta []float64
}

// New returns a tuner at start; an error names the parameter whose
// bounds, start or gains are out of order.
func New(params []Param, sched Schedule, start []float64) (*Tuner, error) {
	if len(start) != len(params) {
		return nil, fmt.Errorf("spsa: %d start values for %d parameters", len(start), len(params))
	}
	for i, p := range params {
		switch {
		case !(p.Min < p.Max):
			return nil, fmt.Errorf("spsa: parameter %d: min %v is not below max %v", i, p.Min, p.Max)
		case !(p.CEnd > 0) || math.IsInf(p.CEnd, 0):
			return nil, fmt.Errorf("spsa: parameter %d: c_end %v is not positive", i, p.CEnd)
		case !(p.REnd >= 0) || math.IsInf(p.REnd, 0):
			return nil, fmt.Errorf("spsa: parameter %d: r_end %v is negative", i, p.REnd)
		case p.MinC < 0:
			return nil, fmt.Errorf("spsa: parameter %d: smallest step %v is negative", i, p.MinC)
		}
	}
	s := sched.withDefaults()
	if !(s.Alpha > 0) || !(s.Gamma > 0) || !(s.ARatio >= 0) {
		return nil, fmt.Errorf("spsa: alpha %v and gamma %v must be positive and the A ratio %v at least 0", s.Alpha, s.Gamma, s.ARatio)
	}
	t := &Tuner{Params: params, Schedule: s, Theta: make([]float64, len(start))}
	for i, v := range start {
		t.Theta[i] = t.clip(i, v)
	}
	return t, nil
}

func (t *Tuner) clip(i int, v float64) float64 {
	return math.Min(math.Max(v, t.Params[i].Min), t.Params[i].Max)
}

// Perturb draws iteration k's flips from rnd and returns the pair to play
// for a run planned for n iterations.
func (t *Tuner) Perturb(k, n int, rnd *rand.Rand) Pair {
	d := len(t.Params)
	p := Pair{K: k, Flip: make([]float64, d), C: make([]float64, d), R: make([]float64, d),
		Plus: make([]float64, d), Minus: make([]float64, d)}
	for i, par := range t.Params {
		p.Flip[i] = 1
		if rnd.IntN(2) == 0 {
			p.Flip[i] = -1
		}
		p.C[i], p.R[i] = t.Schedule.Gains(par, k, n)
		p.Plus[i] = t.clip(i, t.Theta[i]+p.C[i]*p.Flip[i])
		p.Minus[i] = t.clip(i, t.Theta[i]-p.C[i]*p.Flip[i])
	}
	return p
}

// Update moves θ by the result of pair p (the plus side's wins less its
// losses): θ_i += R_i · c_i · result · Δ_i, clipped to the bounds.
func (t *Tuner) Update(p Pair, result float64) {
	for i := range t.Theta {
		t.Theta[i] = t.clip(i, t.Theta[i]+p.R[i]*p.C[i]*result*p.Flip[i])
	}
}
