package queue

import (
	"context"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/internal/cpuclock"
)

// TestMeasureCPU gives the CPU figures of README.md: the CPU time the
// queue spends on a run (its worker processes from the run's submission
// to its last result, and the submitter that sizes, submits and follows
// it into a results file), against the local arena's process playing the
// same jobs into the same file, at 1 and 2 processes (local: 1 and 2
// arena workers); and beside it the CPU time of the PostgreSQL backends
// serving the run's database. Every process is this test binary re-run in
// a role, with crucible's GOGC=400, and the files are checked identical.
// It runs only when asked:
//
//	CRUCIBLE_QUEUE_MEASURE=1 go test -count=1 -run TestMeasureCPU -v -timeout 60m ./queue/
//
// ($CRUCIBLE_QUEUE_LOADS=acb-rr or kindling-rr for one game;
// $CRUCIBLE_QUEUE_TRIES for more tries, the lowest CPU time of each is
// kept; $CRUCIBLE_QUEUE_CPUPROFILE=DIR writes each worker's CPU profile
// there.)
//
// Without $CRUCIBLE_QUEUE_MEASURE (make test, CI) it runs the same path on
// the small schedules (120 acb and 480 Kindling matches): the worker
// processes, the submitter and PostgreSQL all real, the queue's result
// file checked line for line against the local arena's; its figures are
// only logged, since small loads on a busy machine measure little.
func TestMeasureCPU(t *testing.T) {
	tries, _ := strconv.Atoi(os.Getenv("CRUCIBLE_QUEUE_TRIES"))
	tries = max(tries, 1)
	loads := []string{"acb-rr", "kindling-rr"}
	if os.Getenv("CRUCIBLE_QUEUE_MEASURE") == "" {
		loads = []string{"acb", "kindling"}
	}
	if only := os.Getenv("CRUCIBLE_QUEUE_LOADS"); only != "" {
		loads = strings.Split(only, ",")
	}
	for _, load := range loads {
		for _, procs := range measureProcs() {
			var local, queue queueCPU
			var ratios, pgShares []float64
			for try := range tries {
				l := measureLocalCPU(t, load, procs)
				q := measureQueueCPU(t, load, procs, try)
				ratios = append(ratios, q.total().Seconds()/l.total().Seconds())
				pgShares = append(pgShares, q.postgres.Seconds()/l.total().Seconds())
				t.Logf("%s, %d process(es), try %d: local %s, queue %s (workers %s, submitter %s), PostgreSQL %s",
					load, procs, try+1, l.total().Round(time.Millisecond), q.total().Round(time.Millisecond),
					q.workers.Round(time.Millisecond), q.submitter.Round(time.Millisecond), q.postgres.Round(time.Millisecond))
				if try == 0 || l.total() < local.total() {
					local = l
				}
				if try == 0 || q.total() < queue.total() {
					queue = q
				}
			}
			t.Logf("%s, %d process(es), %d tries: queue CPU %+.1f%% over the local arena's (median of the tries' ratios; lowest CPU: local %s, %s wall; "+
				"queue %s: workers %s, submitter %s; %s; %s wall); PostgreSQL backends %.1f%% of the local arena's CPU (median; lowest %s)",
				load, procs, tries, 100*(median(ratios)-1), local.submitter.Round(time.Millisecond), local.wall.Round(time.Millisecond),
				queue.total().Round(time.Millisecond), queue.workers.Round(time.Millisecond), queue.submitter.Round(time.Millisecond), queue.batches,
				queue.wall.Round(time.Millisecond), 100*median(pgShares), queue.postgres.Round(time.Millisecond))
		}
	}
}

// median of xs (the mean of the middle two for an even count).
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// queueCPU is one measured run.
type queueCPU struct {
	workers, submitter, postgres, wall time.Duration
	batches                            string
}

func (q queueCPU) total() time.Duration { return q.workers + q.submitter }

// gogc is crucible's garbage collector setting (cmd/crucible's main).
const gogc = "GOGC=400"

// childCPU is the CPU time of an ended child process.
func childCPU(cmd *exec.Cmd) time.Duration {
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

// measureLocalCPU plays the load in one local arena process with procs
// workers.
func measureLocalCPU(t *testing.T, load string, procs int) queueCPU {
	out := t.TempDir() + "/local.jsonl"
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envRole+"=local", gogc, envSched+"="+load, envWorkers+"="+strconv.Itoa(procs), envOut+"="+out)
	if dir := os.Getenv(envProfile); dir != "" {
		cmd.Env = append(cmd.Env, envProfile+"="+dir+"/"+load+"-"+strconv.Itoa(procs)+"-local.pprof")
	}
	cmd.Stderr = os.Stderr
	begin := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("local arena: %v", err)
	}
	os.Setenv("CRUCIBLE_QUEUE_LOCAL_"+load, out)
	return queueCPU{submitter: childCPU(cmd), wall: time.Since(begin)}
}

