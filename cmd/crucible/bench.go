package main

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/spf13/cobra"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/engine/kindling"
	"crucible/games"
	"crucible/strategies"
)

// benchFigure is one measured line of `crucible bench`.
type benchFigure struct {
	what  string
	value float64
	unit  string
	note  string
}

func newBenchCmd() *cobra.Command {
	var (
		game    string
		seeds   int
		workers string
		acbPair int
		repeat  int
	)
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure engine and arena throughput on this machine",
		Long: `Measure what the lab's speed targets are about, on this machine:

  engine   Kindling: whole 4-seat, 8-turn matches per second on one core with
           cheap bidders (even, greedy, contrarian, sniper).
           AI Code Battle: random against random on the default 40x40 map,
           fog for both players every turn: ns per turn, turns per second.
  arena    a round robin of every strategy of the game, played by the bare
           match loop (players built, Game.Play called, nothing else) and by
           the arena at each worker count: matches per second, the arena's
           overhead against the bare loop at 1 worker, and the speed-up of
           each worker count against 1 worker (best of --repeat interleaved
           runs of each).

Figures depend on what else the machine is doing; run it on an idle machine.

  crucible bench
  crucible bench --game kindling --seeds 20 --workers 1,2`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			list, err := benchGames(game)
			if err != nil {
				return err
			}
			if seeds < 0 || seeds > 10000 {
				return fmt.Errorf("--seeds %d is outside its range 0..10000", seeds)
			}
			if repeat < 1 || repeat > 100 {
				return fmt.Errorf("--repeat %d is outside its range 1..100", repeat)
			}
			if acbPair < 1 || acbPair > 100000 {
				return fmt.Errorf("--acb-matches %d is outside its range 1..100000", acbPair)
			}
			ws, err := parseWorkerList(workers)
			if err != nil {
				return err
			}
			reg, err := newRegistry()
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "crucible bench: %s/%s, %d CPUs, GOMAXPROCS %d\n", runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0))
			ctx := cmd.Context()
			for _, g := range list {
				b := benches[g.Name]
				figs, err := b.engine(ctx, benchOptions{reg: reg, acbMatches: acbPair})
				if err != nil {
					return err
				}
				s := seeds
				if s == 0 {
					s = b.seeds
				}
				arenaFigs, err := benchArena(ctx, reg, g, s, repeat, ws)
				if err != nil {
					return err
				}
				if err := printFigures(out, g.Name, append(figs, arenaFigs...)); err != nil {
					return err
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&game, "game", "all", "game to measure: "+strings.Join(gameNames, ", ")+" or all")
	cmd.Flags().IntVar(&seeds, "seeds", 0, "seeds of the arena round robin, 0 to 10000 (0: "+benchSeedsHelp()+")")
	cmd.Flags().StringVar(&workers, "workers", "", "comma-separated worker counts for the arena, each 1 to 256 (default 1 and the number of CPUs)")
	cmd.Flags().IntVar(&repeat, "repeat", 3, "times the arena comparison runs, interleaved, 1 to 100; the best rate of each is reported")
	cmd.Flags().IntVar(&acbPair, "acb-matches", 200, "random-vs-random matches timed for the AI Code Battle engine figure, 1 to 100000")
	return cmd
}

// gameBench is how crucible bench measures one game: its engine figure
// and the default seeds of its arena round robin (about a second of play).
type gameBench struct {
	engine func(ctx context.Context, o benchOptions) ([]benchFigure, error)
	seeds  int
}

// benchOptions are what the engine figures need from the command.
type benchOptions struct {
	reg        *strategies.Registry
	acbMatches int
}

// benches holds the bench of every game of the table (a test checks that
// none is missing).
var benches = map[string]gameBench{
	"kindling": {engine: benchKindlingEngine, seeds: 400},
	"acb":      {engine: benchACBEngine, seeds: 1},
}

// benchSeedsHelp lists the default seeds of each game for the help text.
func benchSeedsHelp() string {
	var parts []string
	for _, g := range games.All() {
		parts = append(parts, fmt.Sprintf("%d for %s", benches[g.Name].seeds, g.Name))
	}
	return strings.Join(parts, ", ")
}

// benchGames expands the --game flag: the named game, or all in the table.
func benchGames(game string) ([]games.Game, error) {
	if game == "all" {
		return games.All(), nil
	}
	g, err := games.Lookup(game)
	if err != nil {
		return nil, fmt.Errorf("--game: %w", err)
	}
	return []games.Game{g}, nil
}

// parseWorkerList reads "1,2"; empty means 1 and NumCPU.
func parseWorkerList(s string) ([]int, error) {
	if s == "" {
		ws := []int{1}
		if n := runtime.NumCPU(); n > 1 {
			ws = append(ws, n)
		}
		return ws, nil
	}
	var ws []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > 256 {
			return nil, fmt.Errorf("--workers item %q is not a worker count in 1..256", f)
		}
		ws = append(ws, n)
	}
	if !slices.Contains(ws, 1) {
		ws = append([]int{1}, ws...)
	}
	return ws, nil
}

