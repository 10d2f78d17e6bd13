package evolver

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"

	"crucible/arena"
	"crucible/engine"
)

// Descriptor is one dimension of behaviour, measured from the matches a
// candidate plays: one axis of a MAP-Elites archive.
type Descriptor struct {
	// Name is the descriptor's name on the command line.
	Name string
	// Doc says what it measures and in which unit, for help texts.
	Doc string
	// Lo and Hi are the range the archive's grid spans; a value outside
	// falls into the edge cell.
	Lo, Hi float64
}

// BehaviourSlots is the number of game-specific counters a Behaviour can
// keep per candidate.
const BehaviourSlots = 8

// BehaviourCounts are the sums a Behaviour keeps over one candidate's
// matches in a batch. They are integers so that the sums do not depend on
// the order the matches finish in (the run stays reproducible at any
// worker count).
type BehaviourCounts struct {
	// Matches and Turns count the matches measured and their turns.
	Matches, Turns int64
	// Score sums the candidate's final scores (rounded to integers).
	Score int64
	// N are the game's own counters (see Behaviour.Watch and Record).
	N [BehaviourSlots]int64
}

// BehaviourCounter accumulates BehaviourCounts from many matches at once.
type BehaviourCounter struct {
	matches, turns, score atomic.Int64
	n                     [BehaviourSlots]atomic.Int64
}

// Add adds v to the game's counter i.
func (c *BehaviourCounter) Add(i int, v int64) { c.n[i].Add(v) }

// Counts returns the sums so far.
func (c *BehaviourCounter) Counts() BehaviourCounts {
	out := BehaviourCounts{Matches: c.matches.Load(), Turns: c.turns.Load(), Score: c.score.Load()}
	for i := range c.n {
		out.N[i] = c.n[i].Load()
	}
	return out
}

// Behaviour is how one game's behaviour descriptors are measured: by
// watching a candidate's player during its matches (Watch) and reading the
// game's figures of each finished match (Record). Package behave holds the
// games' behaviours.
type Behaviour struct {
	// Game is the game's name.
	Game string
	// Descriptors are the descriptors it measures, in the order Values
	// returns them.
	Descriptors []Descriptor
	// Watch, when set, wraps the candidate's player of one match: the
	// wrapper must play exactly as p does and adds what it sees to c
	// (concurrently with other matches).
	Watch func(p engine.Player, c *BehaviourCounter) engine.Player
	// Record, when set, adds the figures of a finished match for the
	// candidate's seat (engine.Result.Detail) to c.
	Record func(detail any, seat int, c *BehaviourCounter)
	// Values returns the descriptors' values from the sums.
	Values func(c BehaviourCounts) []float64
}

// Names lists the descriptors' names.
func (b *Behaviour) Names() []string {
	out := make([]string, len(b.Descriptors))
	for i, d := range b.Descriptors {
		out[i] = d.Name
	}
	return out
}

// Pick returns the indices of the named descriptors; an unknown or
// repeated name is a FieldError of field that lists the known ones.
func (b *Behaviour) Pick(field string, names []string) ([]int, error) {
	var out []int
	seen := map[string]bool{}
	for _, n := range names {
		i := -1
		for j, d := range b.Descriptors {
			if d.Name == n {
				i = j
			}
		}
		switch {
		case i < 0:
			return nil, &FieldError{Field: field, Value: strings.Join(names, ","), Reason: fmt.Sprintf("names %q, not a descriptor of %s (known: %s)", n, b.Game, strings.Join(b.Names(), ", "))}
		case seen[n]:
			return nil, &FieldError{Field: field, Value: strings.Join(names, ","), Reason: fmt.Sprintf("names %q twice", n)}
		}
		seen[n] = true
		out = append(out, i)
	}
	return out, nil
}

// BehaviourLog holds the behaviour counts the evaluator measured in its
// latest batch, by variant id: what MAP-Elites places its candidates by.
type BehaviourLog struct {
	latest map[string]BehaviourCounts
}

// Counts returns the counts of variant id in the latest batch.
func (l *BehaviourLog) Counts(id string) (BehaviourCounts, bool) {
	c, ok := l.latest[id]
	return c, ok && c.Matches > 0
}

// watchEntrant wraps the constructor of a candidate's entrant so that its
// players are watched into c.
func watchEntrant(e arena.Entrant, beh *Behaviour, c *BehaviourCounter) arena.Entrant {
	if beh.Watch == nil {
		return e
	}
	inner := e.New
	e.New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
		p, err := inner(ctx, seed, seat)
		if err != nil {
			return p, err
		}
		return beh.Watch(p, c), nil
	}
	return e
}

// recordMatch adds a finished match of the candidate at seat to c.
func recordMatch(beh *Behaviour, c *BehaviourCounter, detail any, seat int, score float64, turns int) {
	if beh == nil || c == nil {
		return
	}
	c.matches.Add(1)
	c.turns.Add(int64(turns))
	c.score.Add(int64(math.Round(score)))
	if beh.Record != nil && detail != nil {
		beh.Record(detail, seat, c)
	}
}
