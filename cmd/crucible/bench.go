package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"
	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"crucible/arena"
	"crucible/games"
	"crucible/strategies"
)

func newBenchCmd() *cobra.Command {
	var (
		game    string
		seeds   int
		workers string
		repeat  int
	)
	var engineHelp []string
	for _, g := range labGames.All() {
		if g.Bench != nil {
			engineHelp = append(engineHelp, indent(g.Bench.Help, "           "))
		}
	}
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Measure engine and arena throughput on this machine",
		Long: `Measure what the lab's speed targets are about, on this machine:

  engine   ` + strings.Join(engineHelp, "\n           ") + `
  arena    a round robin of every strategy of the game, played by the bare
           match loop (players built, Game.Play called, nothing else) and by
           the arena at each worker count: matches per second, the arena's
           overhead against the bare loop at 1 worker, and the speed-up of
           each worker count against 1 worker (best of --repeat interleaved
           runs of each).

Figures depend on what else the machine is doing; run it on an idle machine.
Progress (the game and the step being measured) is shown on stderr when it is
a terminal; nothing is measured while it is drawn.

  crucible bench
  crucible bench --game kindling --seeds 20 --workers 1,2`,
		Args: cobra.NoArgs,
	}
	// Each game's own flags (--acb-matches) and its engine measure.
	workloads := map[string]games.BenchWorkload{}
	for _, g := range labGames.All() {
		if g.Bench != nil {
			workloads[g.Name] = g.Bench.Workload(cmd.Flags())
		}
	}
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
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
		for _, g := range list {
			if w := workloads[g.Name]; w.Check != nil {
				if err := w.Check(); err != nil {
					return err
				}
			}
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
		steps := 0
		for _, g := range list {
			if workloads[g.Name].Run != nil {
				steps++
			}
			steps += repeat * (1 + len(ws))
		}
		progress := newBenchProgress(cmd.ErrOrStderr(), steps)
		defer progress.finish()
		for _, g := range list {
			var figs []games.Figure
			if w := workloads[g.Name]; w.Run != nil {
				progress.step(g.Name + ": engine")
				if figs, err = w.Run(ctx, reg); err != nil {
					return err
				}
			}
			s := seeds
			if s == 0 {
				s = benchSeeds(g)
			}
			arenaFigs, err := benchArena(ctx, reg, g, s, repeat, ws, progress)
			if err != nil {
				return err
			}
			progress.clear()
			if err := printFigures(out, g.Name, append(figs, arenaFigs...)); err != nil {
				return err
			}
		}
		return nil
	}
	cmd.Flags().StringVar(&game, "game", "all", "game to measure: "+strings.Join(gameNames, ", ")+" or all")
	cmd.Flags().IntVar(&seeds, "seeds", 0, "seeds of the arena round robin, 0 to 10000 (0: "+benchSeedsHelp()+")")
	cmd.Flags().StringVar(&workers, "workers", "", "comma-separated worker counts for the arena, each 1 to 256 (default 1 and the number of CPUs)")
	cmd.Flags().IntVar(&repeat, "repeat", 3, "times the arena comparison runs, interleaved, 1 to 100; the best rate of each is reported")
	return cmd
}

// indent puts prefix before every line of text but the first.
func indent(text, prefix string) string {
	return strings.ReplaceAll(strings.TrimSpace(text), "\n", "\n"+prefix)
}

// benchSeeds is the default seeds of game's arena round robin: its
// bench's, else 1.
func benchSeeds(g games.Game) int {
	if g.Bench != nil && g.Bench.Seeds > 0 {
		return g.Bench.Seeds
	}
	return 1
}

// benchSeedsHelp lists the default seeds of each game for the help text.
func benchSeedsHelp() string {
	var parts []string
	for _, g := range labGames.All() {
		parts = append(parts, fmt.Sprintf("%d for %s", benchSeeds(g), g.Name))
	}
	return strings.Join(parts, ", ")
}

