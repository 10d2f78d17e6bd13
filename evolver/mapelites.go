package evolver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"slices"
	"strings"

	"crucible/engine"
	"crucible/evolver/behave"
	"crucible/evolver/qd"
	"crucible/strategies"
)

// MapElitesOptions tunes MAP-Elites. Zero fields take the documented
// defaults.
type MapElitesOptions struct {
	// Descriptors names the behaviour descriptors the archive is laid out
	// over (default: the game's first two; see package behave).
	Descriptors []string
	// Bins is the number of cells per descriptor (default 8).
	Bins int
	// Sigma is the Gaussian mutation's standard deviation in normalised
	// units (default 0.1) and GeneRate the chance each coordinate is
	// perturbed (default max(1/dim, 0.3)); the GA's mutation operator.
	Sigma, GeneRate float64
	// CrossoverRate is the chance that a child is the uniform crossover of
	// two elites before its mutation (default 0.2).
	CrossoverRate float64
	// InitSigma is the spread of the first generation around the base's
	// defaults (default 0.25).
	InitSigma float64
}

// Flags defines --descriptors and --bins.
func (o *MapElitesOptions) Flags(fs *flag.FlagSet) {
	fs.Var(listFlag{&o.Descriptors}, "descriptors", "map-elites: the behaviour descriptors of the archive's axes, comma-separated, 1 to 3 (default the game's first two; each game's are listed above)")
	fs.Var(intFlag{&o.Bins, 2, maxBins}, "bins", fmt.Sprintf("map-elites: cells per descriptor, 2 to %d", maxBins))
}

// Identity names the descriptors and the bins: a resumed run keeps the
// archive's grid.
func (o *MapElitesOptions) Identity() []string { return []string{"descriptors", "bins"} }

// resolved fills in the default descriptors and bins.
func (o *MapElitesOptions) resolved(r setup) Options {
	c := *o
	if c.Bins == 0 {
		c.Bins = defaultBins
	}
	if len(c.Descriptors) == 0 && r.behaviour != nil {
		c.Descriptors = r.behaviour.Names()[:min(2, len(r.behaviour.Descriptors))]
	}
	return &c
}

func (o *MapElitesOptions) build(r setup) (algorithm, error) {
	return newMapElites(r.space, r.population, r.seed, r.behaviour, *o, r.dir)
}

func (o MapElitesOptions) withDefaults(dim int) MapElitesOptions {
	if o.Bins == 0 {
		o.Bins = defaultBins
	}
	if o.Sigma == 0 {
		o.Sigma = 0.1
	}
	if o.GeneRate == 0 {
		o.GeneRate = max(1/float64(dim), 0.3)
	}
	if o.CrossoverRate == 0 {
		o.CrossoverRate = 0.2
	}
	if o.InitSigma == 0 {
		o.InitSigma = 0.25
	}
	return o
}

// maxBins caps MapElitesOptions.Bins, and defaultBins is its default.
const maxBins, defaultBins = 64, 8

// maxRebreed is how many times a child that repeats a known variant is
// bred again before it is kept.
const maxRebreed = 8

// mapElites is the quality-diversity search of Mouret and Clune (2015):
// an archive of cells over behaviour descriptors (a grid, qd.Archive), each
// keeping the best variant whose measured behaviour falls into it. Every
// generation draws parents uniformly from the filled cells, breeds them
// with the GA's operators (uniform crossover, then Gaussian mutation;
// a child that plays as a known variant is bred again) and offers each
// child to its cell once its matches have measured its fitness and its
// behaviour (the evaluator's behaviourLog). An elite proposed again is
// placed anew by its behaviour over all its matches: a variant holds at
// most one cell, and leaves a cell its first, noisier measure put it in. The first
// generation, and any generation while the archive is empty, samples
// around the base's defaults.
//
// After each generation the archive and its elites are written to the run
// directory (qd.ArchiveFile, qd.ElitesDir) and the generation's note gives its
// coverage, QD-score and best fitness. The checkpoint holds the whole
// archive, and the randomness of generation g comes from the run seed and
// g, so a resumed run continues exactly.
type mapElites struct {
	space paramSpace
	pop   int
	seed  uint64
	opt   MapElitesOptions
	beh   *behave.Behaviour
	axes  []int // the descriptors' indices in beh
	log   *behaviourLog
	dir   string

	arch    qd.Archive
	written map[string]float64 // elite files written, with their fitness
	pending []proposal
	gen     int
	note    string
}

