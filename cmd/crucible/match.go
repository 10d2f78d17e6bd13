package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/games"
)

// newMatchCmd groups the one-match commands: one subcommand for each game
// of the table that has one (games.Game.Match).
func newMatchCmd() *cobra.Command {
	var examples []string
	var subs []*cobra.Command
	for _, g := range labGames.All() {
		if g.Match == nil {
			continue
		}
		subs = append(subs, newGameMatchCmd(g))
		examples = append(examples, "  "+firstExample(g))
	}
	cmd := &cobra.Command{
		Use:   "match GAME",
		Short: "Play one match of a game and print the result",
		Long: "Play one match headless and print it. Each game has its own subcommand:\n\n" +
			strings.Join(examples, "\n"),
		// A game that is not a subcommand gets its own error (below), not
		// cobra's "unknown flag" for the flags it was given.
		FParseErrWhitelist: cobra.FParseErrWhitelist{UnknownFlags: true},
		Args:               cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmd.Help()
			}
			var names []string
			for _, s := range subs {
				names = append(names, s.Name())
			}
			if _, err := labGames.Lookup(args[0]); err != nil {
				return err
			}
			return fmt.Errorf("game %s has no match command (games with one: %s)", args[0], strings.Join(names, ", "))
		},
	}
	cmd.AddCommand(subs...)
	return cmd
}

// firstExample is the first example line ("crucible match ...") of a
// game's match help, for the group's help.
func firstExample(g games.Game) string {
	for _, line := range strings.Split(g.Match.Long, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "crucible match "+g.Name) {
			return line
		}
	}
	return "crucible match " + g.Name + " --help"
}

// newGameMatchCmd is `crucible match GAME` for one game: the game's flags
// and match function, with the command line's ways lent to it.
func newGameMatchCmd(g games.Game) *cobra.Command {
	m := g.Match
	cmd := &cobra.Command{
		Use:   g.Name,
		Short: m.Short,
		Long:  m.Long,
		Args:  cobra.NoArgs,
	}
	play := m.Flags(cmd.Flags())
	for _, name := range m.Required {
		_ = cmd.MarkFlagRequired(name)
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		reg, err := newRegistry()
		if err != nil {
			return err
		}
		// The logs of outside bots go to a folder of their own, kept
		// when the match ends.
		bs := newBotSession(matchBotLogDir(), cmd.ErrOrStderr())
		defer bs.Close()
		env := games.MatchEnv{
			Registry: reg,
			Player: func(item, secret string) ([]arena.Entrant, error) {
				return resolvePlayer(reg, g.Name, item, secret, nil, bs)
			},
			Config:   func(value string) ([]byte, error) { return readGameConfig(g.Name, value) },
			CheckOut: checkOutPath,
			WriteOut: writeOutFile,
		}
		return play(cmd.Context(), env, cmd.OutOrStdout())
	}
	return cmd
}
