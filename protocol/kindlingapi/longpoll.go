package kindlingapi

import (
	"net/http"
	"strconv"
	"time"
)

// MaxWait is the longest a long poll waits (GET /api/matches/{code}?wait=S
// with S above it waits MaxWait).
const MaxWait = 30 * time.Second

// longPoll is the wait and version of a state request
// (GET /api/matches/{code}?wait=S&version=V): answer as soon as the
// match's version differs from Version, or after Wait.
type longPoll struct {
	on      bool
	wait    time.Duration
	version int64
}

var longPollHint = "GET /api/matches/{code}?wait=25&version=7: wait a whole number of seconds (at most 30) for the version to differ from 7; leave both out to poll"

// longPollOf reads the request's wait and version: both or neither (the
// seed's poll, answered at once); wait a whole number of seconds >= 0
// (capped at MaxWait), version a whole number.
func longPollOf(r *http.Request) (longPoll, *apiError) {
	q := r.URL.Query()
	ws, vs := q.Get("wait"), q.Get("version")
	if ws == "" && vs == "" {
		return longPoll{}, nil
	}
	if ws == "" || vs == "" {
		return longPoll{}, errorf(http.StatusBadRequest, longPollHint, "a long poll needs both wait and version, got wait=%s version=%s", ws, vs)
	}
	secs, err := strconv.Atoi(ws)
	if err != nil || secs < 0 {
		return longPoll{}, errorf(http.StatusBadRequest, longPollHint, "wait=%s is not a whole number of seconds >= 0", ws)
	}
	v, err := strconv.ParseInt(vs, 10, 64)
	if err != nil {
		return longPoll{}, errorf(http.StatusBadRequest, longPollHint, "version=%s is not a whole number", vs)
	}
	return longPoll{on: true, wait: min(time.Duration(secs)*time.Second, MaxWait), version: v}, nil
}

// awaitChange opens the match of code (see open) once its version differs
// from the poll's, the poll's wait is over, or the request is gone; a
// turn deadline that passes meanwhile wakes it, since open resolves
// expired turns. The caller unlocks m.mu.
func (s *Server) awaitChange(r *http.Request, code string, poll longPoll) (*match, time.Time, *apiError) {
	end := time.Now().Add(poll.wait)
	for {
		m, now, e := s.open(code)
		if e != nil || !poll.on || m.version != poll.version || !time.Now().Before(end) {
			return m, now, e
		}
		ch := m.changes()
		d := time.Until(end)
		if m.phase == PhasePlaying {
			// The turn's deadline on the server's clock, past which
			// the next open resolves it (a fake clock may never get
			// there: the wait then ends at its own end).
			d = min(d, max(m.deadline.Sub(now), 0)+time.Millisecond)
		}
		m.mu.Unlock()
		t := time.NewTimer(d)
		select {
		case <-ch:
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			m, now, e := s.open(code)
			return m, now, e
		}
		t.Stop()
	}
}

// bump marks a change of the match: its version grows and the long polls
// waiting on it wake. The caller holds m.mu.
func (m *match) bump() {
	m.version++
	if m.changed != nil {
		close(m.changed)
		m.changed = nil
	}
}

// changes returns a channel closed at the match's next change. The caller
// holds m.mu.
func (m *match) changes() <-chan struct{} {
	if m.changed == nil {
		m.changed = make(chan struct{})
	}
	return m.changed
}
