package queue

import (
	"fmt"

	"crucible/arena"
)

// BotGames is what a worker needs besides Games to play outside bots: a
// Games that can start a bot from its manifest on the worker's machine.
type BotGames interface {
	Games
	// Bot makes the arena entrant named name of the bot whose manifest
	// (values filled in, folder absolute) is manifest, for game; a bot
	// whose command or files are not on this machine is an error naming
	// them.
	Bot(game, manifest, name string) (arena.Entrant, error)
}

// buildBot makes the entrant of a stored outside bot with gs.
func buildBot(gs Games, game string, sp EntrantSpec) (arena.Entrant, error) {
	bg, ok := gs.(BotGames)
	if !ok {
		return arena.Entrant{}, fmt.Errorf("an outside bot (manifest), which this worker cannot start")
	}
	e, err := bg.Bot(game, sp.Bot, sp.Name)
	if err != nil {
		return arena.Entrant{}, err
	}
	if e.VariantID != sp.VariantID {
		return arena.Entrant{}, fmt.Errorf("the stored manifest names variant %s, the worker built %s", sp.VariantID, e.VariantID)
	}
	return e, nil
}
