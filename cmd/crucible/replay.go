package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"crucible/games"
	"crucible/internal/atomicfile"
)

// replayOptions are the flags of `crucible replay`: one input flag per
// game with a viewer (--replay, --log), by game name.
type replayOptions struct {
	inputs  map[string]*string
	outPath string
}

func newReplayCmd() *cobra.Command {
	o := replayOptions{inputs: map[string]*string{}}
	var help, examples []string
	for _, g := range viewerGames() {
		help = append(help, g.Viewer.Help)
		examples = append(examples, fmt.Sprintf("  crucible replay --%s %s.json --out %s.html", g.Viewer.Flag, g.Name, g.Name))
	}
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Write a match as a self-contained HTML viewer page",
		Long: `Write one HTML file that shows a match in any browser, from disk, with no
network: the replay or log is embedded with all the page's script and style.

` + strings.Join(help, "\n\n") + "\n\n" + strings.Join(examples, "\n"),
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	for _, g := range viewerGames() {
		o.inputs[g.Name] = f.String(g.Viewer.Flag, "", g.Viewer.What+" to show")
	}
	f.StringVar(&o.outPath, "out", "", "HTML file to write (default: the input's name with .html)")
	return cmd
}

// viewerGames are the games of the table whose matches have a viewer page.
func viewerGames() []games.Game {
	var out []games.Game
	for _, g := range labGames.All() {
		if g.Viewer != nil {
			out = append(out, g)
		}
	}
	return out
}

func runReplay(out io.Writer, o replayOptions) error {
	var game games.Game
	var in string
	var flags []string
	for _, g := range viewerGames() {
		flags = append(flags, fmt.Sprintf("--%s FILE (%s)", g.Viewer.Flag, g.Title))
		if p := o.inputs[g.Name]; p != nil && *p != "" {
			if in != "" {
				return fmt.Errorf("give --%s or --%s, not both", game.Viewer.Flag, g.Viewer.Flag)
			}
			game, in = g, *p
		}
	}
	if in == "" {
		return fmt.Errorf("give %s", strings.Join(flags, " or "))
	}
	dest := o.outPath
	if dest == "" {
		dest = strings.TrimSuffix(in, ".json") + ".html"
	}
	if dest == in {
		return fmt.Errorf("--out %s would overwrite the input", dest)
	}
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	var page bytes.Buffer
	if err := game.Viewer.Write(&page, data); err != nil {
		return fmt.Errorf("%s: %w%s", in, err, otherViewerHint(game, data))
	}
	if err := atomicfile.WriteFile(dest, page.Bytes()); err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	fmt.Fprintf(out, "wrote %s (%d bytes) from %s\n", dest, page.Len(), in)
	return nil
}

// otherViewerHint is, for a document game's viewer refused, the hint that
// it looks like another game's replay and which flag shows it ("" when it
// looks like none).
func otherViewerHint(game games.Game, data []byte) string {
	for _, g := range viewerGames() {
		if g.Name != game.Name && g.Viewer.Recognize != nil && g.Viewer.Recognize(data) {
			return fmt.Sprintf(" (it looks like a %s: view it with --%s)", g.Viewer.What, g.Viewer.Flag)
		}
	}
	return ""
}
