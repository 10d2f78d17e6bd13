package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newServeCmd is a placeholder until its issue lands.
func newServeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve a strategy as an AI Code Battle HTTP bot (issue 7)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("serve is not built yet")
		},
	}
}
