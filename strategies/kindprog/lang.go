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
	"strconv"

	"crucible/strategies"
)

// Slots is the most rules a program holds (its size limit).
const Slots = 8

// feature is one quantity a condition compares or a favour rule weighs.
type feature struct {
	name, desc string
	step       int  // constant k (0..100) stands for k*step (tenths: k*step/10)
	tenths     bool // the grid is in tenths
	perBeacon  bool
}

func (f feature) value(k int) float64 {
	if f.tenths {
		return float64(k*f.step) / 10
	}
	return float64(k * f.step)
}

func (f feature) constant(v float64) (int, error) {
	x := v / float64(f.step)
	if f.tenths {
		x = v * 10 / float64(f.step)
	}
	k := int(x + 0.5)
	if x < -1e-9 || k > 100 || x-float64(k) > 1e-6 || float64(k)-x > 1e-6 {
		return 0, fmt.Errorf("%s compares with %s, which is not on its grid 0 to %s in steps of %s", f.name,
			fmtNum(v), fmtNum(f.value(100)), fmtNum(f.value(1)))
	}
	return k, nil
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Feature indices; fAlways is the condition that always holds.
const (
	fAlways = iota
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

var features = [nFeatures]feature{
	{name: "always", desc: "no comparison: the condition holds"},
	{name: "value", desc: "the beacon's value this turn", step: 1, tenths: true, perBeacon: true},
	{name: "growth", desc: "how far the beacon's value has grown above its base", step: 1, tenths: true, perBeacon: true},
	{name: "embers", desc: "own embers at the beacon", step: 1, tenths: true, perBeacon: true},
	{name: "rival_embers", desc: "the most embers a rival holds at the beacon", step: 1, tenths: true, perBeacon: true},
	{name: "rival_bid", desc: "the highest rival bid at the beacon last turn (revealed)", step: 1, tenths: true, perBeacon: true},
	{name: "rival_strength", desc: "the most a rival can bring to the beacon now: its embers there plus all its sparks", step: 2, tenths: true, perBeacon: true},
	{name: "turn", desc: "the turn being bid for, 1 to 8", step: 1, tenths: true},
	{name: "sparks", desc: "own sparks this turn", step: 2, tenths: true},
	{name: "waste", desc: "sparks the cap would waste next turn if none were spent now", step: 1, tenths: true},
	{name: "rival_sparks", desc: "the most sparks a rival holds this turn", step: 2, tenths: true},
	{name: "lead", desc: "own score minus the best rival's, plus 20 (20: level)", step: 1, tenths: false},
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

var ops = [2]string{"<", ">="}
var joins = [3]string{"", "and", "or"}

type cond struct{ f, op, k int }

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
			iparam(n("if1"), "feature of the first comparison (0: always)", 0, nFeatures-1, 0),
			iparam(n("op1"), "first comparison: 0 <, 1 >=", 0, 1, 0),
			iparam(n("k1"), "constant of the first comparison, a step on the feature's grid", 0, 100, 0),
			iparam(n("join"), "0: one comparison, 1: and, 2: or the second", 0, 2, 0),
			iparam(n("if2"), "feature of the second comparison (0: always)", 0, nFeatures-1, 0),
			iparam(n("op2"), "second comparison: 0 <, 1 >=", 0, 1, 0),
			iparam(n("k2"), "constant of the second comparison", 0, 100, 0),
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
		ru := rule{join: at(b + rJoin), action: at(b + rAction), amount: at(b + rAmount), weigh: at(b + rWeigh)}
		ru.cond[0] = cond{at(b + rIf1), at(b + rOp1), at(b + rK1)}
		if ru.join != 0 {
			ru.cond[1] = cond{at(b + rIf2), at(b + rOp2), at(b + rK2)}
		}
		p.rules = append(p.rules, ru.canonical())
	}
	return p
}

func (ru rule) canonical() rule {
	for k := range ru.cond {
		if ru.cond[k].f == fAlways {
			ru.cond[k].op, ru.cond[k].k = 0, 0
		}
	}
	if ru.join == 0 {
		ru.cond[1] = cond{}
	}
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
		vals := [ruleGenes]int{1, ru.cond[0].f, ru.cond[0].op, ru.cond[0].k, ru.join,
			ru.cond[1].f, ru.cond[1].op, ru.cond[1].k, ru.action, ru.amount, ru.weigh}
		for k, v := range vals {
			g[b+k] = float64(v)
		}
	}
	return g
}

func canonical(g strategies.Genome) strategies.Genome { return decode(schema().Clamp(g)).genome() }
