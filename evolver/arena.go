package evolver

import (
	"context"
	"fmt"

	"crucible/arena"
	"crucible/engine"
	"crucible/strategies"
)

// Opponent is a fixed participant of the measurements: a reference
// strategy (usually at its defaults) or a saved variant.
type Opponent struct {
	// Name is its display name, unique among the opponents.
	Name string
	// Strategy is the strategy it plays.
	Strategy strategies.Strategy
	// Genome is its parameter vector (legal for Strategy's schema).
	Genome strategies.Genome
	// VariantID is its variant id, "" for a strategy at its defaults.
	VariantID string
}

// ReferencePool returns the strategies named (all of game's when names is
// empty) at their defaults, as opponents. An unknown name is an error that
// lists the known ones.
func ReferencePool(reg *strategies.Registry, game string, names []string) ([]Opponent, error) {
	if len(names) == 0 {
		names = reg.Names(game)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("game %q has no strategies", game)
	}
	seen := map[string]bool{}
	var out []Opponent
	for _, n := range names {
		if seen[n] {
			return nil, fmt.Errorf("pool names %s twice", n)
		}
		seen[n] = true
		s, err := reg.Lookup(game, n)
		if err != nil {
			return nil, err
		}
		out = append(out, Opponent{Name: n, Strategy: s, Genome: s.Schema.Defaults()})
	}
	return out, nil
}

// ArenaEvaluator measures candidates by playing them through the arena:
// every candidate meets every opponent (the reference pool and the batch's
// earlier champions) on every seed of the batch in both seat orders, all
// matches of the generation in parallel on Workers cores. A candidate
// scores 1 for a win, 0.5 for a draw and 0 for a loss in each match; a
// match that fails (a player's error or panic) counts as a loss for the
// candidate.
type ArenaEvaluator struct {
	// Game is the game's rules.
	Game engine.Game
	// Config is the game configuration (nil for the game's defaults).
	Config any
	// Base is the strategy the candidates are variants of.
	Base strategies.Strategy
	// Pool is the reference opponents.
	Pool []Opponent
	// Workers is the number of matches played at once (0: every core).
	Workers int
	// Failures counts failed matches over all batches.
	Failures int
	// Progress, when set, is called after every match of a batch with the
	// matches done and the batch's total.
	Progress func(done, total int)
}

// Evaluate plays the batch.
func (a *ArenaEvaluator) Evaluate(ctx context.Context, b Batch) ([]Measure, error) {
	var entrants []arena.Entrant
	var players, pool []int
	for i, g := range b.Candidates {
		players = append(players, len(entrants))
		entrants = append(entrants, arena.StrategyEntrant(a.Base, a.Base.Name+"#"+b.IDs[i], b.IDs[i], g))
	}
	for _, o := range a.Pool {
		pool = append(pool, len(entrants))
		entrants = append(entrants, arena.StrategyEntrant(o.Strategy, o.Name, o.VariantID, o.Genome))
	}
	for i, g := range b.Champions {
		pool = append(pool, len(entrants))
		entrants = append(entrants, arena.StrategyEntrant(a.Base, "hall:"+a.Base.Name+"#"+b.ChampionIDs[i], b.ChampionIDs[i], g))
	}
	jobs := arena.Gauntlet(players, pool, b.Seeds)
	byID := make(map[string]arena.Job, len(jobs))
	for _, j := range jobs {
		byID[j.ID] = j
	}
	out := make([]Measure, len(b.Candidates))
	for i := range out {
		out[i].SeedPoints = make([]float64, len(b.Seeds))
		out[i].SeedGames = make([]float64, len(b.Seeds))
		out[i].Versus = map[string]Tally{}
	}
	err := arena.Run(ctx, a.Game, entrants, jobs, arena.Options{Workers: a.Workers, Config: a.Config, Progress: a.Progress}, func(r arena.Record) error {
		j, ok := byID[r.Job]
		if !ok {
			return fmt.Errorf("arena returned a record of unknown job %q", r.Job)
		}
		seat := 0
		if j.Seats[0] >= len(b.Candidates) {
			seat = 1
		}
		c := j.Seats[seat]
		pts := 0.0
		switch {
		case r.Error != "":
			a.Failures++
		case r.Ranks[seat] < r.Ranks[1-seat]:
			pts = 1
		case r.Ranks[seat] == r.Ranks[1-seat]:
			pts = 0.5
		}
		m := &out[c]
		m.Points += pts
		m.Games++
		m.Matches++
		m.SeedPoints[j.Round] += pts
		m.SeedGames[j.Round]++
		vs := m.Versus[entrants[j.Seats[1-seat]].Name]
		vs.Points += pts
		vs.Games++
		m.Versus[entrants[j.Seats[1-seat]].Name] = vs
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
