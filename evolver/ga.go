package evolver

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand"
	"slices"

	"github.com/MaxHalford/eaopt"

	"crucible/engine"
)

// GAOptions tunes the genetic algorithm. Zero fields take the defaults in
// parentheses.
type GAOptions struct {
	Islands       int     // populations side by side, ring migration (1)
	Migrants      int     // individuals an island swaps at a migration (1)
	MigrateEvery  int     // generations between migrations (5)
	Tournament    int     // contestants in tournament selection (3)
	Elites        int     // best kept unchanged, measured again (population/8, ≥ 1)
	MutationRate  float64 // chance an offspring is mutated (0.9)
	CrossoverRate float64 // chance a pair of parents is crossed (0.7)
	Sigma         float64 // Gaussian mutation's deviation, normalised units (0.1)
	GeneRate      float64 // chance a mutation moves each coordinate, ≥ one (max(1/dim, 0.3))
	InitSigma     float64 // first population's spread around the base (0.15)
}

// Flags defines --islands.
func (o *GAOptions) Flags(fs *flag.FlagSet) {
	fs.Var(intFlag{&o.Islands, 1, 16}, "islands", "ga: populations evolving side by side with ring migration, 1 to 16")
}

// Identity names the islands: a resumed run keeps them.
func (o *GAOptions) Identity() []string { return []string{"islands"} }

func (o *GAOptions) resolved(setup) Options {
	c := *o
	c.Islands = max(1, c.Islands)
	return &c
}

func (o *GAOptions) build(r setup) (algorithm, error) {
	return newGA(r.space, r.population, r.seed, *o)
}

func (o GAOptions) withDefaults(size, dim int) GAOptions {
	if o.Islands == 0 {
		o.Islands = 1
	}
	if o.Migrants == 0 {
		o.Migrants = 1
	}
	if o.MigrateEvery == 0 {
		o.MigrateEvery = 5
	}
	if o.Tournament == 0 {
		o.Tournament = 3
	}
	if o.Elites == 0 {
		o.Elites = max(1, size/8)
	}
	if o.MutationRate == 0 {
		o.MutationRate = 0.9
	}
	if o.CrossoverRate == 0 {
		o.CrossoverRate = 0.7
	}
	if o.Sigma == 0 {
		o.Sigma = 0.1
	}
	if o.GeneRate == 0 {
		o.GeneRate = math.Max(1/float64(max(dim, 1)), 0.3)
	}
	if o.InitSigma == 0 {
		o.InitSigma = 0.15
	}
	return o
}

// geneticAlgo is a generational genetic algorithm on eaopt's generational model:
// eaopt's tournament selection, uniform (blend) crossover and ring
// migration between optional island populations, with this package's
// Gaussian mutation in the normalised space (see Mutate) and elitism.
//
// eaopt caches an individual's fitness once it is evaluated; here every
// individual, elites included, is measured again each generation on that
// generation's fresh seeds and its cached fitness is replaced by its
// fitness over all its games (see Tell and entry.Fitness). The generation
// loop is driven from outside (Ask/Tell) rather than by eaopt.GA.Minimize
// so that a whole generation is played together on common seeds, and every
// generator is seeded from the run seed and the generation number so that
// a restored run breeds exactly what an uninterrupted one would.
type geneticAlgo struct {
	space paramSpace
	size  int
	seed  uint64
	opt   GAOptions
	model eaopt.Model
	pops  eaopt.Populations
}

// newGA returns a genetic algorithm over space with populations of size
// individuals.
func newGA(space paramSpace, size int, seed uint64, opt GAOptions) (*geneticAlgo, error) {
	opt = opt.withDefaults(size, space.Dim())
	switch {
	case size < 4:
		return nil, fmt.Errorf("ga: population %d is below the smallest the selection allows, 4", size)
	case opt.Islands < 1 || opt.Islands > 16:
		return nil, rangeError("islands", opt.Islands, 1, 16)
	case opt.Elites < 0 || opt.Elites >= size:
		return nil, fmt.Errorf("ga: elites %d is outside [0, %d]", opt.Elites, size-1)
	case opt.Tournament < 1 || opt.Tournament > size-1:
		return nil, fmt.Errorf("ga: tournament size %d is outside [1, %d]", opt.Tournament, size-1)
	case opt.Migrants < 1 || opt.Migrants > size:
		return nil, fmt.Errorf("ga: migrants %d is outside [1, %d]", opt.Migrants, size)
	}
	inner := eaopt.ModGenerational{
		Selector:  eaopt.SelTournament{NContestants: uint(opt.Tournament)},
		MutRate:   opt.MutationRate,
		CrossRate: opt.CrossoverRate,
	}
	if err := inner.Validate(); err != nil {
		return nil, fmt.Errorf("ga: %w", err)
	}
	return &geneticAlgo{space: space, size: size, seed: seed, opt: opt, model: elitist{elites: opt.Elites, inner: inner}}, nil
}

// Name returns "ga".
func (g *geneticAlgo) Name() string { return "ga" }

