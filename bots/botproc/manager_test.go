package botproc_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"crucible/bots/botproc"
)

// TestLeaseEnvironmentAndReuse checks how a server bot is started and
// shared: a free loopback port and a fresh 256-bit secret under both
// spellings, the spec's env and working directory; up to concurrency
// matches on one process, another process (its own port and secret) for
// the next, processes reused after release; output in a log file per
// process; nothing left after Close.
func TestLeaseEnvironmentAndReuse(t *testing.T) {
	marker := newMarker(t)
	logs := t.TempDir()
	m := newManager(t, botproc.Options{LogDir: logs})
	spec := fakeSpec(marker, "")
	spec.Concurrency = 2
	spec.Dir = t.TempDir()
	ctx := context.Background()
	var leases []*botproc.Lease
	for i := 0; i < 3; i++ {
		l, err := m.Lease(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		leases = append(leases, l)
	}
	envs := make([]botEnv, 3)
	for i, l := range leases {
		url, secret := l.Endpoint()
		e, err := getEnv(url)
		if err != nil {
			t.Fatal(err)
		}
		if e.Secret != secret || e.BotSecret != secret || e.Port != e.BotPort || "http://127.0.0.1:"+e.Port != url {
			t.Fatalf("lease %d: %s with secret %s, but the bot has %+v", i, url, secret, e)
		}
		if !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(secret) {
			t.Fatalf("secret %q is not 32 random bytes in hex", secret)
		}
		if e.Dir != spec.Dir || e.Params != `{"a":1}` || e.Marker != marker {
			t.Fatalf("the bot runs in %s with CRUCIBLE_PARAMS %q, want %s and the spec's env", e.Dir, e.Params, spec.Dir)
		}
		envs[i] = e
	}
	if envs[0].PID != envs[1].PID {
		t.Fatalf("two matches of a concurrency-2 bot got processes %d and %d", envs[0].PID, envs[1].PID)
	}
	if envs[2].PID == envs[0].PID || envs[2].Port == envs[0].Port || envs[2].Secret == envs[0].Secret {
		t.Fatalf("the third match shares the full process or its port or secret: %+v %+v", envs[0], envs[2])
	}
	if n := len(markedPIDs(t, marker)); n != 2 {
		t.Fatalf("%d bot processes run, want 2", n)
	}
	for _, l := range leases {
		l.Release()
		l.Release() // idempotent
	}
	for i := 0; i < 4; i++ {
		l, err := m.Lease(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Release()
	}
	st := m.Stats()
	if len(st) != 1 || st[0].Processes != 2 || st[0].Running != 2 || st[0].Leases != 7 || st[0].Starts != 2 || st[0].Restarts != 0 || st[0].ReadyMax <= 0 {
		t.Fatalf("after reuse: %+v, want 2 processes serving 7 leases", st)
	}
	m.Close()
	if _, err := m.Lease(ctx, spec); !errors.Is(err, botproc.ErrClosed) {
		t.Fatalf("lease after close: %v", err)
	}
	waitNoneLeft(t, marker)
	files, _ := filepath.Glob(filepath.Join(logs, "*.log"))
	if len(files) != 2 {
		t.Fatalf("log files %v, want one per process", files)
	}
	for _, f := range files {
		data, _ := os.ReadFile(f)
		if !strings.Contains(string(data), "fake bot on stdout") || !strings.Contains(string(data), "fake bot on stderr") {
			t.Fatalf("log %s lacks the bot's stdout or stderr: %q", f, data)
		}
	}
}

// A lease whose wait for its process is cancelled serves no match: the
// variant's count of matches served (Stats.Leases, the lab's per-variant
// summary) leaves it out, and counts each lease on a ready process.
func TestCancelledLeaseIsNotAMatch(t *testing.T) {
	marker := newMarker(t)
	m := newManager(t, botproc.Options{LogDir: t.TempDir()})
	spec := fakeSpec(marker, "")
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Lease(cancelled, spec); err == nil {
		t.Fatal("a lease with a cancelled context succeeded")
	}
	for i := 0; i < 2; i++ {
		l, err := m.Lease(context.Background(), spec)
		if err != nil {
			t.Fatal(err)
		}
		l.Release()
	}
	if st := m.Stats(); len(st) != 1 || st[0].Leases != 2 {
		t.Fatalf("2 matches served after a cancelled lease: stats %+v, want 2 leases", st)
	}
	m.Close()
	waitNoneLeft(t, marker)
}

// TestStartFailures checks that a bot that cannot start is an error that
// names its command, its exit status and the last lines of its stderr,
// and that it leaves no process.
func TestStartFailures(t *testing.T) {
	marker := newMarker(t)
	m := newManager(t, botproc.Options{StartTimeout: 8 * time.Second, Grace: 500 * time.Millisecond})
	ctx := context.Background()
	_, err := m.Lease(ctx, fakeSpec(marker, "fail"))
	if err == nil {
		t.Fatal("a bot that exits at once was leased")
	}
	for _, want := range []string{"fake#" + marker, os.Args[0], "exit status 7", "before answering GET /health", "loading the model...", "error: model.bin not found", ".log"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
	_, err = m.Lease(ctx, fakeSpec(marker, "unhealthy"))
	if err == nil || !strings.Contains(err.Error(), "did not answer 200 on GET /health within 8s") || !strings.Contains(err.Error(), "503") {
		t.Fatalf("a bot answering 503: %v", err)
	}
	missing := fakeSpec(marker, "")
	missing.Command = []string{"no-such-bot-program-" + marker, "main.py"}
	_, err = m.Lease(ctx, missing)
	if err == nil || !strings.Contains(err.Error(), "no-such-bot-program-"+marker+" main.py") || !strings.Contains(err.Error(), "executable file not found") {
		t.Fatalf("a missing command: %v", err)
	}
	st := m.Stats()
	for _, s := range st {
		if s.Running != 0 || s.Starts != 0 {
			t.Fatalf("failed starts count as running: %+v", s)
		}
	}
	waitNoneLeft(t, marker)
}

// TestRestartOnExit checks that a bot that dies mid-run is started again,
// the restart counted and reported, and that the lease follows it.
func TestRestartOnExit(t *testing.T) {
	marker := newMarker(t)
	var mu sync.Mutex
	var events []botproc.Event
	m := newManager(t, botproc.Options{Events: func(e botproc.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
	}})
	l, before := leaseBot(t, m, fakeSpec(marker, ""))
	if err := syscall.Kill(before.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	var after botEnv
	waitFor(t, "the bot to be restarted", func() bool {
		url, secret := l.Endpoint()
		e, err := getEnv(url)
		if err != nil || e.PID == before.PID {
			return false
		}
		after = e
		return e.Secret == secret
	})
	if after.Secret == before.Secret {
		t.Fatalf("the restarted process kept its predecessor's secret")
	}
	if st := m.Stats(); st[0].Restarts != 1 || st[0].Processes != 1 || st[0].Starts != 2 {
		t.Fatalf("stats after one crash: %+v", st[0])
	}
	mu.Lock()
	defer mu.Unlock()
	var restarted *botproc.Event
	for i := range events {
		if events[i].Kind == botproc.Restarted {
			restarted = &events[i]
		}
	}
	if restarted == nil || restarted.Restarts != 1 || restarted.PID != before.PID || !strings.Contains(restarted.Err.Error(), "signal: killed") {
		t.Fatalf("no restart event naming the crash: %+v", events)
	}
	if msg := restarted.String(); !strings.Contains(msg, "bot fake#"+marker+" restarted (exited with signal: killed") || !strings.Contains(msg, "restarts so far: 1; log ") {
		t.Fatalf("the restart reads %q", msg)
	}
}

// TestRestartOnHang checks that a bot that stops answering /health (here
// stopped with SIGSTOP) is killed and restarted.
func TestRestartOnHang(t *testing.T) {
	marker := newMarker(t)
	// A probe may take a second on a loaded machine before it counts as
	// failed; a stopped process never answers.
	m := newManager(t, botproc.Options{HealthInterval: 100 * time.Millisecond, HealthTimeout: time.Second, HealthFailures: 3, Grace: 200 * time.Millisecond})
	l, before := leaseBot(t, m, fakeSpec(marker, ""))
	if err := syscall.Kill(before.PID, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the hung bot to be replaced", func() bool {
		url, _ := l.Endpoint()
		e, err := getEnv(url)
		return err == nil && e.PID != before.PID
	})
	waitFor(t, "the hung process to be gone", func() bool {
		for _, pid := range markedPIDs(t, marker) {
			if pid == before.PID {
				return false
			}
		}
		return true
	})
	if st := m.Stats(); st[0].Restarts < 1 {
		t.Fatalf("restarts %d, want the hang counted", st[0].Restarts)
	}
}

// TestStopEscalates checks the stop: SIGTERM to the process group, SIGKILL
// after the grace period for a bot that ignores SIGTERM, and the group's
// other processes (a helper the bot started) stopped with it.
func TestStopEscalates(t *testing.T) {
	for _, mode := range []string{"ignore-term", "child"} {
		t.Run(mode, func(t *testing.T) {
			marker := newMarker(t)
			m := newManager(t, botproc.Options{Grace: 300 * time.Millisecond})
			l, err := m.Lease(context.Background(), fakeSpec(marker, mode))
			if err != nil {
				t.Fatal(err)
			}
			want := 1
			if mode == "child" {
				want = 2
			}
			waitFor(t, "the bot's processes", func() bool { return len(markedPIDs(t, marker)) == want })
			l.Release()
			m.Close()
			waitNoneLeft(t, marker)
		})
	}
}

// TestIdleProcessesStop checks that a process that has served no match for
// IdleTimeout is stopped, and that MaxIdle caps the idle ones kept.
func TestIdleProcessesStop(t *testing.T) {
	marker := newMarker(t)
	m := newManager(t, botproc.Options{IdleTimeout: 200 * time.Millisecond})
	l, err := m.Lease(context.Background(), fakeSpec(marker, ""))
	if err != nil {
		t.Fatal(err)
	}
	l.Release()
	waitNoneLeft(t, marker)
	if st := m.Stats(); st[0].Running != 0 || st[0].Restarts != 0 {
		t.Fatalf("after idling: %+v", st[0])
	}

	capped := newManager(t, botproc.Options{MaxIdle: 1})
	marker2 := newMarker(t)
	var ls []*botproc.Lease
	for i := 0; i < 3; i++ {
		s := fakeSpec(marker2, "")
		s.ID += string(rune('a' + i))
		l, err := capped.Lease(context.Background(), s)
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
	}
	for _, l := range ls {
		l.Release()
	}
	waitFor(t, "idle processes beyond MaxIdle to stop", func() bool { return len(markedPIDs(t, marker2)) == 1 })
}

// TestPdeathsigSurvivesThreadExits checks that bots outlive the end of
// the lab's OS threads: the kernel sends the death signal when the thread
// that started a child exits, not the process (golang/go#27505), and the
// Go runtime ends a thread whenever a goroutine locked to it returns. So
// bots are started from the manager's own locked thread; here goroutines
// that lock a thread and return kill many of the runtime's threads, and
// no bot may die of it.
func TestPdeathsigSurvivesThreadExits(t *testing.T) {
	marker := newMarker(t)
	m := newManager(t, botproc.Options{HealthInterval: 50 * time.Millisecond})
	for i := 0; i < 3; i++ {
		leaseBot(t, m, fakeSpec(marker, ""))
	}
	for i := 0; i < 200; i++ {
		done := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
			close(done)
		}()
		<-done
		runtime.Gosched()
	}
	// Give the kernel time to deliver death signals, were there any, and
	// the manager time to see the exits.
	time.Sleep(500 * time.Millisecond)
	if st := m.Stats(); st[0].Restarts != 0 {
		t.Fatalf("bots died when lab threads exited (%d restarts)", st[0].Restarts)
	}
	if n := len(markedPIDs(t, marker)); n != 3 {
		t.Fatalf("%d bots alive, want 3", n)
	}
}

// TestLabEndings is the contract's promise that no bot outlives the lab:
// a real lab process with two bots ends normally, by Ctrl-C that it
// handles, by Ctrl-C that kills it, or by kill -9, and /proc holds no
// bot process afterwards.
func TestLabEndings(t *testing.T) {
	if !botproc.DiesWithParent {
		t.Fatalf("bots cannot be made to die with the lab on %s", runtime.GOOS)
	}
	tests := []struct {
		name, end string
		signal    syscall.Signal // sent to the lab's process group, as a terminal does
	}{
		{"normal end", "normal", 0},
		{"Ctrl-C handled", "sigint", syscall.SIGINT},
		{"Ctrl-C unhandled", "wait", syscall.SIGINT},
		{"kill -9", "wait", syscall.SIGKILL},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			marker := newMarker(t)
			lab, pids, stdin := startLab(t, marker, tc.end, 2, true)
			if len(pids) != 2 {
				t.Fatalf("the lab started %v", pids)
			}
			if n := len(markedPIDs(t, marker)); n != 2 {
				t.Fatalf("%d bot processes run under the lab, want 2", n)
			}
			if tc.end == "normal" {
				stdin.Write([]byte("end\n"))
			}
			if tc.signal != 0 {
				if err := syscall.Kill(-lab.Process.Pid, tc.signal); err != nil {
					t.Fatal(err)
				}
			}
			err := lab.Wait()
			switch tc.end {
			case "wait":
				if err == nil {
					t.Fatalf("the lab exited cleanly after signal %v", tc.signal)
				}
			default:
				if err != nil {
					t.Fatalf("the lab ended with %v", err)
				}
			}
			waitNoneLeft(t, marker)
		})
	}
}

