// Package kindprog is the Kindling program bidder "program": a bidder
// written as data (rules over the public state) rather than code, so the
// evolver can rewrite its structure and not only its constants.
//
// A program is up to Slots rules "when CONDITION then ACTION", read
// every turn:
//
//   - spend P: the share of the sparks bid this turn (first such rule
//     that holds; none: the program's base spend);
//   - save S: keep at least S sparks (first such rule that holds);
//   - targets N: bid on the N beacons of highest appeal (first such rule;
//     none: the program's base targets);
//   - favour F W: every beacon where the condition holds gains W times
//     its feature F in appeal (all such rules add up);
//   - skip: beacons where the condition holds get no bid.
//
// A beacon's appeal starts at its value; the sparks to spend (never fewer
// than the cap would waste, all of them on the last turn unless a save
// rule holds) are split over the targets with positive appeal in
// proportion to it, the rounding left to the most appealing. A jitter (a
// share, drawn each turn from the seat's seed) perturbs every appeal, so
// the bidder mixes as blind bidding needs.
//
// A condition is always, FEATURE < K, FEATURE >= K, or two comparisons
// joined by and/or. Per-beacon features (value, growth, embers,
// rival_embers, rival_bid, rival_strength) are read at the beacon a rule
// is applied to; spend, save and targets rules read them at the beacon
// of highest value. Constants are steps on each feature's own grid of 101
// values, so the genome (fixed slots of integer parameters: rule1.on,
// rule1.if1, ...) is a program exactly; the canonical genome packs the
// enabled rules to the front and clears what a rule does not use. The
// variant file holds the program as JSON (see programJSON).
package kindprog

import (
	"fmt"

	"crucible/strategies"
	"crucible/strategies/proglang"
)

// Slots is the most rules a program holds (its size limit).
const Slots = 8

// cond is one comparison.
type cond = proglang.Cond

// Feature indices; fAlways is the condition that always holds.
const (
	fAlways = proglang.Always + iota
	fValue
	fGrowth
	fEmbers
	fRivalEmbers
	fRivalBid
	fRivalStrength
	fTurn
	fSparks
	fWaste
	fRivalSparks
	fLead
	nFeatures
)

var features = proglang.Features{
	{Name: "always", Desc: "no comparison: the condition holds"},
	{Name: "value", Desc: "the beacon's value this turn", Step: 1, Tenths: true},
	{Name: "growth", Desc: "how far the beacon's value has grown above its base", Step: 1, Tenths: true},
	{Name: "embers", Desc: "own embers at the beacon", Step: 1, Tenths: true},
	{Name: "rival_embers", Desc: "the most embers a rival holds at the beacon", Step: 1, Tenths: true},
	{Name: "rival_bid", Desc: "the highest rival bid at the beacon last turn (revealed)", Step: 1, Tenths: true},
	{Name: "rival_strength", Desc: "the most a rival can bring to the beacon now: its embers there plus all its sparks", Step: 2, Tenths: true},
	{Name: "turn", Desc: "the turn being bid for, 1 to 8", Step: 1, Tenths: true},
	{Name: "sparks", Desc: "own sparks this turn", Step: 2, Tenths: true},
	{Name: "waste", Desc: "sparks the cap would waste next turn if none were spent now", Step: 1, Tenths: true},
	{Name: "rival_sparks", Desc: "the most sparks a rival holds this turn", Step: 2, Tenths: true},
	{Name: "lead", Desc: "own score minus the best rival's, plus 20 (20: level)", Step: 1, Tenths: false},
}

// Action indices.
const (
	aSpend = iota
	aSave
	aTargets
	aFavour
	aSkip
	nActions
)

var actions = [nActions]struct {
	name, desc string
	lo, hi     int // bounds of the action's amount
}{
	{"spend", "spend P percent of the sparks this turn (first spend rule that holds)", 0, 100},
	{"save", "keep at least S sparks (first save rule that holds)", 0, 12},
	{"targets", "bid on the N most appealing beacons (first targets rule that holds)", 1, 5},
	{"favour", "add W tenths times feature F to the beacon's appeal (W -50..50)", -50, 50},
	{"skip", "bid nothing on the beacon", 0, 0},
}

