package acb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"crucible/engine"
)

// playBoth plays one match of random players twice, with adjudication on
// and off, and returns both results and the turns the first one played.
func playBoth(t *testing.T, cfg Config, seed uint64, n int) (adj, full engine.Result, played int) {
	t.Helper()
	play := func(off bool) (engine.Result, int) {
		seats := make([]MatchPlayer, n)
		for i := range seats {
			seats[i] = MatchPlayer{Name: fmt.Sprintf("r%d", i), Controller: NewRandom(engine.SeatSeed(seed, i))}
		}
		m, err := NewMatchWith(MatchOptions{Config: cfg, Seed: seed, Players: seats, NoAdjudication: off})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		if off && m.Adjudicated() {
			t.Fatal("a match played with NoAdjudication says it was adjudicated")
		}
		return m.Result(), m.Turn()
	}
	adj, played = play(false)
	full, _ = play(true)
	return adj, full, played
}

// TestAdjudicationChangesNoResult plays random players on many seeds and
// configurations (the zone presets, grid sizes, 2 to 6 players, spawn
// costs, kill scores, attack radii) with adjudication on and off: every
// result, per-player statistics included, is the same but for the
// Adjudicated mark, and the mark is set exactly on the matches that
// stopped before max_turns without another reason to end.
func TestAdjudicationChangesNoResult(t *testing.T) {
	type variant struct {
		name string
		edit func(*Config)
	}
	variants := []variant{
		{"zone preset", func(c *Config) { c.ZoneEnabled = true }},
		{"zone-mild", func(c *Config) {
			c.ZoneEnabled, c.ZoneStartTurn, c.ZoneShrinkInterval, c.ZoneMinRadius = true, 100, 10, 8
		}},
		{"zone, spawn cost 1, 36x36", func(c *Config) { c.ZoneEnabled, c.SpawnCost, c.Rows, c.Cols = true, 1, 36, 36 }},
		{"zone, spawn cost 0 (spawns never stop)", func(c *Config) { c.ZoneEnabled, c.SpawnCost = true, 0 }},
		{"zone, kill score 3, attack 50, min radius 5", func(c *Config) {
			c.ZoneEnabled, c.KillScore, c.AttackRadius2, c.ZoneMinRadius = true, 3, 50, 5
		}},
		{"zone from turn 0, interval 2, 30x42", func(c *Config) {
			c.ZoneEnabled, c.ZoneStartTurn, c.ZoneShrinkInterval, c.Rows, c.Cols = true, 0, 2, 30, 42
		}},
		{"no zone, spawn cost 5", func(c *Config) { c.SpawnCost = 5 }},
	}
	adjudicated, early := 0, 0
	for _, v := range variants {
		for seed := uint64(1); seed <= 12; seed++ {
			n := []int{2, 3, 4, 6}[seed%4]
			cfg := DefaultConfig()
			cfg.MaxTurns = 300
			v.edit(&cfg)
			name := fmt.Sprintf("%s, seed %d, %d players", v.name, seed, n)
			adj, full, played := playBoth(t, cfg, seed, n)
			if adj.Adjudicated {
				adjudicated++
				if played >= cfg.MaxTurns || adj.Turns != cfg.MaxTurns || adj.Reason != ReasonTurns {
					t.Errorf("%s: adjudicated after %d turns with turns %d reason %s, want fewer than %d played and the turn limit's result", name, played, adj.Turns, adj.Reason, cfg.MaxTurns)
				}
				if cfg.SpawnCost == 0 {
					t.Errorf("%s: adjudicated with spawn_cost 0, where cores spawn every turn", name)
				}
			} else if played < cfg.MaxTurns {
				early++ // elimination or annihilation
			}
			adj.Adjudicated = false
			if !reflect.DeepEqual(adj, full) {
				t.Errorf("%s: adjudicated after %d turns:\n%+v\nplayed out:\n%+v", name, played, adj, full)
			}
		}
	}
	t.Logf("%d matches adjudicated, %d ended early by the rules", adjudicated, early)
	if adjudicated < 20 {
		t.Errorf("only %d matches adjudicated: the comparison checks too little", adjudicated)
	}
}

