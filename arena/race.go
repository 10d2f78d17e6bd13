package arena

import (
	"context"
	"fmt"

	"crucible/engine"
	"crucible/stats"
)

// RaceOptions configure PlayRace.
type RaceOptions struct {
	// Race is the race: the test of each candidate before the family's
	// adjustment, and the eliminations' error budget (see stats.Race).
	Race stats.Race
	// MaxPairs caps each candidate's pairs: the race ends undecided when
	// its leader reaches it.
	MaxPairs int
	// Seed is the base seed: round k is played on engine.Mix(Seed, k), the
	// same seed for every candidate.
	Seed uint64
	// Batch is the number of pairs the leader plays at a time; 0 means
	// stats.RaceBatch. It is not derived from the workers, so the race is
	// the same at any worker count.
	Batch int
	// Run are the options of the matches. Its Progress is not called.
	Run Options
	// Progress, when set, is called after every round counted.
	Progress func(RaceState)
}

// RaceState is a race after some rounds.
type RaceState struct {
	// Race is the race's state: every candidate's counts, LLR and status
	// (candidate i is entrant i+1), the pairs counted and the winner.
	Race *stats.RaceRun
	// Played counts the matches this call played, Resumed the finished
	// matches taken from the records given.
	Played, Resumed int
	// Beyond counts the pairs of a batch the race did not count: those
	// after its candidate left the race, or after the race ended.
	Beyond int
}

// RaceJobs are the matches of candidate c (an entrant index, the
// baseline being entrant 0) in round k on seed: the seat-swapped pair
// "r<k>-0v<c>", "r<k>-<c>v0".
func RaceJobs(k int, seed uint64, c int) []Job {
	return []Job{newJob(k, seed, []int{0, c}), newJob(k, seed, []int{c, 0})}
}

// PlayRace races entrants[1:] (the candidates) against entrants[0] (the
// baseline), each candidate's n-th pair on seed engine.Mix(Seed, n), the
// same seeds for every candidate. The race (stats.RaceRun) gives its
// leader the next batch of stats.RaceBatch pairs (or Batch), plays them
// on the workers, counts them in seed order and stops as it says. Which
// candidate plays next depends only on the pairs counted before, so the
// verdict is the same at any worker count. Every finished match is passed
// to emit, in completion order; prev are the records of an earlier run of
// the same race, as for PlaySPRT: the race is replayed from its start and
// the matches found there are counted without being played again. A
// failed match ends the run with an error.
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
		batch = stats.RaceBatch
	}
	if err := Validate(g, entrants, RaceJobs(0, 0, 1)); err != nil {
		return RaceState{}, err
	}
	st := RaceState{Race: run}
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
		return st, err
	}
	have := map[string]Record{}
	for _, r := range prev {
		if r.Error == "" {
			have[r.Job] = r
		}
	}
	for !run.Done {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		c, from, to, ok := run.Next(batch, opt.MaxPairs)
		if !ok {
			break
		}
		byPair := map[int][]Record{}
		var todo []Job
		for n := from; n < to; n++ {
			for _, j := range RaceJobs(n, engine.Mix(opt.Seed, uint64(n)), c+1) {
				if r, ok := have[j.ID]; ok {
					byPair[n] = append(byPair[n], r)
					st.Resumed++
				} else {
					todo = append(todo, j)
				}
			}
		}
		err := Run(ctx, g, entrants, todo, opt.Run, func(r Record) error {
			if err := emit(r); err != nil {
				return err
			}
			st.Played++
			if r.Error != "" {
				return fmt.Errorf("match %s of the race failed (the race cannot skip a pair; once the cause is fixed, --resume plays it again): %s", r.Job, r.Error)
			}
			byPair[r.Round] = append(byPair[r.Round], r)
			return nil
		})
		if err != nil {
			return st, err
		}
		for n := from; n < to; n++ {
			if run.Done || run.Racers[c].Status != stats.RaceActive {
				st.Beyond++
				continue
			}
			class, err := pairClass(byPair[n], entrants[0].Name, entrants[c+1].Name)
			if err != nil {
				return st, err
			}
			if err := run.Add(c, class); err != nil {
				return st, err
			}
		}
		if opt.Progress != nil {
			opt.Progress(st)
		}
	}
	return st, nil
}
