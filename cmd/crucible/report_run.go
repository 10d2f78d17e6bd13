// The evolve run's page: its settings, its search so far, the champion's
// parameters and program.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"crucible/evolver"
	"crucible/reports"
	"crucible/strategies"
)

// programOf returns the text of v's program (one rule a line) and its
// number of rules; ok is false when v is not a variant of a program
// strategy of reg (or reg could not be built: regErr).
func programOf(reg *strategies.Registry, regErr error, v strategies.Variant) (text string, rules int, ok bool) {
	if regErr != nil {
		return "", 0, false
	}
	r, err := reg.Check(v)
	if err != nil || r.Strategy.Program == nil || r.Strategy.Program.Text == nil {
		return "", 0, false
	}
	return r.Strategy.Program.Text(r.Genome), r.Strategy.Program.Size(r.Genome), true
}

// runSettings lists the run's configuration from its checkpoint.
func runSettings(m evolver.Meta) []reports.Fact {
	algo := m.AlgorithmText()
	stop := []string{}
	if m.Generations > 0 {
		stop = append(stop, fmt.Sprintf("after %d generations", m.Generations))
	}
	if m.BudgetS > 0 {
		stop = append(stop, "after "+(time.Duration(m.BudgetS*float64(time.Second))).String()+" of wall clock")
	}
	hallOpp := "none"
	if m.HallOpponents > 0 {
		hallOpp = strconv.Itoa(m.HallOpponents)
	}
	cfg := "the game's defaults"
	if len(m.GameConfig) > 0 {
		var b bytes.Buffer
		if json.Compact(&b, m.GameConfig) == nil {
			cfg = b.String()
		} else {
			cfg = string(m.GameConfig)
		}
	}
	return []reports.Fact{
		{Name: "game", Value: m.Game},
		{Name: "base strategy", Value: m.Base},
		{Name: "algorithm", Value: algo},
		{Name: "population", Value: strconv.Itoa(m.Population)},
		{Name: "seeds per generation", Value: fmt.Sprintf("%d (both seat orders)", m.Seeds)},
		{Name: "run seed", Value: strconv.FormatUint(m.Seed, 10)},
		{Name: "opponents", Value: strings.Join(m.Pool, ", ")},
		{Name: "hall of fame", Value: fmt.Sprintf("%d, of which %s join the opponents", m.Hall, hallOpp)},
		{Name: "stops", Value: strings.Join(stop, " or ")},
		{Name: "final stages", Value: fmt.Sprintf("selection of the top %d distinct finalists against the field, and ranking, on %d fresh seeds each", m.Top, m.TournamentSeeds)},
		{Name: "held-out seeds", Value: strconv.Itoa(m.Holdout)},
		{Name: "game configuration", Value: cfg},
	}
}

func seconds(s float64) string {
	return (time.Duration(s * float64(time.Second))).Round(time.Millisecond).String()
}

// searchSoFar describes the search from its generation lines alone.
func searchSoFar(gens []evolver.GenStats, label string) []reports.Fact {
	if len(gens) == 0 {
		return nil
	}
	last := gens[len(gens)-1]
	return []reports.Fact{
		{Name: label, Value: strconv.Itoa(len(gens))},
		{Name: "matches", Value: strconv.Itoa(last.Evaluations)},
		{Name: "search time", Value: seconds(last.ElapsedMS / 1000)},
	}
}

// paramRows lines up the champion's parameters with the base's defaults
// and ranges from the strategy's schema. When the base is not a known
// strategy (the run comes from another version), the parameters are listed
// without ranges and the note says why.
func paramRows(m evolver.Meta, champion, base *strategies.Variant, dir string) ([]reports.ParamRow, string) {
	reg, err := newRegistry()
	var s strategies.Strategy
	if err == nil {
		s, err = reg.Lookup(m.Game, m.Base)
	}
	if err != nil {
		// An outside bot's run: its schema is its champion manifest's.
		if bs, ok := botRunSchema(dir, m.Game, m.Base); ok {
			s, err = strategies.Strategy{Game: m.Game, Name: m.Base, Schema: bs}, nil
		}
	}
	if err != nil {
		var rows []reports.ParamRow
		names := make([]string, 0, len(champion.Params))
		for n := range champion.Params {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, n := range names {
			r := reports.ParamRow{Name: n, Value: champion.Params[n], Default: champion.Params[n]}
			if base != nil {
				if d, ok := base.Params[n]; ok {
					r.Default = d
				}
			}
			rows = append(rows, r)
		}
		return rows, fmt.Sprintf("The parameters' ranges are unknown: %v.", err)
	}
	var rows []reports.ParamRow
	for _, p := range s.Schema {
		v, ok := champion.Params[p.Name]
		if !ok {
			v = p.Default
		}
		rows = append(rows, reports.ParamRow{Name: p.Name, Description: p.Description, Ranged: true,
			Min: p.Min, Max: p.Max, Integer: p.Integer, Default: p.Default, Value: v})
	}
	return rows, ""
}