// newMapElites returns MAP-Elites over space with pop children per
// generation, placing them by the descriptors of beh that opt names; dir,
// when not empty, receives the archive after every generation.
func newMapElites(space paramSpace, pop int, seed uint64, beh *behave.Behaviour, opt MapElitesOptions, dir string) (*mapElites, error) {
	if beh == nil || beh.Values == nil {
		return nil, &FieldError{Field: "Algorithm", Value: "map-elites", Reason: "needs behaviour descriptors, and the game has none"}
	}
	opt = opt.withDefaults(space.Dim())
	names := opt.Descriptors
	if len(names) == 0 {
		names = beh.Names()[:min(2, len(beh.Descriptors))]
	}
	axes, err := beh.Pick(names)
	if err != nil {
		return nil, &FieldError{Field: "descriptors", Value: strings.Join(names, ","), Reason: err.Error()}
	}
	if len(axes) < 1 || len(axes) > 3 {
		return nil, &FieldError{Field: "descriptors", Value: strings.Join(names, ","), Reason: "must name 1 to 3 descriptors"}
	}
	if opt.Bins < 2 || opt.Bins > maxBins {
		return nil, rangeError("bins", opt.Bins, 2, maxBins)
	}
	m := &mapElites{space: space, pop: pop, seed: seed, opt: opt, beh: beh, axes: axes, log: &behaviourLog{}, dir: dir, written: map[string]float64{}}
	m.arch = qd.Archive{Format: qd.Kind, Game: space.Base.Game, Base: space.Base.Name, Bins: opt.Bins}
	for _, i := range axes {
		m.arch.Descriptors = append(m.arch.Descriptors, beh.Descriptors[i])
	}
	return m, nil
}

// Name returns "map-elites".
func (m *mapElites) Name() string { return "map-elites" }

// Behaviour returns what the evaluator must measure for MAP-Elites and
// where it keeps it.
func (m *mapElites) Behaviour() (*behave.Behaviour, *behaviourLog) { return m.beh, m.log }

// Archive returns the archive (read-only).
func (m *mapElites) Archive() *qd.Archive { return &m.arch }

// Note gives the archive's statistics after the generation last told.
func (m *mapElites) Note() string { return m.note }

func (m *mapElites) rng(gen int) *rand.Rand {
	return rand.New(rand.NewSource(int64(engine.Mix(engine.Mix(m.seed, 0x6d6170656c), uint64(gen)))))
}

// Ask breeds the generation's children from the archive.
func (m *mapElites) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
	if m.pending != nil {
		return nil, fmt.Errorf("map-elites: generation %d asked before generation %d was told", gen, m.gen)
	}
	rng := m.rng(gen)
	out := make([]proposal, m.pop)
	origin := m.space.Origin()
	known := map[string]bool{}
	for _, e := range m.arch.Elites {
		known[e.ID] = true
	}
	for i := range out {
		if len(m.arch.Elites) == 0 {
			x := slices.Clone(origin)
			if i > 0 {
				for j := range x {
					x[j] += m.opt.InitSigma * rng.NormFloat64()
				}
			}
			out[i] = proposal{X: clamp01(x)}
			continue
		}
		// A child that plays as an elite or an earlier child (integer
		// parameters round small steps away) is bred again, up to
		// maxRebreed times: a repeat would only measure a known variant
		// again.
		var g *gaGenome
		for try := 0; try <= maxRebreed; try++ {
			a := m.arch.Elites[rng.Intn(len(m.arch.Elites))]
			g = &gaGenome{x: slices.Clone(a.X), self: a.ID, sigma: m.opt.Sigma, geneRate: m.opt.GeneRate}
			if len(m.arch.Elites) > 1 && rng.Float64() < m.opt.CrossoverRate {
				b := m.arch.Elites[rng.Intn(len(m.arch.Elites))]
				g.Crossover(&gaGenome{x: slices.Clone(b.X), self: b.ID}, rng)
			}
			g.Mutate(rng)
			if id := m.space.ID(g.x); !known[id] {
				known[id] = true
				break
			}
		}
		out[i] = proposal{X: g.x, Parents: g.parents}
	}
	m.pending, m.gen = out, gen
	return out, nil
}

