// Package games is the table of the lab's games: for each, its name on the
// command line, its rules (an engine.Game), its strategies, how the arena
// plays a remote bot of it, how a variant of it is exported, its viewer
// page, its bench workloads, its `crucible match` subcommand and its own
// commands (a protocol's server, an agent). Commands,
// help texts, the queue's workers and the exported bot read a Table
// instead of listing the games themselves.
//
// This package names no game: each game's entry is built in the game's own
// package (games/acbgame, games/kindlinggame), and the lab's table lists
// the entries (games/lab). Adding a game is a package that builds its Game
// and one line in the lab's table; a test may build a Table of its own with
// New.
package games

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/evolver/behave"
	"crucible/export"
	"crucible/strategies"
)

// Game is one row of the table: everything the rest of the lab asks of a
// game. Rules, Name and Strategies are required; the other fields are
// capabilities, nil for a game that lacks them (the commands then say so).
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
	// It is nil for a game whose bots the arena cannot call (see
	// HasRemote).
	Remote func(url, secret string) (arena.Entrant, error)
	// Elsewhere says, for a game without Remote, where its bots play
	// instead (for messages).
	Elsewhere string
	// Bot, when not nil, makes an arena entrant of an outside bot from
	// its manifest (../shared/specs/bots.md), started by the lab (nil:
	// the game takes no manifests).
	Bot BotEntrant
	// Export is how a variant of the game is exported as a bot (nil: its
	// variants cannot be exported).
	Export *export.Target
	// Presets are named configurations that --config accepts in place
	// of a file.
	Presets []Preset
	// Viewer writes the self-contained viewer page of a match's replay
	// (nil: the game's matches have no page).
	Viewer *Viewer
	// Bench is what crucible bench measures of the game besides the arena
	// round robin every game gets (nil: the round robin alone).
	Bench *Bench
	// Match is the game's `crucible match GAME` subcommand (nil: the game
	// has none).
	Match *MatchCommand
	// Commands are the game's own top-level commands: its protocol's
	// server, its agent, its tools (crucible serve, crucible kindling,
	// crucible map; nil: none).
	Commands Commands

	// Behaviour is what the evolver's MAP-Elites measures of a player's
	// matches (nil: the game has no descriptors), and LLMRules the rules
	// as the evolver's llm prompt states them ("": none).
	Behaviour *behave.Behaviour
	LLMRules  string
}

// HasRemote reports whether the arena can play remote bots of the game.
func (g Game) HasRemote() bool { return g.Remote != nil }

// Preset is a named game configuration: the JSON a --config file would
// hold.
type Preset struct {
	Name, Description, JSON string
}

// RemoteStartTimeout is how long a remote bot may take to answer its
// health check before a match.
const RemoteStartTimeout = 30 * time.Second

// Table is the games of one lab, in the order help texts show them. Its
// methods answer for every game at once (the registry of all strategies,
// the games with remote bots); Lookup finds one.
type Table struct {
	games []Game
}

// New makes a table of gs, checking every row: a name, rules named like
// it, strategies of that game only, an export target of that game, and a
// game without remote bots saying where its bots play. Names must be
// unique.
func New(gs ...Game) (*Table, error) {
	seen := map[string]bool{}
	for i, g := range gs {
		if err := check(g); err != nil {
			return nil, fmt.Errorf("games: row %d (%q): %w", i, g.Name, err)
		}
		if seen[g.Name] {
			return nil, fmt.Errorf("games: game %q is listed twice", g.Name)
		}
		seen[g.Name] = true
	}
	t := &Table{games: append([]Game(nil), gs...)}
	if _, err := t.Registry(); err != nil {
		return nil, fmt.Errorf("games: %w", err)
	}
	return t, nil
}

// MustNew is New for a table fixed in the source: an error is a bug of
// that source, and panics.
func MustNew(gs ...Game) *Table {
	t, err := New(gs...)
	if err != nil {
		panic(err)
	}
	return t
}

// check verifies one row.
func check(g Game) error {
	switch {
	case g.Name == "" || strings.ContainsAny(g.Name, " ,\t\n"):
		return errors.New("a game needs a name without spaces or commas")
	case g.Rules == nil:
		return errors.New("no rules")
	case g.Rules.Name() != g.Name:
		return fmt.Errorf("its rules are named %q", g.Rules.Name())
	case g.Strategies == nil:
		return errors.New("no strategies")
	case g.Remote == nil && g.Elsewhere == "":
		return errors.New("a game without remote bots must say where its bots play (Elsewhere)")
	}
	for _, s := range g.Strategies() {
		if s.Game != g.Name {
			return fmt.Errorf("it lists strategy %s of game %q", s.Name, s.Game)
		}
	}
	if x := g.Export; x != nil && (x.Game != g.Name || x.Run == nil || x.Dockerfile == nil || x.README == nil) {
		return fmt.Errorf("its export target (of game %q) is incomplete", x.Game)
	}
	if v := g.Viewer; v != nil && (v.Write == nil || v.Flag == "") {
		return errors.New("its viewer has no page writer or no flag")
	}
	if m := g.Match; m != nil && (m.Flags == nil || m.Short == "") {
		return errors.New("its match command has no flags or no summary")
	}
	if b := g.Bench; b != nil && b.Workload == nil {
		return errors.New("its bench has no workload")
	}
	return nil
}

// All returns the games, in the order help texts show them.
func (t *Table) All() []Game { return append([]Game(nil), t.games...) }

// Names returns the games' names in table order.
func (t *Table) Names() []string {
	out := make([]string, len(t.games))
	for i, g := range t.games {
		out[i] = g.Name
	}
	return out
}

// List is the games' names for a help text or a message: "acb or
// kindling".
func (t *Table) List() string { return Join(t.Names(), "or") }

// Join joins words for a message: "a, b or c" with last "or".
func Join(words []string, last string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + last + " " + words[len(words)-1]
}

// Lookup returns the named game; an unknown name is an error that lists the
// known ones.
func (t *Table) Lookup(name string) (Game, error) {
	for _, g := range t.games {
		if g.Name == name {
			return g, nil
		}
	}
	return Game{}, fmt.Errorf("unknown game %q (known: %s)", name, strings.Join(t.Names(), ", "))
}

// Rules returns the rules of the named game (see Lookup).
func (t *Table) Rules(name string) (engine.Game, error) {
	g, err := t.Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Rules, nil
}

// Registry builds the registry of every strategy of every game.
func (t *Table) Registry() (*strategies.Registry, error) {
	var all []strategies.Strategy
	for _, g := range t.games {
		all = append(all, g.Strategies()...)
	}
	return strategies.NewRegistry(all...)
}

// RemoteNames names the games whose remote bots the arena can play, for
// messages: "acb".
func (t *Table) RemoteNames() []string {
	var out []string
	for _, g := range t.games {
		if g.HasRemote() {
			out = append(out, g.Name)
		}
	}
	return out
}

// Remote makes the arena entrant of the remote bot at url for the named
// game; a game without remote bots is refused, saying where its bots play.
func (t *Table) Remote(game, url, secret string) (arena.Entrant, error) {
	g, err := t.Lookup(game)
	if err != nil {
		return arena.Entrant{}, err
	}
	if !g.HasRemote() {
		return arena.Entrant{}, fmt.Errorf("player %s: the arena calls remote bots of %s only; %s", url, strings.Join(t.RemoteNames(), ", "), g.Elsewhere)
	}
	return g.Remote(url, secret)
}
