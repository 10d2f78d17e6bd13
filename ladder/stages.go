// Stages: the games a night chooses as it goes, after its planned
// schedule: the batches of its races of candidates, then (with
// ScheduleAdaptive) its rated matches.

package ladder

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"crucible/arena"
)

// A night's stages. A stage is a batch of jobs chosen from the results
// recorded before it only, never from timing: stage s begins at the chunk
// after stage s-1's last (so every chunk holds the jobs of one stage, and
// a stage is known whole before its chunks are written), and a night
// continued after a kill plans its stages again from the chunks recorded,
// playing only those missing. The same seeds thus give the same stages, the
// same matches and the same verdicts at any worker count and however often
// the night is interrupted.

// Schedules of a night's rated matches.
const (
	// ScheduleFixed plans them when the night starts (planRated).
	ScheduleFixed = "fixed"
	// ScheduleAdaptive chooses them in batches where they most reduce the
	// uncertainty of the top of the order (arena.AdaptiveChooser).
	ScheduleAdaptive = "adaptive"
)

// AdaptiveNight are the settings of an adaptive night, kept in its config:
// the order of its Top leading versions counts as settled when its
// probability reaches Confidence (stats.TopOrderCertainty with Draws
// draws); MaxMatches caps its rated matches (0: none, only the night's
// time budget); Batch is the game pairs of a stage after the first (0:
// arena.DefaultAdaptiveBatch).
type AdaptiveNight struct {
	Top        int     `json:"top"`
	Confidence float64 `json:"confidence"`
	MaxMatches int     `json:"max_matches,omitempty"`
	Batch      int     `json:"batch,omitempty"`
	Draws      int     `json:"draws,omitempty"`
}

// AdaptiveResult is how an adaptive night's rated matches ended.
type AdaptiveResult struct {
	// Stop is "settled", "certain", "budget" (MaxMatches) or "time" (the
	// night's budget); Prob the probability of the top order then, Order
	// its versions' labels, best first.
	Stop    string   `json:"stop"`
	Prob    float64  `json:"prob"`
	Order   []string `json:"order"`
	Matches int      `json:"matches"`
	Batches int      `json:"batches"`
}

// Describe says it in a line.
func (a AdaptiveResult) Describe(cfg AdaptiveNight) string {
	why := map[string]string{"settled": "settled", "certain": "no comparison left uncertain", "budget": "match budget spent", "time": "time budget spent"}[a.Stop]
	return fmt.Sprintf("adaptive: %d rated matches in %d batches, %s; top %d order %v at %.1f%% (wanted %g%%)",
		a.Matches, a.Batches, why, cfg.Top, a.Order, 100*a.Prob, 100*cfg.Confidence)
}

// stager chooses a night's stages: next gives a stage's jobs (none: done),
// add its records by job id, and says whether they were all there.
type stager interface {
	next() []plannedJob
	add(jobs []plannedJob, recs map[string]arena.Record) (complete bool, err error)
}

// adaptiveStager chooses an adaptive night's rated matches.
type adaptiveStager struct {
	night    Night
	ch       *arena.AdaptiveChooser
	versions []int64
	labels   []string
	timeCut  bool
}

// newAdaptiveStager begins the adaptive schedule of night, nil for a night
// planned in full.
func newAdaptiveStager(night Night, versions map[int64]Version) (*adaptiveStager, error) {
	if night.Config.Schedule != ScheduleAdaptive {
		return nil, nil
	}
	a := night.Config.Adaptive
	if a == nil {
		return nil, fmt.Errorf("night %s: adaptive schedule without its settings (was the database edited?)", night.Label)
	}
	st := &adaptiveStager{night: night, versions: night.Config.Versions}
	entrants := make([]arena.Entrant, len(st.versions))
	for i, id := range st.versions {
		entrants[i].Name = versions[id].Label
		st.labels = append(st.labels, versions[id].Label)
	}
	ch, err := arena.NewAdaptiveChooser(entrants, arena.AdaptiveOptions{Top: a.Top, Confidence: a.Confidence, MaxMatches: a.MaxMatches,
		Seed: night.Seed, Batch: a.Batch, Draws: a.Draws})
	if err != nil {
		return nil, fmt.Errorf("night %s: adaptive schedule: %w", night.Label, err)
	}
	st.ch = ch
	return st, nil
}