// rng returns the math/rand v1 generator eaopt uses for stream of
// generation gen.
func (g *geneticAlgo) rng(gen int, stream uint64) *rand.Rand {
	s := engine.Mix(engine.Mix(g.seed, 0x6761), uint64(gen)<<16|stream)
	return rand.New(rand.NewSource(int64(s >> 1)))
}

// Ask returns every individual of every island. Generation 0 is the base's
// defaults and Gaussian perturbations of them; later generations are bred
// from the previous one.
func (g *geneticAlgo) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
	if g.pops == nil {
		g.initial(gen)
	} else {
		if err := g.breed(gen); err != nil {
			return nil, err
		}
	}
	var out []proposal
	for _, pop := range g.pops {
		for _, ind := range pop.Individuals {
			gg := ind.Genome.(*gaGenome)
			out = append(out, proposal{X: append([]float64(nil), gg.x...), Parents: gg.parents})
		}
	}
	return out, nil
}

func (g *geneticAlgo) initial(gen int) {
	origin := g.space.Origin()
	g.pops = make(eaopt.Populations, g.opt.Islands)
	for p := range g.pops {
		rng := g.rng(gen, uint64(p)+1)
		inds := make(eaopt.Individuals, g.size)
		for i := range inds {
			x := append([]float64(nil), origin...)
			if i > 0 {
				for j := range x {
					x[j] += g.opt.InitSigma * rng.NormFloat64()
				}
				clamp01(x)
			}
			inds[i] = eaopt.NewIndividual(g.newGenome(x), rng)
		}
		g.pops[p] = eaopt.Population{Individuals: inds, ID: fmt.Sprintf("island%d", p), RNG: rng}
	}
}

func (g *geneticAlgo) newGenome(x []float64) *gaGenome {
	gg := &gaGenome{x: x, self: g.space.ID(x), sigma: g.opt.Sigma, geneRate: g.opt.GeneRate}
	if p := g.space.Base.Program; p != nil && p.Mutate != nil && p.Crossover != nil {
		gg.prog = &g.space
	}
	return gg
}

func (g *geneticAlgo) breed(gen int) error {
	if len(g.pops) > 1 && gen%g.opt.MigrateEvery == 0 {
		eaopt.MigRing{NMigrants: uint(g.opt.Migrants)}.Apply(g.pops, g.rng(gen, 0))
	}
	for p := range g.pops {
		pop := &g.pops[p]
		pop.RNG = g.rng(gen, uint64(p)+1)
		for _, ind := range pop.Individuals {
			gg := ind.Genome.(*gaGenome)
			gg.parents = nil
			gg.self = g.space.ID(gg.x)
		}
		if err := g.model.Apply(pop); err != nil {
			return fmt.Errorf("ga: generation %d island %d: %w", gen, p, err)
		}
	}
	return nil
}

// Tell stores each individual's fitness as its eaopt fitness (eaopt
// minimises, so the stored value is the negated rate) and sorts every
// population best first.
func (g *geneticAlgo) Tell(gen int, fitness []float64) error {
	n := 0
	for _, pop := range g.pops {
		n += len(pop.Individuals)
	}
	if len(fitness) != n {
		return fmt.Errorf("ga: told %d fitness values for %d individuals", len(fitness), n)
	}
	k := 0
	for p := range g.pops {
		inds := g.pops[p].Individuals
		for i := range inds {
			inds[i].Fitness = -fitness[k] + g.parsimony(inds[i])
			inds[i].Evaluated = true
			k++
		}
		inds.SortByFitness()
	}
	return nil
}

// programParsimony is what each rule of a program costs in the GA's
// selection (a rate of 0.004 per rule, below the noise of a generation's
// games): of two programs that play within noise of each other the
// shorter one wins the tournament.
const programParsimony = 0.004

// parsimony returns the selection cost of ind's program (0 for a
// strategy that is not a program).
func (g *geneticAlgo) parsimony(ind eaopt.Individual) float64 {
	gg := ind.Genome.(*gaGenome)
	if gg.prog == nil || g.space.Base.Program.Size == nil {
		return 0
	}
	return programParsimony * float64(g.space.Base.Program.Size(g.space.Genome(gg.x)))
}

type gaIndividual struct {
	ID      string    `json:"id"`
	X       []float64 `json:"x"`
	Fitness float64   `json:"fitness"`
}

type gaState struct {
	Islands [][]gaIndividual `json:"islands"`
}

// State returns the populations with their fitness, in sorted order.
func (g *geneticAlgo) State() (json.RawMessage, error) {
	var st gaState
	for _, pop := range g.pops {
		var isl []gaIndividual
		for _, ind := range pop.Individuals {
			gg := ind.Genome.(*gaGenome)
			isl = append(isl, gaIndividual{ID: ind.ID, X: gg.x, Fitness: ind.Fitness})
		}
		st.Islands = append(st.Islands, isl)
	}
	return json.Marshal(st)
}

