package evolver

import (
	"context"

	"crucible/arena"
	"crucible/engine"
	"crucible/evolver/behave"
)

// behaviourLog holds the behaviour counts the evaluator measured in its
// latest batch, by variant id: what MAP-Elites places its candidates by.
type behaviourLog struct {
	latest map[string]behave.Counts
}

// Counts returns the counts of variant id in the latest batch.
func (l *behaviourLog) Counts(id string) (behave.Counts, bool) {
	c, ok := l.latest[id]
	return c, ok && c.Matches > 0
}

// watchEntrant wraps the constructor of a candidate's entrant so that its
// players are watched into c.
func watchEntrant(e arena.Entrant, beh *behave.Behaviour, c *behave.Counter) arena.Entrant {
	if beh.Watch == nil {
		return e
	}
	inner := e.New
	e.New = func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
		p, err := inner(ctx, seed, seat)
		if err != nil {
			return p, err
		}
		return beh.Watch(p, c), nil
	}
	return e
}

// recordMatch adds a finished match of the candidate at seat to c.
func recordMatch(beh *behave.Behaviour, c *behave.Counter, detail any, seat int, score float64, turns int) {
	if beh == nil || c == nil {
		return
	}
	c.AddMatch(turns, score)
	if beh.Record != nil && detail != nil {
		beh.Record(detail, seat, c)
	}
}
