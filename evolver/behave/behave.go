// Package behave measures what a player does in its matches, game by
// game: the behaviour descriptors of the evolver's MAP-Elites archive
// (evolver.Behaviour). A descriptor is computed from the game's figures of
// each finished match and from watching the candidate's own player (its
// views and moves), never from the engine's internals, so measuring
// changes nothing in the matches.
package behave

import (
	"crucible/evolver"
)

// For returns the behaviour of the named game, nil for a game without
// one.
func For(game string) *evolver.Behaviour {
	switch game {
	case "acb":
		return ACB()
	case "kindling":
		return Kindling()
	}
	return nil
}

// ratio is a/b, or 0 when b is 0.
func ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}
