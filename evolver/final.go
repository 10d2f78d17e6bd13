package evolver

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
	"crucible/stats"
	"crucible/strategies"
)

// Stream numbers that keep the seeds of the final stages apart from the
// generations' seeds.
const (
	tournamentStream = 0x746f75726e
	holdoutStream    = 0x686f6c64
	rankStream       = 0x72616e6b
)

// RankSeeds returns the n seeds on which the champion is ranked among the
// reference strategies: seeds neither the search, nor the selection, nor
// the held-out comparison plays.
func RankSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, rankStream), n)
}

// TournamentSeeds returns the n seeds of a run's final selection (and of
// the finalists' head-to-head round robin).
func TournamentSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, tournamentStream), n)
}

// HoldoutSeeds returns the n held-out seeds of a run: seeds no generation
// and no tournament of the run plays.
func HoldoutSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, holdoutStream), n)
}

// Tournament plays the variants and the reference pool in a round robin
// (every pair on every seed, in both seat orders) and ranks them by the
// Bradley–Terry fit of the games (arena.Leaderboard), with intervals over
// seeds. Variants appear under their labels (base#id), the pool under its
// names. progress, when set, receives the matches done and their total.
func Tournament(ctx context.Context, g engine.Game, config any, reg *strategies.Registry, variants []strategies.Variant, pool []Opponent, seeds []uint64, workers int, progress func(done, total int)) (rating.Summary, error) {
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
	err := arena.Run(ctx, g, entrants, jobs, arena.Options{Workers: workers, Config: config, Progress: progress}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return rating.Summary{}, err
	}
	return arena.Leaderboard(arena.Names(entrants), recs, rating.Options{})
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
	// from the per-seed differences (stats.PairedDifference: Student's t
	// over seeds, the independent units).
	Diff float64 `json:"diff"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
	// Matches is the number of matches played.
	Matches int `json:"matches,omitempty"`
	// Note says when the budget cut the comparison short.
	Note string `json:"note,omitempty"`
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
// given seeds and returns the paired comparison, its interval over seeds
// (stats.PairedDifference). A variant is named by its label, or "BASE
// (defaults)" when it plays the base's defaults. The seeds are played in
// chunks of 8: when ctx's deadline passes after two seeds or more, the
// seeds completed give the comparison and Note says so. progress, when
// set, receives the matches done and their total.
func Compare(ctx context.Context, ev *ArenaEvaluator, a, b strategies.Variant, seeds []uint64, progress func(done, total int)) (Comparison, error) {
	ga, err := ev.Base.Schema.FromMap(a.Params)
	if err != nil {
		return Comparison{}, err
	}
	gb, err := ev.Base.Schema.FromMap(b.Params)
	if err != nil {
		return Comparison{}, err
	}
	c := Comparison{A: variantName(ev.Base, a), B: variantName(ev.Base, b)}
	for _, o := range ev.Pool {
		c.Opponents = append(c.Opponents, o.Name)
	}
	var ra, rb []float64
	var pa, pb float64
	total := 2 * 2 * len(ev.Pool) * len(seeds)
	done := 0
	for from := 0; from < len(seeds); from += 8 {
		chunk := seeds[from:min(len(seeds), from+8)]
		e := *ev
		if progress != nil {
			e.Progress = func(d, _ int) { progress(done+d, total) }
		}
		ms, err := e.Evaluate(ctx, Batch{Seeds: chunk, Candidates: []strategies.Genome{ga, gb}, IDs: []string{a.ID, b.ID}})
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && len(ra) >= 2 {
				c.Note = fmt.Sprintf("the budget stopped the comparison after %d of %d seeds", len(ra), len(seeds))
				break
			}
			return Comparison{}, err
		}
		ev.Failures = e.Failures
		done += ms[0].Matches + ms[1].Matches
		c.GamesPerSide += ms[0].Games
		pa += ms[0].Points
		pb += ms[1].Points
		for i := range chunk {
			ra = append(ra, ms[0].SeedPoints[i]/ms[0].SeedGames[i])
			rb = append(rb, ms[1].SeedPoints[i]/ms[1].SeedGames[i])
		}
	}
	c.Seeds = len(ra)
	c.RateA, c.RateB = pa/c.GamesPerSide, pb/c.GamesPerSide
	d, err := stats.PairedDifference(ra, rb, 0.95)
	if err != nil {
		return Comparison{}, err
	}
	c.Diff, c.Lo, c.Hi = d.Mean, d.Lo, d.Hi
	c.Matches = done
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