// TestRunOneShot checks one-shot bots (Kindling agents): extra arguments
// and env, success, a failure naming the status and stderr, and a
// cancelled run that stops the process.
func TestRunOneShot(t *testing.T) {
	marker := newMarker(t)
	m := newManager(t, botproc.Options{Grace: 300 * time.Millisecond})
	spec := fakeSpec(marker, "")
	spec.Env = []string{"BOTPROC_ROLE=oneshot", "BOTPROC_MARKER=" + marker}
	log, err := m.Run(context.Background(), spec, nil, "K7QF2")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(log)
	if !strings.Contains(string(data), "oneshot args [-test.run=^$ K7QF2]") || !strings.Contains(string(data), "goodbye") {
		t.Fatalf("log %q", data)
	}
	_, err = m.Run(context.Background(), spec, []string{"BOTPROC_EXIT=3"}, "K7QF2")
	if err == nil || !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), "oneshot says goodbye") || !strings.Contains(err.Error(), "K7QF2") {
		t.Fatalf("a failing one-shot: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		_, err := m.Run(ctx, spec, []string{"BOTPROC_MODE=sleep"}, "K7QF2")
		done <- err
	}()
	waitFor(t, "the one-shot to start", func() bool { return len(markedPIDs(t, marker)) == 1 })
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled one-shot: %v", err)
	}
	waitNoneLeft(t, marker)
}

