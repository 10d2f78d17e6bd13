package evolver

import (
	"context"
	"math"
	"math/rand/v2"

	"crucible/engine"
	"crucible/strategies"
)

// testStrategy is a base strategy with a mixed schema (continuous, integer,
// wide range) whose players are never built: the synthetic evaluator scores
// genomes directly.
func testStrategy() strategies.Strategy {
	return strategies.Strategy{
		Game: "synthetic", Name: "quad", Description: "a noisy quadratic",
		Schema: strategies.Schema{
			{Name: "aggression", Description: "how hard to push", Min: 0, Max: 1, Default: 0.2},
			{Name: "reserve", Description: "sparks kept back", Min: 0, Max: 10, Default: 8, Integer: true},
			{Name: "horizon", Description: "turns looked ahead", Min: -50, Max: 50, Default: -30},
			{Name: "greed", Description: "value weight", Min: 0.5, Max: 2.5, Default: 2.3},
		},
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player { return nil },
	}
}

// optimum is where the synthetic win probability peaks, in normalised
// coordinates (the defaults lie far from it).
var optimum = []float64{0.7, 0.3, 0.75, 0.35}

// trueRate is the synthetic win probability of a genome: a quadratic bowl
// around optimum, from 0.9 at the peak down to 0.05 (the defaults score
// about 0.24).
func trueRate(space paramSpace, g strategies.Genome) float64 {
	x := space.Point(g)
	d := 0.0
	for i := range x {
		d += (x[i] - optimum[i]) * (x[i] - optimum[i])
	}
	return math.Max(0.05, 0.9-0.6*d)
}

// synthetic measures genomes by Bernoulli games on the true rate, with
// common random numbers: game j on seed s uses the same uniform draw for
// every candidate, as matches on the same seed would.
type synthetic struct {
	space        paramSpace
	gamesPerSeed int
	calls        int
	// cancelAt, when > 0, cancels cancel during the call of that
	// generation, as a kill in the middle of a generation would.
	cancelAt int
	cancel   context.CancelFunc
	// seen records each generation's candidate ids.
	seen [][]string
}

func (s *synthetic) Evaluate(ctx context.Context, b matchBatch) ([]measure, error) {
	s.calls++
	s.seen = append(s.seen, append([]string(nil), b.IDs...))
	if s.cancelAt > 0 && b.Generation == s.cancelAt && s.cancel != nil {
		s.cancel()
		return nil, ctx.Err()
	}
	out := make([]measure, len(b.Candidates))
	for i, g := range b.Candidates {
		p := trueRate(s.space, g)
		m := measure{SeedPoints: make([]float64, len(b.Seeds)), SeedGames: make([]float64, len(b.Seeds))}
		for k, seed := range b.Seeds {
			r := rand.New(rand.NewPCG(seed, 7))
			for j := 0; j < s.gamesPerSeed; j++ {
				if r.Float64() < p {
					m.SeedPoints[k]++
				}
				m.SeedGames[k]++
			}
			m.Points += m.SeedPoints[k]
			m.Games += m.SeedGames[k]
			m.Matches += s.gamesPerSeed
		}
		out[i] = m
	}
	return out, nil
}
