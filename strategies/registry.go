package strategies

import (
	"fmt"
	"sort"
	"strings"

	"crucible/engine"
)

// Strategy is a named, parameterised way of playing one game.
type Strategy struct {
	// Game is the game's identifier ("acb" or "kindling").
	Game string
	// Name is the strategy's identifier within its game.
	Name string
	// Description is a one-line summary of its idea.
	Description string
	// Schema lists its parameters.
	Schema Schema
	// New builds a fresh player for one match from a legal genome (in schema
	// order) and the seat's own random seed (engine.SeatSeed). The seat is
	// the player's index in the match.
	New func(g Genome, seed uint64, seat int) engine.Player
	// Program is set for a strategy whose genome encodes a program (see
	// Program); such strategies are not references: List and Names leave
	// them out, Programs lists them.
	Program *Program
}

// Registry maps (game, name) to strategies. It is built once from the
// strategy packages' lists and not changed after.
type Registry struct {
	byGame map[string][]Strategy
}

// NewRegistry builds a registry from strategies, checking that names are
// unique within a game and that every schema is valid.
func NewRegistry(list ...Strategy) (*Registry, error) {
	r := &Registry{byGame: map[string][]Strategy{}}
	for _, s := range list {
		var missing []string
		if s.Game == "" {
			missing = append(missing, "Game")
		}
		if s.Name == "" {
			missing = append(missing, "Name")
		}
		if s.New == nil {
			missing = append(missing, "New")
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("strategy %q of game %q has no %s", s.Name, s.Game, strings.Join(missing, ", "))
		}
		if err := s.Schema.Validate(); err != nil {
			return nil, fmt.Errorf("strategy %s/%s: %w", s.Game, s.Name, err)
		}
		for _, t := range r.byGame[s.Game] {
			if t.Name == s.Name {
				return nil, fmt.Errorf("strategy %s/%s registered twice", s.Game, s.Name)
			}
		}
		r.byGame[s.Game] = append(r.byGame[s.Game], s)
	}
	for g := range r.byGame {
		sort.Slice(r.byGame[g], func(i, j int) bool { return r.byGame[g][i].Name < r.byGame[g][j].Name })
	}
	return r, nil
}

// Games lists the games that have strategies, sorted.
func (r *Registry) Games() []string {
	out := make([]string, 0, len(r.byGame))
	for g := range r.byGame {
		out = append(out, g)
	}
	sort.Strings(out)
	return out
}

// List returns the reference strategies of game (every strategy but the
// program ones) sorted by name: the field "all" names.
func (r *Registry) List(game string) []Strategy {
	var out []Strategy
	for _, s := range r.byGame[game] {
		if s.Program == nil {
			out = append(out, s)
		}
	}
	return out
}

// Programs returns the program strategies of game sorted by name.
func (r *Registry) Programs(game string) []Strategy {
	var out []Strategy
	for _, s := range r.byGame[game] {
		if s.Program != nil {
			out = append(out, s)
		}
	}
	return out
}

// Names returns the names of game's reference strategies (see List)
// sorted.
func (r *Registry) Names(game string) []string {
	var out []string
	for _, s := range r.List(game) {
		out = append(out, s.Name)
	}
	return out
}

// allNames returns every strategy name of game, programs included, sorted.
func (r *Registry) allNames(game string) []string {
	var out []string
	for _, s := range r.byGame[game] {
		out = append(out, s.Name)
	}
	return out
}

// Lookup finds a strategy. An unknown name is an error that lists the known
// ones.
func (r *Registry) Lookup(game, name string) (Strategy, error) {
	list, ok := r.byGame[game]
	if !ok {
		return Strategy{}, fmt.Errorf("unknown game %q (known: %s)", game, strings.Join(r.Games(), ", "))
	}
	for _, s := range list {
		if s.Name == name {
			return s, nil
		}
	}
	return Strategy{}, fmt.Errorf("unknown %s strategy %q (known: %s)", game, name, strings.Join(r.allNames(game), ", "))
}
