package acbhttp

import (
	"container/list"
	"log/slog"
	"sync"
	"time"

	"crucible/engine/acb"
)

// matchTable is the state the bot server keeps per match id: each seat's
// controller and the address its last verified turn came from. It holds
// at most max match ids: a new one beyond that evicts the one used least
// recently, and ids idle longer than idle are dropped now and then. It is
// safe for concurrent use.
type matchTable struct {
	max    int
	idle   time.Duration
	logger *slog.Logger

	mu        sync.Mutex
	byID      map[string]*matchState
	order     list.List // of *matchState, most recently used first
	lastSweep time.Time
}

// matchState is one match id's state.
type matchState struct {
	id       string
	seats    map[int]*session
	host     string    // the address of the match's last verified turn
	lastUsed time.Time // of the match's last verified turn
	elem     *list.Element
}

// session is one seat's controller. sem serialises its turns; whoever
// holds sem may touch ctrl, buf, lastTurn, rows and cols.
type session struct {
	sem        chan struct{}
	ctrl       acb.Controller
	buf        []acb.Move
	lastTurn   int
	rows, cols int // the grid of the turn ctrl was built on
}

func (t *matchTable) init(max int, idle time.Duration, logger *slog.Logger) {
	t.max, t.idle, t.logger = max, idle, logger
	t.byID = map[string]*matchState{}
}

// proven reports whether matchID has sent a verified turn from host within
// the idle time: the turns of such a match may take the reading slots
// kept for proven requests. Only the secret's holder can make a match
// proven, and only from the address it plays from.
func (t *matchTable) proven(matchID, host string, now time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.byID[matchID]
	return m != nil && m.host == host && now.Sub(m.lastUsed) <= t.idle
}

// prove records a verified turn of matchID from host.
func (t *matchTable) prove(matchID, host string, now time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.touch(matchID, now).host = host
}

// session finds or creates the session of v's match and seat.
func (t *matchTable) session(v *acb.View, now time.Time) *session {
	t.mu.Lock()
	defer t.mu.Unlock()
	m := t.touch(v.MatchID, now)
	sess, ok := m.seats[v.You.ID]
	if !ok {
		sess = &session{sem: make(chan struct{}, 1)}
		m.seats[v.You.ID] = sess
		t.logger.Info("new match", "match", v.MatchID, "seat", v.You.ID, "turn", v.Turn)
	}
	return sess
}

// touch finds or creates the state of matchID and marks it used now,
// dropping idle matches now and then and the least recently used one when
// a new match would exceed max. The caller holds t.mu.
func (t *matchTable) touch(matchID string, now time.Time) *matchState {
	if now.Sub(t.lastSweep) > t.idle/4 {
		t.lastSweep = now
		for id, m := range t.byID {
			if now.Sub(m.lastUsed) > t.idle {
				t.drop(m)
				t.logger.Info("match dropped after inactivity", "match", id)
			}
		}
	}
	m := t.byID[matchID]
	if m == nil {
		for len(t.byID) >= t.max {
			old := t.order.Back().Value.(*matchState)
			t.drop(old)
			t.logger.Info("match dropped to make room", "match", old.id, "limit", t.max)
		}
		m = &matchState{id: matchID, seats: map[int]*session{}}
		m.elem = t.order.PushFront(m)
		t.byID[matchID] = m
	} else {
		t.order.MoveToFront(m.elem)
	}
	m.lastUsed = now
	return m
}

// drop forgets m. The caller holds t.mu.
func (t *matchTable) drop(m *matchState) {
	delete(t.byID, m.id)
	t.order.Remove(m.elem)
}

// counts returns the match ids held and their sessions.
func (t *matchTable) counts() (matches, sessions int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, m := range t.byID {
		sessions += len(m.seats)
	}
	return len(t.byID), sessions
}
