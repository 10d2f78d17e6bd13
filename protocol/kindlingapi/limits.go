package kindlingapi

import (
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"
)

// insert gives m a fresh code and adds it to the table, unless the table
// is full or m is a lobby and its address already holds its share of
// lobbies (429).
func (s *Server) insert(m *match) *apiError {
	s.mu.Lock()
	defer s.mu.Unlock()
	if m.phase == PhaseLobby {
		if e := s.lobbyShare(m.owner); e != nil {
			return e
		}
	}
	if len(s.matches) >= s.cfg.MaxMatches {
		return errorf(http.StatusTooManyRequests, "try again later", "the server holds %d matches, its limit", len(s.matches))
	}
	for {
		code := newCode()
		if _, taken := s.matches[code]; !taken {
			m.code = code
			s.matches[code] = m
			if m.phase == PhaseLobby {
				s.lobbies.add(m)
			}
			return nil
		}
	}
}

// lobbyShare answers 429 if addr already holds LobbiesPerAddr lobbies.
func (s *Server) lobbyShare(addr string) *apiError {
	if n := s.lobbies.count(addr); n >= s.cfg.LobbiesPerAddr {
		return errorf(http.StatusTooManyRequests, "start one of your lobbies, or wait for one to expire",
			"%s already holds %d lobbies waiting to start, its limit", addr, n)
	}
	return nil
}

// remove deletes the matches listed from the table (each only if it is
// still the match of its code) and from the lobbies of their addresses.
func (s *Server) remove(ms ...*match) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range ms {
		if s.matches[m.code] == m {
			delete(s.matches, m.code)
		}
		s.lobbies.leave(m)
	}
}

// makeRoom deletes, from a full table, the oldest lobby nobody has joined
// of the address that holds the most lobbies, if that address holds at
// least two more than addr (a create from addr then evens their shares
// rather than trading one for the other). It reports whether it did.
func (s *Server) makeRoom(addr string) bool {
	top, lobbies := s.lobbies.heaviest()
	if top == addr || len(lobbies) < s.lobbies.count(addr)+2 {
		return false
	}
	for _, m := range lobbies {
		m.mu.Lock()
		ok := !m.gone && m.phase == PhaseLobby && m.unjoined()
		if ok {
			m.gone = true
			s.remove(m)
		}
		m.mu.Unlock()
		if ok {
			s.cfg.Logger.Info("lobby deleted to make room", "code", m.code, "addr", top, "lobbies", len(lobbies))
			return true
		}
	}
	return false
}

// lobbyBook lists the lobbies each address holds, oldest first. Its lock
// is taken last (after the table's or a match's). It is safe for
// concurrent use.
type lobbyBook struct {
	mu     sync.Mutex
	byAddr map[string][]*match
}

func (b *lobbyBook) init() { b.byAddr = map[string][]*match{} }

func (b *lobbyBook) count(addr string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.byAddr[addr])
}

func (b *lobbyBook) add(m *match) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.byAddr[m.owner] = append(b.byAddr[m.owner], m)
}

// leave takes m off its address's list, if it is there: it has started
// or is deleted.
func (b *lobbyBook) leave(m *match) {
	b.mu.Lock()
	defer b.mu.Unlock()
	list := b.byAddr[m.owner]
	if i := slices.Index(list, m); i >= 0 {
		list = slices.Delete(list, i, i+1)
		if len(list) == 0 {
			delete(b.byAddr, m.owner)
		} else {
			b.byAddr[m.owner] = list
		}
	}
}

// heaviest returns the address holding the most lobbies and a copy of its
// list ("" and nil when there are none).
func (b *lobbyBook) heaviest() (string, []*match) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var top string
	for a, list := range b.byAddr {
		if len(list) > len(b.byAddr[top]) || (len(list) == len(b.byAddr[top]) && a < top) {
			top = a
		}
	}
	return top, slices.Clone(b.byAddr[top])
}

// allowCreate counts a create against addr, or answers 429.
func (s *Server) allowCreate(addr string, now time.Time) *apiError {
	s.limitMu.Lock()
	defer s.limitMu.Unlock()
	win := s.creates[addr]
	if win == nil || now.Sub(win.start) >= s.cfg.CreateWindow {
		win = &window{start: now}
		s.creates[addr] = win
	}
	if win.n >= s.cfg.CreateLimit {
		wait := win.start.Add(s.cfg.CreateWindow).Sub(now)
		return errorf(http.StatusTooManyRequests, fmt.Sprintf("wait %d s, or join an existing lobby", int(wait.Seconds()+0.999)),
			"too many matches created from %s: %d per %v", addr, s.cfg.CreateLimit, s.cfg.CreateWindow)
	}
	win.n++
	return nil
}
