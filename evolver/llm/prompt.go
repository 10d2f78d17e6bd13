package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"crucible/strategies"
)

// System is the system message of every request.
const System = "You tune the numeric parameters of a game-playing strategy to make it win more. You answer with one JSON object."

// TrendRows is how many generations the prompt's trend shows.
const TrendRows = 8

// HallRow is the name of the per-opponent table's row of the earlier
// champions of the search, whose results the caller sums under it.
const HallRow = "earlier champions of this search"

// Generation is one generation in the prompt's trend.
type Generation struct {
	// Generation is the generation's number, from 0.
	Generation int `json:"generation"`
	// Model is how many of its proposals came from the model (the rest
	// are mutations of the elite).
	Model int `json:"model"`
	// Fitness is its proposals' fitness as the search told it.
	Fitness []float64 `json:"fitness"`
	// Seen is set once Base and Leader are known: the base's fitness and
	// the hall of fame's leader's after the generation.
	Seen   bool    `json:"seen,omitempty"`
	Base   float64 `json:"base,omitempty"`
	Leader float64 `json:"leader,omitempty"`
}

// Tally is a sum of pairwise results: Points (win 1, draw 0.5, loss 0)
// over Games.
type Tally struct {
	Points, Games float64
}

// Measured is a genome as the prompt shows it, with what the search
// measured of it.
type Measured struct {
	// Genome is its parameters, in schema order.
	Genome strategies.Genome
	// Fitness is its seed-adjusted score rate, Rate its raw running
	// score rate over Games pairwise games in Generations generations.
	Fitness, Rate, Games float64
	Generations          int
	// Versus splits its results by opponent name.
	Versus map[string]Tally
}

// Opponent is one reference opponent the prompt lists.
type Opponent struct {
	// Name and Description are the opponent's; Self is set when it is
	// the base strategy itself at its defaults.
	Name, Description string
	Self              bool
}

// Input is everything a prompt states.
type Input struct {
	// Strategy is the base strategy: its name, description and parameters.
	Strategy strategies.Strategy
	// Title is the game's name as the prompt calls it ("" for the
	// strategy's game name, quoted) and Rules the game's rules ("" for no
	// rules section); GameConfig is the run's game configuration as JSON,
	// shown when it changes a default.
	Title, Rules string
	GameConfig   json.RawMessage
	// Opponents are the reference opponents.
	Opponents []Opponent
	// Base is the base's defaults as measured (nil before the base has
	// played), Measured the other measured genomes, best fitness first.
	Base     *Measured
	Measured []Measured
	// Trend is the last generations, oldest first.
	Trend []Generation
	// Show is how many of the best and of the worst genomes the prompt
	// shows; Generation the generation asked for (from 0) and N the
	// number of genomes asked.
	Show, Generation, N int
}

// sig3 writes v rounded to 3 significant digits, without an exponent and
// without trailing zeros (0.5, 0.125, 12.3, 1230, -0.0417).
func sig3(v float64) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		if v == 0 {
			return "0"
		}
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	mag := int(math.Floor(math.Log10(math.Abs(v))))
	decimals := 2 - mag
	scale := math.Pow(10, float64(decimals))
	r := math.Round(v*scale) / scale
	if r != 0 && int(math.Floor(math.Log10(math.Abs(r)))) > mag { // 9.996 -> 10.0
		decimals--
	}
	s := strconv.FormatFloat(r, 'f', max(0, decimals), 64)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	if s == "-0" {
		s = "0"
	}
	return s
}

// signed is sig3 with a sign: +0.125, -0.03, 0.
func signed(v float64) string {
	s := sig3(v)
	if s != "0" && !strings.HasPrefix(s, "-") {
		s = "+" + s
	}
	return s
}

// formatParam writes a parameter's value: whole for an integer
// parameter, 3 significant digits otherwise.
func formatParam(p strategies.Param, v float64) string {
	if p.Integer {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	return sig3(v)
}

// paramsJSON writes a genome as a JSON object in schema order.
func paramsJSON(schema strategies.Schema, g strategies.Genome) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, p := range schema {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: %s", p.Name, formatParam(p, g[i]))
	}
	b.WriteByte('}')
	return b.String()
}

// stdErr is one standard error of a score rate p over games, with p held
// inside [0.05, 0.95], as the search's conservative estimate does.
func stdErr(p, games float64) float64 {
	if games <= 0 {
		return math.Inf(1)
	}
	p = math.Min(0.95, math.Max(0.05, p))
	return math.Sqrt(p * (1 - p) / games)
}

