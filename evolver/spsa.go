package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"crucible/engine"
	"crucible/evolver/spsa"
)

// SPSAOptions tunes SPSA's gains (package evolver/spsa, fishtest's and
// OpenBench's schedule): per parameter by name, the final step CEnd
// (default (max − min)/20) and learning rate REndBy (else REnd, default
// 0.002); the decay exponents Alpha and Gamma (0.602, 0.101) and the
// stability constant A as the share ARatio of the planned iterations (0.1).
// Zero fields take these defaults.
type SPSAOptions struct {
	CEnd                 map[string]float64
	REnd                 float64
	REndBy               map[string]float64
	Alpha, Gamma, ARatio float64
}

// newSPSAOptions returns the options with their flags' defaults.
func newSPSAOptions() *SPSAOptions {
	return &SPSAOptions{REnd: spsa.DefaultREnd, Alpha: spsa.DefaultAlpha, Gamma: spsa.DefaultGamma, ARatio: spsa.DefaultARatio}
}

// resolved fills in every parameter's c_end and the defaults.
func (o *SPSAOptions) resolved(r setup) Options {
	c := *o
	d := newSPSAOptions()
	if c.REnd == 0 && len(c.REndBy) == 0 {
		c.REnd = d.REnd
	}
	if c.Alpha == 0 {
		c.Alpha = d.Alpha
	}
	if c.Gamma == 0 {
		c.Gamma = d.Gamma
	}
	if c.ARatio == 0 {
		c.ARatio = d.ARatio
	}
	c.CEnd = map[string]float64{}
	for _, p := range r.space.Base.Schema {
		c.CEnd[p.Name] = (p.Max - p.Min) / spsa.CEndDivisor
	}
	for name, v := range o.CEnd {
		c.CEnd[name] = v
	}
	c.REndBy = map[string]float64{}
	for name, v := range o.REndBy {
		c.REndBy[name] = v
	}
	return &c
}

// params returns the tuner's parameters in the normalised space, or a
// FieldError naming the flag of a name the schema lacks or a bad value.
func (o *SPSAOptions) params(space paramSpace) ([]spsa.Param, error) {
	schema := space.Base.Schema
	var names []string
	known := map[string]bool{}
	for _, p := range schema {
		names = append(names, p.Name)
		known[p.Name] = true
	}
	for flag, m := range map[string]map[string]float64{"spsa-c-end": o.CEnd, "spsa-r-end": o.REndBy} {
		for _, name := range sortedKeys(m) {
			if !known[name] {
				return nil, &FieldError{Field: flag, Value: name, Reason: fmt.Sprintf("is not a parameter of %s (its parameters: %s)", space.Base.Name, strings.Join(names, ", "))}
			}
		}
	}
	out := make([]spsa.Param, len(schema))
	for i, p := range schema {
		span := p.Max - p.Min
		cEnd, ok := o.CEnd[p.Name]
		if !ok {
			cEnd = span / spsa.CEndDivisor
		}
		rEnd, ok := o.REndBy[p.Name]
		if !ok {
			rEnd = o.REnd
		}
		switch {
		case !(cEnd > 0) || cEnd > span:
			return nil, &FieldError{Field: "spsa-c-end", Value: fmt.Sprintf("%s=%g", p.Name, cEnd), Reason: fmt.Sprintf("is outside (0, %g], the parameter's range %s", span, p.Range())}
		case !(rEnd >= 0) || math.IsInf(rEnd, 0):
			return nil, &FieldError{Field: "spsa-r-end", Value: fmt.Sprintf("%s=%g", p.Name, rEnd), Reason: "is negative or not a number"}
		}
		out[i] = spsa.Param{Min: 0, Max: 1, CEnd: cEnd / span, REnd: rEnd}
		if p.Integer {
			// OpenBench: an integer's step is at least half a unit.
			out[i].MinC = 0.5 / span
		}
	}
	return out, nil
}

func (o *SPSAOptions) build(r setup) (algorithm, error) {
	c := o.resolved(r).(*SPSAOptions)
	return newSPSA(r.space, r.population, r.seed, *c)
}

// spsaAlgo runs SPSA in the evolver's generations. A generation asks for
// the current point θ and population/2 pairs θ ± c_k·Δ, each pair one
// iteration of SPSA with its own flips; every proposal plays the same
// fresh seeds in both seat orders against the same opponents, so the two
// sides of a pair play paired games. A pair's result is the plus side's
// wins less its losses as fishtest counts them, here over the paired
// games: the games each side played times the difference of the two
// sides' fitness (seed-adjusted score rates, measured on those same
// games), so a paired game the plus side won and the minus side lost
// counts 1, and one both won counts 0. θ is then moved by every pair of
// the generation (spsa.Tuner.Update).
//
// The iterations are numbered across the run (generation g's pairs are
// g·P+1 to g·P+P) and planned for the search's horizon (see scheduled)
// times P. θ lives in the normalised space, clipped to [0,1]; its points
// are clamped and integer parameters rounded as every algorithm's are when
// played. θ itself is measured every generation, so that the point SPSA
// converges to competes in the hall of fame and the final stages.
type spsaAlgo struct {
	space   paramSpace
	pairs   int
	seed    uint64
	tuner   *spsa.Tuner
	horizon int
	games   float64
	pending []spsa.Pair
	gen     int
	note    string
}

