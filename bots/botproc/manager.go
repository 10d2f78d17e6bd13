// Package botproc starts, watches and stops the processes of outside bots
// (../../shared/specs/bots.md): the lab's side of "a bot is a program".
//
// A server bot (AI Code Battle) gets a free loopback port and a fresh
// random secret per process, under both spellings the outside world uses
// (PORT and SHARED_SECRET, the seed's; BOT_PORT and BOT_SECRET, the
// platform's own bots), and plays once GET /health answers 200. One process
// serves one variant (a Spec's ID) and up to Spec.Concurrency matches at
// once; Manager.Lease hands out a slot, starting another process when
// every one of the variant's is full, and reuses processes across matches.
// A process that exits, or stops answering /health, is restarted (on the
// same port when it can be) and the restarts are counted (Stats, Event).
// A one-shot bot (a Kindling agent, one process per match) runs with Run.
//
// Every process runs in its own process group, its stdout and stderr go to
// a log file of its own under Options.LogDir (never to the lab's
// terminal), and it is stopped by SIGTERM to its group, then SIGKILL after
// Options.Grace. On Linux each is started with Pdeathsig = SIGKILL, from
// one goroutine locked to its OS thread for the manager's life (the signal
// fires when the thread that started the child exits, not the process:
// golang/go#27505), so that no bot outlives a lab killed with kill -9. The
// death signal reaches the bot's own process; a bot that starts helpers
// of its own must end them when it ends.
package botproc

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"runtime"
	"sort"
	"sync"
	"time"
)

// Defaults of Options.
const (
	DefaultStartTimeout   = 30 * time.Second
	DefaultGrace          = 3 * time.Second
	DefaultHealthInterval = 2 * time.Second
	DefaultHealthTimeout  = 5 * time.Second
	DefaultHealthFailures = 3
	DefaultMaxRestarts    = 5
	DefaultIdleTimeout    = 30 * time.Second
	DefaultMaxIdle        = 8
)

// ErrClosed is returned by Lease and Run once the manager is closed.
var ErrClosed = errors.New("bot process manager is closed")

// Options tune a Manager. Zero values take the documented defaults.
type Options struct {
	// LogDir receives one log file per process, "<label>-<n>.log",
	// holding its stdout and stderr (every restart appends). Required,
	// and it must exist.
	LogDir string
	// StartTimeout bounds the wait for a new process's GET /health to
	// answer 200 (StartTimeoutFromEnv: $CRUCIBLE_BOT_START_TIMEOUT, else
	// DefaultStartTimeout).
	StartTimeout time.Duration
	// Grace is how long a process has to exit after SIGTERM before its
	// group gets SIGKILL (DefaultGrace).
	Grace time.Duration
	// HealthInterval is how often a running process's /health is probed
	// (DefaultHealthInterval); HealthTimeout bounds one probe
	// (DefaultHealthTimeout); HealthFailures probes failed in a row mark
	// the process hung, and it is restarted (DefaultHealthFailures).
	HealthInterval time.Duration
	HealthTimeout  time.Duration
	HealthFailures int
	// MaxRestarts is how many restarts in a row may fail to bring a
	// process back before it is given up (DefaultMaxRestarts); its
	// matches in flight then see failed turns, new matches a new process.
	MaxRestarts int
	// IdleTimeout stops a process that has served no match for this long
	// (DefaultIdleTimeout); MaxIdle caps the idle processes kept, the
	// longest idle stopped first (DefaultMaxIdle). An evolver's
	// candidates are variants of their own, each with its process.
	IdleTimeout time.Duration
	MaxIdle     int
	// Events, when set, is told of every start, restart, failure and
	// stop, from many goroutines.
	Events func(Event)
}

// Spec says how to run one variant of a bot.
type Spec struct {
	// ID names the variant: leases of one ID share its processes.
	ID string
	// Label names it in errors, events and log file names.
	Label string
	// Command is the argv, run without a shell; Command[0] without a
	// slash is looked up on PATH, else taken relative to Dir.
	Command []string
	// Dir is the working directory.
	Dir string
	// Env is added to the lab's environment ("KEY=value"); the manager
	// adds the port and secret variables after it.
	Env []string
	// Concurrency is how many matches one process serves at once (1 when
	// 0).
	Concurrency int
}

func (s Spec) check() error {
	switch {
	case s.ID == "":
		return fmt.Errorf("bot %q: the spec has no ID", s.Label)
	case len(s.Command) == 0 || s.Command[0] == "":
		return fmt.Errorf("bot %s: the command is empty", s.Label)
	case s.Concurrency < 0:
		return fmt.Errorf("bot %s: concurrency %d is negative", s.Label, s.Concurrency)
	}
	return nil
}

// EventKind says what happened to a process.
type EventKind string

// The kinds of Event.
const (
	Started   EventKind = "started"   // ready: /health answered 200
	Restarted EventKind = "restarted" // it exited or hung and is starting again
	Failed    EventKind = "failed"    // it could not start, or was given up
	Stopped   EventKind = "stopped"   // stopped by the lab (idle, Close, end of Run)
)

