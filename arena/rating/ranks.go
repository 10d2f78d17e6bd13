package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"crucible/stats"
)

// Defaults of RankOptions.
const (
	// DefaultResamples is the number of bootstrap resamples of a rank
	// table: the Monte Carlo error of a probability p is then at most
	// sqrt(p(1-p)/1000) <= 1.6 points.
	DefaultResamples = 1000
	// DefaultRankSeed seeds the resampling when RankOptions.Seed is 0.
	DefaultRankSeed = 1
	// MinRankRounds is the fewest seeds every stratum of the bootstrap
	// (the seeds that hold the same pairings) needs for rank
	// probabilities by default: resampling one or two seeds cannot show
	// how a result varies.
	MinRankRounds = 3
	// maxResamples bounds RankOptions.Resamples.
	maxResamples = 1_000_000
)

// RankOptions tune RankProbabilities. The zero value is 1000 resamples
// seeded with DefaultRankSeed, 95% rank intervals, and at least
// MinRankRounds rounds of every pairing.
type RankOptions struct {
	// Resamples is the number of bootstrap resamples; 0 means
	// DefaultResamples.
	Resamples int
	// Seed seeds the resampling: the same batch, options and seed give
	// the same table. 0 means DefaultRankSeed.
	Seed uint64
	// Level is the confidence level of the rank intervals; 0 means
	// Confidence (0.95).
	Level float64
	// MinRounds is the fewest seeds every stratum (the seeds that hold
	// the same pairings) must have for the table to be computed
	// (RankTable.Unavailable says which has fewer); 0 means
	// MinRankRounds. 1 resamples whatever there is.
	MinRounds int
}

// RankTable is the rank uncertainty of a leaderboard: each player's
// probability of each rank and a rank interval, from the bootstrap.
type RankTable struct {
	// Method says how the probabilities were computed, in words.
	Method    string  `json:"method"`
	Resamples int     `json:"resamples"`
	Seed      uint64  `json:"seed"`
	Level     float64 `json:"level"`
	// Players are the players with games, best first by the Bradley–Terry
	// fit of the whole batch (ties by name); empty when Unavailable.
	Players []PlayerRanks `json:"players"`
	// Unavailable says why no probabilities were computed; "" when they
	// were.
	Unavailable string `json:"unavailable,omitempty"`
}

// PlayerRanks is one player's rank distribution.
type PlayerRanks struct {
	Name string `json:"name"`
	// Rank is the player's rank in the fit of the whole batch.
	Rank int `json:"rank"`
	// P[r] is the probability of rank r+1 (1 is best): the share of
	// resamples in which the player took it, ties sharing their ranks.
	P []float64 `json:"p"`
	// Mean is the expected rank, and Lo and Hi bound the central rank
	// interval at the table's level.
	Mean float64 `json:"mean"`
	Lo   int     `json:"lo"`
	Hi   int     `json:"hi"`
}

// RankProbabilities is each player's probability of each rank and a rank
// interval, by a stratified bootstrap of the batch's independent units,
// the units every interval of the leaderboard is computed over:
//
//   - a unit is a seed: every match on it, whatever its players (the
//     pairings of a round share the seed's map or deal, so their results
//     move together), as the leaderboard's intervals are clustered;
//   - the seeds are stratified by the set of pairings they hold (a round
//     robin's seeds form one stratum, an adaptive schedule's a stratum per
//     pairing), and in each resample every stratum draws as many of its
//     seeds as it has, with replacement, each bringing all its rounds, so
//     the schedule keeps its shape (every player meets the same opponents
//     as often) and only the outcomes vary;
//   - rounds that repeated another of their pairing exactly (Match.Result)
//     are drawn as the copies they are, each on its own seed: a pairing
//     that gave one outcome on every seed gives it in every resample;
//   - each resample is rated by the maximum-likelihood Bradley–Terry fit
//     of its pairwise games, as the default leaderboard is (one virtual
//     draw per pair that met when a resample has no finite maximum), and
//     its players ranked by Elo, players within 1e-6 Elo sharing their
//     ranks equally;
//   - P(rank r) is the share of resamples with rank r; the rank interval
//     is the central percentile interval at opt.Level.
//
// The table is deterministic: the resamples come from a PCG generator
// seeded with opt.Seed, drawn in a canonical order of the matches. A
// batch with fewer than two players with games, or a stratum with fewer
// than opt.MinRounds seeds, gives a table with Unavailable set and no
// players (not an error). names is as for Leaderboard.
//
// The probabilities are those of the Bradley–Terry order whatever model a
// leaderboard is ordered by; on a round robin it is the order of the
// scores.
func RankProbabilities(names []string, matches []Match, opt RankOptions) (RankTable, error) {
	var ms Matches
	for _, m := range matches {
		if err := ms.Add(m); err != nil {
			return RankTable{}, err
		}
	}
	return ms.RankProbabilities(names, opt)
}

