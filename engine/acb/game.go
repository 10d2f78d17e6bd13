package acb

import (
	"bytes"
	"context"
	"encoding/json"
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
	// NoAdjudication plays every match to its end even when the rest
	// cannot change the result (see MatchOptions.NoAdjudication).
	NoAdjudication bool
}

// MarshalJSON writes what the matches depend on (arena.ConfigID hashes
// it): the Config alone when there is no Map, as a bare Config plays the
// same matches, and never NoAdjudication, which changes no result.
func (c MatchConfig) MarshalJSON() ([]byte, error) {
	if c.Map == nil {
		return json.Marshal(c.Config)
	}
	return json.Marshal(struct {
		Config Config
		Map    *Map
	}{c.Config, c.Map})
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
// value is a Config. One key that is not a Config field is read here:
// "adjudicate" (a boolean, default true); false gives a MatchConfig whose
// matches are played to the end even when the rest cannot change the
// result (the result is the same; the replay has every turn and no
// "adjudicated" mark).
func (Game) ParseConfig(data []byte) (any, error) {
	adj, rest, err := splitAdjudicate(data)
	if err != nil {
		return nil, err
	}
	c, err := ParseConfig(rest)
	if err != nil || adj {
		return c, err
	}
	return MatchConfig{Config: c, NoAdjudication: true}, nil
}

// splitAdjudicate takes the "adjudicate" key out of a JSON config object:
// its value (true when absent) and the object without it. Without the key
// the data is returned untouched, for ParseConfig's strict reading.
func splitAdjudicate(data []byte) (bool, []byte, error) {
	if !bytes.Contains(data, []byte(`"adjudicate"`)) {
		return true, data, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(data, &obj); err != nil {
		return false, nil, fmt.Errorf("config: %w", err)
	}
	raw := obj["adjudicate"]
	var adj bool
	if err := json.Unmarshal(raw, &adj); err != nil || raw == nil || string(raw) == "null" {
		return false, nil, fmt.Errorf("config field adjudicate = %s is not true or false", raw)
	}
	delete(obj, "adjudicate")
	rest, err := json.Marshal(obj)
	return adj, rest, err
}

// configOf reads MatchSpec.Config: nil, Config, *Config, MatchConfig or
// *MatchConfig.
func configOf(v any) (MatchConfig, error) {
	switch c := v.(type) {
	case nil:
		return MatchConfig{Config: DefaultConfig()}, nil
	case Config:
		return MatchConfig{Config: c}, nil
	case *Config:
		if c == nil {
			return MatchConfig{Config: DefaultConfig()}, nil
		}
		return MatchConfig{Config: *c}, nil
	case MatchConfig:
		return c, nil
	case *MatchConfig:
		if c == nil {
			return MatchConfig{Config: DefaultConfig()}, nil
		}
		return *c, nil
	}
	return MatchConfig{}, fmt.Errorf("acb: config of type %T is not an acb.Config or acb.MatchConfig", v)
}

// Play runs one match to the end. Every seat's Player must be a
// Controller. The replay, when spec.Replay is set, is written once the
// match is over. Cancelling ctx stops the match with ctx.Err() between
// turns (ctx is checked before the first turn and every 32 turns after).
func (Game) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	mc, err := configOf(spec.Config)
	if err != nil {
		return engine.Result{}, err
	}
	cfg, mp := mc.Config, mc.Map
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
	m, err := NewMatchWith(MatchOptions{Config: cfg, Map: mp, Seed: spec.Seed, MatchID: spec.MatchID, Players: players, Record: spec.Replay != nil, NoAdjudication: mc.NoAdjudication})
	if err != nil {
		return engine.Result{}, err
	}
	defer func() {
		for _, p := range players {
			if e, ok := p.Controller.(MatchEnder); ok {
				e.MatchOver()
			}
		}
	}()
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
