package acb

import (
	"fmt"

	"crucible/engine"
)

// RulesVersion names the rules this engine implements
// (../shared/specs/acb.md); it is sent to bots as config.rules_version.
const RulesVersion = "acb-lab-1"

// DefaultTurnTimeout is the per-turn budget of a remote bot in nanoseconds
// (3 s), used when a config leaves turn_timeout out.
const DefaultTurnTimeout = 3_000_000_000

// Config is a match's configuration: the seed's fields plus turn_timeout
// and rules_version. Its JSON form is the "config" object sent to bots.
type Config struct {
	Rows               int    `json:"rows"`
	Cols               int    `json:"cols"`
	MaxTurns           int    `json:"max_turns"`
	VisionRadius2      int    `json:"vision_radius2"`
	AttackRadius2      int    `json:"attack_radius2"`
	SpawnCost          int    `json:"spawn_cost"`
	EnergyInterval     int    `json:"energy_interval"`
	CoresPerPlayer     int    `json:"cores_per_player"`
	ZoneEnabled        bool   `json:"zone_enabled"`
	ZoneStartTurn      int    `json:"zone_start_turn"`
	ZoneShrinkInterval int    `json:"zone_shrink_interval"`
	ZoneShrinkStep     int    `json:"zone_shrink_step"`
	ZoneMinRadius      int    `json:"zone_min_radius"`
	KillScore          int    `json:"kill_score"`
	TurnTimeout        int64  `json:"turn_timeout"`
	RulesVersion       string `json:"rules_version"`
}

// DefaultConfig returns the spec's defaults: the seed's example values with
// the zone disabled and a 3 s turn timeout.
func DefaultConfig() Config {
	return Config{
		Rows: 40, Cols: 40, MaxTurns: 500,
		VisionRadius2: 49, AttackRadius2: 25,
		SpawnCost: 3, EnergyInterval: 10, CoresPerPlayer: 2,
		ZoneEnabled: false, ZoneStartTurn: 10, ZoneShrinkInterval: 1,
		ZoneShrinkStep: 1, ZoneMinRadius: 2, KillScore: 1,
		TurnTimeout:  DefaultTurnTimeout,
		RulesVersion: RulesVersion,
	}
}

// Validate checks every field against its allowed range; the error names
// the field, its value and the range.
func (c Config) Validate() error {
	checks := []struct {
		name     string
		v        int64
		min, max int64
	}{
		{"rows", int64(c.Rows), 16, 200},
		{"cols", int64(c.Cols), 16, 200},
		{"max_turns", int64(c.MaxTurns), 1, 100000},
		{"vision_radius2", int64(c.VisionRadius2), 1, 10000},
		{"attack_radius2", int64(c.AttackRadius2), 1, 10000},
		{"spawn_cost", int64(c.SpawnCost), 0, 1000000},
		{"energy_interval", int64(c.EnergyInterval), 0, 100000},
		{"cores_per_player", int64(c.CoresPerPlayer), 1, 8},
		{"zone_start_turn", int64(c.ZoneStartTurn), 0, 100000},
		{"zone_shrink_interval", int64(c.ZoneShrinkInterval), 1, 100000},
		{"zone_shrink_step", int64(c.ZoneShrinkStep), 0, 1000},
		{"zone_min_radius", int64(c.ZoneMinRadius), 0, 1000},
		{"kill_score", int64(c.KillScore), 0, 1000000},
		{"turn_timeout", c.TurnTimeout, 1_000_000, 600_000_000_000},
	}
	for _, k := range checks {
		if k.v < k.min || k.v > k.max {
			return fmt.Errorf("config field %s = %d is outside its allowed range %d..%d", k.name, k.v, k.min, k.max)
		}
	}
	if c.RulesVersion != "" && c.RulesVersion != RulesVersion {
		return fmt.Errorf("config field rules_version = %q is not supported (this engine plays %q)", c.RulesVersion, RulesVersion)
	}
	return nil
}

// ParseConfig decodes a JSON config object over the defaults (fields left
// out keep their default values) and validates it. It is strict (see
// engine.DecodeStrict): null, data after the object, a key that is not a
// field name in its exact case ("ROWS"), and a key given twice are errors
// naming the key.
func ParseConfig(data []byte) (Config, error) {
	c := DefaultConfig()
	if err := engine.DecodeStrict(data, &c); err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	if c.RulesVersion == "" {
		c.RulesVersion = RulesVersion
	}
	if err := c.Validate(); err != nil {
		return Config{}, err
	}
	return c, nil
}
