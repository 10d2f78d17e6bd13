package botproc

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// proc is one process slot of a variant: the process and its restarts.
type proc struct {
	m       *Manager
	spec    Spec
	pool    *pool
	seq     int
	logPath string

	done     chan struct{} // closed when the supervisor has returned
	stopCtx  context.Context
	stop     context.CancelFunc
	endpoint atomic.Pointer[endpoint]

	// Guarded by m.mu.
	// up is closed while a process answers /health; a crash replaces it
	// with an open one until the restart is up, so that a new lease waits
	// for the restart instead of playing a dead process. err is set, and
	// up closed, when the slot has failed for good.
	up       chan struct{}
	err      error
	leases   int
	lastUsed time.Time
	stopping bool // the lab stops it: not for new leases
	given    bool // it failed for good: not for new leases
	restarts int
}

type endpoint struct{ url, secret string }

// isReady reports whether a process of the slot answers /health now.
// Called with m.mu held.
func (p *proc) isReady() bool {
	select {
	case <-p.up:
		return p.err == nil
	default:
		return false
	}
}

// markUp closes up: the process answers, or (err set) the slot is over.
func (p *proc) markUp(err error) {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	select {
	case <-p.up:
		return
	default:
	}
	if err != nil {
		p.err = err
		p.given = true
	}
	close(p.up)
}

// markDown opens a new up for the restart of a crashed process.
func (p *proc) markDown() {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	p.up = make(chan struct{})
}

// running is one started process.
type running struct {
	cmd    *exec.Cmd
	pid    int
	exited chan struct{} // closed when Wait has returned
	err    error         // Wait's error, set before exited closes
	tail   *tail
	start  time.Time
}

// errStopped ends a start or a watch when the lab stops the process.
var errStopped = errors.New("stopped by the lab")

// supervise starts the process, then restarts it whenever it exits or
// hangs, until the lab stops it or its restarts keep failing.
func (p *proc) supervise() {
	m := p.m
	defer m.wg.Done()
	defer close(p.done)
	defer p.detach()
	// However the slot ends, leases waiting for it are told.
	defer p.markUp(fmt.Errorf("bot %s: stopped by the lab", p.spec.Label))
	log, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		p.giveUp(fmt.Errorf("bot %s: opening its log file: %w", p.spec.Label, err), 0)
		return
	}
	defer log.Close()
	port := 0
	r, err := p.launch(log, &port)
	if errors.Is(err, errStopped) {
		return // the deferred markUp tells the leases waiting
	}
	if err != nil {
		p.giveUp(err, 0)
		return
	}
	p.markUp(nil)
	for {
		why := p.watch(r)
		p.terminate(r)
		if errors.Is(why, errStopped) {
			m.emit(Event{Kind: Stopped, Label: p.spec.Label, Log: p.logPath, PID: r.pid, Restarts: p.restartCount()})
			return
		}
		p.markDown()
		m.mu.Lock()
		p.restarts++
		p.pool.stats.Restarts++
		n := p.restarts
		m.mu.Unlock()
		fmt.Fprintf(log, "\n--- crucible: bot %s (pid %d) %v; restart %d ---\n", p.spec.Label, r.pid, why, n)
		m.emit(Event{Kind: Restarted, Label: p.spec.Label, Log: p.logPath, PID: r.pid, Restarts: n, Err: why})
		r = nil
		for attempt := 0; r == nil; attempt++ {
			if !p.sleep(min(100*time.Millisecond<<attempt, 5*time.Second)) {
				return
			}
			r, err = p.launch(log, &port)
			if errors.Is(err, errStopped) {
				return
			}
			if err != nil {
				port = 0 // the port may have been taken: try another
				if attempt+1 >= m.opt.MaxRestarts {
					p.giveUp(fmt.Errorf("%w (given up after %d failed restarts)", err, attempt+1), n)
					return
				}
			}
		}
		p.markUp(nil)
	}
}

// detach removes the ended slot from its variant's processes (its
// figures stay in the variant's Stats).
func (p *proc) detach() {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	procs := p.pool.procs
	for i, q := range procs {
		if q == p {
			p.pool.procs = append(procs[:i:i], procs[i+1:]...)
			break
		}
	}
}

// giveUp marks the slot failed for good; leases waiting for it get err.
func (p *proc) giveUp(err error, restarts int) {
	p.markUp(err)
	p.m.emit(Event{Kind: Failed, Label: p.spec.Label, Log: p.logPath, Restarts: restarts, Err: err})
}

func (p *proc) restartCount() int {
	p.m.mu.Lock()
	defer p.m.mu.Unlock()
	return p.restarts
}

// sleep waits d unless the lab stops the process first (false).
func (p *proc) sleep(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-p.stopCtx.Done():
		return false
	}
}

