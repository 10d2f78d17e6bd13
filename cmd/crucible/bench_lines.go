package main

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/tw"

	"crucible/internal/cpuclock"
)

// benchLine is one figure of crucible bench over its runs: the CPU and
// wall time per unit of work of each run, in nanoseconds.
type benchLine struct {
	what, unit, note string
	workers          int // the arena's workers (0: not an arena run)
	counts           []int
	cpu, wall        []float64 // per unit, one per run
	busy             []float64 // CPU time over wall time, one per run
}

// add records one run: count units of work that took s.
func (l *benchLine) add(count int, s cpuclock.Sample) {
	n := float64(max(count, 1))
	l.counts = append(l.counts, count)
	l.cpu = append(l.cpu, float64(s.CPU.Nanoseconds())/n)
	l.wall = append(l.wall, float64(s.Wall.Nanoseconds())/n)
	l.busy = append(l.busy, s.CPU.Seconds()/max(s.Wall.Seconds(), 1e-9))
}

// median, min and max of xs (the mean of the middle two for an even
// count).
func spread(xs []float64) (med, lo, hi float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	med = s[n/2]
	if n%2 == 0 {
		med = (s[n/2-1] + s[n/2]) / 2
	}
	return med, s[0], s[n-1]
}

// ratios are a/b run by run (the runs of a repeat side by side), their
// median.
func medianRatio(a, b []float64) float64 {
	var rs []float64
	for i := range min(len(a), len(b)) {
		if b[i] > 0 {
			rs = append(rs, a[i]/b[i])
		}
	}
	m, _, _ := spread(rs)
	return m
}

// overheadNote compares the 1-worker arena with the bare loop.
func overheadNote(bare, one *benchLine) string {
	return fmt.Sprintf("CPU %+.1f%% a match against the bare loop (target <= 5%%); wall %+.1f%%",
		100*(medianRatio(one.cpu, bare.cpu)-1), 100*(medianRatio(one.wall, bare.wall)-1))
}

// speedupNote compares the w-worker arena with the 1-worker one: w times
// the CPU a match at 1 worker over the CPU a match at w is the speed-up w
// free cores would give (work the workers add, contention that burns CPU,
// counted; cores the machine lends elsewhere not); beside it the wall
// speed-up and the cores the run kept busy.
func speedupNote(one, w *benchLine) string {
	busy, _, _ := spread(w.busy)
	return fmt.Sprintf("speed-up %.2fx by CPU (target >= 1.8x at 2); wall %.2fx, %.1f cores busy",
		float64(w.workers)*medianRatio(one.cpu, w.cpu), medianRatio(one.wall, w.wall), busy)
}

// printBenchLines writes one game's figures as a table.
func printBenchLines(w io.Writer, game string, lines []*benchLine) error {
	fmt.Fprintf(w, "\n%s\n", game)
	t := tablewriter.NewTable(w,
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: []tw.Align{
			tw.AlignLeft, tw.AlignLeft, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignRight, tw.AlignLeft}}),
	)
	t.Header("measure", "unit", "CPU a unit (median)", "min", "max", "wall a unit (median)", "units per CPU-s", "note")
	for _, l := range lines {
		med, lo, hi := spread(l.cpu)
		wall, _, _ := spread(l.wall)
		rate := 0.0
		if med > 0 {
			rate = 1e9 / med
		}
		if err := t.Append(l.what, l.unit, nanos(med), nanos(lo), nanos(hi), nanos(wall), strconv.FormatFloat(rate, 'f', 0, 64), l.note); err != nil {
			return err
		}
	}
	return t.Render()
}

// nanos formats a time in nanoseconds to three significant digits
// (812ns, 5.12µs, 31.4ms).
func nanos(ns float64) string {
	d := time.Duration(ns)
	switch {
	case d < time.Microsecond:
		return strconv.FormatFloat(ns, 'f', 0, 64) + "ns"
	case d < time.Millisecond:
		return strconv.FormatFloat(ns/1e3, 'g', 3, 64) + "µs"
	case d < time.Second:
		return strconv.FormatFloat(ns/1e6, 'g', 3, 64) + "ms"
	default:
		return strconv.FormatFloat(ns/1e9, 'g', 3, 64) + "s"
	}
}
