package main

import (
	"github.com/spf13/cobra"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"crucible/engine"
	"crucible/games"
	"crucible/games/lab"
	"crucible/queue"
	"crucible/strategies"
)

// labGames is the table of games the commands play and their help texts
// list: the lab's own (games/lab). It is read when the command tree is
// built and when a command runs; a test runs the commands on a table of
// its own with useGames. Nothing else in this package names a game.
var labGames = lab.Table()

// defaultGame is the game of a --game flag left out.
var defaultGame = lab.Default

// The table is what the queue's workers and runners are handed.
var _ queue.Games = (*games.Table)(nil)

// gameNames lists the games on the command line, from the table of games.
var gameNames = labGames.Names()

// newRegistry builds the registry of every strategy of every game.
func newRegistry() (*strategies.Registry, error) {
	return labGames.Registry()
}

// lookupGame returns the rules of the named game.
func lookupGame(name string) (engine.Game, error) {
	return labGames.Rules(name)
}

// readGameConfig returns the configuration JSON that --config names: a
// file, or when no such file exists, one of the game's presets by name.
func readGameConfig(gameName, value string) ([]byte, error) {
	data, err := os.ReadFile(value)
	if err == nil {
		return data, nil
	}
	if !errors.Is(err, fs.ErrNotExist) || strings.ContainsRune(value, filepath.Separator) || filepath.Ext(value) != "" {
		// A path (a separator or an extension) is a file, not a preset.
		return nil, fmt.Errorf("--config: %w", err)
	}
	g, gerr := labGames.Lookup(gameName)
	if gerr != nil {
		return nil, gerr
	}
	var names []string
	for _, p := range g.Presets {
		if p.Name == value {
			return []byte(p.JSON), nil
		}
		names = append(names, p.Name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("--config %s: no such file (%s has no presets)", value, gameName)
	}
	return nil, fmt.Errorf("--config %s: no such file, and not a preset of %s (presets: %s)", value, gameName, strings.Join(names, ", "))
}

// configHelp is the help text of a --config flag: a file, or a preset of
// the games that have them.
func configHelp() string {
	return games.ConfigHelp(labGames.All()...)
}

// gameCommands are the games' own commands (crucible serve, crucible
// kindling, ...), from the table, with the command line's ways lent to
// them.
func gameCommands() []*cobra.Command {
	env := games.CommandEnv{Registry: newRegistry, CheckOut: checkOutPath, WriteOut: writeOutFile}
	var out []*cobra.Command
	for _, g := range labGames.All() {
		if g.Commands != nil {
			out = append(out, g.Commands(env)...)
		}
	}
	return out
}

// gameTitles are the games' full names for help texts: "AI Code Battle and
// Kindling".
func gameTitles() string {
	var titles []string
	for _, g := range labGames.All() {
		titles = append(titles, g.Title)
	}
	return games.Join(titles, "and")
}
