package botproc

import (
	"context"
	"fmt"
	"os"
	"syscall"
	"time"
)

// Run runs one process of s to its end: a one-shot bot, such as a
// Kindling agent, that plays one match (its code as the last of args) and
// exits. The process gets s.Env and env added to the lab's environment,
// its own process group and log file, as a server bot does. When ctx ends
// first, or the manager is closed, its group is stopped (SIGTERM, SIGKILL
// after Grace) and Run returns ctx's error or ErrClosed. An exit status
// other than 0 is an error naming the command, the status and the last
// lines of stderr. Run also reports the process's log file.
func (m *Manager) Run(ctx context.Context, s Spec, env []string, args ...string) (log string, err error) {
	if err := s.check(); err != nil {
		return "", err
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return "", ErrClosed
	}
	p := m.newProc(s, nil)
	m.oneshots[p] = true
	m.wg.Add(1)
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		delete(m.oneshots, p)
		m.mu.Unlock()
		p.stop()
		m.wg.Done()
	}()
	f, err := os.OpenFile(p.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return p.logPath, fmt.Errorf("bot %s: opening its log file: %w", s.Label, err)
	}
	defer f.Close()
	r, err := m.startProcess(s, args, append(append([]string(nil), s.Env...), env...), f)
	if err != nil {
		return p.logPath, err
	}
	select {
	case <-r.exited:
		signalGroup(r.pid, syscall.SIGKILL) // whatever it left behind
		if r.err != nil {
			return p.logPath, fmt.Errorf("bot %s (command %s in %s, pid %d) ended with %v after %v%s (log: %s)",
				s.Label, quoteArgv(append(append([]string(nil), s.Command...), args...)), s.Dir, r.pid, exitStatus(r.err), time.Since(r.start).Round(time.Millisecond), r.tail.describe(), p.logPath)
		}
		return p.logPath, nil
	case <-ctx.Done():
		m.terminate(r)
		return p.logPath, ctx.Err()
	case <-p.stopCtx.Done():
		m.terminate(r)
		return p.logPath, ErrClosed
	}
}
