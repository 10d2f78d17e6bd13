package main

import (
	"fmt"

	"crucible/engine"
	acbengine "crucible/engine/acb"
	"crucible/engine/kindling"
	"crucible/strategies"
	acbstrat "crucible/strategies/acb"
	kstrat "crucible/strategies/kindling"
)

// gameNames lists the games on the command line.
var gameNames = []string{"acb", "kindling"}

// newRegistry builds the registry of every strategy of both games.
func newRegistry() (*strategies.Registry, error) {
	return strategies.NewRegistry(append(kstrat.All(), acbstrat.All()...)...)
}

// lookupGame returns the rules of the named game.
func lookupGame(name string) (engine.Game, error) {
	switch name {
	case "acb":
		return acbengine.Game{}, nil
	case "kindling":
		return kindling.Game{}, nil
	}
	return nil, fmt.Errorf("unknown game %q (known: acb, kindling)", name)
}
