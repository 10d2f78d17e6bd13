package evolver

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"crucible/engine"
)

// CMAOptions tunes CMA-ES. Zero fields take the documented defaults.
type CMAOptions struct {
	// Sigma is the initial step size in normalised units (default 0.2): the
	// first generation is drawn from N(defaults, Sigma² I).
	Sigma float64
	// Penalty scales the squared repair distance (from a sample to the
	// point of the box it is mirrored to), added to the value CMA-ES
	// minimises (default 0.1): the mean may leave the box, as the
	// optimum's side of a bound demands, but not wander far from it.
	Penalty float64
	// Stall is the number of generations without a better value within a
	// restart after which CMA-ES restarts with twice the population
	// (default 6).
	Stall int
	// MinSpread is the mean standard deviation of a generation's samples,
	// in normalised units, below which the distribution has collapsed and
	// CMA-ES restarts with twice the population (default 0.02).
	MinSpread float64
	// MaxPopulation caps the population the restarts double (default 4
	// times the initial population, at most MaxPopulation: a generation's
	// time grows with its population, and the search plans its budget
	// from the last generation's).
	MaxPopulation int
}

// Flags defines no flag: CMA-ES adapts its own step size and population.
func (o *CMAOptions) Flags(*flag.FlagSet) {}

// Identity is empty.
func (o *CMAOptions) Identity() []string { return nil }

func (o *CMAOptions) resolved(setup) Options { c := *o; return &c }

func (o *CMAOptions) build(r setup) (algorithm, error) {
	return newCMAES(r.space, r.population, r.seed, *o)
}

func (o CMAOptions) withDefaults(lambda int) CMAOptions {
	if o.Sigma == 0 {
		o.Sigma = 0.2
	}
	if o.Penalty == 0 {
		o.Penalty = 0.1
	}
	if o.Stall == 0 {
		o.Stall = 6
	}
	if o.MinSpread == 0 {
		o.MinSpread = 0.02
	}
	if o.MaxPopulation == 0 {
		o.MaxPopulation = min(4*lambda, MaxPopulation)
	}
	return o
}

// cmaES drives gonum's optimize.CmaEsChol one generation at a time: Ask
// collects the whole population of samples the method sends, the evolver
// measures them together on common seeds, and Tell hands all their fitness
// values back, after which the method updates its mean, Cholesky factor
// and step size.
//
// Bounds: the method samples the unbounded space; each sample is mirrored
// into the unit cube (reflected at 0 and 1, as often as needed) to give
// the point that is played, and the value told is the fitness less
// Penalty times the squared repair distance. A sample beyond a bound thus
// plays a distinct legal point near the bound instead of the bound itself
// (clamping made every sample beyond it the same genome, with the same
// fitness, so the distribution got no signal there and parked on the
// bound), and the mean can cross a bound when the optimum lies at or near
// it.
//
// Restarts (IPOP-CMA-ES, Auger and Hansen 2005): when a restart has not
// improved its best value for Stall generations, when the samples'
// spread falls below MinSpread, or when gonum reports convergence, the
// method restarts around the best point told so far with the initial step
// size and twice the population (up to MaxPopulation). The generation's
// note says so.
//
// gonum keeps its state unexported, so a checkpoint holds what is needed
// to rebuild it exactly instead: the values told in every generation.
// Restore replays them into a fresh method; since the samples of generation
// g are drawn from a PCG source seeded by the run seed and g, and every
// restart is decided from the told values, the replay reaches the same
// mean, covariance, step size and population bit for bit.
type cmaES struct {
	space   paramSpace
	lambda0 int
	lambda  int
	seed    uint64
	opt     CMAOptions

	told    [][]float64 // raw values told (minimised) per generation
	centre  []float64   // mean of the current restart
	run     *cmaRun
	pending []optimize.Task
	last    [][]float64 // points played of the pending generation (mirrored)
	raw     [][]float64 // samples of the pending generation (unbounded)
	gen     int

	restarts  int
	bestRaw   float64   // best value of the current restart
	sinceBest int       // generations of the restart since it improved
	spread    float64   // mean standard deviation of the last samples
	bestX     []float64 // best point told so far, over all restarts
	bestAll   float64
	note      string
}

// cmaRun is one instance of gonum's method running in its goroutine.
type cmaRun struct {
	method *optimize.CmaEsChol
	ops    chan optimize.Task
	res    chan optimize.Task
	waitOp bool // the method has sent a MajorIteration and awaits our reply
	done   bool // the method has converged and must be restarted
}

