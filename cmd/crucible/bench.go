package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newBenchCmd is a placeholder until its issue lands.
func newBenchCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "bench",
		Short: "Measure engine and arena throughput",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("bench is not built yet")
		},
	}
}