// RankProbabilities is the package's RankProbabilities of the matches
// added.
func (ms *Matches) RankProbabilities(names []string, opt RankOptions) (RankTable, error) {
	b, err := newBatch(names, ms)
	if err != nil {
		return RankTable{}, err
	}
	return b.rankTable(opt)
}

// rankMethod describes the bootstrap, for RankTable.Method.
func rankMethod(resamples int, seed uint64) string {
	return fmt.Sprintf("stratified bootstrap of the seeds (every match on a seed is one unit, whatever its players): %d resamples (seed %d), the seeds that hold the same pairings drawn with replacement as often as they were played, each resample rated by the Bradley–Terry fit and ranked by Elo (ties share their ranks)", resamples, seed)
}

// checkRankOptions fills in opt's defaults and checks it.
func checkRankOptions(opt *RankOptions) error {
	if opt.Resamples == 0 {
		opt.Resamples = DefaultResamples
	}
	if opt.Seed == 0 {
		opt.Seed = DefaultRankSeed
	}
	if opt.Level == 0 {
		opt.Level = Confidence
	}
	if opt.MinRounds == 0 {
		opt.MinRounds = MinRankRounds
	}
	switch {
	case opt.Resamples < 1 || opt.Resamples > maxResamples:
		return fmt.Errorf("rank resamples %d is outside [1, %d]", opt.Resamples, maxResamples)
	case !(opt.Level > 0 && opt.Level < 1):
		return fmt.Errorf("rank confidence level %v is not in (0, 1)", opt.Level)
	case opt.MinRounds < 1:
		return fmt.Errorf("rank minimum rounds %d is not >= 1", opt.MinRounds)
	}
	return nil
}

// unitPair is one pair's games in one merged unit, per raw round: i < j
// index the rated players, pts is i's points.
type unitPair struct {
	i, j       int32
	pts, games float64
}

// rankTable computes the rank probabilities of the batch.
func (b *batch) rankTable(opt RankOptions) (RankTable, error) {
	if err := checkRankOptions(&opt); err != nil {
		return RankTable{}, err
	}
	t := RankTable{Method: rankMethod(opt.Resamples, opt.Seed), Resamples: opt.Resamples, Seed: opt.Seed, Level: opt.Level, Players: []PlayerRanks{}}
	// The rated players: those with a game, in the batch's order.
	at := make([]int32, len(b.names))
	var rated []string
	for p := range b.names {
		at[p] = -1
		if len(b.entries[p]) > 0 {
			at[p] = int32(len(rated))
			rated = append(rated, b.names[p])
		}
	}
	if len(rated) < 2 {
		t.Unavailable = fmt.Sprintf("there must be two players with games to rank, and the batch has %d", len(rated))
		return t, nil
	}
	n := len(rated)
	// Each merged unit's pairs (from the entries: i < j, i's points), per
	// raw round (its games divided by its copies).
	nm := len(b.copies)
	pairs := make([][]unitPair, nm)
	for p, es := range b.entries {
		for _, e := range es {
			if int(e.opp) > p {
				pairs[e.unit] = append(pairs[e.unit], unitPair{i: at[p], j: at[e.opp], pts: e.pts, games: e.games})
			}
		}
	}
	for u, ps := range pairs {
		c := float64(b.copies[u])
		for k := range ps {
			ps[k].pts /= c
			ps[k].games /= c
		}
	}
	// Each seed's rounds (a merged unit once per round merged into it),
	// and the strata: the seeds that hold the same set of pairings.
	seedRounds := make([][]int32, b.clusters)
	for r, m := range b.rawMerged {
		c := b.rawCluster[r]
		seedRounds[c] = append(seedRounds[c], m)
	}
	strata, err := b.seedStrata(seedRounds, pairs, rated, opt.MinRounds)
	if err != nil {
		t.Unavailable = err.Error()
		return t, nil
	}
	// The whole batch's fit orders the table.
	pts := newMatrix(n)
	for u, ps := range pairs {
		addUnit(pts, ps, float64(b.copies[u]))
	}
	full, err := fitElo(rated, pts)
	if err != nil {
		return RankTable{}, fmt.Errorf("rank probabilities: %w", err)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0x9e3779b97f4a7c15))
	samples := make([][]float64, opt.Resamples)
	for s := range samples {
		for i := range n {
			clear(pts[i])
		}
		for _, seeds := range strata {
			for range seeds {
				for _, m := range seedRounds[seeds[rng.IntN(len(seeds))]] {
					addUnit(pts, pairs[m], 1)
				}
			}
		}
		if samples[s], err = fitElo(rated, pts); err != nil {
			return RankTable{}, fmt.Errorf("rank probabilities: resample %d: %w", s, err)
		}
	}
	dist, err := stats.Ranks(samples, opt.Level, 1e-6)
	if err != nil {
		return RankTable{}, err
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int {
		if c := cmp.Compare(full[y], full[x]); c != 0 {
			return c
		}
		return strings.Compare(rated[x], rated[y])
	})
	for r, i := range order {
		t.Players = append(t.Players, PlayerRanks{Name: rated[i], Rank: r + 1, P: dist.P[i], Mean: dist.Mean[i], Lo: dist.Lo[i], Hi: dist.Hi[i]})
	}
	return t, nil
}

