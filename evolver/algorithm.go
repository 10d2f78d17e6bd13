package evolver

import (
	"context"
	"encoding/json"
	"flag"

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

// scheduled is implemented by algorithms whose gains follow the length of
// the run (SPSA's): before each Ask the search tells how many generations
// it expects in all: the generation limit, or under a budget the
// generations done and those the time left (before the final stages'
// reserve) holds at the session's mean generation time, whichever is
// fewer; 0 while a budget's generation time is not known yet.
type scheduled interface {
	Horizon(generations int)
}

// gamesTeller is implemented by algorithms that weigh a generation's
// fitness differences by the games behind them (SPSA counts wins less
// losses): before Tell, the search gives the pairwise results each
// proposal played in generation gen (the anchor's, which plays them all).
type gamesTeller interface {
	TellGames(gen int, games float64)
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
