// Package kindlinggame is Kindling's entry in the table of games: its
// rules, bidders, export target, viewer page, bench workload and `crucible
// match kindling` subcommand and its own commands (crucible kindling serve
// and play), gathered from the game's own packages
// (engine/kindling, strategies/bidders, protocol/kindlingapi,
// viewer/kindlingview).
package kindlinggame

import (
	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/kindlingbot"
	"crucible/engine/kindling"
	"crucible/games"
	"crucible/strategies"
	"crucible/strategies/bidders"
	"crucible/strategies/kindprog"
	"crucible/viewer/kindlingview"
)

// Name is the game's name on the command line.
const Name = "kindling"

// Game returns Kindling's row of the table.
func Game() games.Game {
	return games.Game{
		Name:       Name,
		Title:      "Kindling",
		Rules:      kindling.Game{},
		Strategies: func() []strategies.Strategy { return append(bidders.All(), kindprog.Program()) },
		Bot:        outsideBot,
		Elsewhere:  "Kindling bots play on a Kindling server (crucible kindling serve, crucible kindling play)",
		Export:     &exportTarget,
		Behaviour:  bidders.Behaviour(),
		LLMRules:   bidders.LLMRules,
		Viewer: &games.Viewer{
			Flag: "log",
			What: "Kindling match log (JSON)",
			Help: `A Kindling log (--log, as written by 'crucible match kindling --log' or served
by GET /api/matches/{code}/log) becomes the ridge of five beacons turn by turn:
each seat's bids, strengths, embers, who lit what, sparks and scores.`,
			Write:     kindlingview.Write,
			Recognize: kindlingview.Recognize,
		},
		Bench: &bench,
		Match: &match,
		Commands: func(env games.CommandEnv) []*cobra.Command {
			return []*cobra.Command{newKindlingCmd(env)}
		},
	}
}

// outsideBot is the arena entrant of an outside Kindling agent's variant:
// each match runs one process of it against the lab's Kindling server on
// loopback (bots/kindlingbot), which the run stops at its end.
func outsideBot(h games.BotHost, v bots.Variant, name string) (arena.Entrant, error) {
	host := kindlingbot.NewHost(h.Warn, v.Label())
	if h.OnClose != nil {
		h.OnClose(host.Close)
	}
	return kindlingbot.Entrant(h.Procs, host, v, name)
}
