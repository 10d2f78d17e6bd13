package main

import (
	"errors"

	"github.com/spf13/cobra"
)

// newExportCmd is a placeholder until its issue lands.
func newExportCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "export",
		Short: "Export a variant as a deployable bot (issue 7)",
		RunE: func(cmd *cobra.Command, args []string) error {
			return errors.New("export is not built yet")
		},
	}
}