// TestNewNeedsLogFolder checks that output has a place to go.
func TestNewNeedsLogFolder(t *testing.T) {
	if _, err := botproc.New(botproc.Options{}); err == nil || !strings.Contains(err.Error(), "no log folder") {
		t.Fatalf("no log folder: %v", err)
	}
	if _, err := botproc.New(botproc.Options{LogDir: "/no/such/folder"}); err == nil || !strings.Contains(err.Error(), "/no/such/folder") {
		t.Fatalf("missing log folder: %v", err)
	}
}

// The start timeout comes from $CRUCIBLE_BOT_START_TIMEOUT when the
// options leave it zero; a bad value is refused naming the variable.
func TestStartTimeoutFromEnv(t *testing.T) {
	t.Setenv(botproc.StartTimeoutEnv, "")
	if d, err := botproc.StartTimeoutFromEnv(); err != nil || d != botproc.DefaultStartTimeout {
		t.Errorf("unset: %v, %v; want the default %v", d, err, botproc.DefaultStartTimeout)
	}
	t.Setenv(botproc.StartTimeoutEnv, "2m")
	if d, err := botproc.StartTimeoutFromEnv(); err != nil || d != 2*time.Minute {
		t.Errorf("2m: %v, %v", d, err)
	}
	for _, bad := range []string{"soon", "-5s", "0s"} {
		t.Setenv(botproc.StartTimeoutEnv, bad)
		_, err := botproc.New(botproc.Options{LogDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), `CRUCIBLE_BOT_START_TIMEOUT="`+bad+`" is not a positive duration`) {
			t.Errorf("%q: %v", bad, err)
		}
	}
}
