package httpguard

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func mustSlots(t *testing.T, cfg SlotsConfig) *Slots {
	t.Helper()
	s, err := NewSlots(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// soon is a deadline for an Acquire expected to fail: a slot that is not
// free is not freed by waiting.
func soon() time.Time { return time.Now().Add(20 * time.Millisecond) }

// later is a deadline for an Acquire expected to succeed.
func later() time.Time { return time.Now().Add(time.Minute) }

func take(t *testing.T, s *Slots, addr string, proven bool) func() {
	t.Helper()
	release, err := s.Acquire(context.Background(), addr, proven, later())
	if err != nil {
		t.Fatalf("Acquire(%s, proven %v): %v", addr, proven, err)
	}
	return release
}

func TestNewSlotsNamesTheBadField(t *testing.T) {
	tests := []struct {
		cfg  SlotsConfig
		want string
	}{
		{SlotsConfig{Max: 0}, "Max = 0"},
		{SlotsConfig{Max: 4, Reserved: 4}, "Reserved = 4, want 0 to Max-1 = 3"},
		{SlotsConfig{Max: 4, Reserved: -1}, "Reserved = -1"},
		{SlotsConfig{Max: 4, PerAddr: -2}, "PerAddr = -2"},
		{SlotsConfig{Max: 4, ProvenPerAddr: -3}, "ProvenPerAddr = -3"},
	}
	for _, tt := range tests {
		if _, err := NewSlots(tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewSlots(%+v) = %v, want an error naming %q", tt.cfg, err, tt.want)
		}
	}
}

// Strangers share Max-Reserved slots; a proven request finds one of the
// reserved ones free however many strangers wait.
func TestStrangersCannotTakeTheReservedSlots(t *testing.T) {
	s := mustSlots(t, SlotsConfig{Max: 4, Reserved: 2})
	take(t, s, "a", false)
	take(t, s, "b", false)
	_, err := s.Acquire(context.Background(), "c", false, soon())
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Addr != "" || busy.Limit != 4 {
		t.Fatalf("a third stranger: %v, want a BusyError of the server's limit of 4", err)
	}
	take(t, s, "c", true)
	take(t, s, "d", true)
	if _, err := s.Acquire(context.Background(), "e", true, soon()); !errors.As(err, &busy) {
		t.Fatalf("a proven request with all 4 slots taken: %v, want a BusyError", err)
	}
	if all, strangers := s.InUse(); all != 4 || strangers != 2 {
		t.Fatalf("InUse = %d, %d; want 4, 2", all, strangers)
	}
}

// One address holds at most PerAddr slots; while its next body waits,
// another address's body is read at once (the queue does not hold it
// back), and the address's own waiter gets the first slot it frees.
func TestAnAddressAtItsCapHoldsBackOnlyItself(t *testing.T) {
	s := mustSlots(t, SlotsConfig{Max: 8, PerAddr: 2})
	first := take(t, s, "a", false)
	take(t, s, "a", false)
	got := make(chan error, 1)
	go func() {
		_, err := s.Acquire(context.Background(), "a", false, later()) // kept
		got <- err
	}()
	for waiting := 0; waiting == 0; time.Sleep(time.Millisecond) {
		s.mu.Lock()
		waiting = len(s.waiting)
		s.mu.Unlock()
	}
	take(t, s, "b", false) // while a's third waits
	first()
	if err := <-got; err != nil {
		t.Fatalf("a's third body once a's first is done: %v", err)
	}
	_, err := s.Acquire(context.Background(), "a", false, soon())
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Addr != "a" || busy.Limit != 2 || busy.Error() != "its limit of 2 bodies from a" {
		t.Fatalf("a third body of a: %v, want a BusyError naming a's limit of 2", err)
	}
}

// Waiters are served in the order they came.
func TestWaitersAreServedInArrivalOrder(t *testing.T) {
	s := mustSlots(t, SlotsConfig{Max: 1})
	release := take(t, s, "x", false)
	order := make(chan int, 3)
	for i := range 3 {
		go func() {
			r, err := s.Acquire(context.Background(), "w", false, later())
			if err != nil {
				order <- -1
				return
			}
			order <- i
			r()
		}()
		for waiting := 0; waiting != i+1; time.Sleep(time.Millisecond) {
			s.mu.Lock()
			waiting = len(s.waiting)
			s.mu.Unlock()
		}
	}
	release()
	for want := range 3 {
		if got := <-order; got != want {
			t.Fatalf("waiter %d was served %dth", got, want)
		}
	}
}

// A release given twice frees one slot; a request that ends while it
// waits gives up with ErrEnded and leaves the queue.
func TestReleaseOnceAndCancelledWaits(t *testing.T) {
	s := mustSlots(t, SlotsConfig{Max: 2})
	r := take(t, s, "a", false)
	take(t, s, "b", false)
	r()
	r()
	if all, _ := s.InUse(); all != 1 {
		t.Fatalf("after releasing one slot twice, %d in use, want 1", all)
	}
	take(t, s, "c", false)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Acquire(ctx, "d", false, later()); !errors.Is(err, ErrEnded) {
		t.Fatalf("a cancelled wait: %v, want ErrEnded", err)
	}
	if len(s.waiting) != 0 {
		t.Fatalf("%d waiters left after a cancelled wait", len(s.waiting))
	}
}
