// Package lab is the lab's table of games: the one place that lists them.
// Adding a game is its own package that builds its games.Game and one line
// here.
package lab

import (
	"crucible/games"
	"crucible/games/acbgame"
	"crucible/games/kindlinggame"
)

// Default is the game the commands play when --game is left out.
const Default = kindlinggame.Name

// Games returns the lab's games, in the order help texts show them.
func Games() []games.Game {
	return []games.Game{
		acbgame.Game(),
		kindlinggame.Game(),
	}
}

// Table returns the table of the lab's games.
func Table() *games.Table { return games.MustNew(Games()...) }
