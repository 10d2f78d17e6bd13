// A night's schedule: its jobs planned again from its config, the versions
// they seat and the slots that map each job back to versions and tests.

package ladder

import (
	"context"
	"crucible/arena"
	"crucible/arena/rating"
	"fmt"
	"slices"
	"sort"
	"strconv"
)

// plan plans the night's schedule again from its config (see planNight):
// the same config gives the same jobs.
func (n Night) plan() ([]plannedJob, error) {
	prior := make(map[int64]rating.Rating, len(n.Config.Prior))
	for k, r := range n.Config.Prior {
		id, err := strconv.ParseInt(k, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("night %s: config: prior of version %q: %w", n.Label, k, err)
		}
		prior[id] = r
	}
	isNew := map[int64]bool{}
	for _, id := range n.Config.New {
		isNew[id] = true
	}
	for _, id := range n.Config.Versions {
		if _, ok := prior[id]; !ok {
			return nil, fmt.Errorf("night %s: config: no prior rating of version %d", n.Label, id)
		}
	}
	if n.Config.Schedule == ScheduleAdaptive {
		// The rated matches are chosen as the night goes (stages.go).
		return planRegression(n.ID, nil, n.Seed, n.Config.Regression), nil
	}
	return planNight(n.ID, n.Config.Versions, prior, isNew, n.Seed, n.Config.SeedsPerNight, n.Config.NewVersionFactor, n.Config.Regression), nil
}

// slot is a job of a night's schedule as its chunk records it: its
// players' version ids in seat order and, for a regression game, its test,
// pair and the new version's seat.
type slot struct {
	versions []int64
	test     int64
	pair     int
	newSeat  int
}

// schedule is a night's jobs as slots, by position, and the position of
// each job id.
type schedule struct {
	slots    []slot
	position map[string]int
}

// nightSchedule plans a night's jobs again, with its entrants (built by
// build, in version id order: the rated versions and the baselines of its
// regression tests) and its schedule of slots.
func (s *Store) nightSchedule(ctx context.Context, q querier, night Night, build Builder) ([]arena.Job, []arena.Entrant, schedule, error) {
	planned, err := night.plan()
	if err != nil {
		return nil, nil, schedule{}, err
	}
	return s.nightScheduleOf(ctx, q, night, planned, build)
}

// nightScheduleOf is nightSchedule of the planned jobs.
func (s *Store) nightScheduleOf(ctx context.Context, q querier, night Night, planned []plannedJob, build Builder) ([]arena.Job, []arena.Entrant, schedule, error) {
	versions, err := s.allVersions(ctx, q)
	if err != nil {
		return nil, nil, schedule{}, err
	}
	ids := append([]int64(nil), night.Config.Versions...)
	for _, t := range night.Config.Regression {
		if !slices.Contains(ids, t.Baseline) {
			ids = append(ids, t.Baseline)
		}
	}
	for _, r := range night.Config.Races {
		for _, id := range append([]int64{r.Baseline}, r.Candidates...) {
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	index := make(map[int64]int, len(ids))
	entrants := make([]arena.Entrant, len(ids))
	for i, id := range ids {
		v, ok := versions[id]
		if !ok {
			return nil, nil, schedule{}, fmt.Errorf("night %s: version %d of its schedule is missing", night.Label, id)
		}
		e, err := build(v)
		if err != nil {
			return nil, nil, schedule{}, fmt.Errorf("entrant %s (version %d, %s): %w", v.Entrant, v.Number, v.Fingerprint, err)
		}
		e.Name = v.Label
		entrants[i] = e
		index[id] = i
	}
	jobs, sched, err := night.jobsOf(planned, index)
	return jobs, entrants, sched, err
}

// jobsOf makes the arena's jobs and the schedule of slots of planned jobs
// of the night, index giving each version's entrant.
func (night Night) jobsOf(planned []plannedJob, index map[int64]int) ([]arena.Job, schedule, error) {
	jobs := make([]arena.Job, len(planned))
	sched := schedule{slots: make([]slot, len(planned)), position: make(map[string]int, len(planned))}
	seats := 0
	for _, p := range planned {
		seats += len(p.Versions)
	}
	backing := make([]int, seats) // one allocation for every job's seats
	for i, p := range planned {
		j := p.Job
		j.Seats, backing = backing[:len(p.Versions):len(p.Versions)], backing[len(p.Versions):]
		for k, id := range p.Versions {
			j.Seats[k] = index[id]
		}
		jobs[i] = j
		sl := slot{versions: p.Versions, test: p.Test, pair: p.Pair, newSeat: p.NewSeat}
		if p.Test > 0 && len(p.Versions) == 2 && p.Versions[1] != p.Versions[0] {
			for _, t := range night.Config.Regression {
				if t.Test == p.Test && p.Versions[1] == t.Version {
					sl.newSeat = 1
				}
			}
		}
		sched.slots[i] = sl
		sched.position[j.ID] = i
		if len(sched.position) != i+1 {
			return nil, schedule{}, fmt.Errorf("night %s: job %s is twice in its schedule", night.Label, j.ID)
		}
	}
	return jobs, sched, nil
}

// activeVersions are the current versions of the entrants not removed
// (never a race's candidate still racing or retired), by id.
func (s *Store) activeVersions(ctx context.Context, q querier) ([]Version, error) {
	return scanVersions(q.QueryContext(ctx, `SELECT `+prefixed("v.", versionCols)+` FROM versions v JOIN entrants e ON e.name = v.entrant
		WHERE e.removed_at IS NULL AND v.number = (SELECT MAX(w.number) FROM versions w WHERE w.entrant = v.entrant AND `+notCandidate("w.id")+`) ORDER BY v.id`))
}

// prefixed puts p before every column of a comma-separated list.
func prefixed(p, cols string) string {
	out := ""
	for i, c := range splitComma(cols) {
		if i > 0 {
			out += ", "
		}
		out += p + c
	}
	return out
}

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			part := s[start:i]
			for len(part) > 0 && part[0] == ' ' {
				part = part[1:]
			}
			out = append(out, part)
			start = i + 1
		}
	}
	return out
}