// launch starts one process on *port (a free one when 0, stored back) with
// a fresh secret and waits until its /health answers 200. On failure the
// process group is stopped and the error names the command, the exit
// status and the last lines of stderr.
func (p *proc) launch(log *os.File, port *int) (*running, error) {
	if p.stopCtx.Err() != nil {
		return nil, errStopped
	}
	if *port == 0 {
		var err error
		if *port, err = freePort(); err != nil {
			return nil, fmt.Errorf("bot %s: finding a free loopback port: %w", p.spec.Label, err)
		}
	}
	secret, err := newSecret()
	if err != nil {
		return nil, err
	}
	ps := strconv.Itoa(*port)
	env := append(append([]string(nil), p.spec.Env...),
		"PORT="+ps, "SHARED_SECRET="+secret, "BOT_PORT="+ps, "BOT_SECRET="+secret)
	r, err := p.m.startProcess(p.spec, nil, env, log)
	if err != nil {
		return nil, err
	}
	url := "http://127.0.0.1:" + ps
	if err := p.awaitHealth(r, url); err != nil {
		p.terminate(r)
		if errors.Is(err, errStopped) {
			return nil, err
		}
		return nil, fmt.Errorf("bot %s (command %s in %s, pid %d) %w%s (log: %s)", p.spec.Label, quoteArgv(p.spec.Command), p.spec.Dir, r.pid, err, r.tail.describe(), p.logPath)
	}
	ready := time.Since(r.start)
	p.endpoint.Store(&endpoint{url: url, secret: secret})
	m := p.m
	m.mu.Lock()
	p.pool.stats.Starts++
	p.pool.stats.ReadyTotal += ready
	p.pool.stats.ReadyMax = max(p.pool.stats.ReadyMax, ready)
	m.mu.Unlock()
	m.emit(Event{Kind: Started, Label: p.spec.Label, Log: p.logPath, PID: r.pid, Ready: ready, Restarts: p.restartCount()})
	return r, nil
}

// startProcess starts spec's command with extra arguments and env added to
// the lab's environment, stdout and stderr appended to log, in its own
// process group, from the spawner's thread.
func (m *Manager) startProcess(spec Spec, args, env []string, log *os.File) (*running, error) {
	argv := append(append([]string(nil), spec.Command...), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = spec.Dir
	cmd.Env = append(os.Environ(), env...)
	r := &running{cmd: cmd, exited: make(chan struct{}), tail: newTail(tailBytes)}
	cmd.Stdout = log
	cmd.Stderr = io.MultiWriter(log, r.tail)
	cmd.SysProcAttr = sysProcAttr()
	// A grandchild holding stderr open must not hold Wait for long.
	cmd.WaitDelay = time.Second
	if err := m.startCmd(cmd.Start); err != nil {
		return nil, fmt.Errorf("bot %s: starting %s in %s: %w", spec.Label, quoteArgv(argv), spec.Dir, err)
	}
	r.start = time.Now()
	r.pid = cmd.Process.Pid
	go func() {
		r.err = cmd.Wait()
		close(r.exited)
	}()
	return r, nil
}

// awaitHealth polls GET url/health until it answers 200, the process
// exits, StartTimeout passes or the lab stops the process.
func (p *proc) awaitHealth(r *running, url string) error {
	timeout := p.m.opt.StartTimeout
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	delay := 10 * time.Millisecond
	var last error
	for {
		if last = p.m.probe(p.stopCtx, url, p.m.opt.HealthTimeout); last == nil {
			return nil
		}
		t := time.NewTimer(delay)
		select {
		case <-r.exited:
			t.Stop()
			return fmt.Errorf("exited with %v before answering GET /health", exitStatus(r.err))
		case <-deadline.C:
			t.Stop()
			return fmt.Errorf("did not answer 200 on GET /health within %v (last: %v)", timeout, last)
		case <-p.stopCtx.Done():
			t.Stop()
			return errStopped
		case <-t.C:
		}
		delay = min(2*delay, 250*time.Millisecond)
	}
}

// probe does one GET /health.
func (m *Manager) probe(ctx context.Context, url string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url+"/health", nil)
	if err != nil {
		return err
	}
	resp, err := m.health.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET /health answered %d", resp.StatusCode)
	}
	return nil
}

// watch returns why the running process must go: errStopped when the lab
// stops it, else its exit or its failure to answer /health.
func (p *proc) watch(r *running) error {
	t := time.NewTicker(p.m.opt.HealthInterval)
	defer t.Stop()
	url := p.endpoint.Load().url
	fails := 0
	for {
		select {
		case <-p.stopCtx.Done():
			return errStopped
		case <-r.exited:
			return fmt.Errorf("exited with %v%s", exitStatus(r.err), r.tail.describe())
		case <-t.C:
			err := p.m.probe(p.stopCtx, url, p.m.opt.HealthTimeout)
			if p.stopCtx.Err() != nil {
				return errStopped
			}
			if err == nil {
				fails = 0
				continue
			}
			if fails++; fails >= p.m.opt.HealthFailures {
				return fmt.Errorf("stopped answering GET /health (%d probes failed in a row, last: %v)", fails, err)
			}
		}
	}
}

// terminate stops r's process group: SIGTERM, SIGKILL after Grace, and
// SIGKILL again once the leader is gone, for what it left behind.
func (p *proc) terminate(r *running) { p.m.terminate(r) }

func (m *Manager) terminate(r *running) {
	select {
	case <-r.exited:
	default:
		signalGroup(r.pid, syscall.SIGTERM)
		t := time.NewTimer(m.opt.Grace)
		select {
		case <-r.exited:
		case <-t.C:
			signalGroup(r.pid, syscall.SIGKILL)
			<-r.exited
		}
		t.Stop()
	}
	signalGroup(r.pid, syscall.SIGKILL)
}

// signalGroup sends sig to the process group led by pid; a group already
// gone is not an error.
func signalGroup(pid int, sig syscall.Signal) {
	if pid > 0 {
		_ = syscall.Kill(-pid, sig)
	}
}

// freePort asks the kernel for a free loopback port. Another program
// could take it before the bot binds it; the bot then fails to start and
// the restart picks another.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

// newSecret returns 32 random bytes as hex.
func newSecret() (string, error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a secret: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// exitStatus says how a process ended: "exit status 3", "signal: killed".
func exitStatus(err error) string {
	if err == nil {
		return "exit status 0"
	}
	return err.Error()
}

// quoteArgv writes an argv for messages.
func quoteArgv(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\") {
			a = strconv.Quote(a)
		}
		q[i] = a
	}
	return strings.Join(q, " ")
}
