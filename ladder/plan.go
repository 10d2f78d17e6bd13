package ladder

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine"
)

// glickoScale converts a Glicko rating or RD to the Glicko-2 scale.
const glickoScale = 173.7178

// Pairing defaults.
const (
	// DefaultSeedsPerNight is the number of seeds each pair plays a night,
	// both seat orders on each.
	DefaultSeedsPerNight = 4
	// DefaultNewVersionFactor multiplies the seeds of a pair that holds a
	// version without a rating yet.
	DefaultNewVersionFactor = 2
)

// plannedJob is one match of a night's schedule.
type plannedJob struct {
	arena.Job
	// Versions are the version ids in seat order.
	Versions []int64
	// Test is the regression test the match is a game of (0 for a rated
	// match); Pair numbers its game pair within the night.
	Test int64
	Pair int
	// NewSeat is the seat of the version tested in a game of a race
	// (regression games get theirs from the night's tests).
	NewSeat int
}

// pairValue is the information a game between two players is expected to
// bring: the variance of the rating difference on the Glicko-2 scale
// (phi_a^2 + phi_b^2, large when either is uncertain) times the variance
// of the game's outcome, p(1-p), with p the expected score from the
// difference of the ratings damped by the combined deviation (Glicko's g
// function). Close pairs of uncertain players come first.
func pairValue(a, b rating.Rating) float64 {
	pa, pb := a.RD/glickoScale, b.RD/glickoScale
	v := pa*pa + pb*pb
	g := 1 / math.Sqrt(1+3*v/(math.Pi*math.Pi))
	p := 1 / (1 + math.Exp(-g*(a.Rating-b.Rating)/glickoScale))
	return v * p * (1 - p)
}

// planNight schedules a night of the versions (sorted by id) and of the
// regression tests: rated matches as planRated, and each test's game pairs
// spread evenly over the rated rounds (see planRegression).
func planNight(night int64, versions []int64, prior map[int64]rating.Rating, isNew map[int64]bool, seed uint64, seedsPerNight, newFactor int, tests []RegressionRun) []plannedJob {
	rated := planRated(night, versions, prior, isNew, seed, seedsPerNight, newFactor)
	return planRegression(night, rated, seed, tests)
}

// planRated schedules the rated matches of a night: every pair,
// ordered by pairValue (highest first, then by ids), plays seedsPerNight
// seeds, or seedsPerNight*newFactor when one of the two is new (has no
// rating of its own yet), each seed in both seat orders. Jobs go round by
// round: every pair plays its first seed, in order of value, before any
// plays its second, so a budget that runs out cuts the least informative
// games. Round r is played on arena.Seeds(seed, ...)[r], the same seed for
// every pair; job ids are "n<night>-r<round>-<version>v<version>" in seat
// order, unique in the whole ladder (so an export of every night is a
// results file with unique jobs, as the arena writes).
func planRated(night int64, versions []int64, prior map[int64]rating.Rating, isNew map[int64]bool, seed uint64, seedsPerNight, newFactor int) []plannedJob {
	type pair struct {
		a, b   int64
		value  float64
		rounds int
	}
	var pairs []pair
	maxRounds := 0
	for i, a := range versions {
		for _, b := range versions[i+1:] {
			p := pair{a: a, b: b, value: pairValue(prior[a], prior[b]), rounds: seedsPerNight}
			if isNew[a] || isNew[b] {
				p.rounds *= newFactor
			}
			maxRounds = max(maxRounds, p.rounds)
			pairs = append(pairs, p)
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].value > pairs[j].value })
	seeds := arena.Seeds(seed, maxRounds)
	// Each seat order's versions and id suffix are made once; a night
	// has up to millions of jobs.
	type order struct {
		versions []int64
		suffix   string
	}
	orders := make([][2]order, len(pairs))
	total := 0
	for i, p := range pairs {
		for k, seats := range [2][2]int64{{p.a, p.b}, {p.b, p.a}} {
			orders[i][k] = order{versions: []int64{seats[0], seats[1]},
				suffix: "-" + strconv.FormatInt(seats[0], 10) + "v" + strconv.FormatInt(seats[1], 10)}
		}
		total += 2 * p.rounds
	}
	prefix := "n" + strconv.FormatInt(night, 10) + "-r"
	jobs := make([]plannedJob, 0, total)
	var buf []byte
	for r := 0; r < maxRounds; r++ {
		for i, p := range pairs {
			if r >= p.rounds {
				continue
			}
			for _, o := range orders[i] {
				buf = append(strconv.AppendInt(append(buf[:0], prefix...), int64(r), 10), o.suffix...)
				jobs = append(jobs, plannedJob{Job: arena.Job{ID: string(buf), Round: r, Seed: seeds[r]}, Versions: o.versions})
			}
		}
	}
	return jobs
}

