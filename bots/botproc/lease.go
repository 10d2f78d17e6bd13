package botproc

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// Lease is one match's slot on a running process.
type Lease struct {
	p    *proc
	once sync.Once
}

// Endpoint returns the process's base URL ("http://127.0.0.1:PORT") and
// shared secret now; both change when the process is restarted on
// another port, so a player reads them each turn.
func (l *Lease) Endpoint() (url, secret string) {
	e := l.p.endpoint.Load()
	return e.url, e.secret
}

// Release gives the slot back; the process stays up for further matches
// until it has been idle for Options.IdleTimeout. Release is idempotent.
func (l *Lease) Release() {
	l.once.Do(func() {
		m := l.p.m
		m.mu.Lock()
		l.p.leases--
		l.p.lastUsed = time.Now()
		m.mu.Unlock()
		m.trimIdle()
	})
}

// await waits until the slot's process answers GET /health: started,
// restarted if it is being restarted, and probed once more, since a
// process that died a moment ago may not be noticed yet (its restart is
// then waited for). The wait is bounded by ctx and by twice StartTimeout.
func (p *proc) await(ctx context.Context) error {
	m := p.m
	deadline := time.Now().Add(2 * m.opt.StartTimeout)
	for {
		m.mu.Lock()
		up := p.up
		m.mu.Unlock()
		select {
		case <-up:
		case <-ctx.Done():
			return ctx.Err()
		}
		m.mu.Lock()
		err := p.err
		m.mu.Unlock()
		if err != nil {
			return err
		}
		e := p.endpoint.Load()
		last := m.probe(ctx, e.url, m.opt.HealthTimeout)
		if last == nil {
			return nil
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bot %s at %s did not answer 200 on GET /health within %v: %v (log: %s)", p.spec.Label, e.url, 2*m.opt.StartTimeout, last, p.logPath)
		}
		t := time.NewTimer(20 * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		}
	}
}