// seedStrata groups the seeds (clusters) by the set of pairings they
// hold, in order of first appearance, so that a resample keeps the
// schedule's shape: in a round robin every seed holds every pairing and
// there is one stratum; in an adaptive schedule every pair meets on seeds
// of its own and each pairing is a stratum. Every stratum needs minSeeds
// seeds; the error names the first that has fewer.
func (b *batch) seedStrata(seedRounds [][]int32, pairs [][]unitPair, rated []string, minSeeds int) ([][]int32, error) {
	at := map[string]int{}
	var strata [][]int32
	var groups [][]int32
	var key []byte
	var gs []int32
	for c, ms := range seedRounds {
		gs = gs[:0]
		for _, m := range ms {
			gs = append(gs, b.unitGroup[m])
		}
		key, gs = setKey(key, gs)
		k, ok := at[string(key)]
		if !ok {
			k = len(strata)
			at[string(key)] = k
			strata = append(strata, nil)
			groups = append(groups, slices.Clone(gs))
		}
		strata[k] = append(strata[k], int32(c))
	}
	for k, seeds := range strata {
		if len(seeds) >= minSeeds {
			continue
		}
		// A merged unit of the stratum's first seed names each group.
		first := map[int32]int32{}
		for _, m := range seedRounds[seeds[0]] {
			if _, ok := first[b.unitGroup[m]]; !ok {
				first[b.unitGroup[m]] = m
			}
		}
		var names []string
		for _, g := range groups[k] {
			names = append(names, groupName(pairs[first[g]], rated))
		}
		if len(names) == 1 {
			return nil, fmt.Errorf("every pairing needs at least %d seeds to resample, and %s played on %d", minSeeds, names[0], len(seeds))
		}
		if len(names) > 4 {
			names = append(names[:4], fmt.Sprintf("%d more", len(names)-4))
		}
		return nil, fmt.Errorf("seeds that hold the same pairings are resampled together and need at least %d of them, and %d seeds hold the %d pairings %s", minSeeds, len(seeds), len(groups[k]), strings.Join(names, ", "))
	}
	return strata, nil
}

// groupName names the players of a merged unit's pairs, for messages.
func groupName(ps []unitPair, rated []string) string {
	var who []int32
	for _, p := range ps {
		who = append(who, p.i, p.j)
	}
	slices.Sort(who)
	who = slices.Compact(who)
	names := make([]string, len(who))
	for k, i := range who {
		names[k] = rated[i]
	}
	return strings.Join(names, "-")
}

// addUnit adds w rounds of a unit's pairs to the points: pts[i][j] is
// i's points against j, so pts[i][j] + pts[j][i] is their games.
func addUnit(pts [][]float64, ps []unitPair, w float64) {
	for _, p := range ps {
		pts[p.i][p.j] += w * p.pts
		pts[p.j][p.i] += w * (p.games - p.pts)
	}
}

// fitElo is the Bradley–Terry Elo of each player from the points: the
// maximum-likelihood fit, or with one virtual draw per pair that met when
// it has no finite maximum (as the leaderboard's fit).
func fitElo(names []string, pts [][]float64) ([]float64, error) {
	// Fit takes wins and draws; points as wins (a draw is half a win on
	// each side) give the same likelihood.
	bt := stats.BradleyTerry{}
	fit, err := bt.Fit(names, pts, nil)
	if errors.Is(err, stats.ErrNoFiniteRatings) {
		bt.Prior = 1
		fit, err = bt.Fit(names, pts, nil)
	}
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(names))
	for _, r := range fit.Ratings {
		out[r.Index] = r.Elo
	}
	return out, nil
}

func newMatrix(n int) [][]float64 {
	m := make([][]float64, n)
	for i := range m {
		m[i] = make([]float64, n)
	}
	return m
}