// TestAdjudicationCondition: the match stops at the first turn with no
// unit alive and no player able to spawn, and not while a unit lives, a
// player can spawn, or a remote bot is active.
func TestAdjudicationCondition(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 100
	m := newTestMatch(t, cfg, nil, nil, nil)
	m.setUnits()
	if !m.adjudicable() {
		t.Fatal("no units and no energy: not adjudicable")
	}
	m.players[1].energy = cfg.SpawnCost
	if m.adjudicable() {
		t.Error("adjudicable while player 1 can spawn")
	}
	m.players[1].energy = cfg.SpawnCost - 1
	m.players[1].eliminated = true
	m.players[1].energy = cfg.SpawnCost // an eliminated player spawns nothing
	if !m.adjudicable() {
		t.Error("the energy of an eliminated player blocks adjudication")
	}
	m.players[1].eliminated, m.players[1].energy = false, 0
	m.setUnits(u(0, 20, 20))
	if m.adjudicable() {
		t.Error("adjudicable with a unit alive")
	}
	m.setUnits()
	m.players[0].remote = true
	if m.adjudicable() {
		t.Error("adjudicable with an active remote bot (its failures would still count)")
	}
	m.players[0].inactive = true
	if !m.adjudicable() {
		t.Error("an inactive remote bot blocks adjudication")
	}
	m.players[0].remote, m.players[0].inactive = false, false

	// Stepping: the turn that leaves the board empty ends the match with
	// the result of max_turns.
	if done := step(t, m); !done || !m.Adjudicated() || m.Turn() != 1 {
		t.Fatalf("after a turn with nothing alive: done %v, adjudicated %v, turn %d", done, m.Adjudicated(), m.Turn())
	}
	res := m.Result()
	if !res.Adjudicated || res.Turns != cfg.MaxTurns || res.Reason != ReasonTurns {
		t.Fatalf("result %+v, want adjudicated at the turn limit", res)
	}
}

// TestGameParseConfigAdjudicate: "adjudicate": false in a config gives a
// MatchConfig that plays to the end; true or no key gives the Config; any
// other value is an error naming the field.
func TestGameParseConfigAdjudicate(t *testing.T) {
	g := Game{}
	v, err := g.ParseConfig([]byte(`{"zone_enabled": true, "adjudicate": false}`))
	if err != nil {
		t.Fatal(err)
	}
	mc, ok := v.(MatchConfig)
	if !ok || !mc.NoAdjudication || !mc.Config.ZoneEnabled {
		t.Fatalf("adjudicate false gave %#v", v)
	}
	for _, in := range []string{`{"zone_enabled": true, "adjudicate": true}`, `{"zone_enabled": true}`} {
		v, err := g.ParseConfig([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if c, ok := v.(Config); !ok || !c.ZoneEnabled {
			t.Fatalf("%s gave %#v", in, v)
		}
	}
	for _, in := range []string{`{"adjudicate": 1}`, `{"adjudicate": null}`, `{"adjudicate": "no"}`} {
		if _, err := g.ParseConfig([]byte(in)); err == nil || !strings.Contains(err.Error(), "adjudicate") {
			t.Errorf("%s: error %v, want one naming adjudicate", in, err)
		}
	}
	if _, err := g.ParseConfig([]byte(`{"adjudicate": false, "rows": 5}`)); err == nil || !strings.Contains(err.Error(), "rows") {
		t.Errorf("a bad field beside adjudicate: error %v, want one naming rows", err)
	}
	// A match through Game.Play with the MatchConfig plays every turn.
	seats := []engine.Seat{{Name: "a", Player: Idle{}}, {Name: "b", Player: Idle{}}}
	cfg := DefaultConfig()
	cfg.ZoneEnabled, cfg.MaxTurns = true, 120
	on, err := g.Play(context.Background(), engine.MatchSpec{Seed: 3, Config: cfg, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	off, err := g.Play(context.Background(), engine.MatchSpec{Seed: 3, Config: MatchConfig{Config: cfg, NoAdjudication: true}, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	if !on.Adjudicated || off.Adjudicated {
		t.Fatalf("idle players in the storm: adjudicated %v with adjudication, %v without", on.Adjudicated, off.Adjudicated)
	}
	on.Adjudicated = false
	if !reflect.DeepEqual(on, off) {
		t.Fatalf("results differ:\n%+v\n%+v", on, off)
	}
}

// TestMatchConfigIdentity: a MatchConfig without a map encodes as its
// Config, with or without adjudication (the arena's config id of a
// results file is the same, as the results are), and one with a map keeps
// the map.
func TestMatchConfigIdentity(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ZoneEnabled = true
	want, _ := json.Marshal(cfg)
	for _, mc := range []MatchConfig{{Config: cfg}, {Config: cfg, NoAdjudication: true}} {
		got, err := json.Marshal(mc)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%+v encodes as %s, want %s", mc, got, want)
		}
	}
	mp, err := GenerateMap(cfg, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(MatchConfig{Config: cfg, Map: mp, NoAdjudication: true})
	if err != nil || !bytes.Contains(got, []byte(`"Map":{`)) || bytes.Contains(got, []byte("Adjudication")) {
		t.Errorf("with a map: %s", got)
	}
}