// benchGames expands the --game flag: the named game, or all in the table.
func benchGames(game string) ([]games.Game, error) {
	if game == "all" {
		return labGames.All(), nil
	}
	g, err := labGames.Lookup(game)
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

// benchArena compares the bare match loop with the arena on a round robin
// of every strategy of game.
func benchArena(ctx context.Context, reg *strategies.Registry, game games.Game, seeds, repeat int, workers []int, progress *benchProgress) ([]games.Figure, error) {
	g := game.Rules
	es, err := resolvePlayers(reg, game.Name, "all", "", nil, nil)
	if err != nil {
		return nil, err
	}
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, seeds))
	label := fmt.Sprintf("round robin of %d strategies, %d seeds, %d matches", len(es), seeds, len(jobs))

	// The bare loop and each worker count run interleaved, repeat times; the
	// best rate of each is kept, which filters out other load on the machine.
	rates := make([]float64, 1+len(workers))
	for rep := 0; rep < repeat; rep++ {
		progress.step(fmt.Sprintf("%s: bare match loop, run %d/%d", game.Name, rep+1, repeat))
		start := time.Now()
		if err := arena.PlaySequential(ctx, g, es, jobs); err != nil {
			return nil, err
		}
		rates[0] = max(rates[0], float64(len(jobs))/time.Since(start).Seconds())
		for i, w := range workers {
			progress.step(fmt.Sprintf("%s: arena, %d worker(s), run %d/%d", game.Name, w, rep+1, repeat))
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
	figs := []games.Figure{{What: "bare match loop: " + label, Value: rates[0], Unit: "matches/s",
		Note: fmt.Sprintf("best of %d runs, interleaved with the arena's", repeat)}}
	var one float64
	for i, w := range workers {
		rate := rates[1+i]
		f := games.Figure{What: fmt.Sprintf("arena, %d worker(s)", w), Value: rate, Unit: "matches/s"}
		if w == 1 {
			one = rate
			f.Note = fmt.Sprintf("overhead %+.1f%% against the bare loop (target <= 5%%)", 100*(rates[0]/rate-1))
		} else if one > 0 {
			f.Note = fmt.Sprintf("%.2fx the 1-worker arena (target >= 1.8x at 2)", rate/one)
		}
		figs = append(figs, f)
	}
	return figs, nil
}

// printFigures writes one game's figures as a table.
func printFigures(w io.Writer, game string, figs []games.Figure) error {
	fmt.Fprintf(w, "\n%s\n", game)
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{tw.AlignLeft, tw.AlignRight, tw.AlignLeft, tw.AlignLeft}}),
	)
	t.Header("measure", "value", "unit", "note")
	for _, f := range figs {
		if err := t.Append(f.What, strconv.FormatFloat(f.Value, 'f', 0, 64), f.Unit, f.Note); err != nil {
			return err
		}
	}
	return t.Render()
}

// benchProgress shows on a terminal which step of crucible bench is
// running; it draws between the timed runs, never during one. A nil
// *benchProgress (stderr is not a terminal) does nothing.
type benchProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
	n   int
}

// newBenchProgress returns the display of total steps on w, or nil when w
// is not a terminal.
func newBenchProgress(w io.Writer, total int) *benchProgress {
	f, ok := w.(*os.File)
	if !ok || total == 0 || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &benchProgress{w: w, bar: progressbar.NewOptions(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionClearOnFinish(),
	)}
}

// step says that the next step, what, begins (the steps before it are
// done).
func (p *benchProgress) step(what string) {
	if p == nil {
		return
	}
	p.bar.Describe(what)
	_ = p.bar.Set(p.n)
	p.n++
}

// clear removes the bar from the line before a table is printed.
func (p *benchProgress) clear() {
	if p != nil {
		_ = p.bar.Clear()
	}
}

// finish ends the display.
func (p *benchProgress) finish() {
	if p != nil {
		_ = p.bar.Finish()
	}
}
