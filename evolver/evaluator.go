package evolver

import (
	"context"

	"crucible/evolver/behave"
	"crucible/strategies"
)

// matchBatch is one generation's measurement: every candidate plays the
// same seeds (common random numbers), seat-swapped, against the same
// opponents.
type matchBatch struct {
	// Generation is the generation number, from 0.
	Generation int
	// Seeds are the generation's match seeds, fresh each generation.
	Seeds []uint64
	// Candidates are the genomes to measure (distinct variants of the base).
	Candidates []strategies.Genome
	// IDs are the candidates' variant ids, in the same order.
	IDs []string
	// Champions are earlier champions of the search (variants of the base)
	// that join the evaluator's reference opponents, most recent last.
	Champions []strategies.Genome
	// ChampionIDs are their variant ids.
	ChampionIDs []string
}

// measure is one candidate's result in a batch.
type measure struct {
	// Points is the sum of pairwise results: win 1, draw 0.5, loss 0.
	Points float64
	// Games is the number of pairwise results.
	Games float64
	// Matches is the number of matches the candidate played.
	Matches int
	// SeedPoints and SeedGames split Points and Games by seed, in the
	// order of matchBatch.Seeds.
	SeedPoints []float64
	SeedGames  []float64
	// Versus splits Points and Games by opponent, keyed by the opponent's
	// name (nil when the evaluator does not split them).
	Versus map[string]tally
}

// Rate is Points/Games, or 0 with no game.
func (m measure) Rate() float64 {
	if m.Games == 0 {
		return 0
	}
	return m.Points / m.Games
}

// evaluator plays a batch and returns one measure per candidate, in order.
// Its results must depend only on the batch (not on timing or worker
// count), and it returns ctx.Err() when cancelled.
type evaluator interface {
	Evaluate(ctx context.Context, b matchBatch) ([]measure, error)
}

// The optional capabilities of an evaluator, which the search uses when
// it has them.

// progressEvaluator reports the matches of a batch as they finish.
type progressEvaluator interface {
	EvaluateProgress(ctx context.Context, b matchBatch, progress func(done, total int)) ([]measure, error)
}

// behaviourMeter measures behaviour descriptors in its matches, into a
// log (what MAP-Elites places its variants by).
type behaviourMeter interface {
	MeasureBehaviour(b *behave.Behaviour, log *behaviourLog)
}

// matchPlanner says how many matches a batch of that many candidates and
// seeds plays (with champions earlier champions among the opponents):
// what a budget's first estimate rests on.
type matchPlanner interface {
	PlannedMatches(candidates, seeds, champions int) int
}

// fingerprinter gives the behaviour fingerprint of genomes of the base
// strategy (see probeFingerprinter). Its results depend only on the
// genomes, never on timing or worker count.
type fingerprinter interface {
	// Fingerprint returns one fingerprint per genome, in order.
	Fingerprint(ctx context.Context, genomes []strategies.Genome) ([]string, error)
	// ProbeMatches is the number of matches one fingerprint costs (0: the
	// evaluator gives none).
	ProbeMatches() int
}

// evaluate plays b with ev, reporting its matches to progress when ev can.
func evaluate(ctx context.Context, ev evaluator, b matchBatch, progress func(done, total int)) ([]measure, error) {
	if p, ok := ev.(progressEvaluator); ok && progress != nil {
		return p.EvaluateProgress(ctx, b, progress)
	}
	return ev.Evaluate(ctx, b)
}
