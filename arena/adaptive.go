package arena

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"crucible/engine"
	"crucible/stats"
)

// DefaultAdaptiveBatch is the number of game pairs an adaptive schedule
// plays between two choices. It is fixed, not derived from the workers,
// so the same flags choose the same pairs at any worker count.
const DefaultAdaptiveBatch = 32

// AdaptiveOptions configure PlayAdaptive.
type AdaptiveOptions struct {
	// Top is the number of leading players whose order is to be settled,
	// and Confidence the probability at which it counts as settled (see
	// stats.TopOrderCertainty).
	Top        int
	Confidence float64
	// MaxMatches is the budget in matches (0: none); the last batch is cut
	// to fit it. Deadline, when set, stops the schedule before a batch that
	// would start after it (which makes the result depend on the machine's
	// speed).
	MaxMatches int
	Deadline   time.Time
	// Seed is the base seed: a pair's m-th meeting is round m, played on
	// engine.Mix(Seed, m) in both seat orders, with the job ids of
	// RoundRobin's round m, so the results read like a round robin's.
	Seed uint64
	// Batch is the number of game pairs between two choices; 0 means
	// DefaultAdaptiveBatch.
	Batch int
	// Draws is the number of draws of the certainty (0: 4,000).
	Draws int
	// Run are the options of the matches. Its Progress is not called.
	Run Options
	// Progress, when set, is called after every batch.
	Progress func(AdaptiveState)
}

// AdaptiveState is an adaptive schedule after some batches.
type AdaptiveState struct {
	// Matches counts the matches counted (played or resumed); Played and
	// Resumed split them.
	Matches, Played, Resumed int
	// Batches counts the batches, the first (every pair once) included.
	Batches int
	// Fit is the Bradley–Terry fit after the last batch (the prior says
	// whether it needed virtual draws) and Certainty its top order.
	Fit       stats.BTFit
	Prior     float64
	Certainty stats.TopOrder
	// Settled tells that Certainty.Prob reached the confidence; Stop says
	// why the schedule ended: "settled", "budget", "deadline", "certain"
	// (no comparison has any uncertainty left, yet the order's probability
	// is below the confidence) or "" while it runs.
	Settled bool
	Stop    string
	// Meetings[a][b] (a < b) is the number of game pairs a and b played.
	Meetings [][]int
}

// PlayAdaptive plays an adaptive schedule of 2-seat matches among the
// entrants: first every pair once (one round-robin round), then batches
// of game pairs chosen by stats.NextPairs from the Bradley–Terry fit of
// every result so far (units: a pair's game pair on one seed, as the
// leaderboard's), until the top order is settled at the confidence or the
// budget ends. A batch is chosen from completed results only, in a fixed
// order, so the same options give the same matches at any worker count.
// prev are the records of an earlier run of the same schedule (its
// results file): the schedule is replayed from its start, and the
// matches it finds there are counted without being played again. A
// failed match ends the run with an error.
func PlayAdaptive(ctx context.Context, g engine.Game, entrants []Entrant, prev []Record, opt AdaptiveOptions, emit func(Record) error) (AdaptiveState, error) {
	n := len(entrants)
	var st AdaptiveState
	switch {
	case n < 2:
		return st, fmt.Errorf("an adaptive schedule needs at least 2 players, got %d", n)
	case opt.Top < 1 || opt.Top > n:
		return st, fmt.Errorf("top %d is outside its range [1, %d] for %d players", opt.Top, n, n)
	case !(opt.Confidence > 0 && opt.Confidence < 1):
		return st, fmt.Errorf("confidence %v is not in (0, 1)", opt.Confidence)
	case opt.MaxMatches < 0:
		return st, fmt.Errorf("budget of %d matches, want >= 0", opt.MaxMatches)
	}
	if opt.MaxMatches > 0 && opt.MaxMatches < n*(n-1) {
		return st, fmt.Errorf("budget of %d matches is below the first round's %d (every pair once, both seat orders)", opt.MaxMatches, n*(n-1))
	}
	batch := opt.Batch
	if batch <= 0 {
		batch = DefaultAdaptiveBatch
	}
	if err := Validate(g, entrants, RoundRobin(n, []uint64{0})); err != nil {
		return st, err
	}
	last := -1
	for _, r := range prev {
		last = max(last, r.Round)
	}
	if _, err := Remaining(g, opt.Run.Config, RoundRobin(n, Seeds(opt.Seed, last+1)), entrants, prev); err != nil {
		return st, err
	}
	have := map[string]Record{}
	for _, r := range prev {
		if r.Error == "" {
			have[r.Job] = r
		}
	}
	index := map[string]int{}
	for i, e := range entrants {
		index[e.Name] = i
	}
	st.Meetings = make([][]int, n)
	for i := range st.Meetings {
		st.Meetings[i] = make([]int, n)
	}
	var done []Record
	var pairs [][2]int
	for a := range n {
		for b := a + 1; b < n; b++ {
			pairs = append(pairs, [2]int{a, b})
		}
	}
	for {
		if opt.MaxMatches > 0 {
			pairs = pairs[:min(len(pairs), (opt.MaxMatches-st.Matches)/2)]
		}
		if len(pairs) == 0 {
			st.Stop = "budget"
			break
		}
		var jobs, todo []Job
		for _, p := range pairs {
			a, b := min(p[0], p[1]), max(p[0], p[1])
			m := st.Meetings[a][b]
			st.Meetings[a][b]++
			seed := engine.Mix(opt.Seed, uint64(m))
			jobs = append(jobs, newJob(m, seed, []int{a, b}), newJob(m, seed, []int{b, a}))
		}
		for _, j := range jobs {
			if r, ok := have[j.ID]; ok {
				done = append(done, r)
				st.Resumed++
			} else {
				todo = append(todo, j)
			}
		}
		if err := ctx.Err(); err != nil {
			return st, err
		}
		err := Run(ctx, g, entrants, todo, opt.Run, func(r Record) error {
			if err := emit(r); err != nil {
				return err
			}
			st.Played++
			if r.Error != "" {
				return fmt.Errorf("match %s of the adaptive schedule failed (its choices rest on every result; once the cause is fixed, --resume plays it again): %s", r.Job, r.Error)
			}
			done = append(done, r)
			return nil
		})
		if err != nil {
			return st, err
		}
		st.Matches = len(done)
		st.Batches++
		if err := st.fit(entrants, index, done, opt); err != nil {
			return st, err
		}
		if opt.Progress != nil {
			opt.Progress(st)
		}
		if st.Settled {
			st.Stop = "settled"
			break
		}
		if !opt.Deadline.IsZero() && time.Now().After(opt.Deadline) {
			st.Stop = "deadline"
			break
		}
		if pairs = stats.NextPairs(st.Fit, st.Certainty, batch); len(pairs) == 0 {
			st.Stop = "certain" // every comparison has no uncertainty left
			break
		}
	}
	return st, nil
}

