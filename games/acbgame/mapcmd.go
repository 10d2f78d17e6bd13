package acbgame

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"crucible/engine/acb"
	"crucible/games"
)

// mapOptions are the flags of `crucible map`.
type mapOptions struct {
	players    int
	seed       uint64
	rows, cols int
	cores      int
	out        string
}

func newMapCmd(env games.CommandEnv) *cobra.Command {
	var o mapOptions
	cmd := &cobra.Command{
		Use:   "map",
		Short: "Generate an AI Code Battle map and preview it or save it as JSON",
		Long: `Generate the AI Code Battle map a match with this seed and player count
would use, and print an ASCII preview ('.' open, '#' wall, '*' energy, 'C' core,
with each player's cores listed below), or write it as a JSON map file that
'crucible match acb --map' loads.

Maps are symmetric so that every seat is equivalent: a 180-degree rotation for
2 players, 90-degree rotations for 4, translations by a third of the grid for 3
(and with a 180-degree rotation for 6); for 3 and 6 players rows and cols are
rounded to multiples of 3 (40 becomes 39).

  crucible map --players 2 --seed 7
  crucible map --players 4 --seed 3 --rows 48 --cols 48 --out arena4.json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runMap(env, cmd.OutOrStdout(), o)
		},
	}
	f := cmd.Flags()
	f.IntVar(&o.players, "players", 2, "number of players: 2, 3, 4 or 6")
	f.Uint64Var(&o.seed, "seed", 1, "match seed the map is generated from")
	f.IntVar(&o.rows, "rows", 40, "grid rows, 16..200")
	f.IntVar(&o.cols, "cols", 40, "grid columns, 16..200")
	f.IntVar(&o.cores, "cores", 2, "cores per player, 1..8")
	f.StringVar(&o.out, "out", "", "write the map as JSON to this file instead of printing a preview")
	return cmd
}

func runMap(env games.CommandEnv, out io.Writer, o mapOptions) error {
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.CoresPerPlayer = o.rows, o.cols, o.cores
	if err := cfg.Validate(); err != nil {
		return err
	}
	m, err := acb.GenerateMap(cfg, o.players, o.seed)
	if err != nil {
		return err
	}
	summary := fmt.Sprintf("map %dx%d, %d players, seed %d: %d walls (%.1f%%), %d energy tiles, %d cores",
		m.Rows, m.Cols, m.Players(), o.seed, len(m.Walls), 100*float64(len(m.Walls))/float64(m.Rows*m.Cols), len(m.Energy), len(m.Cores))
	if o.out != "" {
		if err := env.CheckOut("--out", o.out); err != nil {
			return err
		}
		if err := m.Save(o.out); err != nil {
			return fmt.Errorf("--out %s: %w", o.out, err)
		}
		fmt.Fprintf(out, "%s\nwritten to %s\n", summary, o.out)
		return nil
	}
	fmt.Fprintf(out, "%s\n%s%s", summary, m.ASCII(), m.Legend())
	return nil
}
