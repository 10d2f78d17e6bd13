package acbstrat

import (
	"bytes"
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/strategies"
)

// replayOf plays s (at genome g, seat 0) against gatherer at its defaults
// for 300 turns and returns the replay.
func replayOf(t *testing.T, s strategies.Strategy, g strategies.Genome, seed uint64) []byte {
	t.Helper()
	gath := byName(t, "gatherer")
	cfg := acb.DefaultConfig()
	cfg.MaxTurns = 300
	players := []acb.MatchPlayer{
		{Name: s.Name, Controller: s.New(g, engine.SeatSeed(seed, 0), 0).(acb.Controller)},
		{Name: "gatherer", Controller: gath.New(gath.Schema.Defaults(), engine.SeatSeed(seed, 1), 1).(acb.Controller)},
	}
	m, err := acb.NewMatchWith(acb.MatchOptions{Config: cfg, Seed: seed, Players: players, Record: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return m.Replay()
}

// TestSchemaOrderDoesNotRewire: a strategy registered with every parameter
// of its schema moved (the first put last), given the same values by name,
// plays exactly the same match, so every policy reads its parameters by
// name, not by position. (Read by position, every strategy's match
// differs within these 300 turns.)
func TestSchemaOrderDoesNotRewire(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range defs() {
		t.Run(d.name, func(t *testing.T) {
			rev := d // every parameter moved: the first put last
			rev.params = append(slices.Clone(d.params[1:]), d.params[0])
			s, err := strategyOf(d)
			if err != nil {
				t.Fatal(err)
			}
			sr, err := strategyOf(rev)
			if err != nil {
				t.Fatalf("registering %s with its schema rotated: %v", d.name, err)
			}
			x := make([]float64, len(d.params))
			for i := range x {
				x[i] = rng.Float64()
			}
			g := s.Schema.Denormalize(x)
			gr, err := sr.Schema.FromMap(s.Schema.Map(g))
			if err != nil {
				t.Fatal(err)
			}
			seed := rng.Uint64()
			if !bytes.Equal(replayOf(t, s, g, seed), replayOf(t, sr, gr, seed)) {
				t.Fatalf("genome %v, seed %d: the match differs with the schema rotated (%v)", s.Schema.Map(g), seed, sr.Schema.Names())
			}
		})
	}
}

// TestSchemaEditFailsRegistration: a parameter inserted in a strategy's
// schema that its policy does not read, or a parameter renamed, stops
// registration with an error naming the strategy and the parameter.
func TestSchemaEditFailsRegistration(t *testing.T) {
	for _, d := range defs() {
		ins := d
		ins.params = slices.Insert(slices.Clone(d.params), 0, param("nerve", "an added knob", 0, 1, 0.5))
		_, err := strategyOf(ins)
		if want := "acb strategy " + d.name + ": constructor never reads parameter nerve"; err == nil || err.Error() != want {
			t.Errorf("%s with a parameter inserted: error %v, want %q", d.name, err, want)
		}
		ren := d
		ren.params = slices.Clone(d.params)
		old := ren.params[len(ren.params)-1].Name
		ren.params[len(ren.params)-1].Name = old + "2"
		_, err = strategyOf(ren)
		if err == nil || !strings.Contains(err.Error(), `reads parameter "`+old+`", which the schema lacks`) {
			t.Errorf("%s with parameter %s renamed: error %v, want one naming %s", d.name, old, err, old)
		}
	}
}
