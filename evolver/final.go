package evolver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

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

// rankSeeds returns the n seeds on which the champion is ranked among the
// reference strategies: seeds neither the search, nor the selection, nor
// the held-out comparison plays.
func rankSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, rankStream), n)
}

// tournamentSeeds returns the n seeds of a run's final selection (and of
// the finalists' head-to-head round robin).
func tournamentSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, tournamentStream), n)
}

// holdoutSeeds returns the n held-out seeds of a run: seeds no generation
// and no tournament of the run plays.
func holdoutSeeds(seed uint64, n int) []uint64 {
	return arena.Seeds(engine.Mix(seed, holdoutStream), n)
}

// tournament plays the variants and the reference pool in a round robin
// (with two seats, every pair on every seed, in both seat orders; with
// more, free-for-all groups, see groupRoundRobin) and ranks them by the
// Bradley–Terry fit of the games' pairwise results (arena.Leaderboard),
// with intervals over seeds. Variants appear under their labels (base#id),
// the pool under its names. progress, when set, receives the matches done
// and their total. ranks, when set, asks for each player's probability of
// each rank (rating.RankProbabilities: a bootstrap of the seeds, the
// independent units). It returns the matches played.
func tournament(ctx context.Context, g engine.Game, config any, reg *strategies.Registry, variants []strategies.Variant, pool []opponent, seeds []uint64, seats, workers int, ranks *rating.RankOptions, progress func(done, total int)) (rating.Summary, int, error) {
	var entrants []arena.Entrant
	for _, v := range variants {
		s, genome, err := reg.Resolve(v)
		if err != nil {
			return rating.Summary{}, 0, err
		}
		entrants = append(entrants, arena.StrategyEntrant(s, v.Label(), v.ID, genome))
	}
	for _, o := range pool {
		entrants = append(entrants, arena.StrategyEntrant(o.Strategy, o.Name, o.VariantID, o.Genome))
	}
	jobs := arena.RoundRobin(len(entrants), seeds)
	if seats > 2 {
		jobs = groupRoundRobin(len(entrants), seats, seeds)
	}
	var recs []arena.Record
	err := arena.Run(ctx, g, entrants, jobs, arena.Options{Workers: workers, Config: config, Progress: progress}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		return rating.Summary{}, 0, err
	}
	sum, err := arena.Leaderboard(arena.Names(entrants), recs, rating.Options{Ranks: ranks})
	return sum, len(jobs), err
}

// groupRoundRobin schedules n entrants in free-for-all groups of seats, as
// the fitness plays them (seatGroups): on each seed the entrants are
// shuffled and cut into groups, the last filled up from the start, and
// every group plays its own map once per rotation of the seats.
func groupRoundRobin(n, seats int, seeds []uint64) []arena.Job {
	var jobs []arena.Job
	order := make([]int, seats)
	for r, seed := range seeds {
		for gi, g := range seatGroups(seed, n, seats) {
			mapSeed := engine.Mix(engine.Mix(seed, 0x72616e6b6d6170), uint64(gi))
			for rot := 0; rot < seats; rot++ {
				ids := make([]string, seats)
				for i := range order {
					order[i] = g[(i+rot)%seats]
					ids[i] = strconv.Itoa(order[i])
				}
				jobs = append(jobs, arena.Job{ID: fmt.Sprintf("r%d-g%d-%s", r, gi, strings.Join(ids, "v")), Round: r, Seed: mapSeed, Seats: slices.Clone(order)})
			}
		}
	}
	return jobs
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
	// Elo is the difference in logistic Elo against the pool, as the SPRT
	// speaks it: elo(RateB+Diff) - elo(RateB) with elo(p) = -400
	// log10(1/p - 1); EloLo and EloHi are the interval's ends mapped the
	// same way (the base's rate held). Rates are held inside [0.5/n,
	// 1-0.5/n] over the n games of a side, so a perfect record gives a
	// finite figure.
	Elo   float64 `json:"elo"`
	EloLo float64 `json:"elo_lo"`
	EloHi float64 `json:"elo_hi"`
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
	return fmt.Sprintf("%s scores %.3f and %s %.3f against %d opponents on %d held-out seeds (%.0f games each): difference %+.3f, 95%% CI [%+.3f, %+.3f]; in Elo %+.0f [%+.0f, %+.0f]",
		c.A, c.RateA, c.B, c.RateB, len(c.Opponents), c.Seeds, c.GamesPerSide, c.Diff, c.Lo, c.Hi, c.Elo, c.EloLo, c.EloHi)
}

// compare measures variants a and b (of ev.Base) against ev's pool on the
// given seeds and returns the paired comparison, its interval over seeds
// (stats.PairedDifference). A variant is named by its label, or "BASE
// (defaults)" when it plays the base's defaults. The seeds are played in
// chunks of 8: when ctx's deadline passes after two seeds or more, the
// seeds completed give the comparison and Note says so. progress, when
// set, receives the matches done and their total.
func compare(ctx context.Context, ev *arenaEvaluator, a, b strategies.Variant, seeds []uint64, progress func(done, total int)) (Comparison, error) {
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
	total := ev.PlannedMatches(2, len(seeds), 0)
	done := 0
	for from := 0; from < len(seeds); from += 8 {
		chunk := seeds[from:min(len(seeds), from+8)]
		var chunkProgress func(done, total int)
		if progress != nil {
			chunkProgress = func(d, _ int) { progress(done+d, total) }
		}
		ms, err := ev.EvaluateProgress(ctx, matchBatch{Seeds: chunk, Candidates: []strategies.Genome{ga, gb}, IDs: []string{a.ID, b.ID}}, chunkProgress)
		if err != nil {
			if errors.Is(err, context.DeadlineExceeded) && len(ra) >= 2 {
				c.Note = fmt.Sprintf("the budget stopped the comparison after %d of %d seeds", len(ra), len(seeds))
				break
			}
			return Comparison{}, err
		}
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
	c.Elo, c.EloLo, c.EloHi = eloDiff(c.RateB, c.Diff, c.GamesPerSide), eloDiff(c.RateB, c.Lo, c.GamesPerSide), eloDiff(c.RateB, c.Hi, c.GamesPerSide)
	c.Matches = done
	return c, nil
}

// eloDiff is the logistic Elo difference of a rate base+d against base,
// each held inside [0.5/games, 1-0.5/games].
func eloDiff(base, d, games float64) float64 {
	lo := 0.5 / max(games, 1)
	hold := func(p float64) float64 { return math.Min(1-lo, math.Max(lo, p)) }
	return stats.LogisticElo(hold(base+d)) - stats.LogisticElo(hold(base))
}

// pairedInterval returns the mean of the paired differences d and the
// two-sided confidence interval at level from Student's t with len(d)-1
// degrees of freedom. With fewer than two differences the interval is
// unbounded.
func pairedInterval(d []float64, level float64) (mean, lo, hi float64) {
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
