package evolver

import (
	"strings"

	"crucible/evolver/llm"
)

// hallPrefix starts the evaluator's name of an earlier champion of the
// search playing as an opponent (see arenaEvaluator).
const hallPrefix = "hall:"

// Prompt builds the request of generation gen (from 0) from the history:
// what llm.Prompt states, read off the search's entries.
func (l *llmAlgo) Prompt(gen int, h history) string {
	s := l.run.space.Base
	in := llm.Input{Strategy: s, Title: l.run.title, Rules: l.run.rules, GameConfig: l.run.gameConfig,
		Show: l.opt.Show, Generation: gen, N: l.n}
	for _, o := range l.run.opponents {
		in.Opponents = append(in.Opponents, llm.Opponent{Name: o.Name, Description: o.Strategy.Description,
			Self: o.Strategy.Game == s.Game && o.Strategy.Name == s.Name && o.VariantID == ""})
	}
	baseID := l.run.space.ID(l.run.space.Origin())
	var base *entry
	var measured []*entry
	for _, e := range h.Entries {
		switch {
		case e.ID == baseID:
			base = e
		case e.Games > 0:
			measured = append(measured, e)
		}
	}
	sortByFitness(measured)
	if base != nil {
		m := l.measured(base)
		in.Base = &m
	}
	for _, e := range measured {
		in.Measured = append(in.Measured, l.measured(e))
	}
	if base != nil && base.Games == 0 {
		base = nil
	}
	in.Trend = l.trendView(h, base)
	return llm.Prompt(in)
}

// measured is an entry as the prompt shows it; the earlier champions
// among its opponents are summed into one row.
func (l *llmAlgo) measured(e *entry) llm.Measured {
	m := llm.Measured{Genome: l.run.space.Genome(e.X), Fitness: e.Fitness, Rate: e.Mean(), Games: e.Games, Generations: e.Evals}
	if len(e.Versus) > 0 {
		m.Versus = map[string]llm.Tally{}
	}
	for name, t := range e.Versus {
		if strings.HasPrefix(name, hallPrefix) {
			name = llm.HallRow
		}
		sum := m.Versus[name]
		sum.Points += t.Points
		sum.Games += t.Games
		m.Versus[name] = sum
	}
	return m
}

// trendView returns the last llm.TrendRows generations, the latest
// completed from h when the next Ask has not yet recorded its base and
// leader.
func (l *llmAlgo) trendView(h history, base *entry) []llm.Generation {
	rows := append([]llm.Generation(nil), l.trend[max(0, len(l.trend)-llm.TrendRows):]...)
	if n := len(rows); n > 0 && !rows[n-1].Seen && base != nil && len(h.Hall) > 0 {
		rows[n-1].Seen, rows[n-1].Base, rows[n-1].Leader = true, base.Fitness, h.Hall[0].Fitness
	}
	return rows
}