// Event reports a change of one process.
type Event struct {
	Kind EventKind
	// Label is the variant's label, Log the process's log file.
	Label, Log string
	// PID is the process's id (0 when it never started).
	PID int
	// Restarts is the process's restarts so far.
	Restarts int
	// Ready is how long the start took, from exec to /health answering
	// 200 (Started).
	Ready time.Duration
	// Err says why (Restarted, Failed).
	Err error
}

// Stats are one variant's figures.
type Stats struct {
	ID, Label string
	// Processes is how many processes were started for it (restarts not
	// counted), Running how many are up now.
	Processes, Running int
	// Restarts counts the restarts of its processes.
	Restarts int
	// Leases counts the matches served: the leases handed out on a ready
	// process (a match with the variant in two seats takes two).
	Leases int
	// Starts counts the starts that became ready (restarts included);
	// ReadyTotal and ReadyMax are their times from exec to /health 200.
	Starts               int
	ReadyTotal, ReadyMax time.Duration
}

// Manager runs the bot processes of one lab run. Its methods are safe for
// concurrent use. Close it when the run ends: it stops every process.
type Manager struct {
	opt    Options
	health *http.Client
	spawn  chan spawnReq

	mu       sync.Mutex
	closed   bool
	pools    map[string]*pool
	oneshots map[*proc]bool
	seq      int
	wg       sync.WaitGroup // supervisors and one-shots
	stopReap chan struct{}
	reaped   chan struct{}
}

// pool is one variant's processes and figures.
type pool struct {
	spec  Spec
	procs []*proc
	stats Stats
}

// New checks opt and returns a manager.
func New(opt Options) (*Manager, error) {
	if opt.LogDir == "" {
		return nil, errors.New("bot processes: no log folder given (their output never goes to the terminal)")
	}
	if fi, err := os.Stat(opt.LogDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("bot processes: log folder %s is not a folder: %v", opt.LogDir, err)
	}
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if opt.StartTimeout <= 0 {
		d, err := StartTimeoutFromEnv()
		if err != nil {
			return nil, err
		}
		opt.StartTimeout = d
	}
	def(&opt.Grace, DefaultGrace)
	def(&opt.HealthInterval, DefaultHealthInterval)
	def(&opt.HealthTimeout, DefaultHealthTimeout)
	def(&opt.IdleTimeout, DefaultIdleTimeout)
	if opt.HealthFailures <= 0 {
		opt.HealthFailures = DefaultHealthFailures
	}
	if opt.MaxRestarts <= 0 {
		opt.MaxRestarts = DefaultMaxRestarts
	}
	if opt.MaxIdle <= 0 {
		opt.MaxIdle = DefaultMaxIdle
	}
	m := &Manager{
		opt: opt,
		// Probes open a fresh connection each: a bot's keep-alive
		// connections are for its turns.
		health:   &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
		spawn:    make(chan spawnReq),
		pools:    map[string]*pool{},
		oneshots: map[*proc]bool{},
		stopReap: make(chan struct{}),
		reaped:   make(chan struct{}),
	}
	go m.spawner()
	go m.reaper()
	return m, nil
}

// spawnReq asks the spawner to start one command.
type spawnReq struct {
	start func() error
	done  chan error
}

// spawner starts every child from one goroutine locked to its OS thread
// for the manager's life, so that Pdeathsig (which fires when the
// starting thread exits, golang/go#27505) fires only when the lab itself
// dies, or when the manager is closed and its children are gone. The
// goroutine never unlocks: when it returns, its thread exits with it.
func (m *Manager) spawner() {
	runtime.LockOSThread()
	for req := range m.spawn {
		req.done <- req.start()
	}
}

// startCmd runs start on the spawner's thread.
func (m *Manager) startCmd(start func() error) error {
	done := make(chan error, 1)
	m.spawn <- spawnReq{start: start, done: done}
	return <-done
}

