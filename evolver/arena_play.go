package evolver

import (
	"context"
	"crucible/arena"
	"fmt"
)

// Evaluate plays the batch.
func (a *arenaEvaluator) Evaluate(ctx context.Context, b matchBatch) ([]measure, error) {
	return a.EvaluateProgress(ctx, b, nil)
}

// EvaluateProgress plays the batch; progress, when set, is called after
// every match with the matches done and the batch's total.
func (a *arenaEvaluator) EvaluateProgress(ctx context.Context, b matchBatch, progress func(done, total int)) ([]measure, error) {
	s := a.setup(b)
	var out []measure
	var err error
	if a.Seats > 2 {
		out, err = a.evaluateGroups(ctx, b, s, progress)
	} else {
		out, err = a.evaluatePairs(ctx, b, s, progress)
	}
	if err != nil {
		return nil, err
	}
	a.keepBehaviour(s, b)
	return out, nil
}

// evaluatePairs plays every candidate against every opponent on every
// seed in both seat orders.
func (a *arenaEvaluator) evaluatePairs(ctx context.Context, b matchBatch, s evalSetup, progress func(done, total int)) ([]measure, error) {
	entrants := s.entrants
	jobs := arena.Gauntlet(s.players, s.pool, b.Seeds)
	byID := make(map[string]arena.Job, len(jobs))
	for _, j := range jobs {
		byID[j.ID] = j
	}
	out := newMeasures(len(b.Candidates), len(b.Seeds))
	err := a.play()(ctx, a.Game, entrants, jobs, arena.Options{Workers: a.Workers, Config: a.Config, Progress: progress}, func(r arena.Record) error {
		j, ok := byID[r.Job]
		if !ok {
			return fmt.Errorf("arena returned a record of unknown job %q", r.Job)
		}
		seat := 0
		if j.Seats[0] >= len(b.Candidates) {
			seat = 1
		}
		c := j.Seats[seat]
		pts := 0.0
		switch {
		case r.Error != "":
			a.Failures++
		case r.Ranks[seat] < r.Ranks[1-seat]:
			pts = 1
		case r.Ranks[seat] == r.Ranks[1-seat]:
			pts = 0.5
		}
		a.observe(s, c, r, seat)
		m := &out[c]
		m.Points += pts
		m.Games++
		m.Matches++
		m.SeedPoints[j.Round] += pts
		m.SeedGames[j.Round]++
		vs := m.Versus[entrants[j.Seats[1-seat]].Name]
		vs.Points += pts
		vs.Games++
		m.Versus[entrants[j.Seats[1-seat]].Name] = vs
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
