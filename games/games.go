// Package games is the table of the lab's games: for each, its name on the
// command line, its rules (an engine.Game), its strategies, how the arena
// plays a remote bot of it, and how a variant of it is exported. Commands,
// help texts and the exported bot read this table instead of listing the
// games themselves, so a game is added in one place.
package games

import (
	"context"
	"fmt"
	"strings"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/engine/kindling"
	"crucible/evolver/behave"
	"crucible/export"
	"crucible/protocol/acbhttp"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
	"crucible/strategies/bidders"
)

// Game is one row of the table.
type Game struct {
	// Name is the game's name on the command line and in results,
	// variants and strategies; Rules.Name() returns it.
	Name string
	// Title is the game's full name, for help texts.
	Title string
	// Rules plays matches of the game.
	Rules engine.Game
	// Strategies returns the game's strategies, fresh on every call.
	Strategies func() []strategies.Strategy
	// Remote, when not nil, makes an arena entrant of the remote bot at
	// an http:// or https:// URL, speaking the game's bot protocol with
	// the shared secret (empty: the protocol's environment variables).
	// It is nil for a game whose bots the arena cannot call.
	Remote func(url, secret string) (arena.Entrant, error)
	// Elsewhere says, for a game without Remote, where its bots play
	// instead (for messages).
	Elsewhere string
	// Export is how a variant of the game is exported as a bot.
	Export export.Target
	// Presets are named configurations that --config accepts in place
	// of a file.
	Presets []Preset
	// Behaviour is what the evolver's MAP-Elites measures of a player's
	// matches (nil: the game has no descriptors), and LLMRules the rules
	// as the evolver's llm prompt states them ("": none).
	Behaviour *behave.Behaviour
	LLMRules  string
}

// Preset is a named game configuration: the JSON a --config file would
// hold.
type Preset struct {
	Name, Description, JSON string
}

// acbPresets are the AI Code Battle engine's presets.
func acbPresets() []Preset {
	var out []Preset
	for _, p := range acb.Presets() {
		out = append(out, Preset{Name: p.Name, Description: p.Description, JSON: p.JSON})
	}
	return out
}

// RemoteStartTimeout is how long a remote bot may take to answer its
// health check before a match.
const RemoteStartTimeout = 30 * time.Second

// table lists the games in the order help texts show them.
var table = []Game{
	{
		Name:       "acb",
		Title:      "AI Code Battle",
		Rules:      acb.Game{},
		Strategies: acbstrat.All,
		Remote:     remoteACB,
		Export:     export.ACB,
		Presets:    acbPresets(),
		Behaviour:  acbstrat.Behaviour(),
		LLMRules:   acbstrat.LLMRules,
	},
	{
		Name:       "kindling",
		Title:      "Kindling",
		Rules:      kindling.Game{},
		Strategies: bidders.All,
		Elsewhere:  "Kindling bots play on a Kindling server (crucible kindling serve, crucible kindling play)",
		Export:     export.Kindling,
		Behaviour:  bidders.Behaviour(),
		LLMRules:   bidders.LLMRules,
	},
}

// All returns the table, in the order help texts show the games.
func All() []Game { return append([]Game(nil), table...) }

// Names returns the games' names in table order.
func Names() []string {
	out := make([]string, len(table))
	for i, g := range table {
		out[i] = g.Name
	}
	return out
}

// List is the games' names for a help text or a message: "acb or
// kindling".
func List() string {
	names := Names()
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Lookup returns the named game; an unknown name is an error that lists the
// known ones.
func Lookup(name string) (Game, error) {
	for _, g := range table {
		if g.Name == name {
			return g, nil
		}
	}
	return Game{}, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Registry builds the registry of every strategy of every game.
func Registry() (*strategies.Registry, error) {
	var all []strategies.Strategy
	for _, g := range table {
		all = append(all, g.Strategies()...)
	}
	return strategies.NewRegistry(all...)
}

// Remote names the games whose remote bots the arena can play, for
// messages: "acb".
func Remote() []string {
	var out []string
	for _, g := range table {
		if g.Remote != nil {
			out = append(out, g.Name)
		}
	}
	return out
}

// remoteACB is an arena entrant for a remote AI Code Battle bot, named by
// its URL: each match gets its own HTTP player, health-checked before the
// match. secret "" means $ACB_SECRET, else $SHARED_SECRET.
func remoteACB(url, secret string) (arena.Entrant, error) {
	if secret == "" {
		secret = acbhttp.SecretFromEnv()
	}
	if secret == "" {
		return arena.Entrant{}, fmt.Errorf("remote bot %s: no shared secret given, and neither ACB_SECRET nor SHARED_SECRET is set", url)
	}
	bot, err := acbhttp.NewRemoteBot(url, secret, RemoteStartTimeout)
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
