package main

import (
	"crucible/engine"
	"crucible/games"
	"crucible/strategies"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// gameNames lists the games on the command line, from the table of games.
var gameNames = games.Names()

// newRegistry builds the registry of every strategy of every game.
func newRegistry() (*strategies.Registry, error) {
	return games.Registry()
}

// lookupGame returns the rules of the named game.
func lookupGame(name string) (engine.Game, error) {
	g, err := games.Lookup(name)
	if err != nil {
		return nil, err
	}
	return g.Rules, nil
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
	g, gerr := games.Lookup(gameName)
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
	var ps []string
	for _, g := range games.All() {
		for _, p := range g.Presets {
			ps = append(ps, fmt.Sprintf("%s (%s: %s)", p.Name, g.Name, p.Description))
		}
	}
	help := "game configuration: a JSON file whose fields left out keep the game's defaults"
	if len(ps) > 0 {
		help += ", or a preset: " + strings.Join(ps, "; ")
	}
	return help
}
