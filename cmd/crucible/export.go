package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"crucible/export"
	"crucible/strategies"
)

// exportOptions are the flags of `crucible export`.
type exportOptions struct {
	variant, out, src, arch string
	verbose                 bool
}

func newExportCmd() *cobra.Command {
	var o exportOptions
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Export a variant as a deployable bot directory (binary, Dockerfile, README)",
		Long: `Write a directory that deploys one variant as it is:

  bot           a static Linux binary (CGO_ENABLED=0) that plays only this variant:
` + exportBotHelp() + `
  variant.json  the variant, with every parameter written out
  Dockerfile    FROM distroless static, COPY bot, and the bot's environment
  README.md     the run commands, the environment, the parameters

The binary is built with the Go toolchain from the crucible source tree: 'go
build' of games/lab/bot with the variant linked in. Run export inside the crucible
checkout (or give --src) with 'go' on PATH. --out must not exist or be empty;
nothing is left behind on error.

  crucible export --variant best.json --out deploy/best
  cd deploy/best && SHARED_SECRET=s3cret PORT=8080 ./bot`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.variant == "" || o.out == "" {
				return fmt.Errorf("give --variant FILE and --out DIR")
			}
			v, err := strategies.LoadVariant(o.variant)
			if err != nil {
				return fmt.Errorf("--variant: %w", err)
			}
			game, err := labGames.Lookup(v.Game)
			if err != nil {
				return fmt.Errorf("--variant %s: %w", o.variant, err)
			}
			if game.Export == nil {
				return fmt.Errorf("--variant %s: variants of %s cannot be exported (exported games: %s)", o.variant, v.Game, strings.Join(exportedGames(), ", "))
			}
			reg, err := newRegistry()
			if err != nil {
				return err
			}
			if _, err := loadVariant(reg, v.Game, o.variant, cmd.ErrOrStderr()); err != nil {
				return fmt.Errorf("--variant %s: %w", o.variant, err)
			}
			opt := export.Options{Variant: v, Registry: reg, Target: *game.Export, OutDir: o.out, Src: o.src, GOARCH: o.arch}
			if o.verbose {
				opt.Log = cmd.ErrOrStderr()
			}
			res, err := export.Export(cmd.Context(), opt)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			fmt.Fprintf(w, "exported %s (%s) to %s\n", res.Variant.Label(), v.Game, res.Dir)
			for _, f := range res.Files {
				size := ""
				if st, err := os.Stat(filepath.Join(res.Dir, f)); err == nil {
					size = fmt.Sprintf("%d bytes", st.Size())
				}
				fmt.Fprintf(w, "  %-13s %s\n", f, size)
			}
			fmt.Fprintf(w, "run: "+game.Export.RunHint+"\n", res.Dir)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.variant, "variant", "", "variant file to export (required)")
	f.StringVar(&o.out, "out", "", "directory to create (required; must not exist or be empty)")
	f.StringVar(&o.src, "src", "", "crucible source tree to build from (default: found from the working directory upwards)")
	f.StringVar(&o.arch, "arch", "amd64", "target CPU architecture of the Linux binary (amd64, arm64, ...)")
	f.BoolVar(&o.verbose, "verbose", false, "show the go build output")
	return cmd
}

// exportBotHelp says what the exported binary is for each game of the
// table.
func exportBotHelp() string {
	var b strings.Builder
	for _, g := range labGames.All() {
		if g.Export == nil {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "                - %s variants: %s", g.Name, g.Export.Bot)
	}
	return b.String()
}

// exportedGames names the games whose variants export.
func exportedGames() []string {
	var out []string
	for _, g := range labGames.All() {
		if g.Export != nil {
			out = append(out, g.Name)
		}
	}
	return out
}
