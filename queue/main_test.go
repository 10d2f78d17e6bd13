package queue

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"regexp"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/games/lab"
	"crucible/internal/pgtest"
)

// The tests start workers (and submitters) as processes: this test binary
// run again with $CRUCIBLE_QUEUE_ROLE set plays the role instead of the
// tests, so no build of the command is needed.
const (
	envRole    = "CRUCIBLE_QUEUE_ROLE"
	envDB      = "CRUCIBLE_QUEUE_DB"
	envRescue  = "CRUCIBLE_QUEUE_RESCUE"
	envOut     = "CRUCIBLE_QUEUE_OUT"
	envSched   = "CRUCIBLE_QUEUE_SCHEDULE"
	envBatch   = "CRUCIBLE_QUEUE_BATCH"
	envWorkers = "CRUCIBLE_QUEUE_WORKERS"
	envStop    = "CRUCIBLE_QUEUE_STOP"
	envProfile = "CRUCIBLE_QUEUE_CPUPROFILE"
)

func TestMain(m *testing.M) {
	switch os.Getenv(envRole) {
	case "":
		os.Exit(pgtest.Main(m))
	case "worker":
		os.Exit(roleWorker())
	case "submit":
		os.Exit(roleSubmit())
	case "local":
		os.Exit(roleLocal())
	default:
		fmt.Fprintf(os.Stderr, "unknown %s=%q\n", envRole, os.Getenv(envRole))
		os.Exit(2)
	}
}

// roleWorker is `crucible worker` as the tests run it.
func roleWorker() int {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	rescue, _ := time.ParseDuration(os.Getenv(envRescue))
	workers, _ := strconv.Atoi(os.Getenv(envWorkers))
	stopTimeout := 5 * time.Second
	if d, err := time.ParseDuration(os.Getenv(envStop)); err == nil {
		stopTimeout = d
	}
	db, err := Open(ctx, os.Getenv(envDB), 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	if path := os.Getenv(envProfile); path != "" {
		stop, err := startProfile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer stop()
	}
	err = Work(ctx, db, WorkerConfig{Games: testGames, Workers: max(1, workers), RescueAfter: rescue, StopTimeout: stopTimeout, Log: os.Stderr,
		Ready: func(id string) { fmt.Fprintf(os.Stderr, "ready %s\n", id) }})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// roleSubmit submits a test schedule and follows it into a results file,
// as `crucible arena --db` does.
func roleSubmit() int {
	if path := os.Getenv(envProfile); path != "" {
		stop, err := startProfile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer stop()
	}
	ctx := context.Background()
	db, err := Open(ctx, os.Getenv(envDB), 0)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	s := schedules[os.Getenv(envSched)]()
	size, _ := strconv.Atoi(os.Getenv(envBatch))
	if size == 0 {
		// As crucible arena --db sizes batches.
		per, err := Calibrate(ctx, s.game, nil, s.entrants, s.jobs)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		size = BatchSize(len(s.jobs), per)
	}
	id, err := submitSchedule(ctx, db, s, size)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	fmt.Printf("run %d: batches of %d\n", id, size)
	if _, err := FollowToFile(ctx, db, id, os.Getenv(envOut), nil, nil); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// roleLocal plays a test schedule in this process and writes its results
// file, as crucible arena without --db does.
func roleLocal() int {
	if path := os.Getenv(envProfile); path != "" {
		stop, err := startProfile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer stop()
	}
	s := schedules[os.Getenv(envSched)]()
	workers, _ := strconv.Atoi(os.Getenv(envWorkers))
	w, _, err := arena.OpenResults(os.Getenv(envOut), false)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := arena.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Workers: max(1, workers)}, w.Write); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := w.Close(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}

// startProfile writes a CPU profile to path until the returned function
// is called.
func startProfile(path string) (func(), error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() { pprof.StopCPUProfile(); f.Close() }, nil
}

// schedule is a run of the tests.
type schedule struct {
	game     engine.Game
	entrants []arena.Entrant
	jobs     []arena.Job
}

// schedules are the tests' runs by name, rebuilt the same in every process.
var schedules = map[string]func() schedule{
	// kindling: 16 bidders (the table's first; it grows as bidders are
	// added), round robin on 2 seeds (480 matches, fast).
	"kindling": func() schedule { return roundRobin("kindling", 16, 2) },
	// acb: 6 strategies, round robin on 4 seeds (120 matches of a few ms).
	"acb": func() schedule { return roundRobin("acb", 6, 4) },
	// acb-slow: 5 strategies on 6 seeds (120 matches).
	"acb-slow": func() schedule { return roundRobin("acb", 5, 6) },
	// The CPU measurement's runs (measure_cpu_test.go): every strategy,
	// a few CPU-seconds each.
	"acb-rr":      func() schedule { return roundRobin("acb", 0, 2) },        // 840 matches
	"kindling-rr": func() schedule { return roundRobin("kindling", 0, 150) }, // 51,300 matches (19 bidders)
}

func roundRobin(game string, n, seeds int) schedule {
	g, err := testGames.Lookup(game)
	if err != nil {
		panic(err)
	}
	list := g.Strategies()
	if n > 0 {
		list = list[:n]
	}
	var ents []arena.Entrant
	for _, s := range list {
		ents = append(ents, arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults()))
	}
	return schedule{game: g.Rules, entrants: ents, jobs: arena.RoundRobin(len(ents), arena.Seeds(11, seeds))}
}

func submitSchedule(ctx context.Context, db *DB, s schedule, size int) (int64, error) {
	reg, err := testGames.Registry()
	if err != nil {
		return 0, err
	}
	specs, err := Specs(reg, s.game.Name(), s.entrants)
	if err != nil {
		return 0, err
	}
	return Submit(ctx, db, Run{Label: "test", Game: s.game, Entrants: specs, Jobs: s.jobs, BatchSize: size})
}

// durationField is the one field of a result line that varies.
var durationField = regexp.MustCompile(`,"duration_ms":[-+.0-9eE]+`)

// normalize strips timing from lines and sorts them.
func normalize(lines []string) []string {
	out := make([]string, 0, len(lines))
	for _, l := range lines {
		if l != "" {
			out = append(out, durationField.ReplaceAllString(l, ""))
		}
	}
	slices.Sort(out)
	return out
}

// localLines plays s in this process with the arena, as `crucible arena`
// without --db does, and returns its normalized lines.
func localLines(t *testing.T, s schedule) []string {
	t.Helper()
	path := t.TempDir() + "/local.jsonl"
	w, _, err := arena.OpenResults(path, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := arena.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Workers: 2}, w.Write); err != nil {
		t.Fatal(err)
	}
	w.Close()
	return fileLines(t, path)
}

func fileLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return normalize(strings.Split(string(data), "\n"))
}

// sameLines fails t unless got equals want line for line, naming the
// first difference.
func sameLines(t *testing.T, got, want []string) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%d result lines, want %d", len(got), len(want))
	}
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			t.Fatalf("sorted line %d differs:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

// proc is a worker or submitter process started from this test binary.
type proc struct {
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	last  string
	done  chan struct{}
}

func start(t *testing.T, role string, env ...string) *proc {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{envRole + "=" + role}, env...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout = io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			if strings.Contains(sc.Text(), ": playing") || strings.Contains(sc.Text(), ": recorded") {
				p.last = sc.Text()
			}
			p.mu.Unlock()
		}
		cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.cmd.Process.Signal(syscall.SIGCONT)
		p.cmd.Process.Kill()
		<-p.done
		if t.Failed() {
			t.Logf("%s %d:\n%s", role, cmd.Process.Pid, p.log())
		}
	})
	return p
}

func startWorker(t *testing.T, url string, rescue time.Duration) *proc {
	t.Helper()
	return start(t, "worker", envDB+"="+url, envRescue+"="+rescue.String(), envWorkers+"=1")
}

func (p *proc) log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Join(p.lines, "\n")
}

// waitFor waits up to d for a line of the process containing s.
func (p *proc) waitFor(t *testing.T, s string, d time.Duration) string {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		p.mu.Lock()
		for _, l := range p.lines {
			if strings.Contains(l, s) {
				p.mu.Unlock()
				return l
			}
		}
		p.mu.Unlock()
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no line containing %q after %s; log:\n%s", s, d, p.log())
	return ""
}

// playing tells whether the process's last batch line says it is playing.
func (p *proc) playing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.Contains(p.last, ": playing")
}

// waitComplete waits up to d for every batch of the run to be recorded.
func waitComplete(t *testing.T, db *DB, id int64, d time.Duration) RunInfo {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		st, err := Status(context.Background(), db, id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Complete() {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("run %d: %d of %d batches recorded after %s", id, st.DoneBatches, st.Batches, d)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func openTestDB(t *testing.T) (*DB, string) {
	t.Helper()
	url := pgtest.DB(t)
	db, err := Open(context.Background(), url, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(db.Close)
	return db, url
}

// testGames is the table of games the tests' workers and runners are
// handed, as the command line hands its own.
var testGames = lab.Table()
