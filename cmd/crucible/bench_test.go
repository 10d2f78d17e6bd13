package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"crucible/cmd/crucible/testdata/toygame"
	"crucible/games"
	"crucible/games/lab"
	"crucible/internal/cpuclock"
)

// openPTY opens a pseudo-terminal (Linux's /dev/ptmx): what the command
// writes to term shows up on master, and term is a terminal to
// term.IsTerminal.
func openPTY(t *testing.T) (master, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// crucible bench says on a terminal which step it measures (issue 20: six
// minutes with no output), and writes nothing to a stderr that is not one.
func TestBenchShowsProgressOnATerminalOnly(t *testing.T) {
	useGames(t, games.MustNew(append(lab.Games(), toygame.Game())...))
	args := []string{"bench", "--game", "toy", "--workers", "1", "--repeats", "2", "--toy-matches", "20"}

	out, stderr, err := execRoot(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "" {
		t.Errorf("bench wrote %q to a stderr that is not a terminal", stderr)
	}
	if !strings.Contains(out, "arena, 1 worker(s)") {
		t.Fatalf("bench output:\n%s", out)
	}

	master, term := openPTY(t)
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() { io.Copy(&shown, master); close(read) }()
	root := newRootCmd()
	var stdout bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(term)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	term.Close() // the master then reads what is left, and EIO
	<-read
	for _, step := range []string{"toy: engine, run 1/2", "toy: engine, run 2/2", "toy: bare match loop, run 1/2", "toy: arena, 1 worker(s), run 2/2"} {
		if !strings.Contains(shown.String(), step) {
			t.Errorf("the terminal never showed the step %q:\n%q", step, shown.String())
		}
	}
	if strings.Contains(stdout.String(), "toy: engine") {
		t.Error("the progress went to stdout, with the figures")
	}
}

// crucible bench reports every figure as CPU time a unit with its min and
// max over --repeats runs and the wall time beside it, and the arena's
// ratios from the CPU times.
func TestBenchReportsCPUTimeOverRepeats(t *testing.T) {
	useGames(t, games.MustNew(append(lab.Games(), toygame.Game())...))
	out, _, err := execRoot(t, "bench", "--game", "toy", "--workers", "1,2", "--repeats", "3", "--toy-matches", "50")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"runs of each figure: 3",
		"CPU a unit (median)", "min", "max", "wall a unit (median)", "units per CPU-s",
		"engine: toy matches, 1 core", "bare match loop: round robin of", "arena, 1 worker(s)", "arena, 2 worker(s)",
		"a match against the bare loop (target <= 5%); wall", "by CPU (target >= 1.8x at 2); wall",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("bench output lacks %q:\n%s", want, out)
		}
	}
	// Every figure's row: a unit, then median, min and max CPU times in
	// order (min <= median <= max), then the wall time.
	rows := 0
	for _, line := range strings.Split(out, "\n") {
		cells := strings.Split(line, "│")
		if len(cells) < 9 || strings.TrimSpace(cells[2]) == "unit" {
			continue
		}
		rows++
		var d [4]float64
		for i := range d {
			c := strings.TrimSpace(cells[3+i])
			v, err := parseNanos(c)
			if err != nil {
				t.Fatalf("row %q: cell %q: %v", line, c, err)
			}
			d[i] = v
		}
		if unit := strings.TrimSpace(cells[2]); unit != "match" {
			t.Errorf("row %q: unit %q, want match", line, unit)
		}
		if med, lo, hi := d[0], d[1], d[2]; !(lo <= med && med <= hi && lo > 0) {
			t.Errorf("row %q: median %v, min %v, max %v", line, med, lo, hi)
		}
	}
	if rows != 4 {
		t.Errorf("%d figure rows, want 4 (engine, bare loop, 2 arenas):\n%s", rows, out)
	}
	if _, _, err := execRoot(t, "bench", "--game", "toy", "--repeats", "0"); err == nil || !strings.Contains(err.Error(), "--repeats 0 is outside its range 1..100") {
		t.Errorf("--repeats 0: %v", err)
	}
}

// parseNanos reads what nanos wrote.
func parseNanos(s string) (float64, error) {
	d, err := time.ParseDuration(strings.Replace(s, "µs", "us", 1))
	return float64(d), err
}

// The CPU time of a figure counts the work of every goroutine the
// measured code starts (the arena's workers), not only its caller's: two
// busy loops of 150 ms of their own threads' CPU are at least 300 ms.
func TestMeasureWorkCountsEveryGoroutine(t *testing.T) {
	s, err := measureWork(func() error {
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				runtime.LockOSThread()
				defer runtime.UnlockOSThread()
				until := cpuclock.Thread() + 150*time.Millisecond
				for cpuclock.Thread() < until {
				}
			}()
		}
		wg.Wait()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.CPU < 300*time.Millisecond {
		t.Errorf("two busy loops of 150ms each: %s of CPU counted", s.CPU)
	}
	if s.Wall <= 0 {
		t.Errorf("wall time %s", s.Wall)
	}
}

func TestBenchSpread(t *testing.T) {
	tests := []struct {
		xs          []float64
		med, lo, hi float64
	}{
		{[]float64{3}, 3, 3, 3},
		{[]float64{5, 1, 3}, 3, 1, 5},
		{[]float64{4, 1, 3, 2}, 2.5, 1, 4},
	}
	for _, tt := range tests {
		med, lo, hi := spread(tt.xs)
		if med != tt.med || lo != tt.lo || hi != tt.hi {
			t.Errorf("spread(%v) = %v, %v, %v; want %v, %v, %v", tt.xs, med, lo, hi, tt.med, tt.lo, tt.hi)
		}
	}
	// Ratios are taken run by run: a run twice as slow for both sides
	// changes none.
	if r := medianRatio([]float64{110, 220, 1100}, []float64{100, 200, 1000}); r < 1.0999 || r > 1.1001 {
		t.Errorf("median ratio %v, want 1.1", r)
	}
	for _, tt := range []struct {
		ns   float64
		want string
	}{{812, "812ns"}, {5123, "5.12µs"}, {31_400_000, "31.4ms"}, {2_500_000_000, "2.5s"}} {
		if got := nanos(tt.ns); got != tt.want {
			t.Errorf("nanos(%v) = %q, want %q", tt.ns, got, tt.want)
		}
	}
}
