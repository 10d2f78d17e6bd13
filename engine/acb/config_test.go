package acb

import (
	"strings"
	"testing"
)

func TestDefaultConfigIsTheSpecs(t *testing.T) {
	c := DefaultConfig()
	want := Config{Rows: 40, Cols: 40, MaxTurns: 500, VisionRadius2: 49, AttackRadius2: 25, SpawnCost: 3,
		EnergyInterval: 10, CoresPerPlayer: 2, ZoneEnabled: false, ZoneStartTurn: 10, ZoneShrinkInterval: 1,
		ZoneShrinkStep: 1, ZoneMinRadius: 2, KillScore: 1, TurnTimeout: 3_000_000_000, RulesVersion: "acb-lab-1"}
	if c != want {
		t.Fatalf("DefaultConfig() = %+v, want %+v", c, want)
	}
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults do not validate: %v", err)
	}
}

func TestConfigValidateNamesTheField(t *testing.T) {
	tests := []struct {
		name string
		set  func(*Config)
		want string
	}{
		{"rows below 16", func(c *Config) { c.Rows = 15 }, "rows = 15 is outside its allowed range 16..200"},
		{"rows above 200", func(c *Config) { c.Rows = 201 }, "rows = 201 is outside its allowed range 16..200"},
		{"cols below 16", func(c *Config) { c.Cols = 0 }, "cols = 0 is outside its allowed range 16..200"},
		{"max_turns below 1", func(c *Config) { c.MaxTurns = 0 }, "max_turns = 0 is outside its allowed range 1..100000"},
		{"vision_radius2 below 1", func(c *Config) { c.VisionRadius2 = 0 }, "vision_radius2 = 0 is outside its allowed range 1..10000"},
		{"attack_radius2 below 1", func(c *Config) { c.AttackRadius2 = -3 }, "attack_radius2 = -3 is outside its allowed range 1..10000"},
		{"negative spawn_cost", func(c *Config) { c.SpawnCost = -1 }, "spawn_cost = -1 is outside its allowed range 0..1000000"},
		{"negative energy_interval", func(c *Config) { c.EnergyInterval = -1 }, "energy_interval = -1 is outside its allowed range 0..100000"},
		{"no cores", func(c *Config) { c.CoresPerPlayer = 0 }, "cores_per_player = 0 is outside its allowed range 1..8"},
		{"too many cores", func(c *Config) { c.CoresPerPlayer = 9 }, "cores_per_player = 9 is outside its allowed range 1..8"},
		{"negative zone_start_turn", func(c *Config) { c.ZoneStartTurn = -1 }, "zone_start_turn = -1 is outside its allowed range 0..100000"},
		{"zero zone_shrink_interval", func(c *Config) { c.ZoneShrinkInterval = 0 }, "zone_shrink_interval = 0 is outside its allowed range 1..100000"},
		{"negative zone_shrink_step", func(c *Config) { c.ZoneShrinkStep = -2 }, "zone_shrink_step = -2 is outside its allowed range 0..1000"},
		{"negative zone_min_radius", func(c *Config) { c.ZoneMinRadius = -1 }, "zone_min_radius = -1 is outside its allowed range 0..1000"},
		{"negative kill_score", func(c *Config) { c.KillScore = -1 }, "kill_score = -1 is outside its allowed range 0..1000000"},
		{"turn_timeout under 1 ms", func(c *Config) { c.TurnTimeout = 999 }, "turn_timeout = 999 is outside its allowed range 1000000..600000000000"},
		{"another rules_version", func(c *Config) { c.RulesVersion = "acb-2" }, `rules_version = "acb-2" is not supported`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := DefaultConfig()
			tt.set(&c)
			err := c.Validate()
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Validate() = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

func TestParseConfig(t *testing.T) {
	c, err := ParseConfig([]byte(`{"rows": 30, "zone_enabled": true}`))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.Rows, want.ZoneEnabled = 30, true
	if c != want {
		t.Fatalf("ParseConfig = %+v, want the defaults with rows 30 and the zone on", c)
	}
	for _, tt := range []struct{ in, want string }{
		{`{"rows": 3}`, "rows = 3 is outside"},
		{`{"lava": 1}`, `unknown field "lava"`},
		{`{"rows": "x"}`, "config: json"},
		{`{`, "config: unexpected EOF"},
		// Defect 8 of issue 10: each of these was accepted.
		{`null`, "config: null is not allowed; want a JSON object"},
		{`{"rows":40} xyz`, "config: unexpected data after the JSON value"},
		{`{"ROWS":40}`, `config: unknown field "ROWS" (did you mean "rows"? field names are case-sensitive)`},
		{`{"Zone_Enabled":true}`, `unknown field "Zone_Enabled"`},
		{`{"rows":30,"rows":40}`, `config: field "rows" is given twice`},
		{``, "config: empty input"},
	} {
		if _, err := ParseConfig([]byte(tt.in)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseConfig(%s) = %v, want an error containing %q", tt.in, err, tt.want)
		}
	}
}

// FuzzParseConfig: a config file either fails with an error or gives a
// config that validates and keeps the rules version.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"rows":24,"cols":24,"max_turns":80,"zone_enabled":true}`))
	f.Add([]byte(`{"rows":15}`))
	f.Add([]byte(`{"turn_timeout":-1}`))
	f.Add([]byte(`{"rules_version":"x"}`))
	f.Add([]byte(`{"bogus":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := ParseConfig(data)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("empty error message")
			}
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("ParseConfig accepted a config that does not validate: %v", err)
		}
		if c.RulesVersion != RulesVersion {
			t.Fatalf("rules_version %q, want %q", c.RulesVersion, RulesVersion)
		}
	})
}