// next is the chooser's next batch as jobs of the night: a pair's m-th
// meeting is rated round m, on the seed of round m of a planned night, with
// the same job ids ("n<night>-r<m>-<version>v<version>").
func (a *adaptiveStager) next() []plannedJob {
	if a.timeCut {
		return nil
	}
	games := a.ch.Next()
	jobs := make([]plannedJob, 0, 2*len(games))
	prefix := "n" + strconv.FormatInt(a.night.ID, 10) + "-r"
	for _, g := range games {
		x, y := a.versions[g.A], a.versions[g.B]
		for _, seats := range [2][2]int64{{x, y}, {y, x}} {
			id := prefix + strconv.Itoa(g.Round) + "-" + strconv.FormatInt(seats[0], 10) + "v" + strconv.FormatInt(seats[1], 10)
			jobs = append(jobs, plannedJob{Job: arena.Job{ID: id, Round: g.Round, Seed: g.Seed}, Versions: []int64{seats[0], seats[1]}})
		}
	}
	return jobs
}

func (a *adaptiveStager) add(jobs []plannedJob, recs map[string]arena.Record) (bool, error) {
	batch := make([]arena.Record, 0, len(jobs))
	complete := true
	for _, j := range jobs {
		r, ok := recs[j.ID]
		if !ok {
			complete = false
			continue
		}
		if r.Error != "" {
			return false, fmt.Errorf("night %s: match %s of the adaptive schedule failed (its choices rest on every result): %s", a.night.Label, r.Job, r.Error)
		}
		batch = append(batch, r)
	}
	if err := a.ch.Add(batch); err != nil {
		return false, err
	}
	a.timeCut = !complete
	return complete, nil
}

// result is where the adaptive schedule ended.
func (a *adaptiveStager) result() *AdaptiveResult {
	if a == nil {
		return nil
	}
	st := a.ch.State
	r := &AdaptiveResult{Stop: st.Stop, Prob: st.Certainty.Prob, Matches: st.Matches, Batches: st.Batches}
	if a.timeCut || r.Stop == "" {
		r.Stop = "time"
	}
	if st.Fit != nil {
		for _, i := range st.Certainty.Order {
			r.Order = append(r.Order, a.labels[i])
		}
	}
	return r
}

// playStages plays the stages of night after its planned schedule of
// fixed jobs: for each stager in turn, stage after stage, the jobs of a
// stage not recorded yet (done are the chunks recorded when the run
// began) are played with play, then the stage's records are read back
// and counted. It stops when every stager is done, or when a stage has
// matches to play and the budget is gone (budgetGone), or was cut by it:
// budgetSpent is then set.
func (s *Store) playStages(ctx, playCtx context.Context, night Night, fixed int, done map[int]bool, index map[int64]int,
	stagers []stager, budgetGone func() bool, playStage func(todo []arena.Job, sched schedule, base int) (int, error)) (played int, budgetSpent bool, err error) {
	size := night.Config.ChunkSize
	base := (fixed + size - 1) / size
	for _, st := range stagers {
		for {
			jobs := st.next()
			if len(jobs) == 0 {
				break
			}
			ajobs, sched, err := night.jobsOf(jobs, index)
			if err != nil {
				return played, false, err
			}
			chunks := (len(jobs) + size - 1) / size
			var todo []arena.Job
			for i, j := range ajobs {
				if !done[base+i/size] {
					todo = append(todo, j)
				}
			}
			if len(todo) > 0 {
				if budgetGone() {
					return played, true, nil
				}
				n, err := playStage(todo, sched, base)
				played += n
				if ctx.Err() != nil {
					return played, false, ctx.Err()
				}
				if errors.Is(err, context.DeadlineExceeded) && night.Budget > 0 && playCtx.Err() != nil {
					budgetSpent, err = true, nil
				}
				if err != nil {
					return played, false, err
				}
			}
			recs, err := s.chunkRecords(ctx, night.ID, base, base+chunks)
			if err != nil {
				return played, false, err
			}
			complete, err := st.add(jobs, recs)
			if err != nil {
				return played, false, err
			}
			base += chunks
			if !complete || budgetSpent {
				return played, true, nil
			}
		}
	}
	return played, false, nil
}

// chunkRecords decodes the records of chunks [from, to) of a night, by
// job id.
func (s *Store) chunkRecords(ctx context.Context, night int64, from, to int) (map[string]arena.Record, error) {
	rows, err := s.db.QueryContext(ctx, s.rebind("SELECT chunk, lines FROM match_chunks WHERE night_id = ? AND chunk >= ? AND chunk < ? ORDER BY chunk"), night, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]arena.Record{}
	for rows.Next() {
		var k int
		var lines []byte
		if err := rows.Scan(&k, &lines); err != nil {
			return nil, err
		}
		res, err := arena.ParseResults(lines, fmt.Sprintf("night %d, chunk %d", night, k))
		if err != nil {
			return nil, err
		}
		for _, r := range res.Records {
			out[r.Job] = r
		}
	}
	return out, rows.Err()
}
