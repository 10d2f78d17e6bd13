package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Proposal is one point an algorithm wants measured in a generation.
type Proposal struct {
	// X is the point in the normalised space; coordinates outside [0,1] are
	// clamped when the point is played.
	X []float64
	// Parents are the ids of the variants the point was derived from; nil
	// for a survivor that is measured again unchanged.
	Parents []string
}

// History is what the search knows when an algorithm is asked for a
// generation: every variant it keeps, best fitness first.
type History struct {
	// Entries are the archive's variants, best fitness first.
	Entries []*Entry
	// Hall is the hall of fame, best conservative estimate first.
	Hall []*Entry
}

// Algorithm proposes points of the normalised space generation by
// generation and learns from their fitness (ask/tell). An algorithm draws
// its randomness only from generators seeded by the run seed and the
// generation number, so that a run restored from a checkpoint proposes
// exactly what the uninterrupted run would have.
type Algorithm interface {
	// Name is the algorithm's identifier on the command line.
	Name() string
	// Ask returns the points to measure in generation gen.
	Ask(ctx context.Context, gen int, h History) ([]Proposal, error)
	// Tell gives the fitness of the proposals of generation gen, in the
	// order Ask returned them: each proposal's fitness (seed-adjusted
	// score rate, higher is better; see Entry.Fitness) after this
	// generation's games.
	Tell(gen int, fitness []float64) error
	// State returns what a checkpoint must hold to continue after the
	// generations told so far.
	State() (json.RawMessage, error)
	// Restore continues from a State taken after done generations.
	Restore(done int, state json.RawMessage) error
	// Close releases what the algorithm holds (goroutines, connections).
	Close() error
}

// AlgorithmSpec describes one search algorithm Evolve can run: the table
// of algorithms (Algorithms) is the one place that lists them, for
// construction, defaults and help texts alike.
type AlgorithmSpec struct {
	// Name is the algorithm's identifier (Config.Algorithm).
	Name string
	// Description says in a few words what the algorithm is.
	Description string
	// DefaultPopulation is the population it takes when Config.Population
	// is 0.
	DefaultPopulation int
	// Reproducible is set when a resumed run ends exactly as an
	// uninterrupted one (not so for a language model's replies).
	Reproducible bool
	// New builds the algorithm over space with population proposals per
	// generation, the run seed and the options of cfg.
	New func(space Space, population int, seed uint64, cfg Config) (Algorithm, error)
}

// algorithms is the table of algorithms, sorted by name; it is never
// changed.
var algorithms = []AlgorithmSpec{
	{
		Name: "cmaes", Description: "CMA-ES (gonum's optimize.CmaEsChol)",
		DefaultPopulation: 12, Reproducible: true,
		New: func(space Space, population int, seed uint64, cfg Config) (Algorithm, error) {
			return NewCMAES(space, population, seed, cfg.CMA)
		},
	},
	{
		Name: "ga", Description: "genetic algorithm (eaopt: tournament selection, blend crossover, island populations with ring migration)",
		DefaultPopulation: 16, Reproducible: true,
		New: func(space Space, population int, seed uint64, cfg Config) (Algorithm, error) {
			return NewGA(space, population, seed, cfg.GA)
		},
	},
	{
		Name: "llm", Description: "a language model proposes genomes (any OpenAI-compatible server); mutation of the elite when it fails",
		DefaultPopulation: 8,
		New: func(space Space, population int, seed uint64, cfg Config) (Algorithm, error) {
			opt := cfg.LLM
			if opt.Progress == nil {
				opt.Progress = cfg.Progress
			}
			opt = opt.withRun(cfg)
			return NewLLM(space, population, seed, opt)
		},
	},
	{
		Name: "map-elites", Description: "MAP-Elites quality-diversity search: an archive of cells over behaviour descriptors measured in the matches, each keeping its best variant; parents drawn from the archive, bred with the GA's operators",
		DefaultPopulation: 16, Reproducible: true,
		New: func(space Space, population int, seed uint64, cfg Config) (Algorithm, error) {
			return NewMapElites(space, population, seed, cfg.Behaviour, cfg.MapElites, cfg.Out)
		},
	},
}

// Algorithms returns the table of algorithms, sorted by name.
func Algorithms() []AlgorithmSpec { return slices.Clone(algorithms) }

// AlgorithmNames lists the algorithms' names, sorted.
func AlgorithmNames() []string {
	names := make([]string, len(algorithms))
	for i, a := range algorithms {
		names[i] = a.Name
	}
	return names
}

// LookupAlgorithm returns the algorithm of that name; an unknown name is a
// FieldError of Algorithm that lists the known ones.
func LookupAlgorithm(name string) (AlgorithmSpec, error) {
	for _, a := range algorithms {
		if a.Name == name {
			return a, nil
		}
	}
	return AlgorithmSpec{}, &FieldError{Field: "Algorithm", Err: fmt.Errorf("unknown algorithm %q (known: %s)", name, strings.Join(AlgorithmNames(), ", "))}
}
