package queue

import (
	"crucible/arena"
	"crucible/engine"
	"crucible/strategies"
)

// Games is what the queue asks of the lab's games; the command line hands
// it the table of games (a *games.Table), so that this package names no
// game and imports no table.
type Games interface {
	// Rules returns the rules of the named game; an unknown name is an
	// error listing the known ones.
	Rules(game string) (engine.Game, error)
	// Registry builds the registry of every strategy of every game.
	Registry() (*strategies.Registry, error)
	// Remote makes the arena entrant of the remote bot at url for game,
	// signed with secret ("" for the game's environment variables); a game
	// without remote bots is an error.
	Remote(game, url, secret string) (arena.Entrant, error)
}
