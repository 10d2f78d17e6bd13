package arena

import (
	"context"
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
	// Seed is the base seed: a pair's m-th meeting has the job ids of
	// RoundRobin's round m and a seed of the pair's own drawn from Seed, m
	// and the pair (AdaptiveSeed), so that no two pairs share a map.
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
	// Fit is the balanced Bradley–Terry fit after the last batch (see
	// AdaptiveFit) and Certainty its top order.
	Fit       *stats.BalancedFit
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
// of game pairs chosen by stats.BalancedFit.NextPairs from the balanced
// Bradley–Terry fit of every result so far (AdaptiveFit), until the top order is settled at the confidence or the
// budget ends. A batch is chosen from completed results only, in a fixed
// order, so the same options give the same matches at any worker count.
// prev are the records of an earlier run of the same schedule (its
// results file): the schedule is replayed from its start, and the
// matches it finds there are counted without being played again. A
// failed match ends the run with an error. The choices are an
// AdaptiveChooser's.
func PlayAdaptive(ctx context.Context, g engine.Game, entrants []Entrant, prev []Record, opt AdaptiveOptions, emit func(Record) error) (AdaptiveState, error) {
	ch, err := NewAdaptiveChooser(entrants, opt)
	if err != nil {
		return AdaptiveState{}, err
	}
	n := len(entrants)
	if err := Validate(g, entrants, RoundRobin(n, []uint64{0})); err != nil {
		return AdaptiveState{}, err
	}
	last := -1
	for _, r := range prev {
		last = max(last, r.Round)
	}
	var could []Job // every job the schedule could have played by round last
	for m := 0; m <= last; m++ {
		for a := range n {
			for b := a + 1; b < n; b++ {
				seed := AdaptiveSeed(opt.Seed, m, a, b)
				could = append(could, newJob(m, seed, []int{a, b}), newJob(m, seed, []int{b, a}))
			}
		}
	}
	if _, err := Remaining(g, opt.Run.Config, could, entrants, prev); err != nil {
		return ch.State, err
	}
	have := map[string]Record{}
	for _, r := range prev {
		if r.Error == "" {
			have[r.Job] = r
		}
	}
	st := &ch.State
	for {
		games := ch.Next()
		if games == nil {
			break
		}
		var jobs, todo []Job
		for _, gm := range games {
			jobs = append(jobs, newJob(gm.Round, gm.Seed, []int{gm.A, gm.B}), newJob(gm.Round, gm.Seed, []int{gm.B, gm.A}))
		}
		var batch []Record
		for _, j := range jobs {
			if r, ok := have[j.ID]; ok {
				batch = append(batch, r)
				st.Resumed++
			} else {
				todo = append(todo, j)
			}
		}
		if err := ctx.Err(); err != nil {
			return *st, err
		}
		err := Run(ctx, g, entrants, todo, opt.Run, func(r Record) error {
			if err := emit(r); err != nil {
				return err
			}
			st.Played++
			if r.Error != "" {
				return fmt.Errorf("match %s of the adaptive schedule failed (its choices rest on every result; once the cause is fixed, --resume plays it again): %s", r.Job, r.Error)
			}
			batch = append(batch, r)
			return nil
		})
		if err != nil {
			return *st, err
		}
		if err := ch.Add(batch); err != nil {
			return *st, err
		}
		if opt.Progress != nil {
			opt.Progress(*st)
		}
		if st.Settled {
			st.Stop = "settled"
			break
		}
		if !opt.Deadline.IsZero() && time.Now().After(opt.Deadline) {
			st.Stop = "deadline"
			break
		}
	}
	return *st, nil
}

// AdaptiveGame is one game pair an adaptive schedule chose: entrants A <
// B meet for the Round-th time (from 0), on Seed, in both seat orders.
type AdaptiveGame struct {
	A, B, Round int
	Seed        uint64
}

// AdaptiveChooser makes PlayAdaptive's choices for a caller that plays
// the games itself (a ladder night records them in its database): Next
// gives a batch of game pairs, Add counts their results and fits them, and
// the next batch is chosen from the results counted only. Its State is
// PlayAdaptive's, except Played and Resumed, which it leaves to its
// caller.
type AdaptiveChooser struct {
	State    AdaptiveState
	opt      AdaptiveOptions
	entrants []Entrant
	index    map[string]int
	done     []Record
	pairs    [][2]int
	batch    int
	started  bool
}

// NewAdaptiveChooser checks opt against the entrants (only their names are
// used) and begins a schedule: its first batch is every pair once.
func NewAdaptiveChooser(entrants []Entrant, opt AdaptiveOptions) (*AdaptiveChooser, error) {
	n := len(entrants)
	switch {
	case n < 2:
		return nil, fmt.Errorf("an adaptive schedule needs at least 2 players, got %d", n)
	case opt.Top < 1 || opt.Top > n:
		return nil, fmt.Errorf("top %d is outside its range [1, %d] for %d players", opt.Top, n, n)
	case !(opt.Confidence > 0 && opt.Confidence < 1):
		return nil, fmt.Errorf("confidence %v is not in (0, 1)", opt.Confidence)
	case opt.MaxMatches < 0:
		return nil, fmt.Errorf("budget of %d matches, want >= 0", opt.MaxMatches)
	}
	if opt.MaxMatches > 0 && opt.MaxMatches < n*(n-1) {
		return nil, fmt.Errorf("budget of %d matches is below the first round's %d (every pair once, both seat orders)", opt.MaxMatches, n*(n-1))
	}
	c := &AdaptiveChooser{opt: opt, entrants: entrants, index: map[string]int{}, batch: opt.Batch}
	if c.batch <= 0 {
		c.batch = DefaultAdaptiveBatch
	}
	for i, e := range entrants {
		c.index[e.Name] = i
	}
	c.State.Meetings = make([][]int, n)
	for i := range c.State.Meetings {
		c.State.Meetings[i] = make([]int, n)
	}
	for a := range n {
		for b := a + 1; b < n; b++ {
			c.pairs = append(c.pairs, [2]int{a, b})
		}
	}
	return c, nil
}

// Next is the next batch, or nil when the schedule has ended (State.Stop
// says why: "settled", "certain" or "budget").
func (c *AdaptiveChooser) Next() []AdaptiveGame {
	st := &c.State
	if st.Stop != "" {
		return nil
	}
	if c.started {
		if st.Settled {
			st.Stop = "settled"
			return nil
		}
		if c.pairs = st.Fit.NextPairs(st.Certainty, c.batch); len(c.pairs) == 0 {
			st.Stop = "certain" // every comparison has no uncertainty left
			return nil
		}
	}
	c.started = true
	pairs := c.pairs
	if c.opt.MaxMatches > 0 {
		pairs = pairs[:min(len(pairs), (c.opt.MaxMatches-st.Matches)/2)]
	}
	if len(pairs) == 0 {
		st.Stop = "budget"
		return nil
	}
	games := make([]AdaptiveGame, len(pairs))
	for i, p := range pairs {
		a, b := min(p[0], p[1]), max(p[0], p[1])
		m := st.Meetings[a][b]
		st.Meetings[a][b]++
		games[i] = AdaptiveGame{A: a, B: b, Round: m, Seed: AdaptiveSeed(c.opt.Seed, m, a, b)}
	}
	return games
}

// Add counts the records of the batch Next gave (its every game, in any
// order) and fits all the results so far.
func (c *AdaptiveChooser) Add(recs []Record) error {
	c.done = append(c.done, recs...)
	st := &c.State
	st.Matches = len(c.done)
	st.Batches++
	return st.fit(c.entrants, c.index, c.done, c.opt)
}

// AdaptiveSeed is the seed of the m-th meeting of entrants a < b in an
// adaptive schedule on base: a seed of the pair's own. A round robin's
// round plays one seed for every pair, and in AI Code Battle one map, so
// the results of a player's pairs in one round move together; meetings on
// seeds of their own are independent across pairs, which the balanced
// fit's covariance takes them to be.
func AdaptiveSeed(base uint64, m, a, b int) uint64 {
	return engine.Mix(engine.Mix(base, uint64(m)), uint64(a)<<32|uint64(b))
}

// fit rates the results so far and measures the top order.
func (st *AdaptiveState) fit(entrants []Entrant, index map[string]int, done []Record, opt AdaptiveOptions) error {
	fit, err := AdaptiveFit(entrants, index, done)
	if err != nil {
		return err
	}
	st.Fit = fit
	cert, err := stats.TopOrderCertainty(fit.Fit, opt.Top, opt.Draws, opt.Seed)
	if err != nil {
		return err
	}
	st.Certainty = cert
	st.Settled = cert.Prob >= opt.Confidence
	return nil
}

// AdaptiveFit is the fit an adaptive schedule steers by: the balanced
// Bradley–Terry fit (stats.FitBalanced) of every 2-seat record, one unit
// per pair and round (the seat-swapped pair on one seed, the unit's score
// the mean of its games', a draw half a win), so the order estimated is a
// round robin's however unevenly the pairs were played. The records are
// summed in job order, so the fit does not depend on the order they
// finished in. index maps entrant names to their indices.
func AdaptiveFit(entrants []Entrant, index map[string]int, recs []Record) (*stats.BalancedFit, error) {
	recs = slices.Clone(recs)
	slices.SortFunc(recs, func(x, y Record) int {
		if x.Round != y.Round {
			return x.Round - y.Round
		}
		return strings.Compare(x.Job, y.Job)
	})
	type unitKey struct{ a, b, round int }
	type unit struct {
		pts, games float64
		seed       uint64
	}
	units := map[unitKey]*unit{}
	var keys []unitKey
	for _, r := range recs {
		if len(r.Players) != 2 {
			return nil, fmt.Errorf("match %s has %d seats; the adaptive schedule rates 2-seat matches", r.Job, len(r.Players))
		}
		a, okA := index[r.Players[0].Name]
		b, okB := index[r.Players[1].Name]
		if !okA || !okB || a == b {
			return nil, fmt.Errorf("match %s seats %s and %s, not two entrants", r.Job, r.Players[0].Name, r.Players[1].Name)
		}
		score := 0.5
		switch {
		case r.Ranks[0] < r.Ranks[1]:
			score = 1
		case r.Ranks[0] > r.Ranks[1]:
			score = 0
		}
		if a > b {
			a, b, score = b, a, 1-score
		}
		k := unitKey{a, b, r.Round}
		u, ok := units[k]
		if !ok {
			u = &unit{seed: r.Seed}
			units[k] = u
			keys = append(keys, k)
		}
		u.pts += score
		u.games++
	}
	slices.SortFunc(keys, func(x, y unitKey) int {
		if x.a != y.a {
			return x.a - y.a
		}
		if x.b != y.b {
			return x.b - y.b
		}
		return x.round - y.round
	})
	var pairs []stats.PairStat
	clustered := make([]stats.BalancedUnit, 0, len(keys))
	for _, k := range keys {
		u := units[k]
		m := u.pts / u.games
		if len(pairs) == 0 || pairs[len(pairs)-1].A != k.a || pairs[len(pairs)-1].B != k.b {
			pairs = append(pairs, stats.PairStat{A: k.a, B: k.b})
		}
		p := &pairs[len(pairs)-1]
		p.Units++
		p.Sum += m
		p.SumSq += m * m
		clustered = append(clustered, stats.BalancedUnit{A: k.a, B: k.b, Score: m, Cluster: u.seed})
	}
	fit, err := stats.FitBalanced(Names(entrants), pairs)
	if err != nil {
		return nil, err
	}
	// Units on one seed move together (a round robin's round plays one
	// map): cluster by seed. The adaptive schedule's own meetings each
	// have a seed of their own, so there the units stay independent.
	if err := fit.Clustered(clustered); err != nil {
		return nil, err
	}
	return fit, nil
}
