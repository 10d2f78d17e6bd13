package evolver

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"crucible/engine"
	"crucible/strategies"
)

// duelGame is a two-seat game small enough to reason about: each player
// has a strength, and the higher strength plus a seeded draw in [0, 0.5)
// wins, except that a "hunter" variant of the base beats every non-hunter
// variant of the base outright (a counter bred against its own kind, as
// the clones a search breeds against its latest leader). Each match takes
// delay of wall time, as a slow game would.
type duelGame struct {
	delay time.Duration
	// slow, when set, makes every match after the first slowAfter take
	// slowBy times delay, 5 when 0 (a game that slows down in the final
	// stages).
	slow      *atomic.Int64
	slowAfter int64
	slowBy    time.Duration
}

// duelist is a player: its strategy's name, strength and hunting flag.
type duelist struct {
	strategy string
	strength float64
	hunter   bool
}

func (duelGame) Name() string                         { return "duel" }
func (duelGame) SeatRange() (int, int)                { return 2, 2 }
func (duelGame) DefaultConfig() any                   { return nil }
func (duelGame) ParseConfig(data []byte) (any, error) { return nil, nil }

func (g duelGame) Play(ctx context.Context, spec engine.MatchSpec) (engine.Result, error) {
	if g.delay > 0 {
		d := g.delay
		if g.slow != nil && g.slow.Add(1) > g.slowAfter {
			d *= cmp.Or(g.slowBy, 5)
		}
		select {
		case <-time.After(d):
		case <-ctx.Done():
			return engine.Result{}, ctx.Err()
		}
	}
	var p [2]duelist
	for i, s := range spec.Seats {
		d, ok := s.Player.(duelist)
		if !ok {
			return engine.Result{}, fmt.Errorf("seat %d: %T is not a duelist", i, s.Player)
		}
		p[i] = d
	}
	if spec.Replay != nil {
		fmt.Fprintf(spec.Replay, "%+v %+v", p[0], p[1])
	}
	var score [2]float64
	switch {
	case p[0].strategy == "duel" && p[1].strategy == "duel" && p[0].hunter != p[1].hunter:
		if p[0].hunter {
			score[0] = 1
		} else {
			score[1] = 1
		}
	default:
		for i := range p {
			r := rand.New(rand.NewPCG(spec.Seed, uint64(i)))
			score[i] = p[i].strength + 0.5*r.Float64()
		}
	}
	return engine.Result{Scores: score[:], Ranks: engine.RanksFromScores(score[:]), Turns: 1, Reason: "duel"}, nil
}

// duelStrategies are the base "duel" (strength, hunter, and a parameter
// it never uses) and three references of fixed strengths.
func duelStrategies() []strategies.Strategy {
	base := strategies.Strategy{
		Game: "duel", Name: "duel", Description: "a duelist",
		Schema: strategies.Schema{
			{Name: "strength", Description: "strength", Min: 0, Max: 1, Default: 0.5},
			{Name: "hunter", Description: "beats non-hunter duelists", Min: 0, Max: 1, Default: 0, Integer: true},
			{Name: "unused", Description: "never read", Min: 0, Max: 1, Default: 0.5},
		},
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			return duelist{strategy: "duel", strength: g[0], hunter: g[1] == 1}
		},
	}
	out := []strategies.Strategy{base}
	for _, r := range []struct {
		name string
		s    float64
	}{{"weak", 0.3}, {"mid", 0.5}, {"strong", 0.7}} {
		out = append(out, strategies.Strategy{
			Game: "duel", Name: r.name, Description: "a reference duelist",
			Schema: strategies.Schema{{Name: "strength", Description: "strength", Min: 0, Max: 1, Default: r.s}},
			New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
				return duelist{strategy: "ref", strength: g[0]}
			},
		})
	}
	return out
}
