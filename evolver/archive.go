package evolver

import (
	"math"
	"sort"
)

// entry is everything the search has measured about one variant: its
// point, where it came from, and its running score over every generation
// in which it played.
type entry struct {
	// ID is the variant id (strategies.VariantID) of the genome.
	ID string `json:"id"`
	// Fingerprint is the behaviour fingerprint of the genome (see
	// Fingerprinter); "" when the search has none.
	Fingerprint string `json:"fingerprint,omitempty"`
	// X is the canonical point of the genome in the normalised space.
	X []float64 `json:"x"`
	// Parents are the ids of the variants it was derived from.
	Parents []string `json:"parents,omitempty"`
	// Born is the generation it was first measured in.
	Born int `json:"born"`
	// Last is the latest generation it was measured in.
	Last int `json:"last"`
	// Evals counts the generations in which it was measured.
	Evals int `json:"evals"`
	// Points is the sum of pairwise results (win 1, draw 0.5, loss 0).
	Points float64 `json:"points"`
	// Games is the number of pairwise results.
	Games float64 `json:"games"`
	// Versus splits Points and Games by opponent name (see measure.Versus).
	Versus map[string]tally `json:"versus,omitempty"`
	// Adv is the sum, over the generations it played, of its score rate
	// less the generation's effect (see Fitness).
	Adv float64 `json:"adv"`
	// Fitness is its seed-adjusted score rate. Generations differ in how
	// easy their seeds are, so rates are read through an additive model,
	// rate = strength + effect of the generation. The effect is measured
	// by the anchor, the base's defaults, which plays every generation and
	// whose strength is the origin of the scale: a variant's strength is
	// its mean rate less the base's on the same seeds, Adv/Evals, and
	// Fitness is that strength plus the base's mean rate over all
	// generations (a level common to every entry, which puts it on the
	// score-rate scale; an estimate, it may stray outside [0,1]). Paired
	// with the base on the same seeds, a variant measured once on easy
	// seeds does not outshine one measured on many. The hall of fame would
	// make a less noisy anchor but a biased one: its members are there
	// because they were lucky, and anchoring on their inflated strengths
	// would inflate every later measurement (the winner's curse feeding on
	// itself). Fitness orders the search and is what the algorithms are
	// told.
	Fitness float64 `json:"fitness"`
}

// Mean is the running score rate, Points/Games (0 before any game).
func (e *entry) Mean() float64 {
	if e.Games == 0 {
		return 0
	}
	return e.Points / e.Games
}

// Lower is a conservative estimate of the fitness: Fitness less one
// standard error of a binomial rate over its games (with the rate held
// inside [0.05, 0.95] so that a perfect record on few games is not trusted
// blindly). It orders the hall of fame, so a lucky newcomer must confirm
// its score on fresh seeds before it displaces a measured elite.
func (e *entry) Lower() float64 { return e.lower(1) }

// lower is Fitness less k standard errors.
func (e *entry) lower(k float64) float64 {
	if e.Games == 0 {
		return math.Inf(-1)
	}
	p := math.Min(0.95, math.Max(0.05, e.Fitness))
	return e.Fitness - k*math.Sqrt(p*(1-p)/e.Games)
}

// archive holds the entries of a search by id.
type archive struct {
	byID map[string]*entry
}

func newArchive() *archive { return &archive{byID: map[string]*entry{}} }

// get returns the entry of id or nil.
func (a *archive) get(id string) *entry { return a.byID[id] }

// ensure returns the entry of id, creating it with x, parents and born.
func (a *archive) ensure(id string, x []float64, parents []string, born int) *entry {
	if e := a.byID[id]; e != nil {
		return e
	}
	e := &entry{ID: id, X: append([]float64(nil), x...), Parents: append([]string(nil), parents...), Born: born, Last: born}
	a.byID[id] = e
	return e
}

// sorted returns all entries, best fitness first (ties by id).
func (a *archive) sorted() []*entry {
	out := make([]*entry, 0, len(a.byID))
	for _, e := range a.byID {
		out = append(out, e)
	}
	sortByFitness(out)
	return out
}

// sortByFitness orders entries by fitness, best first, ties by id.
func sortByFitness(es []*entry) {
	sort.Slice(es, func(i, j int) bool {
		mi, mj := es[i].Fitness, es[j].Fitness
		if mi != mj {
			return mi > mj
		}
		return es[i].ID < es[j].ID
	})
}

// sortByLower orders entries by the conservative estimate, best first,
// ties by fitness and then id.
func sortByLower(es []*entry) {
	sort.Slice(es, func(i, j int) bool {
		li, lj := es[i].Lower(), es[j].Lower()
		if li != lj {
			return li > lj
		}
		mi, mj := es[i].Fitness, es[j].Fitness
		if mi != mj {
			return mi > mj
		}
		return es[i].ID < es[j].ID
	})
}

// list returns the entries as values sorted by id, for checkpoints.
func (a *archive) list() []entry {
	out := make([]entry, 0, len(a.byID))
	for _, e := range a.byID {
		out = append(out, *e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// prune keeps only the entries in keep and the best and worst few by
// fitness, so checkpoints stay small on long runs. It is
// deterministic: the same archive and keep set leave the same entries.
func (a *archive) prune(keep map[string]bool, best, worst int) {
	all := a.sorted()
	for i, e := range all {
		if keep[e.ID] || i < best || i >= len(all)-worst {
			continue
		}
		delete(a.byID, e.ID)
	}
}

// strength is the entry's estimated strength, Adv/Evals (0 before it has
// played: the base's defaults at the start are the origin of the scale).
func (e *entry) strength() float64 {
	if e.Evals == 0 {
		return 0
	}
	return e.Adv / float64(e.Evals)
}

// refit recomputes every entry's Fitness from the common level.
func (a *archive) refit(level float64) {
	for _, e := range a.byID {
		if e.Evals > 0 {
			e.Fitness = level + e.strength()
		}
	}
}

// tally is a sum of pairwise results: Points (win 1, draw 0.5, loss 0)
// over Games.
type tally struct {
	Points float64 `json:"points"`
	Games  float64 `json:"games"`
}
