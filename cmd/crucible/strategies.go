package main

import (
	"encoding/json"
	"fmt"
	"io"

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
	var show string
	cmd := &cobra.Command{
		Use:   "strategies",
		Short: "List the strategies of a game with their parameters",
		Long: `List every strategy of a game with its named, bounded parameters
(name, range, default, and what it changes in play).

Program strategies (whose genome is a program of rules the evolver rewrites,
not a reference: "all" leaves them out) are listed after the references
with their language; --show FILE prints a variant file: a program as
readable rules, any other variant as its parameters.

  crucible strategies --game kindling
  crucible strategies --game acb --json
  crucible strategies --show examples/programs/gatherer.variant.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, err := labGames.Lookup(game); err != nil {
				return fmt.Errorf("--game: %w", err)
			}
			reg, err := newRegistry()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			if show != "" {
				return showVariant(out, reg, show)
			}
			list := reg.List(game)
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
			grammar := ""
			for _, s := range reg.Programs(game) {
				fmt.Fprintf(out, "\nprogram strategy %s — %s (a genome of %d integer genes)\n", s.Name, s.Description, len(s.Schema))
				if s.Program.Grammar != grammar {
					grammar = s.Program.Grammar
					fmt.Fprint(out, "    "+indent(grammar, "    ")+"\n")
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", defaultGame, "game whose strategies to list: "+labGames.List())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (game, name, description, params) instead of text")
	cmd.Flags().StringVar(&show, "show", "", "print the variant FILE (a program as its rules, any other variant as its parameters) instead of the list")
	return cmd
}

// showVariant prints the variant file path: its label and note, and its
// program as text (a program strategy) or its parameters.
func showVariant(out io.Writer, reg *strategies.Registry, path string) error {
	v, err := strategies.LoadVariant(path)
	if err != nil {
		return fmt.Errorf("--show: %w", err)
	}
	r, err := reg.Check(v)
	if err != nil {
		return fmt.Errorf("--show %s: %w", path, err)
	}
	fmt.Fprintf(out, "%s (%s)\n", r.Variant.Label(), r.Variant.Game)
	if r.Variant.Note != "" {
		fmt.Fprintf(out, "note: %s\n", r.Variant.Note)
	}
	if p := r.Strategy.Program; p != nil && p.Text != nil {
		fmt.Fprint(out, p.Text(r.Genome))
		return nil
	}
	for i, p := range r.Strategy.Schema {
		fmt.Fprintf(out, "    %-18s %v\n", p.Name, r.Genome[i])
	}
	return nil
}
