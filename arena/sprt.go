package arena

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"crucible/engine"
	"crucible/stats"
)

// SPRTOptions configure PlaySPRT.
type SPRTOptions struct {
	// Test is the sequential test; B (entrant 1) against A (entrant 0).
	Test stats.SPRT
	// Level is the confidence level of the Elo estimate; 0 means 0.95.
	Level float64
	// MaxPairs caps the pairs counted: the test ends undecided there.
	MaxPairs int
	// Seed is the base seed: pair k is played on engine.Mix(Seed, k), the
	// seeds Seeds(Seed, n) gives, so the same Seed gives the same pairs.
	Seed uint64
	// Batch is the number of pairs handed to Run at a time; 0 means
	// max(32, 8 × the workers). A test that decides mid-batch cancels the
	// rest of it.
	Batch int
	// Run are the options of the matches (workers, configuration,
	// replays). Its Progress is not called; see Progress.
	Run Options
	// Progress, when set, is called with the state after every pair
	// counted.
	Progress func(SPRTState)
}

// SPRTState is a sequential test after some pairs.
type SPRTState struct {
	// Pairs is the number of pairs counted (pairs 0 to Pairs-1, in order)
	// and Counts their pentanomial classes from B's side.
	Pairs  int
	Counts stats.Pentanomial
	// Result is the test on Counts (zero before the first pair).
	Result stats.Result
	// Decided tells that the LLR crossed a bound at pair Pairs-1.
	Decided bool
	// Played counts the matches this call played and Resumed the
	// finished matches it took from the records it was given.
	Played, Resumed int
	// Beyond counts the complete pairs after the deciding one: played in
	// parallel before the test decided, recorded, and not counted.
	Beyond int
}

// SPRTJobs are the matches of pair k on seed: the n entrants (A, B and
// n-2 fixed opponents, indices 0 to n-1) in each of the n rotations of the
// seats, so every entrant sits in every seat once. With two entrants this
// is the seat-swapped pair "r<k>-0v1", "r<k>-1v0".
func SPRTJobs(k int, seed uint64, n int) []Job {
	jobs := make([]Job, n)
	order := make([]int, n)
	for r := range n {
		for i := range order {
			order[i] = (i + r) % n
		}
		jobs[r] = newJob(k, seed, order)
	}
	return jobs
}

// errDecided stops Run when the test has decided.
var errDecided = errors.New("the test decided")

