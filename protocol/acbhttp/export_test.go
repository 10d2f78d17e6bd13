package acbhttp

// Sessions returns the number of matches the server currently keeps a
// controller for.
func (s *Server) Sessions() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sessions)
}