// Prompt builds the user message of a request: the game's rules, the
// strategy and its parameters, what fitness is, the base's fitness, the
// best genomes with their results against each opponent, the worst
// genomes, the trend of the last generations and the answer's shape.
// Measured figures are rounded to 3 significant digits.
func Prompt(in Input) string {
	if in.Strategy.Program != nil {
		return ProgramPrompt(in)
	}
	s := in.Strategy
	schema := s.Schema
	var b strings.Builder
	title := in.Title
	if title == "" {
		title = strconv.Quote(s.Game)
	}
	fmt.Fprintf(&b, "You are tuning the parameters of the strategy %q for the game %s.\n", s.Name, title)
	if in.Rules != "" {
		b.WriteString("\n## The game\n\n")
		b.WriteString(in.Rules)
		if cfg := configText(in.GameConfig); cfg != "" {
			fmt.Fprintf(&b, "\nThis run changes these settings from their defaults: %s\n", cfg)
		}
	}

	fmt.Fprintf(&b, "\n## The strategy\n\n%s: %s\n\nParameters (name: range, kind, default - what it does):\n", s.Name, s.Description)
	for _, p := range schema {
		kind := "real"
		if p.Integer {
			kind = "integer"
		}
		fmt.Fprintf(&b, "- %s: %s, %s, default %s - %s\n", p.Name, p.Range(), kind, formatParam(p, p.Default), p.Description)
	}

	base, measured := in.Base, in.Measured
	if base != nil && base.Games == 0 {
		base = nil
	}
	b.WriteString("\n## Fitness\n\n")
	b.WriteString("Every generation, each genome plays matches on that generation's fresh seeds against a fixed pool of opponents. " +
		"Each match gives the genome one result per opponent: win 1, draw 0.5, loss 0; a score rate is the mean of such results. " +
		"Seeds differ in how hard they are, so fitness is measured against the base (the strategy at its defaults), which plays every generation on the same seeds: " +
		"a genome's fitness is the base's score rate averaged over all generations so far, plus the genome's mean advantage over the base " +
		"(its score rate less the base's on the same seeds, averaged over the generations the genome played). " +
		"So the base's fitness is its own score rate averaged over the generations, and vs_base below is a genome's fitness less the base's. " +
		"Fitness is on the score-rate scale but not confined to 0..1: it can fall below 0 or exceed 1 (its full range is -1 to 2). " +
		"se is one standard error: differences smaller than about two of them are noise, and a genome measured on few games is less certain than one measured on many.\n")
	if base != nil {
		fmt.Fprintf(&b, "\nThe base's fitness is %s (score rate %s over %.0f games in %d generations).\n", sig3(base.Fitness), sig3(base.Rate), base.Games, base.Generations)
	} else {
		b.WriteString("\nThe base has not been measured yet.\n")
	}

	if len(in.Opponents) > 0 {
		b.WriteString("\n## Opponents\n\n")
		for _, o := range in.Opponents {
			self := ""
			if o.Self {
				self = " (the base itself, at its defaults)"
			}
			fmt.Fprintf(&b, "- %s: %s%s\n", o.Name, o.Description, self)
		}
		fmt.Fprintf(&b, "- %s: the search's latest champion (a genome of %s) joins the opponents once there is one.\n", HallRow, s.Name)
	}

	k := min(in.Show, len(measured))
	best := measured[:k]
	line := func(label string, e *Measured, withBase bool) {
		fmt.Fprintf(&b, "%s {\"params\": %s, \"fitness\": %s", label, paramsJSON(schema, e.Genome), sig3(e.Fitness))
		if withBase {
			fmt.Fprintf(&b, ", \"vs_base\": %s", sig3(e.Fitness-base.Fitness))
		}
		fmt.Fprintf(&b, ", \"se\": %s, \"score_rate\": %s, \"games\": %.0f, \"generations\": %d}\n", sig3(stdErr(e.Fitness, e.Games)), sig3(e.Rate), e.Games, e.Generations)
	}
	b.WriteString("\n## Measured genomes\n")
	if base != nil {
		b.WriteString("\nThe base (the defaults):\n")
		line("base", base, false)
	}
	if len(measured) == 0 {
		fmt.Fprintf(&b, "\nNo other genome has been measured yet. The defaults are %s.\n", paramsJSON(schema, schema.Defaults()))
	} else {
		fmt.Fprintf(&b, "\nBest genomes so far, by fitness:\n")
		for i := range best {
			line(fmt.Sprintf("#%d", i+1), &best[i], base != nil)
		}
		if rest := measured[k:]; len(rest) > 0 {
			fmt.Fprintf(&b, "\nWorst genomes so far:\n")
			rest = rest[max(0, len(rest)-in.Show):]
			for i := range rest {
				line("-", &rest[i], base != nil)
			}
		}
	}

	writeVersus(&b, base, best)
	writeTrend(&b, in.Trend)

	fmt.Fprintf(&b, "\n## Your answer\n\nThis is generation %d of the search. Propose %d new genomes, different from those above, that you expect to reach a higher fitness than the best so far. "+
		"Give every value as a plain JSON number (not a string) inside its parameter's range, integer parameters as whole numbers; a parameter you leave out takes its default. "+
		"Answer with one JSON object of this shape, with %d entries in \"genomes\" (\"reasoning\" is optional; keep it short):\n", in.Generation+1, in.N, in.N)
	fmt.Fprintf(&b, "{\"reasoning\": \"...\", \"genomes\": [{\"params\": %s}]}\n", paramsJSON(schema, schema.Defaults()))
	return b.String()
}