// measureQueueCPU plays the load on procs worker processes of one slot,
// submitted and followed by a submitter process sizing batches as crucible
// arena --db does.
func measureQueueCPU(t *testing.T, load string, procs, try int) queueCPU {
	db, url := openTestDB(t)
	var env []string
	if dir := os.Getenv(envProfile); dir != "" {
		env = append(env, envProfile+"="+dir+"/"+load+"-"+strconv.Itoa(procs)+"-"+strconv.Itoa(try)+"-")
	}
	var ws []*proc
	for i := range procs {
		e := append([]string{gogc, envDB + "=" + url, envRescue + "=5m", envWorkers + "=1"}, env...)
		if len(env) > 0 {
			e[len(e)-1] += strconv.Itoa(i) + ".pprof"
		}
		ws = append(ws, start(t, "worker", e...))
	}
	for _, w := range ws {
		w.waitFor(t, "ready", time.Minute)
	}
	pg := newBackendMeter(t, db)
	before := make([]time.Duration, procs)
	for i, w := range ws {
		before[i] = pidCPU(t, w.cmd.Process.Pid)
	}
	out := t.TempDir() + "/q.jsonl"
	sub := exec.Command(os.Args[0], "-test.run=^$")
	sub.Env = append(os.Environ(), envRole+"=submit", gogc, envDB+"="+url, envSched+"="+load, envBatch+"=0", envOut+"="+out)
	if len(env) > 0 {
		sub.Env = append(sub.Env, env[0]+"submitter.pprof")
	}
	sub.Stderr = os.Stderr
	begin := time.Now()
	said, err := sub.Output()
	if err != nil {
		t.Fatalf("submitter: %v", err)
	}
	wall := time.Since(begin)
	q := queueCPU{submitter: childCPU(sub), wall: wall, batches: strings.TrimSpace(string(said))}
	for i, w := range ws {
		q.workers += pidCPU(t, w.cmd.Process.Pid) - before[i]
	}
	q.postgres = pg.stop()
	for _, w := range ws {
		w.cmd.Process.Signal(os.Interrupt) // a clean stop writes the profile
		select {
		case <-w.done:
		case <-time.After(30 * time.Second):
			w.cmd.Process.Kill()
			<-w.done
		}
	}
	sameLines(t, fileLines(t, out), fileLines(t, os.Getenv("CRUCIBLE_QUEUE_LOCAL_"+load)))
	return q
}

func pidCPU(t *testing.T, pid int) time.Duration {
	d, err := cpuclock.OfPID(pid)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// backendMeter sums the CPU time of the PostgreSQL backends connected to
// one database, sampled every 50 ms (a backend that ends loses at most
// its last 50 ms), leaving out the meter's own.
type backendMeter struct {
	stopOnce sync.Once
	done     chan struct{}
	wg       sync.WaitGroup
	mu       sync.Mutex
	first    map[int]time.Duration // at the start, or 0 for later backends
	last     map[int]time.Duration
}

func newBackendMeter(t *testing.T, db *DB) *backendMeter {
	m := &backendMeter{done: make(chan struct{}), first: map[int]time.Duration{}, last: map[int]time.Duration{}}
	conn, err := db.Pool.Acquire(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	sample := func(initial bool) {
		rows, err := conn.Query(context.Background(), "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()")
		if err != nil {
			return
		}
		var pids []int
		for rows.Next() {
			var pid int
			if rows.Scan(&pid) == nil {
				pids = append(pids, pid)
			}
		}
		rows.Close()
		m.mu.Lock()
		defer m.mu.Unlock()
		for _, pid := range pids {
			d, err := cpuclock.OfPID(pid)
			if err != nil {
				continue
			}
			if _, seen := m.last[pid]; !seen {
				if initial {
					m.first[pid] = d
				} else {
					m.first[pid] = 0
				}
			}
			m.last[pid] = d
		}
	}
	sample(true)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer conn.Release()
		tick := time.NewTicker(50 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-m.done:
				sample(false)
				return
			case <-tick.C:
				sample(false)
			}
		}
	}()
	return m
}

func (m *backendMeter) stop() time.Duration {
	m.stopOnce.Do(func() { close(m.done) })
	m.wg.Wait()
	var sum time.Duration
	for pid, d := range m.last {
		sum += d - m.first[pid]
	}
	return sum
}

// measureProcs are the process counts measured: 1 and 2, or
// $CRUCIBLE_QUEUE_PROCS.
func measureProcs() []int {
	if n, err := strconv.Atoi(os.Getenv("CRUCIBLE_QUEUE_PROCS")); err == nil {
		return []int{n}
	}
	return []int{1, 2}
}

// TestMeasureIdle gives the CPU time two idle worker processes (one slot
// each) cost themselves and the PostgreSQL backends of their database
// over 20 s, for README.md:
//
//	CRUCIBLE_QUEUE_MEASURE=1 go test -count=1 -run TestMeasureIdle -v ./queue/
//
// make test runs it too (it checks that idle workers come up, stay
// connected and are measured); the figure is logged, not asserted.
func TestMeasureIdle(t *testing.T) {
	db, url := openTestDB(t)
	var ws []*proc
	for range 2 {
		ws = append(ws, start(t, "worker", gogc, envDB+"="+url, envRescue+"=5m", envWorkers+"=1"))
	}
	for _, w := range ws {
		w.waitFor(t, "ready", time.Minute)
	}
	time.Sleep(2 * time.Second) // River's start-up (leader election, maintenance) done
	pg := newBackendMeter(t, db)
	var before time.Duration
	for _, w := range ws {
		before -= pidCPU(t, w.cmd.Process.Pid)
	}
	const idle = 20 * time.Second
	time.Sleep(idle)
	for _, w := range ws {
		before += pidCPU(t, w.cmd.Process.Pid)
	}
	t.Logf("2 idle workers (fetch poll %s) over %s: workers %s CPU, PostgreSQL backends %s", FetchPollInterval, idle, before, pg.stop())
}
