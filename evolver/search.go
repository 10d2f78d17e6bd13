package evolver

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Result is what a search leaves behind.
type searchResult struct {
	// Generations is the number of generations completed.
	Generations int
	// Matches is the number of matches played over all sessions.
	Matches int
	// Elapsed is the wall time over all sessions.
	Elapsed time.Duration
	// Hall is the hall of fame, best conservative estimate first.
	Hall []entry
	// Champions are the recorded champions in the order they arose: each
	// led the hall with its fitness less two standard errors above the
	// previous one's fitness.
	Champions []entry
	// Base is the entry of the base strategy's defaults.
	Base entry
	// Stopped says why the search ended: "generations" or "budget".
	Stopped string
	// Cache is what the behaviour cache saved over all sessions.
	Cache CacheStats
	// SecondsPerMatch is the wall time of a match over this session's
	// generations (0 before the first).
	SecondsPerMatch float64
	// Cut is set when the budget cut a generation short (it was dropped).
	Cut bool
}

// Run searches until the generation limit or the budget, or until ctx is
// cancelled (then it returns ctx.Err() and the checkpoint of the last
// completed generation stays in Dir). It leaves s as it was. With a budget
// and Estimate, a first generation whose estimated time (from the match
// rate of its first probe matches) clearly exceeds the budget is refused
// with a FieldError of Budget that gives the estimate.
func (s *search) Run(ctx context.Context) (*searchResult, error) {
	r := s.withDefaults()
	if r.Generations <= 0 && r.Budget <= 0 {
		return nil, errors.New("search: set a generation limit or a budget")
	}
	start := time.Now()
	st, err := r.load()
	if err != nil {
		return nil, err
	}
	if r.Started != nil {
		r.Started(st.done, st.elapsed)
	}
	if b, ok := r.Algorithm.(behaviourUser); ok {
		m, ok := r.Evaluator.(behaviourMeter)
		if !ok {
			return nil, fmt.Errorf("search: %s places variants by their behaviour, and the evaluator does not measure it", r.Algorithm.Name())
		}
		m.MeasureBehaviour(b.Behaviour())
	}
	baseX := r.Space.Origin()
	baseID := r.Space.ID(baseX)
	prior := st.elapsed
	deadline := start.Add(r.Budget)
	stopped := "generations"
	cut := false
	var lastWall time.Duration
	// The time a match takes is measured over the session's generations:
	// one generation's figure is noisy (few new candidates, idle workers
	// at its end).
	var wall time.Duration
	var matches int
	spm := func() float64 {
		if matches == 0 {
			return 0
		}
		return wall.Seconds() / float64(matches)
	}
	warned := false
	sessionGens := 0
	for {
		if r.Generations > 0 && st.done >= r.Generations {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		gctx, cancel := ctx, context.CancelFunc(func() {})
		var check func(firstSPM float64, planned int) error
		if r.Budget > 0 {
			reserve := r.Reserve(spm())
			if !warned && matches > 0 && reserve > r.Budget/2 {
				warned = true
				emit(r.Progress, Warning{Message: fmt.Sprintf("the final stages are estimated at %s, more than half the budget %s; fewer tournament or held-out seeds, or a smaller pool, leave more time to the search",
					reserve.Round(time.Second), r.Budget)})
			}
			if matches > 0 && time.Now().Add(lastWall+reserve).After(deadline) {
				stopped = "budget"
				break
			}
			// A generation that would run into the final stages'
			// reserve is cut and dropped.
			gctx, cancel = context.WithDeadline(ctx, deadline.Add(-reserve))
			if matches == 0 && r.Estimate {
				check = r.fits(start, gctx)
			}
		}
		if h, ok := r.Algorithm.(scheduled); ok {
			h.Horizon(r.horizon(st.done, sessionGens, wall, time.Until(deadline)-r.Reserve(spm())))
		}
		t0 := time.Now()
		gs, err := r.generation(gctx, st, baseID, check)
		cutNow := err != nil && gctx.Err() != nil && ctx.Err() == nil
		cancel()
		if cutNow {
			stopped, cut = "budget", true
			break
		}
		if err != nil {
			return nil, err
		}
		lastWall = time.Since(t0)
		wall += lastWall
		sessionGens++
		matches += gs.Matches + gs.Cache.ProbeMatches
		st.elapsed = prior + time.Since(start)
		gs.WallMS = ms(lastWall)
		gs.ElapsedMS = ms(st.elapsed)
		if err := r.record(st, gs, prior); err != nil {
			return nil, err
		}
	}
	res := &searchResult{Generations: st.done, Matches: st.matches, Elapsed: prior + time.Since(start), Stopped: stopped, Cache: st.cache, Cut: cut, SecondsPerMatch: spm()}
	for _, id := range st.hall {
		res.Hall = append(res.Hall, *st.arch.get(id))
	}
	for _, id := range st.champions {
		res.Champions = append(res.Champions, *st.arch.get(id))
	}
	if e := st.arch.get(baseID); e != nil {
		res.Base = *e
	} else {
		res.Base = entry{ID: baseID, X: baseX}
	}
	return res, nil
}

// horizon is the generations the search expects in all (see scheduled),
// given the generations done, this session's generations and their wall
// time, and under a budget the time left for the search.
func (s *search) horizon(done, sessionGens int, wall, left time.Duration) int {
	if s.Budget <= 0 || sessionGens == 0 {
		return s.Generations
	}
	mean := max(wall/time.Duration(sessionGens), time.Millisecond)
	n := done + max(1, int(left/mean))
	if s.Generations > 0 {
		n = min(n, s.Generations)
	}
	return n
}

// fits returns the check of a budgeted session's first generation: given
// the seconds a match took in its first probe matches and the matches the
// generation plans, it refuses a generation that clearly cannot end before
// the generation's deadline (gctx's): estimated at more than twice the
// time left, as a small sample on a busy machine may overstate the rate.
// A generation that fits by the estimate and still overruns is cut.
func (s *search) fits(start time.Time, gctx context.Context) func(float64, int) error {
	return func(spm float64, planned int) error {
		end, _ := gctx.Deadline()
		est := time.Duration(spm * float64(planned) * float64(time.Second))
		if left := time.Until(end); est > 2*left {
			need := time.Since(start) + est + (s.Budget - end.Sub(start))
			return &FieldError{Field: "Budget", Value: s.Budget, Reason: fmt.Sprintf(
				"cannot hold one generation: the first plays about %d matches, some %s at the %.3gs a match of its first probe matches (%s of the budget left for it); give a budget of %s or more, or fewer seeds, a smaller population or pool",
				planned, est.Round(time.Second), spm, left.Round(time.Second), need.Round(time.Minute/2)+time.Minute/2)}
		}
		return nil
	}
}
