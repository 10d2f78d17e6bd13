package games

import (
	"fmt"
	"io"
	"strings"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/botproc"
)

// BotHost is what the lab lends the outside bots of one run
// (../shared/specs/bots.md): the process manager that starts, restarts and
// stops their processes, where notices go, and a way to end what a game
// keeps for the run (a Kindling server on loopback) when the run ends.
type BotHost struct {
	// Procs runs the bots' processes; the run closes it at its end.
	Procs *botproc.Manager
	// Warn receives notices about the bots (an agent that polls slowly);
	// nil drops them.
	Warn io.Writer
	// OnClose registers f to run when the run ends, before Procs is
	// closed; nil runs nothing.
	OnClose func(f func())
}

// BotEntrant makes the arena entrant named name of an outside bot's
// variant v (a manifest of the game), whose processes h runs.
type BotEntrant func(h BotHost, v bots.Variant, name string) (arena.Entrant, error)

// Bot makes the arena entrant of the outside bot's variant v for its game
// (v.Manifest.Game); a game without outside bots is refused, naming the
// games that have them.
func (t *Table) Bot(h BotHost, v bots.Variant, name string) (arena.Entrant, error) {
	g, err := t.Lookup(v.Manifest.Game)
	if err != nil {
		return arena.Entrant{}, fmt.Errorf("bot %s: %w", v.Label(), err)
	}
	if g.Bot == nil {
		var with []string
		for _, o := range t.games {
			if o.Bot != nil {
				with = append(with, o.Name)
			}
		}
		return arena.Entrant{}, fmt.Errorf("bot %s: the lab plays outside bots of %s only, not of %s", v.Label(), strings.Join(with, ", "), g.Name)
	}
	return g.Bot(h, v, name)
}
