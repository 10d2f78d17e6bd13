// Package behave is the contract of behaviour descriptors: what a player
// does in its matches, measured by watching its own player (its views and
// moves) and reading the game's figures of each finished match, never the
// engine's internals, so measuring changes nothing in the matches. Each
// game defines its Behaviour beside its strategies (the games table hands
// it to the evolver, whose MAP-Elites archive is laid out over it); this
// package names no game.
package behave

import (
	"fmt"
	"math"
	"strings"
	"sync/atomic"

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

// Slots is the number of game-specific counters a Behaviour can keep per
// candidate.
const Slots = 8

// Counts are the sums a Behaviour keeps over one candidate's matches in a
// batch. They are integers so that the sums do not depend on the order the
// matches finish in (a run stays reproducible at any worker count).
type Counts struct {
	// Matches and Turns count the matches measured and their turns.
	Matches, Turns int64
	// Score sums the candidate's final scores (rounded to integers).
	Score int64
	// N are the game's own counters (see Behaviour.Watch and Record).
	N [Slots]int64
}

// Plus returns the sum of c and o.
func (c Counts) Plus(o Counts) Counts {
	c.Matches += o.Matches
	c.Turns += o.Turns
	c.Score += o.Score
	for i := range c.N {
		c.N[i] += o.N[i]
	}
	return c
}

// Counter accumulates Counts from many matches at once.
type Counter struct {
	matches, turns, score atomic.Int64
	n                     [Slots]atomic.Int64
}

// Add adds v to the game's counter i.
func (c *Counter) Add(i int, v int64) { c.n[i].Add(v) }

// AddMatch counts a finished match of turns turns in which the candidate
// scored score.
func (c *Counter) AddMatch(turns int, score float64) {
	c.matches.Add(1)
	c.turns.Add(int64(turns))
	c.score.Add(int64(math.Round(score)))
}

// Counts returns the sums so far.
func (c *Counter) Counts() Counts {
	out := Counts{Matches: c.matches.Load(), Turns: c.turns.Load(), Score: c.score.Load()}
	for i := range c.n {
		out.N[i] = c.n[i].Load()
	}
	return out
}

// Behaviour is how one game's behaviour descriptors are measured: by
// watching a candidate's player during its matches (Watch) and reading the
// game's figures of each finished match (Record).
type Behaviour struct {
	// Game is the game's name.
	Game string
	// Descriptors are the descriptors it measures, in the order Values
	// returns them.
	Descriptors []Descriptor
	// Watch, when set, wraps the candidate's player of one match: the
	// wrapper must play exactly as p does and adds what it sees to c
	// (concurrently with other matches).
	Watch func(p engine.Player, c *Counter) engine.Player
	// Record, when set, adds the figures of a finished match for the
	// candidate's seat (engine.Result.Detail) to c.
	Record func(detail any, seat int, c *Counter)
	// Values returns the descriptors' values from the sums.
	Values func(c Counts) []float64
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
// repeated name is an error that lists the known ones.
func (b *Behaviour) Pick(names []string) ([]int, error) {
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
			return nil, fmt.Errorf("names %q, not a descriptor of %s (known: %s)", n, b.Game, strings.Join(b.Names(), ", "))
		case seen[n]:
			return nil, fmt.Errorf("names %q twice", n)
		}
		seen[n] = true
		out = append(out, i)
	}
	return out, nil
}

// Ratio is a/b, or 0 when b is 0: the share most descriptors are.
func Ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
