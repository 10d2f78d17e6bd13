package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"crucible/engine"
)

// CMAOptions tunes CMA-ES. Zero fields take the documented defaults.
type CMAOptions struct {
	// Sigma is the initial step size in normalised units (default 0.2): the
	// first generation is drawn from N(defaults, Sigma² I).
	Sigma float64
	// Penalty scales the squared distance of a sample from the unit cube,
	// subtracted from its fitness so the distribution stays inside the
	// legal box (default 1).
	Penalty float64
}

func (o CMAOptions) withDefaults() CMAOptions {
	if o.Sigma == 0 {
		o.Sigma = 0.2
	}
	if o.Penalty == 0 {
		o.Penalty = 1
	}
	return o
}

// CMAES drives gonum's optimize.CmaEsChol one generation at a time: Ask
// collects the whole population of samples the method sends, the evolver
// measures them together on common seeds, and Tell hands all their fitness
// values back, after which the method updates its mean, Cholesky factor
// and step size.
//
// gonum keeps that state unexported, so a checkpoint holds what is needed
// to rebuild it exactly instead: the values told in every generation.
// Restore replays them into a fresh method; since the samples of generation
// g are drawn from a PCG source seeded by the run seed and g, the replay
// reaches the same mean, covariance and step size bit for bit. When the
// distribution collapses (gonum reports convergence) the method restarts
// around the best sample of the last generation with the initial step
// size; the replay repeats that too.
type CMAES struct {
	space  Space
	lambda int
	seed   uint64
	opt    CMAOptions

	told    [][]float64 // raw values told (minimised) per generation
	centre  []float64   // mean of the current restart
	run     *cmaRun
	pending []optimize.Task
	last    [][]float64 // points of the pending generation
	gen     int
}

// cmaRun is one instance of gonum's method running in its goroutine.
type cmaRun struct {
	method *optimize.CmaEsChol
	ops    chan optimize.Task
	res    chan optimize.Task
	waitOp bool // the method has sent a MajorIteration and awaits our reply
	done   bool // the method has converged and must be restarted
	bestX  []float64
}

// NewCMAES returns CMA-ES over space with lambda samples per generation
// (lambda 0 takes gonum's default 4 + 3 ln(dim)).
func NewCMAES(space Space, lambda int, seed uint64, opt CMAOptions) (*CMAES, error) {
	opt = opt.withDefaults()
	if lambda == 0 {
		lambda = 4 + int(3*math.Log(float64(space.Dim())))
	}
	if lambda < 4 {
		return nil, fmt.Errorf("cmaes: population %d is below the smallest CMA-ES can adapt with, 4", lambda)
	}
	if !(opt.Sigma > 0 && opt.Sigma <= 1) {
		return nil, fmt.Errorf("cmaes: initial step size %v is outside (0, 1]", opt.Sigma)
	}
	return &CMAES{space: space, lambda: lambda, seed: seed, opt: opt, centre: space.Origin()}, nil
}

// Name returns "cmaes".
func (c *CMAES) Name() string { return "cmaes" }

func (c *CMAES) src(gen int) rand.Source {
	s := engine.Mix(engine.Mix(c.seed, 0x636d61), uint64(gen))
	return rand.NewPCG(s, engine.Mix(s, 1))
}

// start launches a fresh method centred on c.centre; its first population
// is drawn from the source of generation gen.
func (c *CMAES) start(gen int) {
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
}

// stop ends the running method and waits for its goroutine to finish.
func (c *CMAES) stop() {
	if c.run == nil {
		return
	}
	c.run.res <- optimize.Task{Op: optimize.PostIteration}
	close(c.run.res)
	for range c.run.ops {
	}
	c.run = nil
}

