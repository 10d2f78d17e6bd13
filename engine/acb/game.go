package acb

import (
	"context"
	"fmt"

	"crucible/engine"
)

// MatchConfig is what Game.Play accepts as engine.MatchSpec.Config when a
// match needs more than a Config: a map of its own. A nil Map generates
// the map from the match seed (GenerateMap); a given Map fixes the grid
// size, the cores and the player count, overriding the config's rows, cols
// and cores_per_player.
type MatchConfig struct {
	Config Config
	Map    *Map
}

// Game implements engine.Game.
var _ engine.Game = Game{}

// Game is AI Code Battle behind the engine.Game contract. Its zero value is
// ready to use.
type Game struct{}

// Name is "acb".
func (Game) Name() string { return "acb" }

// SeatRange is 2..6 (generated maps exist for 2, 3, 4 and 6 players; five
// seats need a map with five owners).
func (Game) SeatRange() (min, max int) { return 2, 6 }

// SeatCounts lists the seat counts a match can be played with: those of
// SeatRange that generated maps exist for (2, 3, 4 and 6).
func (Game) SeatCounts() []int { return []int{2, 3, 4, 6} }

// DefaultConfig returns DefaultConfig() as an any.
func (Game) DefaultConfig() any { return DefaultConfig() }

// ParseConfig decodes a JSON config over the defaults and validates it; the
// value is a Config.
func (Game) ParseConfig(data []byte) (any, error) { return ParseConfig(data) }

// configOf reads MatchSpec.Config: nil, Config, *Config, MatchConfig or
// *MatchConfig.
func configOf(v any) (Config, *Map, error) {
	switch c := v.(type) {
	case nil:
		return DefaultConfig(), nil, nil
	case Config:
		return c, nil, nil
	case *Config:
		if c == nil {
			return DefaultConfig(), nil, nil
		}
		return *c, nil, nil
	case MatchConfig:
		return c.Config, c.Map, nil
	case *MatchConfig:
		if c == nil {
			return DefaultConfig(), nil, nil
		}
		return c.Config, c.Map, nil
	}
	return Config{}, nil, fmt.Errorf("acb: config of type %T is not an acb.Config or acb.MatchConfig", v)
}

// Play runs one match to the end. Every seat's Player must be a
// Controller. The replay, when spec.Replay is set, is written once the
// match is over. Cancelling ctx stops the match with ctx.Err() between
// turns (ctx is checked before the first turn and every 32 turns after).
func (Game) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	cfg, mp, err := configOf(spec.Config)
	if err != nil {
		return engine.Result{}, err
	}
	if cfg.Rows == 0 {
		cfg = DefaultConfig()
	}
	players := make([]MatchPlayer, len(spec.Seats))
	for i, s := range spec.Seats {
		c, ok := s.Player.(Controller)
		if !ok {
			return engine.Result{}, fmt.Errorf("acb: seat %d (%s): player of type %T is not an acb.Controller", i, s.Name, s.Player)
		}
		players[i] = MatchPlayer{Name: s.Name, Strategy: s.Strategy, Params: s.Params, Controller: c}
	}
	m, err := NewMatchWith(MatchOptions{Config: cfg, Map: mp, Seed: spec.Seed, MatchID: spec.MatchID, Players: players, Record: spec.Replay != nil})
	if err != nil {
		return engine.Result{}, err
	}
	if err := m.Run(ctx); err != nil {
		return engine.Result{}, err
	}
	if spec.Replay != nil {
		if _, err := spec.Replay.Write(m.Replay()); err != nil {
			return engine.Result{}, fmt.Errorf("acb: writing the replay: %w", err)
		}
	}
	return m.Result(), nil
}
