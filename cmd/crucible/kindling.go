package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newKindlingCmd is a placeholder until its issue lands.
func newKindlingCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "kindling",
		Short: "Kindling server and agent (issue 7)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("kindling is not built yet")
		},
	}
}
