package reports

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"

	"crucible/arena/rating"
)

// Holdout is a paired comparison of the champion (A) with the base (B) on
// held-out seeds.
type Holdout struct {
	// A and B are the compared variants' names.
	A, B string
	// Opponents are the pool both played, Seeds the held-out seeds and
	// GamesPerSide each side's pairwise games.
	Opponents    []string
	Seeds        int
	GamesPerSide float64
	// RateA and RateB are the score rates, Diff = RateA - RateB, and Lo
	// and Hi bound its 95% interval (infinite with fewer than two seeds).
	RateA, RateB, Diff, Lo, Hi float64
}

// ParamRow is one parameter of the champion against the base's default.
type ParamRow struct {
	// Name and Description are the schema's.
	Name, Description string
	// Ranged tells whether Min and Max (the parameter's bounds) are known;
	// Integer marks whole-number parameters.
	Ranged   bool
	Min, Max float64
	Integer  bool
	// Default is the base's value and Value the champion's.
	Default, Value float64
}

// EvolvePage is the content of the HTML report of an evolution run.
type EvolvePage struct {
	// Dir is the run directory.
	Dir string
	// Settings are the run's configuration and Outcome what the search
	// did (generations, matches, time, why it stopped), in display order.
	Settings, Outcome []Fact
	// Generations are the lines of generations.jsonl.
	Generations []Generation
	// Notes are remarks shown at the top (e.g. a run whose final stages
	// have not run).
	Notes []string
	// Champion is the champion's name and ChampionNote where it came
	// from; Params compares its parameters with the base's defaults.
	Champion, ChampionNote string
	Params                 []ParamRow
	// Program is the champion's program, one rule a line, when it is a
	// variant of a program strategy (Params is then empty: the program's
	// parameters are its rule slots), and ProgramRules its size.
	Program      string
	ProgramRules int
	// Holdout is the held-out comparison, nil when none was made.
	Holdout *Holdout
	// Leaderboard is the ranking tournament's (the champion and the
	// reference strategies on fresh seeds), nil when it has not run.
	// Base names the base strategy and Evolved the evolved variants on
	// it, which the table marks.
	Leaderboard *rating.Summary
	Base        string
	Evolved     []string
	// HeadToHead is the finalists' round robin (reported, it does not
	// choose the champion) and HeadToHeadSeeds its seeds; nil when it did
	// not run.
	HeadToHead      *rating.Summary
	HeadToHeadSeeds int
	// Archive is the MAP-Elites archive of a map-elites run, nil for
	// other runs.
	Archive *Archive
}

// WriteEvolveHTML writes the report of an evolution run as one HTML page
// with inline CSS and SVG: the settings, the fitness over the generations,
// the champion's parameters against the base's defaults, the held-out
// comparison and the final tournament. The same page gives the same bytes.
func WriteEvolveHTML(w io.Writer, pg EvolvePage) error {
	fit, err := fitnessPlot(pg.Generations)
	if err != nil {
		return err
	}
	b, err := optBoard(pg.Leaderboard, pg.Base, pg.Evolved)
	if err != nil {
		return err
	}
	h2h, err := optBoard(pg.HeadToHead, pg.Base, pg.Evolved)
	if err != nil {
		return err
	}
	var params []paramView
	for _, p := range pg.Params {
		params = append(params, newParamView(p))
	}
	var gens []genView
	if n := len(pg.Generations); n > 0 {
		first, last := pg.Generations[0], pg.Generations[n-1]
		best := first
		for _, g := range pg.Generations {
			if g.Best > best.Best {
				best = g
			}
		}
		for _, g := range []struct {
			label string
			g     Generation
		}{{"first", first}, {"highest fitness", best}, {"last", last}} {
			// Generations are shown from 1, as crucible evolve prints them.
			gens = append(gens, genView{g.label, g.g.Generation + 1, num3(g.g.Best), num3(g.g.Mean),
				num3(g.g.Min) + "–" + num3(g.g.Max), num3(g.g.Base)})
		}
	}
	return render(w, "evolve", struct {
		Title    string
		Page     EvolvePage
		Fitness  template.HTML
		GenRows  []genView
		Params   []paramView
		Holdout  *holdoutView
		Board    *board
		HasBoard bool
		H2H      *board
	}{"Evolution report: " + pg.Dir, pg, fit, gens, params, newHoldoutView(pg.Holdout), b, b != nil, h2h})
}

// HeadToHeadNote says why the champion may rank low, even last, in the
// finalists' head-to-head; crucible evolve prints it under that table and
// the report shows it.
const HeadToHeadNote = "The champion is the finalist strongest against the field (the selection above), not the winner of this round robin, so its place here, even last, is expected: a variant bred against the search's latest leaders can beat the other finalists and still score less against the field the champion must face."

