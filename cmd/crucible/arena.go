package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newArenaCmd is a placeholder until its issue lands.
func newArenaCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "arena",
		Short: "Run many matches in parallel and rank the players (issue 5)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("arena is not built yet")
		},
	}
}
