package acbhttp

import (
	"context"
	"time"
)

// Sessions returns the number of matches and seats the server currently
// keeps a controller for.
func (s *Server) Sessions() int {
	_, n := s.matches.counts()
	return n
}

// MatchIDs returns the number of match ids the server keeps state for.
func (s *Server) MatchIDs() int {
	n, _ := s.matches.counts()
	return n
}

// takeSlots takes n reading slots (as proven requests, which may take any)
// and returns the function that gives them back.
func (s *Server) takeSlots(n int) func() {
	var releases []func()
	for range n {
		release, err := s.bodies.Slots.Acquire(context.Background(), "test", true, time.Now())
		if err != nil {
			panic(err)
		}
		releases = append(releases, release)
	}
	return func() {
		for _, r := range releases {
			r()
		}
	}
}
