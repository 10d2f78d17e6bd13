package kindlingbot

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"crucible/engine/kindling"
	"crucible/protocol/kindlingapi"
)

// seat is one match's seat as the agent sees it on the host: the arena
// opens each turn with the seat's view (open) and waits for the bid the
// agent locks in (bids).
type seat struct {
	code, name string
	seatNo     int
	turn       time.Duration
	bids       chan kindling.Bid // the turn's bid, at most one waiting

	mu       sync.Mutex
	token    string
	version  int64
	changed  chan struct{}
	phase    string
	view     kindling.View
	have     bool
	locked   bool
	bid      kindling.Bid
	deadline time.Time
	polls    int
}

func newSeat(code, name string, seatNo int, turn time.Duration) *seat {
	return &seat{code: code, name: name, seatNo: seatNo, turn: turn, bids: make(chan kindling.Bid, 1), phase: kindlingapi.PhaseLobby, version: 1}
}

func (s *seat) you() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seatNo
}

// bump marks a change: the version grows and long polls wake. The caller
// holds s.mu.
func (s *seat) bump() {
	s.version++
	if s.changed != nil {
		close(s.changed)
		s.changed = nil
	}
}

// join seats the agent, once, and returns its token.
func (s *seat) join() (kindlingapi.State, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.token != "" {
		return kindlingapi.State{}, "", fmt.Errorf("match %s: its seat is taken", s.code)
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return kindlingapi.State{}, "", err
	}
	s.token = hex.EncodeToString(b[:])
	s.bump()
	return s.render(true), s.token, nil
}

// polled counts a state request without the long poll and reports
// whether it is not the first (an agent that polls).
func (s *seat) polled() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.polls++
	return s.polls > 1
}

// await returns the state once its version differs from version (any
// state when version < 0), after wait, or when ctx ends; ok is false for
// a token that is not the seat's (none: a spectator's view).
func (s *seat) await(ctx context.Context, wait time.Duration, version int64, token string) (st kindlingapi.State, ok bool) {
	end := time.Now().Add(wait)
	for {
		s.mu.Lock()
		if token != "" && token != s.token {
			s.mu.Unlock()
			return kindlingapi.State{}, false
		}
		if version < 0 || s.version != version || !time.Now().Before(end) || ctx.Err() != nil {
			st := s.render(token != "")
			s.mu.Unlock()
			return st, true
		}
		if s.changed == nil {
			s.changed = make(chan struct{})
		}
		ch := s.changed
		s.mu.Unlock()
		t := time.NewTimer(time.Until(end))
		select {
		case <-ch:
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
}

// open starts a turn with the arena's view of the seat.
func (s *seat) open(v *kindling.View) {
	s.mu.Lock()
	select { // a bid left from a turn that timed out
	case <-s.bids:
	default:
	}
	s.view, s.have, s.seatNo = *v, true, v.You
	s.phase, s.locked = kindlingapi.PhasePlaying, false
	s.deadline = time.Now().Add(s.turn)
	s.bump()
	s.mu.Unlock()
}

// finish ends the match for the agent.
func (s *seat) finish() {
	s.mu.Lock()
	s.phase, s.locked = kindlingapi.PhaseFinished, false
	s.bump()
	s.mu.Unlock()
}

// lockIn takes the agent's bid for the turn, checked as the server checks
// it (engine/kindling's CheckBid against the seat's sparks).
func (s *seat) lockIn(token string, req kindlingapi.BidRequest) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case token == "" || token != s.token:
		return http.StatusUnauthorized, errors.New("the token is not this match's seat")
	case s.phase != kindlingapi.PhasePlaying:
		return http.StatusConflict, fmt.Errorf("match %s is not in play (phase %s)", s.code, s.phase)
	case s.locked:
		return http.StatusConflict, fmt.Errorf("match %s: turn %d's bid is already locked in", s.code, s.view.Turn)
	case req.Turn != nil && *req.Turn != s.view.Turn:
		return http.StatusConflict, fmt.Errorf("match %s: the bid is for turn %d, the turn is %d", s.code, *req.Turn, s.view.Turn)
	}
	st := kindling.State{Seats: s.view.Seats, Sparks: s.view.Sparks}
	if err := kindling.CheckBid(&st, s.view.You, req.Bids); err != nil {
		return http.StatusBadRequest, err
	}
	s.locked, s.bid = true, req.Bids
	s.bump()
	s.bids <- req.Bids
	return http.StatusOK, nil
}

// render is the seed's state of the match as the seat (you) or a
// spectator sees it. The caller holds s.mu. Winners and standings stay
// empty: the seat learns the final result from the arena's record, not
// from its own view.
func (s *seat) render(you bool) kindlingapi.State {
	v := &s.view
	names, base := kindling.BeaconNames(), kindling.BaseValues()
	st := kindlingapi.State{
		Code: s.code, Version: s.version, Phase: s.phase, Turn: v.Turn, Turns: kindling.Turns,
		Beacons: make([]kindlingapi.Beacon, kindling.Beacons), Winners: []int{}, Standings: []int{},
		Seats: v.Seats, TurnSeconds: int(s.turn / time.Second), Host: 0,
	}
	values := base
	if s.have {
		values = v.Values
	}
	for i := range st.Beacons {
		st.Beacons[i] = kindlingapi.Beacon{ID: i, Name: names[i], Base: base[i], Value: values[i]}
	}
	for p := 0; p < v.Seats; p++ {
		pl := kindlingapi.Player{Seat: p, Name: fmt.Sprintf("seat %d", p), Kind: kindlingapi.KindBot,
			Score: v.Scores[p], Sparks: v.Sparks[p], Embers: v.Embers[p]}
		if p == v.You {
			pl.Name, pl.Kind, pl.LockedIn = s.name, kindlingapi.KindAgent, s.locked
		}
		st.Players = append(st.Players, pl)
	}
	if s.phase == kindlingapi.PhasePlaying {
		st.SecondsLeft = max(0, int((time.Until(s.deadline)+time.Second-1)/time.Second))
	}
	if you {
		y := &kindlingapi.You{Seat: s.seatNo, Sparks: v.Sparks[v.You], Embers: v.Embers[v.You], LockedIn: s.locked,
			CanMove: s.phase == kindlingapi.PhasePlaying && !s.locked}
		if s.locked {
			b := s.bid
			y.Bids = &b
		}
		st.You = y
	}
	if s.have && v.Last.Turn > 0 {
		last := v.Last
		st.LastTurn = &last
	}
	return st
}
