package evolver

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
	"crucible/strategies"
)

// Stream numbers that keep the seeds of the final stages apart from the
// generations' seeds.
const (
	tournamentStream = 0x746f75726e
	holdoutStream    = 0x686f6c64
)

// TournamentSeeds returns the n seeds of a run's final tournament.
func TournamentSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, tournamentStream), n)
}

// HoldoutSeeds returns the n held-out seeds of a run: seeds no generation
// and no tournament of the run plays.
func HoldoutSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, holdoutStream), n)
}

// Tournament plays the variants and the reference pool in a round robin
// (every pair on every seed, in both seat orders) and rates it with
// Glicko-2, one rating period per seed. It returns the leaderboard, ordered
// by conservative rating. Variants appear under their labels (base#id),
// the pool under its names.
func Tournament(ctx context.Context, g engine.Game, config any, reg *strategies.Registry, variants []strategies.Variant, pool []Opponent, seeds []uint64, workers int) (rating.Summary, error) {
	var entrants []arena.Entrant
	for _, v := range variants {
		s, genome, err := reg.Resolve(v)
		if err != nil {
			return rating.Summary{}, err
		}
		entrants = append(entrants, arena.StrategyEntrant(s, v.Label(), v.ID, genome))
	}
	for _, o := range pool {
		entrants = append(entrants, arena.StrategyEntrant(o.Strategy, o.Name, o.VariantID, o.Genome))
	}
	jobs := arena.RoundRobin(len(entrants), seeds)
	var recs []arena.Record
	err := arena.Run(ctx, g, entrants, jobs, arena.Options{Workers: workers, Config: config}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return rating.Summary{}, err
	}
	return arena.Tournament(rating.Default(), arena.Names(entrants), nil, recs), nil
}

// Comparison is a paired comparison of two variants against the same
// opponents on the same held-out seeds.
type Comparison struct {
	// A and B are the compared variants' labels (A is the challenger).
	A string `json:"a"`
	B string `json:"b"`
	// Opponents are the names of the pool both played.
	Opponents []string `json:"opponents"`
	// Seeds is the number of held-out seeds; each side played every
	// opponent on each seed in both seat orders.
	Seeds int `json:"seeds"`
	// GamesPerSide is the number of pairwise games of each side.
	GamesPerSide float64 `json:"games_per_side"`
	// RateA and RateB are the score rates against the pool.
	RateA float64 `json:"rate_a"`
	RateB float64 `json:"rate_b"`
	// Diff is RateA - RateB; Lo and Hi bound its 95% confidence interval
	// from the per-seed differences (Student's t, paired by seed).
	Diff float64 `json:"diff"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Significant reports whether the interval lies above zero: A is
// measurably stronger than B against the pool.
func (c Comparison) Significant() bool { return c.Lo > 0 }

// String is a one-line summary.
func (c Comparison) String() string {
	return fmt.Sprintf("%s scores %.3f and %s %.3f against %d opponents on %d held-out seeds (%.0f games each): difference %+.3f, 95%% CI [%+.3f, %+.3f]",
		c.A, c.RateA, c.B, c.RateB, len(c.Opponents), c.Seeds, c.GamesPerSide, c.Diff, c.Lo, c.Hi)
}

// Compare measures variants a and b (of ev.Base) against ev's pool on the
// given seeds and returns the paired comparison. A variant is named by its
// label, or "BASE (defaults)" when it plays the base's defaults.
func Compare(ctx context.Context, ev *ArenaEvaluator, a, b strategies.Variant, seeds []uint64) (Comparison, error) {
	ga, err := ev.Base.Schema.FromMap(a.Params)
	if err != nil {
		return Comparison{}, err
	}
	gb, err := ev.Base.Schema.FromMap(b.Params)
	if err != nil {
		return Comparison{}, err
	}
	ms, err := ev.Evaluate(ctx, Batch{Seeds: seeds, Candidates: []strategies.Genome{ga, gb}, IDs: []string{a.ID, b.ID}})
	if err != nil {
		return Comparison{}, err
	}
	c := Comparison{A: variantName(ev.Base, a), B: variantName(ev.Base, b), Seeds: len(seeds), GamesPerSide: ms[0].Games, RateA: ms[0].Rate(), RateB: ms[1].Rate()}
	for _, o := range ev.Pool {
		c.Opponents = append(c.Opponents, o.Name)
	}
	d := make([]float64, len(seeds))
	for i := range seeds {
		d[i] = ms[0].SeedPoints[i]/ms[0].SeedGames[i] - ms[1].SeedPoints[i]/ms[1].SeedGames[i]
	}
	c.Diff, c.Lo, c.Hi = PairedInterval(d, 0.95)
	return c, nil
}

// PairedInterval returns the mean of the paired differences d and the
// two-sided confidence interval at level from Student's t with len(d)-1
// degrees of freedom. With fewer than two differences the interval is
// unbounded.
func PairedInterval(d []float64, level float64) (mean, lo, hi float64) {
	switch len(d) {
	case 0:
		return 0, math.Inf(-1), math.Inf(1)
	case 1:
		return d[0], math.Inf(-1), math.Inf(1)
	}
	n := float64(len(d))
	mean, sd := stat.MeanStdDev(d, nil)
	se := sd / math.Sqrt(n)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile(1 - (1-level)/2)
	return mean, mean - t*se, mean + t*se
}

// variantName is v's label, or "BASE (defaults)" for the base's defaults.
func variantName(base strategies.Strategy, v strategies.Variant) string {
	if v.ID == strategies.NewVariant(base, base.Schema.Defaults()).ID {
		return base.Name + " (defaults)"
	}
	return v.Label()
}
