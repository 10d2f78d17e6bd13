package acbhttp

import "crucible/protocol/httpguard/guardtest"

// Sessions returns the number of seats the server currently keeps a
// controller for.
func (s *Server) Sessions() int {
	_, n := s.matches.counts()
	return n
}

// MatchIDs returns the number of match ids the server keeps state for.
func (s *Server) MatchIDs() int {
	n, _ := s.matches.counts()
	return n
}

// takeSlots takes n reading slots and returns the function that gives
// them back.
func (s *Server) takeSlots(n int) func() { return guardtest.TakeSlots(s.bodies.Slots, n) }
