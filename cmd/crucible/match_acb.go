package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newMatchACBCmd is a placeholder until its issue lands.
func newMatchACBCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "acb",
		Short: "Play one AI Code Battle match (issue 3)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("acb is not built yet")
		},
	}
}