// newCMAES returns CMA-ES over space with lambda samples per generation
// (lambda 0 takes gonum's default 4 + 3 ln(dim)).
func newCMAES(space paramSpace, lambda int, seed uint64, opt CMAOptions) (*cmaES, error) {
	if lambda == 0 {
		lambda = 4 + int(3*math.Log(float64(space.Dim())))
	}
	opt = opt.withDefaults(lambda)
	if lambda < 4 {
		return nil, fmt.Errorf("cmaes: population %d is below the smallest CMA-ES can adapt with, 4", lambda)
	}
	if !(opt.Sigma > 0 && opt.Sigma <= 1) {
		return nil, fmt.Errorf("cmaes: initial step size %v is outside (0, 1]", opt.Sigma)
	}
	if opt.Penalty < 0 || opt.Stall < 1 || opt.MinSpread < 0 {
		return nil, fmt.Errorf("cmaes: penalty %v, stall %d and minimum spread %v must be >= 0, >= 1 and >= 0", opt.Penalty, opt.Stall, opt.MinSpread)
	}
	c := &cmaES{space: space, lambda0: lambda, seed: seed, opt: opt}
	c.reset()
	return c, nil
}

// reset puts the algorithm back before its first generation.
func (c *cmaES) reset() {
	c.lambda, c.centre = c.lambda0, c.space.Origin()
	c.told, c.pending, c.last, c.raw = nil, nil, nil, nil
	c.restarts, c.bestRaw, c.sinceBest, c.spread = 0, math.Inf(1), 0, math.Inf(1)
	c.bestX, c.bestAll, c.note = nil, math.Inf(1), ""
}

// Name returns "cmaes".
func (c *cmaES) Name() string { return "cmaes" }

// Note says when the generation just asked began a restart, and where the
// distribution's samples are centred (in parameter units, unclamped: a
// mean beyond a bound shows as a value outside the parameter's range).
func (c *cmaES) Note() string { return c.note }

// Restarts is the number of restarts so far and Population the current
// population.
func (c *cmaES) Restarts() int   { return c.restarts }
func (c *cmaES) Population() int { return c.lambda }

func (c *cmaES) src(gen int) rand.Source {
	s := engine.Mix(engine.Mix(c.seed, 0x636d61), uint64(gen))
	return rand.NewPCG(s, engine.Mix(s, 1))
}

// start launches a fresh method centred on c.centre; its first population
// is drawn from the source of generation gen.
func (c *cmaES) start(gen int) {
	dim := c.space.Dim()
	diag := mat.NewDiagDense(dim, nil)
	for i := 0; i < dim; i++ {
		diag.SetDiag(i, c.opt.Sigma*c.opt.Sigma)
	}
	var chol mat.Cholesky
	if !chol.Factorize(diag) {
		panic("cmaes: a positive diagonal failed to factorise")
	}
	m := &optimize.CmaEsChol{
		InitStepSize: c.opt.Sigma,
		Population:   c.lambda,
		InitCholesky: &chol,
		Src:          c.src(gen),
	}
	n := m.Init(dim, c.lambda)
	tasks := make([]optimize.Task, n)
	for i := range tasks {
		tasks[i] = optimize.Task{ID: i, Location: &optimize.Location{X: append([]float64(nil), c.centre...)}}
	}
	r := &cmaRun{method: m, ops: make(chan optimize.Task, c.lambda+2), res: make(chan optimize.Task, c.lambda+2)}
	go m.Run(r.ops, r.res, tasks)
	c.run = r
	c.bestRaw, c.sinceBest, c.spread = math.Inf(1), 0, math.Inf(1)
}

// stop ends the running method and waits for its goroutine to finish.
func (c *cmaES) stop() {
	if c.run == nil {
		return
	}
	c.run.res <- optimize.Task{Op: optimize.PostIteration}
	close(c.run.res)
	for range c.run.ops {
	}
	c.run = nil
}

// Ask returns the lambda samples of generation gen, mirrored into the box.
func (c *cmaES) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
	pts, err := c.ask(gen)
	if err != nil {
		return nil, err
	}
	out := make([]proposal, len(pts))
	var parents []string
	if len(h.Hall) > 0 {
		parents = []string{h.Hall[0].ID}
	}
	for i, x := range pts {
		out[i] = proposal{X: x, Parents: parents}
	}
	return out, nil
}

// restartReason says why the running method must restart, "" when it
// need not.
func (c *cmaES) restartReason() string {
	switch {
	case c.run == nil:
		return ""
	case c.run.done:
		return "converged"
	case c.spread < c.opt.MinSpread:
		return fmt.Sprintf("spread %.3g below %.3g", c.spread, c.opt.MinSpread)
	case c.sinceBest >= c.opt.Stall:
		return fmt.Sprintf("no better value in %d generations", c.sinceBest)
	}
	return ""
}

