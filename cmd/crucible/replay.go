package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"crucible/internal/atomicfile"
	"crucible/viewer"
)

// replayOptions are the flags of `crucible replay`.
type replayOptions struct {
	replayPath string
	logPath    string
	outPath    string
}

func newReplayCmd() *cobra.Command {
	var o replayOptions
	cmd := &cobra.Command{
		Use:   "replay",
		Short: "Write a match as a self-contained HTML viewer page",
		Long: `Write one HTML file that shows a match in any browser, from disk, with no
network: the replay or log is embedded with all the page's script and style.

An AI Code Battle replay (--replay, as written by 'crucible match acb --replay')
becomes an animated map (walls, energy, cores, units, fog of one player, the
zone) with play, step, a slider, speeds 1x to 16x, keys (Space, arrows, Home,
End) and a #t=N link to any turn; a legend, charts of score, units, energy and
win probability, an event ribbon and a commentary of the critical moments.

A Kindling log (--log, as written by 'crucible match kindling --log' or served
by GET /api/matches/{code}/log) becomes the ridge of five beacons turn by turn:
each seat's bids, strengths, embers, who lit what, sparks and scores.

  crucible replay --replay r.json --out r.html
  crucible replay --log k.json --out k.html`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.replayPath, "replay", "", "AI Code Battle replay (crucible-acb-replay/1 JSON) to show")
	f.StringVar(&o.logPath, "log", "", "Kindling match log (JSON) to show")
	f.StringVar(&o.outPath, "out", "", "HTML file to write (default: the input's name with .html)")
	return cmd
}

func runReplay(out io.Writer, o replayOptions) error {
	in, write := o.replayPath, viewer.WriteACB
	switch {
	case o.replayPath != "" && o.logPath != "":
		return fmt.Errorf("give --replay or --log, not both")
	case o.logPath != "":
		in, write = o.logPath, viewer.WriteKindling
	case o.replayPath == "":
		return fmt.Errorf("give --replay FILE (AI Code Battle) or --log FILE (Kindling)")
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
	if err := write(&page, data); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	if err := atomicfile.WriteFile(dest, page.Bytes()); err != nil {
		return fmt.Errorf("writing %s: %w", dest, err)
	}
	fmt.Fprintf(out, "wrote %s (%d bytes) from %s\n", dest, page.Len(), in)
	return nil
}
