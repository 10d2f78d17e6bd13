// Package acbgame is AI Code Battle's entry in the table of games: its
// rules, strategies, remote bots, export target, viewer page, bench
// workload, `crucible match acb` subcommand and its own commands (crucible
// serve, crucible map), gathered from the game's
// own packages (engine/acb, strategies/acbstrat, protocol/acbhttp,
// viewer/acbview).
package acbgame

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/acbbot"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/games"
	"crucible/protocol/acbhttp"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
	"crucible/viewer/acbview"
)

// Name is the game's name on the command line.
const Name = "acb"

// Game returns AI Code Battle's row of the table.
func Game() games.Game {
	return games.Game{
		Name:       Name,
		Title:      "AI Code Battle",
		Rules:      acb.Game{},
		Strategies: func() []strategies.Strategy { return append(acbstrat.All(), acbstrat.Programs()...) },
		Remote:     remote,
		Bot:        outsideBot,
		Export:     &exportTarget,
		Presets:    presets(),
		Behaviour:  acbstrat.Behaviour(),
		LLMRules:   acbstrat.LLMRules,
		Viewer: &games.Viewer{
			Flag: "replay",
			What: "AI Code Battle replay (" + acb.ReplayFormat + " JSON)",
			Help: `An AI Code Battle replay (--replay, as written by 'crucible match acb --replay')
becomes an animated map (walls, energy, cores, units, fog of one player, the
zone) with play, step, a slider, speeds 1x to 16x, keys (Space, arrows, Home,
End) and a #t=N link to any turn; a legend, charts of score, units, energy and
win probability, an event ribbon and a commentary of the critical moments.`,
			Write:     acbview.Write,
			Recognize: acbview.Recognize,
		},
		Bench: &bench,
		Match: &match,
		Commands: func(env games.CommandEnv) []*cobra.Command {
			return []*cobra.Command{newMapCmd(env), newServeCmd(env)}
		},
	}
}

// presets are the engine's presets.
func presets() []games.Preset {
	var out []games.Preset
	for _, p := range acb.Presets() {
		out = append(out, games.Preset{Name: p.Name, Description: p.Description, JSON: p.JSON})
	}
	return out
}

// remote is an arena entrant for a remote AI Code Battle bot, named by its
// URL: each match gets its own HTTP player, health-checked before the
// match. secret "" means $ACB_SECRET, else $SHARED_SECRET.
func remote(url, secret string) (arena.Entrant, error) {
	if secret == "" {
		secret = acbhttp.SecretFromEnv()
	}
	if secret == "" {
		return arena.Entrant{}, fmt.Errorf("remote bot %s: no shared secret given, and neither ACB_SECRET nor SHARED_SECRET is set", url)
	}
	bot, err := acbhttp.NewRemoteBot(url, secret, games.RemoteStartTimeout)
	if err != nil {
		return arena.Entrant{}, err
	}
	return arena.Entrant{
		Name:     url,
		Strategy: "remote",
		New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			return bot.NewPlayer(ctx, seat)
		},
	}, nil
}

// outsideBot is the arena entrant of an outside AI Code Battle bot's
// variant: each match leases one of its processes from h.Procs
// (bots/acbbot).
func outsideBot(h games.BotHost, v bots.Variant, name string) (arena.Entrant, error) {
	return acbbot.Entrant(h.Procs, v, name)
}
