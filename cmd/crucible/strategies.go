package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"crucible/strategies"
)

// strategyJSON is one strategy in `crucible strategies --json`.
type strategyJSON struct {
	Game        string             `json:"game"`
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Params      []strategies.Param `json:"params"`
}

func newStrategiesCmd() *cobra.Command {
	var game string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "strategies",
		Short: "List the strategies of a game with their parameters",
		Long: `List every strategy of a game with its named, bounded parameters
(name, range, default, and what it changes in play).

  crucible strategies --game kindling
  crucible strategies --game acb --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := labGames.Lookup(game); err != nil {
				return fmt.Errorf("--game: %w", err)
			}
			reg, err := newRegistry()
			if err != nil {
				return err
			}
			list := reg.List(game)
			out := cmd.OutOrStdout()
			if asJSON {
				rows := make([]strategyJSON, 0, len(list))
				for _, s := range list {
					rows = append(rows, strategyJSON{s.Game, s.Name, s.Description, s.Schema})
				}
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rows)
			}
			for _, s := range list {
				fmt.Fprintf(out, "%s — %s\n", s.Name, s.Description)
				for _, p := range s.Schema {
					kind := "real"
					if p.Integer {
						kind = "int"
					}
					fmt.Fprintf(out, "    %-18s %-4s %-14s default %-8v %s\n", p.Name, kind, p.Range(), p.Default, p.Description)
				}
			}
			fmt.Fprintf(out, "%d %s strategies\n", len(list), game)
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", defaultGame, "game whose strategies to list: "+labGames.List())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (game, name, description, params) instead of text")
	return cmd
}