// benchKindlingEngine times 4-seat matches of cheap bidders for about a
// second, building players per match as the arena does.
func benchKindlingEngine(ctx context.Context, o benchOptions) ([]benchFigure, error) {
	g := kindling.Game{}
	es, err := resolvePlayers(o.reg, g.Name(), "even,greedy,contrarian,sniper", "", nil)
	if err != nil {
		return nil, err
	}
	jobs := []arena.Job{{ID: "b", Seats: []int{0, 1, 2, 3}}}
	n, took, err := timeLoop(ctx, time.Second, func(i int) error {
		jobs[0].Seed = uint64(i)
		return arena.PlaySequential(ctx, g, es, jobs)
	})
	if err != nil {
		return nil, err
	}
	return []benchFigure{{
		what: "engine: 4 seats x 8 turns, cheap bidders, 1 core", value: float64(n) / took.Seconds(), unit: "matches/s",
		note: fmt.Sprintf("%.0f ns per match (target >= 100000 matches/s)", float64(took.Nanoseconds())/float64(n)),
	}}, nil
}

// benchACBEngine plays random against random on the default map,
// --acb-matches times.
func benchACBEngine(ctx context.Context, o benchOptions) ([]benchFigure, error) {
	matches := o.acbMatches
	cfg := acb.DefaultConfig()
	turns := 0
	start := time.Now()
	for i := 0; i < matches; i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		seed := uint64(i)
		m, err := acb.NewMatch(cfg, nil, seed, []acb.Controller{acb.NewRandom(engine.SeatSeed(seed, 0)), acb.NewRandom(engine.SeatSeed(seed, 1))})
		if err != nil {
			return nil, err
		}
		if err := m.Run(ctx); err != nil {
			return nil, err
		}
		turns += m.Turn()
	}
	took := time.Since(start)
	nsPerTurn := float64(took.Nanoseconds()) / float64(turns)
	return []benchFigure{{
		what: "engine: random vs random, 40x40, fog both sides, 1 core", value: 1e9 / nsPerTurn, unit: "turns/s",
		note: fmt.Sprintf("%.0f ns per turn over %d matches, %d turns (target >= 500000 turns/s)", nsPerTurn, matches, turns),
	}}, nil
}

// benchArena compares the bare match loop with the arena on a round robin
// of every strategy of game.
func benchArena(ctx context.Context, reg *strategies.Registry, game games.Game, seeds, repeat int, workers []int) ([]benchFigure, error) {
	g := game.Rules
	es, err := resolvePlayers(reg, game.Name, "all", "", nil)
	if err != nil {
		return nil, err
	}
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, seeds))
	label := fmt.Sprintf("round robin of %d strategies, %d seeds, %d matches", len(es), seeds, len(jobs))

	// The bare loop and each worker count run interleaved, repeat times; the
	// best rate of each is kept, which filters out other load on the machine.
	rates := make([]float64, 1+len(workers))
	for rep := 0; rep < repeat; rep++ {
		start := time.Now()
		if err := arena.PlaySequential(ctx, g, es, jobs); err != nil {
			return nil, err
		}
		rates[0] = max(rates[0], float64(len(jobs))/time.Since(start).Seconds())
		for i, w := range workers {
			start := time.Now()
			err := arena.Run(ctx, g, es, jobs, arena.Options{Workers: w}, func(r arena.Record) error {
				if r.Error != "" {
					return fmt.Errorf("job %s: %s", r.Job, r.Error)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			rates[1+i] = max(rates[1+i], float64(len(jobs))/time.Since(start).Seconds())
		}
	}
	figs := []benchFigure{{what: "bare match loop: " + label, value: rates[0], unit: "matches/s",
		note: fmt.Sprintf("best of %d runs, interleaved with the arena's", repeat)}}
	var one float64
	for i, w := range workers {
		rate := rates[1+i]
		f := benchFigure{what: fmt.Sprintf("arena, %d worker(s)", w), value: rate, unit: "matches/s"}
		if w == 1 {
			one = rate
			f.note = fmt.Sprintf("overhead %+.1f%% against the bare loop (target <= 5%%)", 100*(rates[0]/rate-1))
		} else if one > 0 {
			f.note = fmt.Sprintf("%.2fx the 1-worker arena (target >= 1.8x at 2)", rate/one)
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// timeLoop calls f with 0, 1, 2, ... until at least d has passed, checking
// the clock every 256 calls, and says how many calls it made.
func timeLoop(ctx context.Context, d time.Duration, f func(i int) error) (int, time.Duration, error) {
	start := time.Now()
	n := 0
	for {
		for k := 0; k < 256; k++ {
			if err := f(n); err != nil {
				return n, 0, err
			}
			n++
		}
		if err := ctx.Err(); err != nil {
			return n, 0, err
		}
		if took := time.Since(start); took >= d {
			return n, took, nil
		}
	}
}

// printFigures writes one game's figures as a table.
func printFigures(w io.Writer, game string, figs []benchFigure) error {
	fmt.Fprintf(w, "\n%s\n", game)
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignLeft, tw.AlignLeft}}),
	)
	t.Header("measure", "value", "unit", "note")
	for _, f := range figs {
		if err := t.Append(f.what, strconv.FormatFloat(f.value, 'f', 0, 64), f.unit, f.note); err != nil {
			return err
		}
	}
	return t.Render()
}