// PlaySPRT plays seat-rotated pairs of entrants[1] (B) against
// entrants[0] (A), with entrants[2:] as fixed opponents in N-seat games,
// until the sequential test decides or MaxPairs pairs are counted. Pair k
// is played on its own seed (see SPRTOptions.Seed) in every rotation of
// the seats (SPRTJobs), and reduced to B's pair score by
// stats.RotationScore and its pentanomial class by stats.ScoreBucket (for
// two seats, the seat-swapped pair's class).
//
// Pairs finish in any order on the workers, but they are counted in pair
// order, and the test stops at the first pair whose count decides it, so
// the counts and the verdict are the same at any worker count. Every
// finished match is passed to emit (to stream it to a results file, say)
// in completion order, including those of pairs after the deciding one.
//
// prev are the records of an earlier run of the same test (from its
// results file): they are checked against the schedule (see Remaining),
// their finished matches count without being played again, and their
// failed ones are played again. A failed match ends the run with an
// error: a pair cannot be skipped without biasing the test. Cancelling
// ctx ends the run with ctx.Err() and the state so far.
func PlaySPRT(ctx context.Context, g engine.Game, entrants []Entrant, prev []Record, opt SPRTOptions, emit func(Record) error) (SPRTState, error) {
	var st SPRTState
	n := len(entrants)
	if n < 2 {
		return st, fmt.Errorf("a sequential test needs players A and B, got %d entrants", n)
	}
	if err := opt.Test.Validate(); err != nil {
		return st, err
	}
	if opt.MaxPairs < 1 {
		return st, fmt.Errorf("max pairs %d, want at least 1", opt.MaxPairs)
	}
	level := opt.Level
	if level == 0 {
		level = 0.95
	}
	batch := opt.Batch
	if batch <= 0 {
		workers := opt.Run.Workers
		if workers <= 0 {
			workers = 1
		}
		batch = max(32, 8*workers)
	}
	if err := Validate(g, entrants, SPRTJobs(0, 0, n)); err != nil {
		return st, err
	}
	s := &sprtRun{n: n, a: entrants[0].Name, b: entrants[1].Name, opt: opt, level: level, pending: map[int][]Record{}}

	// The earlier run's records: checked against the schedule of the
	// rounds they name.
	last := -1
	for _, r := range prev {
		last = max(last, r.Round)
	}
	var jobs []Job
	for k := 0; k <= last; k++ {
		jobs = append(jobs, SPRTJobs(k, engine.Mix(opt.Seed, uint64(k)), n)...)
	}
	if _, err := Remaining(g, opt.Run.Config, jobs, entrants, prev); err != nil {
		return st, err
	}
	for _, r := range prev {
		if r.Error == "" {
			s.pending[r.Round] = append(s.pending[r.Round], r)
			s.st.Resumed++
		}
	}
	if err := s.advance(); err != nil && !errors.Is(err, errDecided) {
		return s.result(), err
	}
	for !s.st.Decided && s.st.Pairs < opt.MaxPairs {
		if err := ctx.Err(); err != nil {
			return s.result(), err
		}
		// The next batch: the missing matches of the next pairs.
		var todo []Job
		for k := s.st.Pairs; k < min(s.st.Pairs+batch, opt.MaxPairs); k++ {
			have := map[string]bool{}
			for _, r := range s.pending[k] {
				have[r.Job] = true
			}
			for _, j := range SPRTJobs(k, engine.Mix(opt.Seed, uint64(k)), n) {
				if !have[j.ID] {
					todo = append(todo, j)
				}
			}
		}
		err := Run(ctx, g, entrants, todo, opt.Run, func(r Record) error {
			if err := emit(r); err != nil {
				return err
			}
			s.st.Played++
			if r.Error != "" {
				return fmt.Errorf("match %s of the test failed (the test cannot skip a pair; once the cause is fixed, --resume plays it again): %s", r.Job, r.Error)
			}
			s.pending[r.Round] = append(s.pending[r.Round], r)
			return s.advance()
		})
		if errors.Is(err, errDecided) {
			break
		}
		if err != nil {
			return s.result(), err
		}
	}
	return s.result(), nil
}

// sprtRun is the state of PlaySPRT: the records of pairs not yet
// counted, by pair.
type sprtRun struct {
	n       int
	a, b    string
	opt     SPRTOptions
	level   float64
	st      SPRTState
	pending map[int][]Record
}

// advance counts the complete pairs that follow the counted ones, in
// order, and returns errDecided when the test decides.
func (s *sprtRun) advance() error {
	for !s.st.Decided && s.st.Pairs < s.opt.MaxPairs && len(s.pending[s.st.Pairs]) == s.n {
		recs := s.pending[s.st.Pairs]
		delete(s.pending, s.st.Pairs)
		class, err := pairClass(recs, s.a, s.b)
		if err != nil {
			return err
		}
		s.st.Counts[class]++
		s.st.Pairs++
		res, err := s.opt.Test.Test(s.st.Counts, s.level)
		if err != nil {
			return err
		}
		s.st.Result = res
		s.st.Decided = res.Verdict != stats.Continue
		if s.opt.Progress != nil {
			s.opt.Progress(s.st)
		}
	}
	if s.st.Decided {
		return errDecided
	}
	return nil
}

// result is the state with the pairs beyond the deciding one counted.
func (s *sprtRun) result() SPRTState {
	st := s.st
	st.Beyond = 0
	if st.Decided {
		for _, k := range slices.Sorted(maps.Keys(s.pending)) {
			if k >= st.Pairs && len(s.pending[k]) == s.n {
				st.Beyond++
			}
		}
	}
	return st
}

// pairClass is the pentanomial class of B against A (by name) in the
// records of one pair, one per rotation.
func pairClass(recs []Record, a, b string) (int, error) {
	rankA, rankB := make([]int, 0, len(recs)), make([]int, 0, len(recs))
	for _, r := range recs {
		ra, rb := -1, -1
		for s, p := range r.Players {
			switch p.Name {
			case a:
				ra = r.Ranks[s]
			case b:
				rb = r.Ranks[s]
			}
		}
		if ra < 0 || rb < 0 {
			return 0, fmt.Errorf("match %s does not seat both A (%s) and B (%s)", r.Job, a, b)
		}
		rankA, rankB = append(rankA, ra), append(rankB, rb)
	}
	score, err := stats.RotationScore(rankA, rankB)
	if err != nil {
		return 0, err
	}
	return stats.ScoreBucket(score)
}
