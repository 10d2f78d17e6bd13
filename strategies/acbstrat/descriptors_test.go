package acbstrat

import (
	"testing"

	"crucible/engine/acb"
)

// Rule: steps on the wrapped grid go the short way round.
func TestWrapDist(t *testing.T) {
	for _, tt := range []struct {
		a, b acb.Pos
		want int
	}{
		{acb.Pos{Row: 0, Col: 0}, acb.Pos{Row: 3, Col: 4}, 7},
		{acb.Pos{Row: 0, Col: 0}, acb.Pos{Row: 39, Col: 38}, 3},
		{acb.Pos{Row: 5, Col: 20}, acb.Pos{Row: 25, Col: 0}, 40},
	} {
		if got := wrapDist(tt.a, tt.b, 40, 40); got != tt.want {
			t.Errorf("wrapDist(%v, %v) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// The behaviour watcher keeps the engine's wall economy: it remembers
// walls exactly when the strategy it watches does.
func TestWatcherForwardsWallMemory(t *testing.T) {
	b := Behaviour()
	for _, s := range All() {
		p := s.New(s.Schema.Defaults(), 1, 0)
		inner, ok := p.(acb.WallMemory)
		watched, wok := b.Watch(p, nil).(acb.WallMemory)
		if !wok {
			t.Fatalf("%s: the watched player is no acb.WallMemory", s.Name)
		}
		if want := ok && inner.RemembersWalls(); watched.RemembersWalls() != want {
			t.Errorf("%s: watched RemembersWalls %v, unwatched %v", s.Name, watched.RemembersWalls(), want)
		}
	}
}
