package arena

import (
	"context"
	"errors"
	"fmt"

	"crucible/engine"
	"crucible/stats"
)

// RaceOptions configure PlayRace.
type RaceOptions struct {
	// Race is the race: the test of each candidate before the family's
	// adjustment, and the eliminations' error budget (see stats.Race).
	Race stats.Race
	// MaxPairs caps the rounds (one pair per candidate still racing): the
	// race ends undecided there.
	MaxPairs int
	// Seed is the base seed: round k is played on engine.Mix(Seed, k), the
	// same seed for every candidate.
	Seed uint64
	// Batch is the number of pairs handed to Run at a time; 0 means
	// max(32, 8 × the workers).
	Batch int
	// Run are the options of the matches. Its Progress is not called.
	Run Options
	// Progress, when set, is called after every round counted.
	Progress func(RaceState)
}

// RaceState is a race after some rounds.
type RaceState struct {
	// Race is the race's state: every candidate's counts, LLR and status
	// (candidate i is entrant i+1), the rounds counted and the winner.
	Race *stats.RaceRun
	// Played counts the matches this call played, Resumed the finished
	// matches taken from the records given.
	Played, Resumed int
	// Beyond counts the complete pairs finished in parallel that the race
	// did not count: after a candidate left it, or after it ended.
	Beyond int
}

// RaceJobs are the matches of candidate c (an entrant index, the
// baseline being entrant 0) in round k on seed: the seat-swapped pair
// "r<k>-0v<c>", "r<k>-<c>v0".
func RaceJobs(k int, seed uint64, c int) []Job {
	return []Job{newJob(k, seed, []int{0, c}), newJob(k, seed, []int{c, 0})}
}

// PlayRace races entrants[1:] (the candidates) against entrants[0] (the
// baseline): in round k every candidate still in the race plays its
// seat-swapped pair against the baseline on the round's seed, and the
// race (stats.Race) counts the round when every such pair is complete,
// dropping candidates and stopping as it says. Rounds are played in
// batches on the workers but counted in order, and who plays round k
// depends only on rounds before it, so the verdict is the same at any
// worker count. Every finished match is passed to emit, in completion
// order; prev are the records of an earlier run of the same race, as for
// PlaySPRT. A failed match ends the run with an error.
func PlayRace(ctx context.Context, g engine.Game, entrants []Entrant, prev []Record, opt RaceOptions, emit func(Record) error) (RaceState, error) {
	k := len(entrants) - 1
	if k < 1 {
		return RaceState{}, fmt.Errorf("a race needs a baseline and at least 1 candidate, got %d entrants", len(entrants))
	}
	if opt.MaxPairs < 1 {
		return RaceState{}, fmt.Errorf("max pairs %d, want at least 1", opt.MaxPairs)
	}
	run, err := opt.Race.Start(k)
	if err != nil {
		return RaceState{}, err
	}
	batch := opt.Batch
	if batch <= 0 {
		workers := opt.Run.Workers
		if workers <= 0 {
			workers = 1
		}
		batch = max(32, 8*workers)
	}
	if err := Validate(g, entrants, RaceJobs(0, 0, 1)); err != nil {
		return RaceState{}, err
	}
	s := &raceRun{entrants: entrants, opt: opt, st: RaceState{Race: run}, pending: map[int]map[int][]Record{}}

	last := -1
	for _, r := range prev {
		last = max(last, r.Round)
	}
	var jobs []Job
	for r := 0; r <= last; r++ {
		for c := 1; c <= k; c++ {
			jobs = append(jobs, RaceJobs(r, engine.Mix(opt.Seed, uint64(r)), c)...)
		}
	}
	if _, err := Remaining(g, opt.Run.Config, jobs, entrants, prev); err != nil {
		return s.st, err
	}
	for _, r := range prev {
		if r.Error == "" {
			s.add(r)
			s.st.Resumed++
		}
	}
	if err := s.advance(); err != nil && !errors.Is(err, errDecided) {
		return s.result(), err
	}
	for !run.Done && run.Rounds < opt.MaxPairs {
		if err := ctx.Err(); err != nil {
			return s.result(), err
		}
		active := run.Active()
		rounds := max(1, batch/len(active))
		var todo []Job
		for r := run.Rounds; r < min(run.Rounds+rounds, opt.MaxPairs); r++ {
			for _, i := range active {
				c := i + 1
				have := map[string]bool{}
				for _, rec := range s.pending[r][c] {
					have[rec.Job] = true
				}
				for _, j := range RaceJobs(r, engine.Mix(opt.Seed, uint64(r)), c) {
					if !have[j.ID] {
						todo = append(todo, j)
					}
				}
			}
		}
		err := Run(ctx, g, entrants, todo, opt.Run, func(r Record) error {
			if err := emit(r); err != nil {
				return err
			}
			s.st.Played++
			if r.Error != "" {
				return fmt.Errorf("match %s of the race failed (the race cannot skip a pair; once the cause is fixed, --resume plays it again): %s", r.Job, r.Error)
			}
			s.add(r)
			return s.advance()
		})
		if errors.Is(err, errDecided) {
			break
		}
		if err != nil {
			return s.result(), err
		}
	}
	if !run.Done {
		run.Stop()
	}
	return s.result(), nil
}

// raceRun is the state of PlayRace: the records not yet counted, by round
// and candidate entrant.
type raceRun struct {
	entrants []Entrant
	opt      RaceOptions
	st       RaceState
	pending  map[int]map[int][]Record
}

// add files a finished record under its round and candidate.
func (s *raceRun) add(r Record) {
	c := 0
	for _, p := range r.Players {
		if p.Name != s.entrants[0].Name {
			for i, e := range s.entrants {
				if i > 0 && e.Name == p.Name {
					c = i
				}
			}
		}
	}
	if s.pending[r.Round] == nil {
		s.pending[r.Round] = map[int][]Record{}
	}
	s.pending[r.Round][c] = append(s.pending[r.Round][c], r)
}

// advance counts the complete rounds that follow the counted ones, in
// order, and returns errDecided when the race has ended.
func (s *raceRun) advance() error {
	run := s.st.Race
	for !run.Done && run.Rounds < s.opt.MaxPairs {
		r := run.Rounds
		active := run.Active()
		classes := make([]int, len(run.Racers))
		for _, i := range active {
			recs := s.pending[r][i+1]
			if len(recs) != 2 {
				return nil
			}
			class, err := pairClass(recs, s.entrants[0].Name, s.entrants[i+1].Name)
			if err != nil {
				return err
			}
			classes[i] = class
		}
		for _, i := range active {
			delete(s.pending[r], i+1)
		}
		if err := run.AddRound(classes); err != nil {
			return err
		}
		if s.opt.Progress != nil {
			s.opt.Progress(s.st)
		}
	}
	if run.Done {
		return errDecided
	}
	return nil
}

// result is the state with the complete pairs the race did not count.
func (s *raceRun) result() RaceState {
	st := s.st
	st.Beyond = 0
	if !st.Race.Done {
		return st
	}
	for _, byC := range s.pending {
		for _, recs := range byC {
			if len(recs) == 2 {
				st.Beyond++
			}
		}
	}
	return st
}
