package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
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

// AlgorithmNames lists the algorithms New knows, sorted.
func AlgorithmNames() []string {
	names := []string{"cmaes", "ga", "llm"}
	sort.Strings(names)
	return names
}

// checkAlgorithm reports an unknown algorithm name with the known ones.
func checkAlgorithm(name string) error {
	for _, n := range AlgorithmNames() {
		if n == name {
			return nil
		}
	}
	return fmt.Errorf("unknown algorithm %q (known: %s)", name, strings.Join(AlgorithmNames(), ", "))
}
