package httpguard

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// SlotsConfig sizes a Slots limiter.
type SlotsConfig struct {
	// Max is how many bodies are read at once (at least 1).
	Max int
	// Reserved is how many of Max only proven requests may take (0 to
	// Max-1): strangers share the other Max-Reserved, so that however many
	// of them stall their bodies, a proven request finds a slot at once.
	Reserved int
	// PerAddr caps the bodies of unproven requests read at once from one
	// client address; 0 means no cap.
	PerAddr int
	// ProvenPerAddr caps the bodies of proven requests read at once from
	// one client address; 0 means no cap (an engine that plays many
	// matches against a bot sends all their turns from one address).
	ProvenPerAddr int
}

// Slots limits the request bodies read at once. Waiting requests are
// served first come, first served among those a free slot may go to: a
// request held back by its address's cap does not hold back the requests
// of other addresses behind it. It is safe for concurrent use.
type Slots struct {
	cfg SlotsConfig

	mu        sync.Mutex
	inUse     int // slots taken, proven or not
	strangers int // slots taken by unproven requests
	byAddr    map[addrKind]int
	waiting   []*waiter // in arrival order
}

type addrKind struct {
	addr   string
	proven bool
}

type waiter struct {
	key     addrKind
	granted chan struct{} // closed when the slot is the waiter's
}

// NewSlots checks cfg and returns a limiter.
func NewSlots(cfg SlotsConfig) (*Slots, error) {
	switch {
	case cfg.Max < 1:
		return nil, fmt.Errorf("body slots: Max = %d, want at least 1", cfg.Max)
	case cfg.Reserved < 0 || cfg.Reserved >= cfg.Max:
		return nil, fmt.Errorf("body slots: Reserved = %d, want 0 to Max-1 = %d", cfg.Reserved, cfg.Max-1)
	case cfg.PerAddr < 0:
		return nil, fmt.Errorf("body slots: PerAddr = %d is negative", cfg.PerAddr)
	case cfg.ProvenPerAddr < 0:
		return nil, fmt.Errorf("body slots: ProvenPerAddr = %d is negative", cfg.ProvenPerAddr)
	}
	return &Slots{cfg: cfg, byAddr: map[addrKind]int{}}, nil
}

// BusyError is why a body found no slot by its deadline: the limit it
// waited on, and the address when that limit was the address's own.
type BusyError struct {
	// Limit is the number of slots that were all taken.
	Limit int
	// Addr is the client address whose cap was reached, "" when it was the
	// server's (or its share for strangers).
	Addr string
}

func (e *BusyError) Error() string {
	if e.Addr != "" {
		return fmt.Sprintf("its limit of %d bodies from %s", e.Limit, e.Addr)
	}
	return fmt.Sprintf("its limit of %d bodies", e.Limit)
}

// ErrEnded is returned by Acquire when the request ended before a slot
// was free.
var ErrEnded = errors.New("the request ended before its body was read")

// Acquire waits for a slot for a body from addr until deadline or until
// ctx ends, and returns the function that gives it back (call it once).
// proven says whether the request has shown it comes from a party the
// server knows, in which case the reserved slots are open to it.
func (s *Slots) Acquire(ctx context.Context, addr string, proven bool, deadline time.Time) (release func(), err error) {
	key := addrKind{addr, proven}
	s.mu.Lock()
	if len(s.waiting) == 0 && s.fits(key) {
		s.take(key)
		s.mu.Unlock()
		return s.releaser(key), nil
	}
	w := &waiter{key: key, granted: make(chan struct{})}
	s.waiting = append(s.waiting, w)
	s.grant() // an earlier waiter may be held back by its address only
	s.mu.Unlock()

	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-w.granted:
		return s.releaser(key), nil
	case <-timer.C:
		err = s.busy(key)
	case <-ctx.Done():
		err = ErrEnded
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-w.granted: // granted while giving up: give it back
		s.put(key)
		s.grant()
	default:
		for i, o := range s.waiting {
			if o == w {
				s.waiting = append(s.waiting[:i], s.waiting[i+1:]...)
				break
			}
		}
	}
	return nil, err
}

// fits reports whether a body of key may take a slot now. The caller
// holds s.mu.
func (s *Slots) fits(key addrKind) bool {
	if s.inUse >= s.cfg.Max {
		return false
	}
	if key.proven {
		return s.cfg.ProvenPerAddr == 0 || s.byAddr[key] < s.cfg.ProvenPerAddr
	}
	return s.strangers < s.cfg.Max-s.cfg.Reserved && (s.cfg.PerAddr == 0 || s.byAddr[key] < s.cfg.PerAddr)
}

// busy names the limit that kept key waiting.
func (s *Slots) busy(key addrKind) *BusyError {
	s.mu.Lock()
	defer s.mu.Unlock()
	limit := s.cfg.PerAddr
	if key.proven {
		limit = s.cfg.ProvenPerAddr
	}
	if limit > 0 && s.byAddr[key] >= limit {
		return &BusyError{Limit: limit, Addr: key.addr}
	}
	return &BusyError{Limit: s.cfg.Max}
}

func (s *Slots) take(key addrKind) {
	s.inUse++
	if !key.proven {
		s.strangers++
	}
	s.byAddr[key]++
}

func (s *Slots) put(key addrKind) {
	s.inUse--
	if !key.proven {
		s.strangers--
	}
	if s.byAddr[key]--; s.byAddr[key] == 0 {
		delete(s.byAddr, key)
	}
}

// grant hands free slots to the waiters, in arrival order, skipping those
// that may not take one yet. The caller holds s.mu.
func (s *Slots) grant() {
	kept := s.waiting[:0]
	for _, w := range s.waiting {
		if s.fits(w.key) {
			s.take(w.key)
			close(w.granted)
			continue
		}
		kept = append(kept, w)
	}
	clear(s.waiting[len(kept):])
	s.waiting = kept
}

func (s *Slots) releaser(key addrKind) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			s.put(key)
			s.grant()
			s.mu.Unlock()
		})
	}
}

// Waiting returns the number of bodies waiting for a slot.
func (s *Slots) Waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.waiting)
}

// InUse returns the slots taken, and of those the ones taken by unproven
// requests.
func (s *Slots) InUse() (all, strangers int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inUse, s.strangers
}
