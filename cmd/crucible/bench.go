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

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"crucible/arena"
	"crucible/games"
	"crucible/internal/cpuclock"
	"crucible/strategies"
)

func newBenchCmd() *cobra.Command {
	var (
		game    string
		seeds   int
		workers string
		repeats int
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
           the arena at each worker count, --repeats times interleaved.

Every figure is CPU time (user and system, every thread of the process) per
unit of work, the median over --repeats runs with their min and max, and the
wall time per unit beside it. The ratios come from the CPU times of runs
side by side: the arena's overhead against the bare loop at 1 worker, and
each worker count's speed-up against 1 worker (w times the CPU a match at 1
worker over the CPU a match at w: what w free cores would give; the wall
speed-up and the cores the run kept busy are beside it). CPU time is what
other load on the machine disturbs least; wall times on a busy machine say
more about the machine than about the lab.

Progress (the game and the step being measured) is shown on stderr when it is
a terminal; nothing is measured while it is drawn.

  crucible bench
  crucible bench --game kindling --seeds 20 --workers 1,2 --repeats 5`,
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
		if repeats < 1 || repeats > 100 {
			return fmt.Errorf("--repeats %d is outside its range 1..100", repeats)
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
		fmt.Fprintf(out, "crucible bench: %s/%s, %d CPUs, GOMAXPROCS %d, runs of each figure: %d\n",
			runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), runtime.GOMAXPROCS(0), repeats)
		ctx := cmd.Context()
		steps := 0
		for _, g := range list {
			if workloads[g.Name].Run != nil {
				steps += repeats
			}
			steps += repeats * (1 + len(ws))
		}
		progress := newBenchProgress(cmd.ErrOrStderr(), steps)
		defer progress.finish()
		for _, g := range list {
			var lines []*benchLine
			if w := workloads[g.Name]; w.Run != nil {
				if lines, err = benchEngine(ctx, reg, g.Name, w, repeats, progress); err != nil {
					return err
				}
			}
			s := seeds
			if s == 0 {
				s = benchSeeds(g)
			}
			arenaLines, err := benchArena(ctx, reg, g, s, repeats, ws, progress)
			if err != nil {
				return err
			}
			progress.clear()
			if err := printBenchLines(out, g.Name, append(lines, arenaLines...)); err != nil {
				return err
			}
		}
		return nil
	}
	cmd.Flags().StringVar(&game, "game", "all", "game to measure: "+strings.Join(gameNames, ", ")+" or all")
	cmd.Flags().IntVar(&seeds, "seeds", 0, "seeds of the arena round robin, 0 to 10000 (0: "+benchSeedsHelp()+")")
	cmd.Flags().StringVar(&workers, "workers", "", "comma-separated worker counts for the arena, each 1 to 256 (default 1 and the number of CPUs)")
	cmd.Flags().IntVar(&repeats, "repeats", 3, "runs of every figure, 1 to 100 (the arena's interleaved); the median is reported with the min and max")
	cmd.Flags().IntVar(&repeats, "repeat", 3, "the old name of --repeats")
	_ = cmd.Flags().MarkDeprecated("repeat", "use --repeats")
	return cmd
}

// benchEngine runs a game's engine measure repeats times.
func benchEngine(ctx context.Context, reg *strategies.Registry, game string, w games.BenchWorkload, repeats int, progress *benchProgress) ([]*benchLine, error) {
	var lines []*benchLine
	for rep := 0; rep < repeats; rep++ {
		progress.step(fmt.Sprintf("%s: engine, run %d/%d", game, rep+1, repeats))
		figs, err := w.Run(ctx, reg)
		if err != nil {
			return nil, err
		}
		for i, f := range figs {
			if i == len(lines) {
				lines = append(lines, &benchLine{what: f.What, unit: f.Unit, note: f.Note})
			}
			lines[i].add(f.Count, cpuclock.Sample{CPU: f.CPU, Wall: f.Wall})
		}
	}
	return lines, nil
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
func benchArena(ctx context.Context, reg *strategies.Registry, game games.Game, seeds, repeats int, workers []int, progress *benchProgress) ([]*benchLine, error) {
	g := game.Rules
	es, err := resolvePlayers(reg, game.Name, "all", "", nil, nil)
	if err != nil {
		return nil, err
	}
	jobs := arena.RoundRobin(len(es), arena.Seeds(1, seeds))
	label := fmt.Sprintf("round robin of %d strategies, %d seeds, %d matches", len(es), seeds, len(jobs))

	// The bare loop and each worker count run interleaved, repeats times,
	// so that each repeat's runs share the machine's state of the moment.
	bare := &benchLine{what: "bare match loop: " + label, unit: "match"}
	arenas := make([]*benchLine, len(workers))
	for i, w := range workers {
		arenas[i] = &benchLine{what: fmt.Sprintf("arena, %d worker(s)", w), unit: "match", workers: w}
	}
	for rep := 0; rep < repeats; rep++ {
		progress.step(fmt.Sprintf("%s: bare match loop, run %d/%d", game.Name, rep+1, repeats))
		s, err := measureWork(func() error { return arena.PlaySequential(ctx, g, es, jobs) })
		if err != nil {
			return nil, err
		}
		bare.add(len(jobs), s)
		for i, w := range workers {
			progress.step(fmt.Sprintf("%s: arena, %d worker(s), run %d/%d", game.Name, w, rep+1, repeats))
			s, err := measureWork(func() error {
				return arena.Run(ctx, g, es, jobs, arena.Options{Workers: w}, func(r arena.Record) error {
					if r.Error != "" {
						return fmt.Errorf("job %s: %s", r.Job, r.Error)
					}
					return nil
				})
			})
			if err != nil {
				return nil, err
			}
			arenas[i].add(len(jobs), s)
		}
	}
	var one *benchLine
	for _, a := range arenas {
		if a.workers == 1 {
			one = a
		}
	}
	for _, a := range arenas {
		if a.workers == 1 {
			a.note = overheadNote(bare, a)
		} else if one != nil {
			a.note = speedupNote(one, a)
		}
	}
	return append([]*benchLine{bare}, arenas...), nil
}

// measureWork runs f and returns the process's CPU time and the wall
// time it took: every goroutine f starts (the arena's workers) counts.
func measureWork(f func() error) (cpuclock.Sample, error) {
	m := cpuclock.Start()
	err := f()
	return m.Stop(), err
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