// fit rates the results so far and measures the top order.
func (st *AdaptiveState) fit(entrants []Entrant, index map[string]int, done []Record, opt AdaptiveOptions) error {
	fit, prior, err := AdaptiveFit(entrants, index, done)
	if err != nil {
		return err
	}
	st.Fit, st.Prior = fit, prior
	cert, err := stats.TopOrderCertainty(fit, opt.Top, opt.Draws, opt.Seed)
	if err != nil {
		return err
	}
	st.Certainty = cert
	st.Settled = cert.Prob >= opt.Confidence
	return nil
}

// AdaptiveFit is the Bradley–Terry fit an adaptive schedule steers by:
// every 2-seat record's game (a draw half a win), one unit per pair and
// round (the seat-swapped pair on one seed), the records taken in job
// order so the fit does not depend on the order they finished in. A field
// without a finite maximum (a player who won or lost everything) is
// fitted with one virtual draw per pair that met; the prior is returned.
// The covariance is the more cautious of two (see conservativeFit).
// index maps entrant names to their indices.
func AdaptiveFit(entrants []Entrant, index map[string]int, recs []Record) (stats.BTFit, float64, error) {
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(x, y Record) int {
		if x.Round != y.Round {
			return x.Round - y.Round
		}
		return strings.Compare(x.Job, y.Job)
	})
	names := Names(entrants)
	games := make([]stats.PairGame, 0, len(recs))
	for _, r := range recs {
		if len(r.Players) != 2 {
			return stats.BTFit{}, 0, fmt.Errorf("match %s has %d seats; the adaptive schedule rates 2-seat matches", r.Job, len(r.Players))
		}
		a, okA := index[r.Players[0].Name]
		b, okB := index[r.Players[1].Name]
		if !okA || !okB {
			return stats.BTFit{}, 0, fmt.Errorf("match %s seats %s and %s, not both entrants", r.Job, r.Players[0].Name, r.Players[1].Name)
		}
		score := 0.5
		switch {
		case r.Ranks[0] < r.Ranks[1]:
			score = 1
		case r.Ranks[0] > r.Ranks[1]:
			score = 0
		}
		games = append(games, stats.PairGame{A: a, B: b, Score: score, Unit: int64(r.Round)<<32 | int64(min(a, b))<<16 | int64(max(a, b))})
	}
	prior := 0.0
	fit, err := conservativeFit(stats.BradleyTerry{}, names, games)
	if errors.Is(err, stats.ErrNoFiniteRatings) {
		prior = 1
		fit, err = conservativeFit(stats.BradleyTerry{Prior: prior}, names, games)
	}
	return fit, prior, err
}

// conservativeFit is the fit of the games with the larger (in total
// variance) of two covariances: the cluster-robust one over the units
// (FitGames), and the observed information taking every game as
// independent (Fit). The sandwich is known to understate the variance
// when units are few, as they are early in an adaptive schedule; the
// information understates it when a unit's games are alike; a schedule
// that stops on a certainty must not take the smaller.
func conservativeFit(bt stats.BradleyTerry, names []string, games []stats.PairGame) (stats.BTFit, error) {
	robust, err := bt.FitGames(names, games)
	if err != nil {
		return stats.BTFit{}, err
	}
	n := len(names)
	wins, draws := make([][]float64, n), make([][]float64, n)
	for i := range n {
		wins[i], draws[i] = make([]float64, n), make([]float64, n)
	}
	for _, g := range games {
		switch g.Score {
		case 1:
			wins[g.A][g.B]++
		case 0:
			wins[g.B][g.A]++
		default:
			draws[g.A][g.B]++
			draws[g.B][g.A]++
		}
	}
	fisher, err := bt.Fit(names, wins, draws)
	if err != nil {
		return stats.BTFit{}, err
	}
	trace := func(f stats.BTFit) float64 {
		t := 0.0
		for i := range f.Cov {
			t += f.Cov[i][i]
		}
		return t
	}
	if trace(fisher) > trace(robust) {
		return fisher, nil
	}
	return robust, nil
}