// spsaFallbackHorizon is the horizon, in generations, of a run whose
// length is not known yet (a budget's first generation): the evolve
// command's default generation limit.
const spsaFallbackHorizon = 30

func newSPSA(space paramSpace, population int, seed uint64, opt SPSAOptions) (*spsaAlgo, error) {
	params, err := opt.params(space)
	if err != nil {
		return nil, err
	}
	if population < 2 {
		return nil, fmt.Errorf("spsa: population %d holds no pair (at least 2)", population)
	}
	t, err := spsa.New(params, spsa.Schedule{Alpha: opt.Alpha, Gamma: opt.Gamma, ARatio: opt.ARatio}, space.Origin())
	if err != nil {
		return nil, err
	}
	return &spsaAlgo{space: space, pairs: population / 2, seed: seed, tuner: t, gen: -1}, nil
}

// Name returns "spsa".
func (s *spsaAlgo) Name() string { return "spsa" }

// Horizon sets the generations the gains are planned for.
func (s *spsaAlgo) Horizon(generations int) {
	if generations > 0 {
		s.horizon = generations
	}
}

// TellGames sets the games each proposal played in the generation.
func (s *spsaAlgo) TellGames(gen int, games float64) { s.games = games }

// Note describes θ and the gains after the generation.
func (s *spsaAlgo) Note() string { return s.note }

func (s *spsaAlgo) planned(gen int) int {
	h := s.horizon
	if h == 0 {
		h = spsaFallbackHorizon
	}
	return max(h, gen+1) * s.pairs
}

// Ask returns θ and the generation's pairs.
func (s *spsaAlgo) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
	if s.pending != nil {
		return nil, fmt.Errorf("spsa: generation %d asked before generation %d was told", gen, s.gen)
	}
	seed := engine.Mix(engine.Mix(s.seed, 0x73707361), uint64(gen))
	rnd := rand.New(rand.NewPCG(seed, engine.Mix(seed, 1)))
	theta := append([]float64(nil), s.tuner.Theta...)
	parents := []string{s.space.ID(theta)}
	out := []proposal{{X: theta}}
	n := s.planned(gen)
	s.pending = make([]spsa.Pair, s.pairs)
	for j := range s.pending {
		p := s.tuner.Perturb(gen*s.pairs+j+1, n, rnd)
		s.pending[j] = p
		out = append(out, proposal{X: p.Plus, Parents: parents}, proposal{X: p.Minus, Parents: parents})
	}
	s.gen, s.games = gen, 0
	return out, nil
}

// Tell moves θ by each pair's result.
func (s *spsaAlgo) Tell(gen int, fitness []float64) error {
	if s.pending == nil || gen != s.gen {
		return fmt.Errorf("spsa: generation %d told without being asked", gen)
	}
	if len(fitness) != 1+2*len(s.pending) {
		return fmt.Errorf("spsa: told %d fitness values for θ and %d pairs", len(fitness), len(s.pending))
	}
	if !(s.games > 0) {
		return fmt.Errorf("spsa: generation %d told without its games", gen)
	}
	var sum float64
	for j, p := range s.pending {
		res := s.games * (fitness[1+2*j] - fitness[2+2*j])
		sum += math.Abs(res)
		s.tuner.Update(p, res)
	}
	first, last := s.pending[0], s.pending[len(s.pending)-1]
	var parts []string
	for i, p := range s.space.Base.Schema {
		parts = append(parts, fmt.Sprintf("%s %.4g", p.Name, p.Min+s.tuner.Theta[i]*(p.Max-p.Min)))
	}
	c, r := first.C[0]*(s.space.Base.Schema[0].Max-s.space.Base.Schema[0].Min), first.R[0]
	s.note = fmt.Sprintf("θ %s; iterations %d-%d of %d, %s c %.3g R %.3g, mean |W-L| %.2g over %.0f paired games",
		strings.Join(parts, ", "), first.K, last.K, s.planned(gen), s.space.Base.Schema[0].Name, c, r, sum/float64(len(s.pending)), s.games)
	s.pending = nil
	return nil
}

// spsaState is what a checkpoint holds: θ and the horizon (the iteration
// numbers follow from the generations done).
type spsaState struct {
	Theta   []float64 `json:"theta"`
	Horizon int       `json:"horizon,omitempty"`
}

// State returns θ and the horizon.
func (s *spsaAlgo) State() (json.RawMessage, error) {
	return json.Marshal(spsaState{Theta: s.tuner.Theta, Horizon: s.horizon})
}

// Restore continues from θ and the horizon of a checkpoint.
func (s *spsaAlgo) Restore(done int, state json.RawMessage) error {
	var st spsaState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("spsa: checkpoint state: %w", err)
	}
	if len(st.Theta) != s.space.Dim() {
		return fmt.Errorf("spsa: checkpoint θ has %d coordinates, the space %d", len(st.Theta), s.space.Dim())
	}
	for i, v := range st.Theta {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("spsa: checkpoint θ coordinate %d is %v, outside [0,1]", i, v)
		}
	}
	copy(s.tuner.Theta, st.Theta)
	s.horizon, s.pending, s.gen = max(0, st.Horizon), nil, done-1
	return nil
}

// Close releases nothing.
func (s *spsaAlgo) Close() error { return nil }