// Restore rebuilds the populations from a State.
func (g *geneticAlgo) Restore(done int, state json.RawMessage) error {
	var st gaState
	if err := json.Unmarshal(state, &st); err != nil {
		return fmt.Errorf("ga: checkpoint state: %w", err)
	}
	if done == 0 {
		g.pops = nil
		return nil
	}
	if len(st.Islands) != g.opt.Islands {
		return fmt.Errorf("ga: checkpoint has %d islands, the run %d", len(st.Islands), g.opt.Islands)
	}
	g.pops = make(eaopt.Populations, len(st.Islands))
	for p, isl := range st.Islands {
		if len(isl) != g.size {
			return fmt.Errorf("ga: checkpoint island %d has %d individuals, the run's population is %d", p, len(isl), g.size)
		}
		inds := make(eaopt.Individuals, len(isl))
		for i, in := range isl {
			if len(in.X) != g.space.Dim() {
				return fmt.Errorf("ga: checkpoint individual %s has %d coordinates, the schema %d", in.ID, len(in.X), g.space.Dim())
			}
			inds[i] = eaopt.Individual{Genome: g.newGenome(append([]float64(nil), in.X...)), Fitness: in.Fitness, Evaluated: true, ID: in.ID}
		}
		g.pops[p] = eaopt.Population{Individuals: inds, ID: fmt.Sprintf("island%d", p)}
	}
	return nil
}

// Close does nothing; the GA holds no resources.
func (g *geneticAlgo) Close() error { return nil }

// elitist wraps an eaopt model so that the best individuals of a
// population survive unchanged: they keep their place (and their running
// mean) and are measured again in the next generation.
type elitist struct {
	elites int
	inner  eaopt.Model
}

// Apply breeds the population with the inner model and puts the elites
// back in front.
func (m elitist) Apply(pop *eaopt.Population) error {
	pop.Individuals.SortByFitness()
	keep := pop.Individuals[:m.elites].Clone(pop.RNG)
	if err := m.inner.Apply(pop); err != nil {
		return err
	}
	copy(pop.Individuals, keep)
	return nil
}

// Validate checks the inner model.
func (m elitist) Validate() error {
	if m.elites < 0 {
		return errors.New("elites must not be negative")
	}
	return m.inner.Validate()
}

// gaGenome is a point of the normalised space as an eaopt genome.
type gaGenome struct {
	x        []float64
	self     string   // id of the point at the start of breeding
	parents  []string // set when crossover or mutation changed the point
	sigma    float64
	geneRate float64
	// prog is set for a program strategy with structural operators: half
	// the mutations and crossovers then work on the program's rules.
	prog *paramSpace
}

// errBatchOnly is returned if eaopt ever tries to evaluate a genome on its
// own: the evolver measures whole generations together.
var errBatchOnly = errors.New("ga: genomes are measured in batches by the evolver, never one at a time")

// Evaluate is never used: Tell marks every individual as evaluated.
func (g *gaGenome) Evaluate() (float64, error) { return math.Inf(1), errBatchOnly }

// Mutate adds Gaussian noise of standard deviation sigma to each
// coordinate (for a program strategy, half the time it makes one
// structural change instead: see strategies.Program.Mutate) with probability geneRate (to at least one coordinate),
// clamped into [0,1]. It is written here rather than taken from eaopt:
// eaopt's MutNormalFloat64 scales the noise by the gene's own value, so a
// coordinate at 0 (a parameter at its minimum, a common optimum) could
// never move again, and one near 1 would move ten times as far as one
// near 0.1.
func (g *gaGenome) Mutate(rng *rand.Rand) {
	if g.parents == nil {
		g.parents = []string{g.self}
	}
	if g.prog != nil && rng.Float64() < 0.5 {
		sp := *g.prog
		copy(g.x, sp.Point(sp.Base.Program.Mutate(sp.Genome(g.x), rng)))
		return
	}
	hit := false
	for i := range g.x {
		if rng.Float64() < g.geneRate {
			g.x[i] += g.sigma * rng.NormFloat64()
			hit = true
		}
	}
	if !hit {
		i := rng.Intn(len(g.x))
		g.x[i] += g.sigma * rng.NormFloat64()
	}
	clamp01(g.x)
}

// Crossover blends the two points coordinate by coordinate with eaopt's
// uniform crossover (for a program strategy, half the time it splices
// the rule lists instead: strategies.Program.Crossover); both children record both parents.
func (g *gaGenome) Crossover(q eaopt.Genome, rng *rand.Rand) {
	m := q.(*gaGenome)
	a, b := g.self, m.self
	if g.prog != nil && rng.Float64() < 0.5 {
		sp := *g.prog
		ca, cb := sp.Base.Program.Crossover(sp.Genome(g.x), sp.Genome(m.x), rng)
		copy(g.x, sp.Point(ca))
		copy(m.x, sp.Point(cb))
	} else {
		eaopt.CrossUniformFloat64(g.x, m.x, rng)
	}
	g.parents = []string{a, b}
	m.parents = []string{b, a}
}

// Clone returns a deep copy (nil parents stay nil: Mutate reads nil as
// "not yet derived").
func (g *gaGenome) Clone() eaopt.Genome {
	c := *g
	c.x = slices.Clone(g.x)
	c.parents = slices.Clone(g.parents)
	return &c
}