// Lease finds a process of s's variant with a free slot, starting one when
// every process is full (waiting for its /health), and takes the slot
// until Release. A process being restarted is waited for, and the
// process answers GET /health before Lease returns. The error of a process that cannot start names its
// command, its exit status and the last lines of its stderr. ctx bounds
// the wait.
func (m *Manager) Lease(ctx context.Context, s Spec) (*Lease, error) {
	if err := s.check(); err != nil {
		return nil, err
	}
	if s.Concurrency == 0 {
		s.Concurrency = 1
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	pl := m.pools[s.ID]
	if pl == nil {
		pl = &pool{spec: s, stats: Stats{ID: s.ID, Label: s.Label}}
		m.pools[s.ID] = pl
	}
	p := pl.pick()
	if p == nil {
		p = m.newProc(pl.spec, pl)
		pl.procs = append(pl.procs, p)
		pl.stats.Processes++
		m.wg.Add(1)
		go p.supervise()
	}
	p.leases++
	m.mu.Unlock()
	l := &Lease{p: p}
	if err := p.await(ctx); err != nil {
		l.Release()
		return nil, err
	}
	// Only a slot on a ready process serves a match: a wait that failed
	// or was cancelled is not counted.
	m.mu.Lock()
	pl.stats.Leases++
	m.mu.Unlock()
	return l, nil
}

// pick returns the fullest process with a free slot (so that few
// processes serve many matches), or nil. Called with m.mu held.
func (pl *pool) pick() *proc {
	var best *proc
	for _, p := range pl.procs {
		if p.given || p.stopping || p.leases >= pl.spec.Concurrency {
			continue
		}
		if best == nil || p.leases > best.leases {
			best = p
		}
	}
	return best
}

func (m *Manager) newProc(s Spec, pl *pool) *proc {
	m.seq++
	ctx, cancel := context.WithCancel(context.Background())
	return &proc{
		m: m, spec: s, pool: pl, seq: m.seq,
		logPath: m.logPath(s.Label, m.seq),
		up:      make(chan struct{}), done: make(chan struct{}),
		stopCtx: ctx, stop: cancel,
	}
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

func (m *Manager) logPath(label string, seq int) string {
	return fmt.Sprintf("%s/%s-%d.log", m.opt.LogDir, unsafeName.ReplaceAllString(label, "_"), seq)
}

// reaper stops processes idle for longer than IdleTimeout.
func (m *Manager) reaper() {
	defer close(m.reaped)
	t := time.NewTicker(max(m.opt.IdleTimeout/4, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-m.stopReap:
			return
		case <-t.C:
			m.trimIdle()
		}
	}
}

// trimIdle stops processes idle past IdleTimeout, and the longest idle
// beyond MaxIdle.
func (m *Manager) trimIdle() {
	m.mu.Lock()
	defer m.mu.Unlock()
	var idle []*proc
	for _, pl := range m.pools {
		for _, p := range pl.procs {
			if p.leases == 0 && !p.stopping && !p.given && p.isReady() {
				idle = append(idle, p)
			}
		}
	}
	sort.Slice(idle, func(i, j int) bool { return idle[i].lastUsed.Before(idle[j].lastUsed) })
	now := time.Now()
	for i, p := range idle {
		if len(idle)-i > m.opt.MaxIdle || now.Sub(p.lastUsed) > m.opt.IdleTimeout {
			p.stopping = true
			p.stop()
		}
	}
}

// Stats returns every variant's figures, sorted by label.
func (m *Manager) Stats() []Stats {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Stats, 0, len(m.pools))
	for _, pl := range m.pools {
		s := pl.stats
		for _, p := range pl.procs {
			if p.isReady() && !p.given && !p.stopping {
				s.Running++
			}
		}
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// Close stops every process (SIGTERM to its group, SIGKILL after Grace)
// and waits until all have exited. Leases and one-shots still running see
// their processes end. Close is idempotent.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		m.wg.Wait()
		return nil
	}
	m.closed = true
	for _, pl := range m.pools {
		for _, p := range pl.procs {
			p.stopping = true
			p.stop()
		}
	}
	for p := range m.oneshots {
		p.stop()
	}
	m.mu.Unlock()
	m.wg.Wait()
	close(m.stopReap)
	<-m.reaped
	close(m.spawn)
	return nil
}

func (m *Manager) emit(e Event) {
	if m.opt.Events != nil {
		m.opt.Events(e)
	}
}

// String describes the event for the lab's log: "bot mybot#3fa9c2e1b0
// restarted (exited with signal: killed), restarts so far: 2; log
// runs/x/mybot_3fa9c2e1b0-1.log".
func (e Event) String() string {
	s := fmt.Sprintf("bot %s %s", e.Label, e.Kind)
	if e.Kind == Started {
		s += fmt.Sprintf(" in %v (pid %d)", e.Ready.Round(time.Millisecond), e.PID)
	}
	if e.Err != nil {
		s += fmt.Sprintf(" (%v)", e.Err)
	}
	if e.Restarts > 0 {
		s += fmt.Sprintf(", restarts so far: %d", e.Restarts)
	}
	return s + "; log " + e.Log
}

// StartTimeoutEnv names the environment variable that sets the start
// timeout of managers whose Options leave it zero: a Go duration such as
// "2m", for machines so loaded that an interpreter takes more than
// DefaultStartTimeout to answer /health.
const StartTimeoutEnv = "CRUCIBLE_BOT_START_TIMEOUT"

// StartTimeoutFromEnv is $CRUCIBLE_BOT_START_TIMEOUT when set, else
// DefaultStartTimeout; a value that is not a positive duration is an error
// naming the variable and the value.
func StartTimeoutFromEnv() (time.Duration, error) {
	v := os.Getenv(StartTimeoutEnv)
	if v == "" {
		return DefaultStartTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("bot processes: %s=%q is not a positive duration (e.g. 2m)", StartTimeoutEnv, v)
	}
	return d, nil
}
