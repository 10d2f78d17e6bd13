package main

import (
	"crucible/engine"
	"crucible/games"
	"crucible/strategies"
)

// gameNames lists the games on the command line, from the table of games.
var gameNames = games.Names()

// newRegistry builds the registry of every strategy of every game.
func newRegistry() (*strategies.Registry, error) {
	return games.Registry()
}

// lookupGame returns the rules of the named game.
func lookupGame(name string) (engine.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Rules, nil
}