// optBoard is the board of s, nil for none.
func optBoard(s *rating.Summary, base string, evolved []string) (*board, error) {
	if s == nil {
		return nil, nil
	}
	b, err := newBoard(*s, base, evolved)
	return &b, err
}

func num3(v float64) string { return fmt.Sprintf("%.3f", v) }

// genView is one line of the generations summary table.
type genView struct {
	Label                       string
	Generation                  int
	Best, Mean, Spread, BaseStr string
}

// paramView is a ParamRow with its figures formatted and the positions of
// the default and the champion in the parameter's range (0 to paramBarW).
type paramView struct {
	Name, Description, Range, Default, Value, Change string
	Ranged                                           bool
	DefX, ValX                                       float64
	Moved                                            bool
}

// paramBarW is the width of the parameter bars in CSS pixels.
const paramBarW = 160.0

func newParamView(p ParamRow) paramView {
	v := paramView{Name: p.Name, Description: p.Description, Default: fmtParam(p.Default, p.Integer),
		Value: fmtParam(p.Value, p.Integer), Ranged: p.Ranged, Moved: p.Value != p.Default}
	d := p.Value - p.Default
	switch {
	case d == 0:
		v.Change = "="
	case p.Integer:
		v.Change = fmt.Sprintf("%+.0f", d)
	default:
		v.Change = fmt.Sprintf("%+.3g", d)
	}
	if p.Ranged && p.Max > p.Min {
		v.Range = "[" + fmtParam(p.Min, p.Integer) + ", " + fmtParam(p.Max, p.Integer) + "]"
		at := func(x float64) float64 {
			f := math.Max(0, math.Min(1, (x-p.Min)/(p.Max-p.Min)))
			return math.Round((6+f*(paramBarW-12))*10) / 10
		}
		v.DefX, v.ValX = at(p.Default), at(p.Value)
		if d != 0 {
			v.Change += fmt.Sprintf(" (%+.0f%%)", 100*d/(p.Max-p.Min))
		}
	} else {
		v.Ranged = false
		v.Range = "unknown"
	}
	return v
}

// fmtParam shows a parameter value: whole numbers as such, others with
// four significant digits.
func fmtParam(v float64, integer bool) string {
	if integer || v == math.Trunc(v) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// holdoutView is the held-out comparison with its figures formatted and
// the interval bar's geometry (0 to holdoutBarW).
type holdoutView struct {
	Holdout
	Opponents              string
	RateAStr, RateBStr     string
	DiffStr, Interval      string
	Verdict                string
	Significant, Bounded   bool
	Zero, X, Lo, Hi, Scale float64
}

// holdoutBarW is the width of the held-out interval bar in CSS pixels.
const holdoutBarW = 360.0

func newHoldoutView(h *Holdout) *holdoutView {
	if h == nil {
		return nil
	}
	v := &holdoutView{Holdout: *h, Opponents: strings.Join(h.Opponents, ", "),
		RateAStr: fmt.Sprintf("%.3f", h.RateA), RateBStr: fmt.Sprintf("%.3f", h.RateB),
		DiffStr: fmt.Sprintf("%+.3f", h.Diff), Significant: h.Lo > 0}
	v.Bounded = !math.IsInf(h.Lo, 0) && !math.IsInf(h.Hi, 0) && !math.IsNaN(h.Lo) && !math.IsNaN(h.Hi)
	switch {
	case !v.Bounded:
		v.Interval = "unbounded (fewer than two held-out seeds)"
		v.Verdict = "too few held-out seeds to measure a difference"
	case v.Significant:
		v.Interval = fmt.Sprintf("[%+.3f, %+.3f]", h.Lo, h.Hi)
		v.Verdict = "the interval lies above zero: the champion is measurably stronger than the base"
	default:
		v.Interval = fmt.Sprintf("[%+.3f, %+.3f]", h.Lo, h.Hi)
		v.Verdict = "the interval does not lie above zero: no measurable improvement over the base"
	}
	if v.Bounded {
		scale := math.Max(0.05, math.Max(math.Abs(h.Lo), math.Abs(h.Hi)))
		scale = math.Ceil(scale*20) / 20 // a multiple of 0.05
		v.Scale = scale
		at := func(x float64) float64 {
			return math.Round((holdoutBarW/2+x/scale*(holdoutBarW/2-10))*10) / 10
		}
		v.Zero, v.X, v.Lo, v.Hi = at(0), at(h.Diff), at(h.Lo), at(h.Hi)
	}
	return v
}
