package main

import (
	"fmt"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
	"crucible/strategies/bidders"
)

// gameNames lists the games on the command line.
var gameNames = []string{"acb", "kindling"}

// newRegistry builds the registry of every strategy of both games.
func newRegistry() (*strategies.Registry, error) {
	return strategies.NewRegistry(append(bidders.All(), acbstrat.All()...)...)
}

// lookupGame returns the rules of the named game.
func lookupGame(name string) (engine.Game, error) {
	switch name {
	case "acb":
		return acb.Game{}, nil
	case "kindling":
		return kindling.Game{}, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: acb, kindling)", name)
}