type rule struct {
	cond   [2]cond
	join   int
	action int
	amount int // the action's amount (see actions)
	weigh  int // favour: the feature weighed
}

// program is a Kindling program as the bidder plays it.
type program struct {
	jitter  int // percent
	spend   int // base spend percent
	targets int // base targets
	rules   []rule
}

const (
	gJitter = iota
	gSpend
	gTargets
	nGlobals
)

const (
	rOn = iota
	rIf1
	rOp1
	rK1
	rJoin
	rIf2
	rOp2
	rK2
	rAction
	rAmount
	rWeigh
	ruleGenes
)

// The condition's genes run from rIf1 to rK2 as proglang lays them out.
var _ [proglang.CondGenes]int = [rK2 - rIf1 + 1]int{}

func iparam(name, desc string, lo, hi, def float64) strategies.Param {
	return strategies.Param{Name: name, Description: desc, Min: lo, Max: hi, Default: def, Integer: true}
}

// schema is the genome of a program; the defaults are the empty program,
// which bids nothing.
func schema() strategies.Schema {
	s := strategies.Schema{
		iparam("jitter", "percent of random change either way of every beacon's appeal, drawn each turn", 0, 100, 0),
		iparam("spend", "percent of the sparks spent when no spend rule holds", 0, 100, 0),
		iparam("targets", "beacons bid on when no targets rule holds", 1, 5, 2),
	}
	for r := 1; r <= Slots; r++ {
		n := func(k string) string { return fmt.Sprintf("rule%d.%s", r, k) }
		s = append(s,
			iparam(n("on"), "1: the rule is part of the program", 0, 1, 0),
		)
		s = append(s, proglang.CondParams(n, nFeatures)...)
		s = append(s,
			iparam(n("action"), "action: 0 spend, 1 save, 2 targets, 3 favour, 4 skip", 0, nActions-1, 0),
			iparam(n("amount"), "the action's amount: spend percent, save sparks, targets, favour weight in tenths (clamped to the action's range)", -50, 100, 0),
			iparam(n("weigh"), "favour: the feature weighed (1..)", 1, nFeatures-1, 1),
		)
	}
	return s
}

func decode(g strategies.Genome) program {
	at := func(i int) int { return int(g[i]) }
	p := program{jitter: at(gJitter), spend: at(gSpend), targets: at(gTargets)}
	for r := 0; r < Slots; r++ {
		b := nGlobals + r*ruleGenes
		if at(b+rOn) != 1 {
			continue
		}
		ru := rule{action: at(b + rAction), amount: at(b + rAmount), weigh: at(b + rWeigh)}
		ru.cond, ru.join = proglang.Decode(at, b+rIf1)
		p.rules = append(p.rules, ru.canonical())
	}
	return p
}

func (ru rule) canonical() rule {
	ru.cond = proglang.Canonical(ru.cond, ru.join)
	a := actions[ru.action]
	ru.amount = max(a.lo, min(a.hi, ru.amount))
	if ru.action != aFavour {
		ru.weigh = 1
	}
	return ru
}

func (p program) genome() strategies.Genome {
	g := schema().Defaults()
	g[gJitter], g[gSpend], g[gTargets] = float64(p.jitter), float64(p.spend), float64(p.targets)
	for r, ru := range p.rules {
		if r >= Slots {
			break
		}
		ru = ru.canonical()
		b := nGlobals + r*ruleGenes
		g[b+rOn] = 1
		for k, v := range proglang.Genes(ru.cond, ru.join) {
			g[b+rIf1+k] = float64(v)
		}
		g[b+rAction], g[b+rAmount], g[b+rWeigh] = float64(ru.action), float64(ru.amount), float64(ru.weigh)
	}
	return g
}

func canonical(g strategies.Genome) strategies.Genome { return decode(schema().Clamp(g)).genome() }
