package evolver

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"crucible/evolver/behave"
)

// proposal is one point an algorithm wants measured in a generation.
type proposal struct {
	// X is the point in the normalised space; coordinates outside [0,1] are
	// clamped when the point is played.
	X []float64
	// Parents are the ids of the variants the point was derived from; nil
	// for a survivor that is measured again unchanged.
	Parents []string
}

// history is what the search knows when an algorithm is asked for a
// generation: every variant it keeps, best fitness first.
type history struct {
	// Entries are the archive's variants, best fitness first.
	Entries []*entry
	// Hall is the hall of fame, best conservative estimate first.
	Hall []*entry
}

// algorithm proposes points of the normalised space generation by
// generation and learns from their fitness (ask/tell). An algorithm draws
// its randomness only from generators seeded by the run seed and the
// generation number, so that a run restored from a checkpoint proposes
// exactly what the uninterrupted run would have.
type algorithm interface {
	// Name is the algorithm's identifier on the command line.
	Name() string
	// Ask returns the points to measure in generation gen.
	Ask(ctx context.Context, gen int, h history) ([]proposal, error)
	// Tell gives the fitness of the proposals of generation gen, in the
	// order Ask returned them: each proposal's fitness (seed-adjusted
	// score rate, higher is better; see entry.Fitness) after this
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

// noter is implemented by algorithms that have something to say about the
// generation just asked (for example that the model was unreachable and the
// generation was proposed by mutation). The note goes into the progress
// line and generations.jsonl.
type noter interface {
	Note() string
}

// behaviourUser is implemented by algorithms that place their variants by
// the behaviour measured in their matches (MAP-Elites): the evaluator
// measures that behaviour into the log.
type behaviourUser interface {
	Behaviour() (*behave.Behaviour, *behaviourLog)
}

// setup is what an algorithm is built with: the run's space, population
// and seed, and what it may need of the run.
type setup struct {
	space      paramSpace
	population int
	seed       uint64
	// dir is the run directory (MAP-Elites writes its archive there).
	dir string
	// behaviour is the game's behaviour descriptors (nil: none).
	behaviour *behave.Behaviour
	// opponents, gameConfig, title and rules are what a prompt says of
	// the run (the llm algorithm).
	opponents    []opponent
	gameConfig   json.RawMessage
	title, rules string
	// progress receives the algorithm's remarks.
	progress func(Event)
}

// Options are one algorithm's own tunables: GAOptions, CMAOptions,
// LLMOptions or MapElitesOptions, each documenting its defaults. As an
// analysis pass of golang.org/x/tools/go/analysis owns its flags, an
// algorithm declares the tunables a command line sets (Flags), so that a
// command adds every algorithm's flags without naming one; the run's
// checkpoint records them by flag name (Meta.Options), and errors about
// them are FieldErrors of that name.
type Options interface {
	// Flags defines the tunables a command line sets as flags of fs, each
	// bound to its field and showing its current value as the default.
	// Their usage texts start with the algorithm's name.
	Flags(fs *flag.FlagSet)
	// Identity names the flags a resumed run must keep (the others are
	// settings a resumed run may change).
	Identity() []string
	// resolved returns a copy with the defaults of the run filled in, as
	// the checkpoint records it.
	resolved(r setup) Options
	// build makes the algorithm of a run.
	build(r setup) (algorithm, error)
}

// AlgorithmSpec describes one search algorithm Evolve can run: the table
// of algorithms (Algorithms) is the one place that lists them, for
// construction, defaults, flags and help texts alike.
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
	// Options returns the algorithm's options at their defaults, a fresh
	// value on every call.
	Options func() Options
}

// algorithms is the table of algorithms, sorted by name; it is never
// changed.
var algorithms = []AlgorithmSpec{
	{
		Name: "cmaes", Description: "CMA-ES (gonum's optimize.CmaEsChol)",
		DefaultPopulation: 12, Reproducible: true,
		Options: func() Options { return &CMAOptions{} },
	},
	{
		Name: "ga", Description: "genetic algorithm (eaopt: tournament selection, blend crossover, island populations with ring migration)",
		DefaultPopulation: 16, Reproducible: true,
		Options: func() Options { return &GAOptions{Islands: 1} },
	},
	{
		Name: "llm", Description: "a language model proposes genomes (any OpenAI-compatible server); mutation of the elite when it fails",
		DefaultPopulation: 8,
		Options:           func() Options { return newLLMOptions() },
	},
	{
		Name: "map-elites", Description: "MAP-Elites quality-diversity search: an archive of cells over behaviour descriptors measured in the matches, each keeping its best variant; parents drawn from the archive, bred with the GA's operators",
		DefaultPopulation: 16, Reproducible: true,
		Options: func() Options { return &MapElitesOptions{Bins: defaultBins} },
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

// options returns the options of the run: cfg's, checked to be the
// algorithm's, or the algorithm's defaults.
func (a AlgorithmSpec) options(o Options) (Options, error) {
	def := a.Options()
	if o == nil || reflect.ValueOf(o).IsNil() {
		return def, nil
	}
	if reflect.TypeOf(o) != reflect.TypeOf(def) {
		return nil, &FieldError{Field: "Options", Value: reflect.TypeOf(o).Elem().Name(), Reason: fmt.Sprintf("are not the options of %s (%s)", a.Name, reflect.TypeOf(def).Elem().Name())}
	}
	return o, nil
}

// optionValues returns the flags of o by name, as the checkpoint records
// them.
func optionValues(o Options) map[string]string {
	fs := flag.NewFlagSet("", flag.ContinueOnError)
	o.Flags(fs)
	out := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { out[f.Name] = f.Value.String() })
	if len(out) == 0 {
		return nil
	}
	return out
}
