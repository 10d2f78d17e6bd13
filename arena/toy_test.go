package arena_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"math/rand/v2"

	"crucible/arena"
	"crucible/engine"
)

// toyGame is a tiny deterministic engine.Game for the arena's tests: every
// seat scores its player's strength plus noise drawn from the match seed,
// rounded to a whole number so that draws happen. work burns that many
// rounds of hashing per match to stand for a real game's cost.
//
// With maps > 0 it plays like AI Code Battle, where a round robin's round
// plays one map for every pair: each seed gives each player a bonus of
// maps times a standard normal (the map suits it or not, against every
// opponent alike), and the noise of each match is its own, drawn from the
// seed and the match id. Without it every match on a seed draws the same
// noise for its first and second seat, whoever sits there.
type toyGame struct {
	work int
	maps float64
}

var _ engine.Game = toyGame{}

// toyPlayer is a toy seat: strength is its mean score; a non-empty panics
// makes it panic with that text, and fail makes it return an error.
type toyPlayer struct {
	strength float64
	panics   string
	fail     error
	seed     uint64
}

func (p *toyPlayer) score(rng *rand.Rand) (float64, error) {
	if p.panics != "" {
		panic(p.panics)
	}
	if p.fail != nil {
		return 0, p.fail
	}
	return math.Round(p.strength + 3*rng.NormFloat64()), nil
}

func (toyGame) Name() string                         { return "toy" }
func (toyGame) SeatRange() (int, int)                { return 2, 4 }
func (toyGame) DefaultConfig() any                   { return nil }
func (toyGame) ParseConfig(data []byte) (any, error) { return nil, nil }

func (g toyGame) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	if err := ctx.Err(); err != nil {
		return engine.Result{}, err
	}
	rng := rand.New(rand.NewPCG(spec.Seed, 0x70f))
	if g.maps > 0 {
		rng = rand.New(rand.NewPCG(spec.Seed, engine.Mix(0x70f, uint64(len(spec.MatchID))<<32|uint64(crc32.ChecksumIEEE([]byte(spec.MatchID))))))
	}
	h := spec.Seed
	for i := 0; i < g.work; i++ {
		h = engine.Mix(h, uint64(i))
	}
	scores := make([]float64, len(spec.Seats))
	for i, s := range spec.Seats {
		p, ok := s.Player.(*toyPlayer)
		if !ok {
			return engine.Result{}, fmt.Errorf("toy: seat %d: %T is not a toy player", i, s.Player)
		}
		v, err := safeScore(p, rng, i, s.Name)
		if err != nil {
			return engine.Result{}, err
		}
		// The player's own seed nudges its score, so a test can see that
		// each seat got engine.SeatSeed(seed, seat).
		scores[i] = v + float64(p.seed%2)*0.25
		if g.maps > 0 {
			m := rand.New(rand.NewPCG(spec.Seed, math.Float64bits(p.strength)))
			scores[i] = math.Round(scores[i] + g.maps*m.NormFloat64())
		}
	}
	if spec.Replay != nil {
		json.NewEncoder(spec.Replay).Encode(map[string]any{"match": spec.MatchID, "seed": spec.Seed, "scores": scores})
	}
	return engine.Result{Scores: scores, Ranks: engine.RanksFromScores(scores), Turns: 1, Reason: "toy", Detail: h}, nil
}

func safeScore(p *toyPlayer, rng *rand.Rand, seat int, name string) (v float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = engine.Recovered(seat, name, r)
		}
	}()
	v, err = p.score(rng)
	if err != nil {
		err = &engine.PlayerError{Seat: seat, Name: name, Err: err}
	}
	return v, err
}

// toyEntrants returns n toy entrants with strengths 0, 1, 2, ... so that a
// higher index is stronger.
func toyEntrants(n int) []arena.Entrant {
	out := make([]arena.Entrant, n)
	for i := range out {
		strength := float64(i)
		out[i] = arena.Entrant{
			Name:     fmt.Sprintf("p%d", i),
			Strategy: "toy",
			Params:   map[string]float64{"strength": strength},
			New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
				return &toyPlayer{strength: strength, seed: seed}, nil
			},
		}
	}
	return out
}

// errBoom is what a failing toy player returns.
var errBoom = errors.New("boom")
