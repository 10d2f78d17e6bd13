package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newMatchKindlingCmd is a placeholder until its issue lands.
func newMatchKindlingCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "kindling",
		Short: "Play one Kindling match (issue 2)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("kindling is not built yet")
		},
	}
}
