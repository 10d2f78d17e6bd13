package main

import "github.com/spf13/cobra"

// newMatchCmd groups the one-match commands of each game.
func newMatchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "match",
		Short: "Play one match of a game and print the result",
		Long: `Play one match headless and print it. Each game has its own subcommand:

  crucible match kindling --players normal,sniper --seed 7
  crucible match acb --players gatherer,rusher --seed 42`,
	}
	cmd.AddCommand(newMatchKindlingCmd(), newMatchACBCmd())
	return cmd
}