// Tell offers each child to its cell, by the behaviour measured in its
// matches, and writes the archive.
func (m *mapElites) Tell(gen int, fitness []float64) error {
	if m.pending == nil || gen != m.gen {
		return fmt.Errorf("map-elites: generation %d told without being asked", gen)
	}
	if len(fitness) != len(m.pending) {
		return fmt.Errorf("map-elites: told %d fitness values for %d children", len(fitness), len(m.pending))
	}
	st := qd.Stats{Generation: gen}
	seen := map[string]bool{}
	for i, p := range m.pending {
		x := m.space.Canonical(p.X)
		id := m.space.ID(x)
		if seen[id] {
			continue // a repeat of a child of this generation: one measure
		}
		seen[id] = true
		counts, ok := m.log.Counts(id)
		if !ok {
			st.Unplaced++
			continue
		}
		// An elite measured again leaves its cell and is placed anew by
		// its behaviour over all its measured matches, with its latest
		// fitness (which rests on every game it played).
		old, again := m.arch.Remove(id)
		if again {
			counts = old.Counts.Plus(counts)
			p.Parents = old.Parents
		}
		all := m.beh.Values(counts)
		desc := make([]float64, len(m.axes))
		for k, a := range m.axes {
			desc[k] = all[a]
		}
		e := qd.Elite{ID: id, X: x, Params: m.space.Base.Schema.Map(m.space.Genome(x)), Fitness: fitness[i], Behaviour: desc,
			Counts: counts, Generation: gen, Parents: p.Parents}
		res := m.arch.Insert(e)
		switch {
		case again:
			st.Remeasured++
		case res == qd.Added:
			st.New++
		case res == qd.Improved:
			st.Improved++
		}
	}
	s := m.arch.Stats()
	s.Generation, s.New, s.Improved, s.Remeasured, s.Unplaced = gen, st.New, st.Improved, st.Remeasured, st.Unplaced
	m.arch.History = append(m.arch.History, s)
	m.note = s.String()
	if s.Unplaced > 0 {
		m.note += fmt.Sprintf(", %d without a measured behaviour", s.Unplaced)
	}
	m.pending = nil
	if m.dir != "" {
		return m.arch.Write(m.dir, m.variant, m.written)
	}
	return nil
}

// State returns the archive.
func (m *mapElites) State() (json.RawMessage, error) { return json.Marshal(&m.arch) }

// Restore continues from the archive after done generations and writes it
// back to the run directory (replacing whatever a killed session wrote
// after its last checkpoint).
func (m *mapElites) Restore(done int, state json.RawMessage) error {
	var a qd.Archive
	if err := json.Unmarshal(state, &a); err != nil {
		return fmt.Errorf("map-elites: checkpoint state: %w", err)
	}
	if a.Bins != m.arch.Bins || len(a.Descriptors) != len(m.arch.Descriptors) {
		return fmt.Errorf("map-elites: checkpoint archive has %d descriptors of %d bins, the run %d of %d", len(a.Descriptors), a.Bins, len(m.arch.Descriptors), m.arch.Bins)
	}
	for i, d := range a.Descriptors {
		if d != m.arch.Descriptors[i] {
			return fmt.Errorf("map-elites: checkpoint archive is over %s, the run over %s", d.Name, m.arch.Descriptors[i].Name)
		}
	}
	if len(a.History) != done {
		return fmt.Errorf("map-elites: checkpoint archive has %d generations, expected %d", len(a.History), done)
	}
	m.arch, m.pending, m.written = a, nil, map[string]float64{}
	if m.dir != "" {
		return m.arch.Write(m.dir, m.variant, m.written)
	}
	return nil
}

// variant is an elite as a variant of the base.
func (m *mapElites) variant(e qd.Elite) strategies.Variant { return m.space.Variant(e.X, e.Parents...) }

// Close does nothing.
func (m *mapElites) Close() error { return nil }
