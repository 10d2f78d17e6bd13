package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newRateCmd is a placeholder until its issue lands.
func newRateCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rate",
		Short: "Rate a results file with Glicko-2 (issue 5)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("rate is not built yet")
		},
	}
}