func (c *cmaES) ask(gen int) ([][]float64, error) {
	if c.pending != nil {
		return nil, fmt.Errorf("cmaes: generation %d asked before generation %d was told", gen, c.gen)
	}
	c.note = ""
	if why := c.restartReason(); why != "" {
		c.stop()
		c.restarts++
		c.lambda = min(2*c.lambda, c.opt.MaxPopulation)
		c.centre = c.space.Origin()
		if c.bestX != nil {
			c.centre = append([]float64(nil), c.bestX...)
		}
		c.note = fmt.Sprintf("restart %d (%s): population %d around the best point so far", c.restarts, why, c.lambda)
	}
	if c.run == nil {
		c.start(gen)
	} else if c.run.waitOp {
		// Reply to the MajorIteration; the method then draws the next
		// population from the source of this generation.
		c.run.method.Src = c.src(gen)
		c.run.waitOp = false
		c.run.res <- optimize.Task{ID: -1, Op: optimize.MajorIteration}
	}
	c.pending = make([]optimize.Task, c.lambda)
	c.last = make([][]float64, c.lambda)
	c.raw = make([][]float64, c.lambda)
	for i := 0; i < c.lambda; i++ {
		t, ok := <-c.run.ops
		if !ok || t.Op != optimize.FuncEvaluation {
			return nil, fmt.Errorf("cmaes: method sent %v instead of an evaluation", t.Op)
		}
		c.pending[t.ID] = t
		c.raw[t.ID] = append([]float64(nil), t.X...)
		c.last[t.ID] = mirror01(append([]float64(nil), t.X...))
	}
	c.gen = gen
	mean := c.sampleMean()
	var parts []string
	for i, p := range c.space.Base.Schema {
		parts = append(parts, fmt.Sprintf("%s %.3g", p.Name, p.Min+mean[i]*(p.Max-p.Min)))
	}
	if c.note != "" {
		c.note += "; "
	}
	c.note += "samples' mean " + strings.Join(parts, ", ")
	return c.last, nil
}

// sampleMean is the mean of the pending generation's unbounded samples.
func (c *cmaES) sampleMean() []float64 {
	mean := make([]float64, c.space.Dim())
	for _, y := range c.raw {
		for i, v := range y {
			mean[i] += v / float64(len(c.raw))
		}
	}
	return mean
}

// Tell hands the generation's fitness to the method (negated, since gonum
// minimises, plus the repair penalty) and lets it update.
func (c *cmaES) Tell(gen int, fitness []float64) error {
	if len(fitness) != len(c.pending) {
		return fmt.Errorf("cmaes: told %d fitness values for %d samples", len(fitness), len(c.pending))
	}
	raw := make([]float64, len(fitness))
	for i, f := range fitness {
		raw[i] = -f + c.opt.Penalty*sqDist(c.raw[i], c.last[i])
	}
	return c.tellRaw(gen, raw)
}

func (c *cmaES) tellRaw(gen int, raw []float64) error {
	if c.pending == nil || gen != c.gen {
		return fmt.Errorf("cmaes: generation %d told without being asked", gen)
	}
	if len(raw) != len(c.pending) {
		return fmt.Errorf("cmaes: generation %d has %d values for %d samples", gen, len(raw), len(c.pending))
	}
	best := 0
	for i, t := range c.pending {
		if raw[i] < raw[best] {
			best = i
		}
		t.F = raw[i]
		c.run.res <- t
	}
	if raw[best] < c.bestAll {
		c.bestAll, c.bestX = raw[best], append([]float64(nil), c.last[best]...)
	}
	if raw[best] < c.bestRaw {
		c.bestRaw, c.sinceBest = raw[best], 0
	} else {
		c.sinceBest++
	}
	c.spread = sampleSpread(c.raw)
	op, ok := <-c.run.ops
	switch {
	case !ok:
		return fmt.Errorf("cmaes: method stopped unexpectedly")
	case op.Op == optimize.MajorIteration:
		c.run.waitOp = true
	case op.Op == optimize.MethodDone:
		c.run.done = true
	default:
		return fmt.Errorf("cmaes: method sent %v after a generation", op.Op)
	}
	c.told = append(c.told, raw)
	c.pending = nil
	return nil
}

// Close stops gonum's goroutine.
func (c *cmaES) Close() error {
	c.stop()
	return nil
}
