package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newEvolveCmd is a placeholder until its issue lands.
func newEvolveCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "evolve",
		Short: "Search a strategy's parameters (issue 6)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("evolve is not built yet")
		},
	}
}