// configText is the run's game configuration compacted, or "" when it
// is empty, null or {} (the defaults).
func configText(raw json.RawMessage) string {
	var buf bytes.Buffer
	if len(raw) == 0 || json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	if s := buf.String(); s != "null" && s != "{}" {
		return s
	}
	return ""
}

// writeVersus writes the score rates of the base and the best genomes
// against each opponent, hardest for the base first; the earlier
// champions of the search come summed into one row (HallRow).
func writeVersus(b *strings.Builder, base *Measured, best []Measured) {
	cols := make([]*Measured, 0, len(best)+1)
	labels := make([]string, 0, len(best)+1)
	if base != nil {
		cols = append(cols, base)
		labels = append(labels, "base")
	}
	for i := range best {
		cols = append(cols, &best[i])
		labels = append(labels, fmt.Sprintf("#%d", i+1))
	}
	tallies := make([]map[string]Tally, len(cols))
	rows := map[string]bool{}
	for i, e := range cols {
		tallies[i] = map[string]Tally{}
		for name, t := range e.Versus {
			sum := tallies[i][name]
			sum.Points += t.Points
			sum.Games += t.Games
			tallies[i][name] = sum
			rows[name] = true
		}
	}
	if len(rows) == 0 {
		return
	}
	names := make([]string, 0, len(rows))
	for name := range rows {
		names = append(names, name)
	}
	rate := func(t Tally) float64 {
		if t.Games == 0 {
			return math.Inf(1)
		}
		return t.Points / t.Games
	}
	sort.Slice(names, func(i, j int) bool {
		if base != nil {
			ri, rj := rate(tallies[0][names[i]]), rate(tallies[0][names[j]])
			if ri != rj {
				return ri < rj
			}
		}
		return names[i] < names[j]
	})
	b.WriteString("\n## Results against each opponent\n\n" +
		"Score rate (games in parentheses) of the base and of the best genomes above against each opponent, hardest for the base first. " +
		"These are raw rates, not adjusted for the seeds each genome happened to play; over n games a rate is uncertain by about 0.5/sqrt(n) (0.125 over 16 games).\n\n")
	fmt.Fprintf(b, "| opponent | %s |\n|---|%s\n", strings.Join(labels, " | "), strings.Repeat("---|", len(labels)))
	for _, name := range names {
		cells := make([]string, len(cols))
		for i := range cols {
			t, ok := tallies[i][name]
			if !ok || t.Games == 0 {
				cells[i] = "-"
				continue
			}
			cells[i] = fmt.Sprintf("%s (%.0f)", sig3(t.Points/t.Games), t.Games)
		}
		fmt.Fprintf(b, "| %s | %s |\n", name, strings.Join(cells, " | "))
	}
}

// writeTrend writes the last generations: where their proposals came
// from, how they fared, and the leader's and the base's fitness after
// each.
func writeTrend(b *strings.Builder, rows []Generation) {
	if len(rows) == 0 {
		return
	}
	b.WriteString("\n## Trend of the last generations\n\n" +
		"For each generation: who proposed its genomes, the best and mean fitness of those genomes, how many beat the base, " +
		"and the fitness of the search's leader and of the base after it, as measured then.\n\n" +
		"| generation | proposed by | best proposal | mean proposal | above base | leader | base |\n|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		by := "model"
		switch {
		case r.Model == 0:
			by = "mutation"
		case r.Model < len(r.Fitness):
			by = fmt.Sprintf("model %d, mutation %d", r.Model, len(r.Fitness)-r.Model)
		}
		hi, sum, above := math.Inf(-1), 0.0, 0
		for _, f := range r.Fitness {
			hi = math.Max(hi, f)
			sum += f
			if r.Seen && f > r.Base {
				above++
			}
		}
		mean := sum / float64(len(r.Fitness))
		leader, baseFit, aboveText := "-", "-", "-"
		if r.Seen {
			leader, baseFit = sig3(r.Leader), sig3(r.Base)
			aboveText = fmt.Sprintf("%d of %d", above, len(r.Fitness))
		}
		fmt.Fprintf(b, "| %d | %s | %s | %s | %s | %s | %s |\n", r.Generation+1, by, sig3(hi), sig3(mean), aboveText, leader, baseFit)
	}
}