// regressionStream numbers the seed streams of regression tests apart from
// those of rated rounds (stream r of the night's seed is round r).
const regressionStream = 1 << 40

// planRegression puts the game pairs of the regression tests into a rated
// schedule. Test t plays t.Pairs pairs, each one seed in both seat orders
// (the new version first, then the baseline first), on seeds of its own:
// arena.Seeds(engine.Mix(seed, regressionStream+t.Test), t.Pairs). The
// pairs are spread evenly over the R rated rounds, pair i of a test in
// round i*R/Pairs, at the start of its round (tests in the order given),
// so that a budget that runs out cuts rated and regression games alike.
// A pair's two games are adjacent and start at an even position, so a
// chunk of an even number of jobs never splits a pair. Job ids are
// "n<night>-t<test>-p<pair>-<version>v<version>" in seat order.
func planRegression(night int64, rated []plannedJob, seed uint64, tests []RegressionRun) []plannedJob {
	if len(tests) == 0 {
		return rated
	}
	rounds := 0
	for _, j := range rated {
		rounds = max(rounds, j.Round+1)
	}
	rounds = max(rounds, 1)
	type pairJob struct {
		round int
		jobs  [2]plannedJob
	}
	byRound := make([][]pairJob, rounds)
	total := len(rated)
	var buf []byte
	for _, t := range tests {
		seeds := arena.Seeds(engine.Mix(seed, regressionStream+uint64(t.Test)), t.Pairs)
		prefix := "n" + strconv.FormatInt(night, 10) + "-t" + strconv.FormatInt(t.Test, 10) + "-p"
		var versions [2][]int64
		var suffix [2]string
		for k, seats := range [2][2]int64{{t.Version, t.Baseline}, {t.Baseline, t.Version}} {
			versions[k] = []int64{seats[0], seats[1]}
			suffix[k] = "-" + strconv.FormatInt(seats[0], 10) + "v" + strconv.FormatInt(seats[1], 10)
		}
		for i := 0; i < t.Pairs; i++ {
			r := int(int64(i) * int64(rounds) / int64(t.Pairs))
			pj := pairJob{round: r}
			for k := range pj.jobs {
				buf = append(strconv.AppendInt(append(buf[:0], prefix...), int64(i), 10), suffix[k]...)
				pj.jobs[k] = plannedJob{Job: arena.Job{ID: string(buf), Round: r, Seed: seeds[i]}, Versions: versions[k], Test: t.Test, Pair: i}
			}
			byRound[r] = append(byRound[r], pj)
		}
		total += 2 * t.Pairs
	}
	out := make([]plannedJob, 0, total)
	next := 0
	for r := 0; r < rounds; r++ {
		for _, pj := range byRound[r] {
			out = append(out, pj.jobs[0], pj.jobs[1])
		}
		for next < len(rated) && rated[next].Round == r {
			out = append(out, rated[next])
			next++
		}
	}
	return append(out, rated[next:]...)
}

// IsRegressionGame reports whether job, a job id of a ladder night, is a
// game of a regression test ("n<night>-t<test>-p<pair>-...") or of a race
// of candidates ("n<night>-x<race>-p<pair>-..."), not a rated match
// ("n<night>-r<round>-...").
func IsRegressionGame(job string) bool {
	if len(job) < 2 || job[0] != 'n' {
		return false
	}
	i := 1
	for i < len(job) && job[i] >= '0' && job[i] <= '9' {
		i++
	}
	return i > 1 && (strings.HasPrefix(job[i:], "-t") || strings.HasPrefix(job[i:], "-x"))
}
