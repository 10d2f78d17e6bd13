package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newMapCmd is a placeholder until its issue lands.
func newMapCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "map",
		Short: "Generate an AI Code Battle map (issue 3)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("map is not built yet")
		},
	}
}