// Ask returns the lambda samples of generation gen.
func (c *CMAES) Ask(ctx context.Context, gen int, h History) ([]Proposal, error) {
	pts, err := c.ask(gen)
	if err != nil {
		return nil, err
	}
	out := make([]Proposal, len(pts))
	var parents []string
	if len(h.Hall) > 0 {
		parents = []string{h.Hall[0].ID}
	}
	for i, x := range pts {
		out[i] = Proposal{X: x, Parents: parents}
	}
	return out, nil
}

func (c *CMAES) ask(gen int) ([][]float64, error) {
	if c.pending != nil {
		return nil, fmt.Errorf("cmaes: generation %d asked before generation %d was told", gen, c.gen)
	}
	if c.run != nil && c.run.done {
		c.centre = c.run.bestX
		c.stop()
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
	for i := 0; i < c.lambda; i++ {
		t, ok := <-c.run.ops
		if !ok || t.Op != optimize.FuncEvaluation {
			return nil, fmt.Errorf("cmaes: method sent %v instead of an evaluation", t.Op)
		}
		c.pending[t.ID] = t
		c.last[t.ID] = append([]float64(nil), t.X...)
	}
	c.gen = gen
	return c.last, nil
}

// Tell hands the generation's fitness to the method (negated, since gonum
// minimises, less the out-of-box penalty) and lets it update.
func (c *CMAES) Tell(gen int, fitness []float64) error {
	if len(fitness) != len(c.pending) {
		return fmt.Errorf("cmaes: told %d fitness values for %d samples", len(fitness), len(c.pending))
	}
	raw := make([]float64, len(fitness))
	for i, f := range fitness {
		raw[i] = -f + c.opt.Penalty*outside(c.last[i])
	}
	return c.tellRaw(gen, raw)
}

func (c *CMAES) tellRaw(gen int, raw []float64) error {
	if c.pending == nil || gen != c.gen {
		return fmt.Errorf("cmaes: generation %d told without being asked", gen)
	}
	best := 0
	for i, t := range c.pending {
		if raw[i] < raw[best] {
			best = i
		}
		t.F = raw[i]
		c.run.res <- t
	}
	c.run.bestX = append([]float64(nil), c.last[best]...)
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

type cmaState struct {
	Lambda int         `json:"lambda"`
	Told   [][]float64 `json:"told"`
	// Last is the final generation's samples, checked on replay.
	Last [][]float64 `json:"last,omitempty"`
}

// State returns the values told so far (and the last samples as a check).
func (c *CMAES) State() (json.RawMessage, error) {
	var last [][]float64
	if len(c.told) > 0 {
		last = c.last
	}
	return json.Marshal(cmaState{Lambda: c.lambda, Told: c.told, Last: last})
}

// Restore replays the told values into a fresh method.
func (c *CMAES) Restore(done int, state json.RawMessage) error {
	var st cmaState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("cmaes: checkpoint state: %w", err)
	}
	if st.Lambda != c.lambda {
		return fmt.Errorf("cmaes: checkpoint has population %d, the run %d", st.Lambda, c.lambda)
	}
	if len(st.Told) != done {
		return fmt.Errorf("cmaes: checkpoint holds %d generations of values, expected %d", len(st.Told), done)
	}
	c.stop()
	c.told, c.pending, c.centre = nil, nil, c.space.Origin()
	for g, raw := range st.Told {
		if _, err := c.ask(g); err != nil {
			return err
		}
		if len(raw) != c.lambda {
			return fmt.Errorf("cmaes: checkpoint generation %d has %d values, expected %d", g, len(raw), c.lambda)
		}
		if err := c.tellRaw(g, raw); err != nil {
			return err
		}
	}
	if st.Last != nil {
		for i := range st.Last {
			for j := range st.Last[i] {
				if st.Last[i][j] != c.last[i][j] {
					return fmt.Errorf("cmaes: replaying the checkpoint drew different samples in generation %d; the checkpoint does not belong to this seed and schema", done-1)
				}
			}
		}
	}
	return nil
}

// Close stops gonum's goroutine.
func (c *CMAES) Close() error {
	c.stop()
	return nil
}
