package evolver

import (
	"flag"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

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
	{
		Name: "spsa", Description: "SPSA as fishtest and OpenBench tune chess engines: each generation measures the current point and population/2 pairs θ±c·Δ on paired seeds, and moves θ by each pair's wins less losses with per-parameter step c and learning rate R (--spsa-* flags)",
		DefaultPopulation: 8, Reproducible: true,
		Options: func() Options { return newSPSAOptions() },
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
