package evolver

import (
	"crucible/strategies"
	"fmt"
)

// opponent is a fixed participant of the measurements: a reference
// strategy (usually at its defaults) or a saved variant.
type opponent struct {
	// Name is its display name, unique among the opponents.
	Name string
	// Strategy is the strategy it plays.
	Strategy strategies.Strategy
	// Genome is its parameter vector (legal for Strategy's schema).
	Genome strategies.Genome
	// VariantID is its variant id, "" for a strategy at its defaults.
	VariantID string
}

// referencePool returns the strategies named (all of game's when names is
// empty) at their defaults, as opponents. An unknown name is an error that
// lists the known ones.
func referencePool(reg *strategies.Registry, game string, names []string) ([]opponent, error) {
	if len(names) == 0 {
		names = reg.Names(game)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("game %q has no strategies", game)
	}
	seen := map[string]bool{}
	var out []opponent
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("pool names %s twice", n)
		}
		seen[n] = true
		s, err := reg.Lookup(game, n)
		if err != nil {
			return nil, err
		}
		out = append(out, opponent{Name: n, Strategy: s, Genome: s.Schema.Defaults()})
	}
	return out, nil
}
