// Package engine holds the game-agnostic contracts every game of crucible
// implements: a Game plays one match from a MatchSpec and returns a Result.
//
// The arena, the evolver and the reports know games only through these
// types. The rules of each game live in its own sub-package (engine/acb,
// engine/kindling) and exist exactly once there.
package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Player decides for one seat of a match. Each game defines the concrete
// interface its players implement (kindling.Bidder, acb.Controller);
// Game.Play returns an error naming the seat when a player does not
// implement it. A Player is used by one match at a time: it may keep state
// between turns of that match but is never shared between matches.
type Player any

// Seat is one participant of a match as the game sees it.
type Seat struct {
	// Name is the display name of the participant, unique within a match
	// when the caller needs to tell seats apart (for example "gatherer" or
	// "gatherer#a1b2c3d4e5" for a variant).
	Name string
	// Strategy is the base strategy name, recorded in replays and logs.
	Strategy string
	// Params are the strategy's parameter values, recorded in replays.
	Params map[string]float64
	// Player makes the decisions.
	Player Player
}

// MatchSpec is everything a match depends on. The same spec (seed, config
// and players constructed from the same seeds) gives the same Result and the
// same replay bytes.
type MatchSpec struct {
	// Seed drives every random choice of the match (map generation, and
	// through SeatSeed the players' own generators).
	Seed uint64
	// MatchID names the match in replays and protocol messages; when empty
	// the game derives one from the seed.
	MatchID string
	// Config is the game's own configuration value (for example acb.Config);
	// nil means the game's defaults.
	Config any
	// Seats are the participants in seat order.
	Seats []Seat
	// Replay, when not nil, receives the match's replay or log document.
	Replay io.Writer
}

// Result is the outcome of one match, per seat in seat order.
type Result struct {
	// Scores is each seat's final score.
	Scores []float64 `json:"scores"`
	// Ranks is each seat's final place, 1 for the best; tied seats share a
	// place (1, 1, 3).
	Ranks []int `json:"ranks"`
	// Turns is the number of turns played.
	Turns int `json:"turns"`
	// Reason says why the match ended ("turns", "elimination", ...).
	Reason string `json:"reason"`
	// Crashed marks seats whose player failed (a remote bot that went
	// inactive). Nil when no seat crashed.
	Crashed []bool `json:"crashed,omitempty"`
	// Adjudicated is set when the game ended the match early because the
	// rest of it provably could not change this result (the result is the
	// one playing on would give, Turns included).
	Adjudicated bool `json:"adjudicated,omitempty"`
	// Detail carries game-specific per-seat figures (JSON-marshallable).
	Detail any `json:"detail,omitempty"`
}

// Game is one game's rules behind the common contract.
type Game interface {
	// Name is the game's identifier on the command line ("acb", "kindling").
	Name() string
	// SeatRange is the smallest and largest number of seats a match may have.
	SeatRange() (min, max int)
	// DefaultConfig returns the game's default configuration value.
	DefaultConfig() any
	// ParseConfig decodes and validates a JSON configuration; fields left
	// out keep their defaults. Errors name the field and its allowed range.
	ParseConfig(data []byte) (any, error)
	// Play runs one match to the end. It is safe to call concurrently from
	// many goroutines with distinct specs. It returns a *PlayerError when a
	// player panics or returns an error, and ctx.Err() when cancelled.
	Play(ctx context.Context, spec MatchSpec) (Result, error)
}

// PlayerError reports a failure inside one seat's player: a panic or an
// error it returned. The arena records it against the match and goes on.
type PlayerError struct {
	// Seat is the failing seat's index in MatchSpec.Seats.
	Seat int
	// Name is that seat's Seat.Name.
	Name string
	// Err is what the player returned, or ErrPanic wrapping the panic.
	Err error
}

// Error says which seat and player failed and how.
func (e *PlayerError) Error() string {
	return fmt.Sprintf("seat %d (%s): %v", e.Seat, e.Name, e.Err)
}

// Unwrap returns the underlying error.
func (e *PlayerError) Unwrap() error { return e.Err }

// ErrPanic wraps the value of a recovered panic inside a PlayerError.
var ErrPanic = errors.New("player panicked")

// Recovered turns a recovered panic value into a *PlayerError for seat.
// Use it in a deferred function around calls into players:
//
//	defer func() {
//		if r := recover(); r != nil {
//			err = engine.Recovered(seat, name, r)
//		}
//	}()
func Recovered(seat int, name string, r any) error {
	return &PlayerError{Seat: seat, Name: name, Err: fmt.Errorf("%w: %v", ErrPanic, r)}
}

// SeatSeed derives the seed of seat's own random generator from the match
// seed, so that players are reproducible yet independent of one another.
func SeatSeed(matchSeed uint64, seat int) uint64 {
	return Mix(matchSeed, uint64(seat)+1)
}

// Mix combines a seed with a stream number into a new, well-spread seed
// (two rounds of the SplitMix64 finaliser). It is used wherever one seed
// must give many independent ones: seats, jobs, generations.
func Mix(seed, stream uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(stream+1)
	for i := 0; i < 2; i++ {
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		z ^= z >> 31
	}
	return z
}

// RanksFromScores ranks seats by score, higher first; equal scores share a
// place (competition ranking: 1, 1, 3). Games with their own tie-breaks
// compute ranks themselves.
func RanksFromScores(scores []float64) []int {
	ranks := make([]int, len(scores))
	for i, s := range scores {
		r := 1
		for j, t := range scores {
			if j != i && t > s {
				r++
			}
		}
		ranks[i] = r
	}
	return ranks
}
