package acbstrat

import (
	"fmt"
	"strconv"

	"crucible/strategies"
)

// The program strategy: a strategy written as data rather than code, so
// the evolver can rewrite its structure and not only its constants.
//
// A program gives every unit a role (roles 1 to 3, each a share of the
// units; a unit keeps its role from turn to turn and the shares are
// restored every regroup turns, new units filling the role furthest
// below its share at once) and lists up to progSlots rules
//
//	[role R] when CONDITION then GOAL (boldness B)
//
// tried in order for each unit: the first rule of the unit's role (or of
// any role) whose condition holds and whose goal has a target this turn
// decides the unit; a unit no rule decides holds. A condition is one
// comparison FEATURE < K or FEATURE >= K, or two joined by and/or, or
// always. Features are read from the machinery every strategy shares (the
// distance fields, the combat counts, the storm's deadlines); goals walk
// the shared distance fields, and the shared resolver keeps two own units
// off one tile as for every strategy. Boldness (0 to 100) weighs the
// fights a unit steps into: 0 avoids every fight it does not win, 100
// walks into even trades.
//
// The genome holds the program in fixed slots of integer parameters
// (rule1.on, rule1.role, rule1.if1, ...), so every search algorithm works
// on it unchanged; a constant K is a step on the feature's own grid of
// 101 values (the feature table's min and step), so the genome is a
// program exactly and prints back to the same text. The canonical genome
// packs the enabled rules to the front and clears what a rule does not
// use, so two genomes of one program get one variant id. The variant file
// holds the program as JSON (programJSON) beside its params.

// progSlots is the most rules a program holds (its size limit).
const progSlots = 8

// progRoles is the number of roles.
const progRoles = 3

// progFeature is one quantity a condition compares.
type progFeature struct {
	name, desc string
	// min and step: constant k (0..100) stands for min + k*step, and
	// tenths divides the step by ten.
	min, step int
	tenths    bool
}

// value returns the feature value constant k stands for.
func (f progFeature) value(k int) float64 {
	v := float64(f.min + k*f.step)
	if f.tenths {
		v = float64(f.min*10+k*f.step) / 10
	}
	return v
}

// constant returns the k of value v, or an error when v is off the grid.
func (f progFeature) constant(v float64) (int, error) {
	var x float64
	if f.tenths {
		x = (v*10 - float64(f.min*10)) / float64(f.step)
	} else {
		x = (v - float64(f.min)) / float64(f.step)
	}
	k := int(x + 0.5)
	if x < -1e-9 || k > 100 || abs64(x-float64(k)) > 1e-6 {
		return 0, fmt.Errorf("%s compares with %s, which is not on its grid %s to %s in steps of %s", f.name,
			fmtNum(v), fmtNum(f.value(0)), fmtNum(f.value(100)), fmtNum(f.value(1)-f.value(0)))
	}
	return k, nil
}

func abs64(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Feature indices (the order of progFeatures). fAlways is the condition
// that always holds.
const (
	fAlways = iota
	fDEnergy
	fDEnemy
	fDPrey
	fDEnemyCore
	fDOpenCore
	fDOwnCore
	fEnemyNow
	fEnemyNext
	fAllies
	fStorm
	fWaited
	fTurn
	fEnergy
	fUnits
	fEnemies
	fCores
	fEnemyCores
	fScore
	nFeatures
)

// progFeatures are the features, by index.
var progFeatures = [nFeatures]progFeature{
	{name: "always", desc: "no comparison: the condition holds"},
	{name: "d_energy", desc: "steps to the nearest energy tile full or due within 6 turns", step: 1},
	{name: "d_enemy", desc: "steps to the nearest enemy unit in sight (beyond 30: far)", step: 1},
	{name: "d_prey", desc: "steps to the nearest isolated enemy unit (at most one other within squared distance 36; beyond 40: far)", step: 1},
	{name: "d_enemy_core", desc: "steps to the nearest enemy core, seen or suspected", step: 1},
	{name: "d_open_core", desc: "steps to the nearest seen enemy core with no unit on it", step: 1},
	{name: "d_own_core", desc: "steps to the nearest own core", step: 1},
	{name: "enemy_now", desc: "enemy units within attack range of the unit now", step: 1, tenths: true},
	{name: "enemy_next", desc: "enemy units that can be within attack range after their step", step: 1, tenths: true},
	{name: "allies", desc: "own units within attack range of the unit, itself included", step: 1, tenths: true},
	{name: "storm", desc: "turns the unit can still wait before it must walk to safety (100: the storm never comes)", step: 1},
	{name: "waited", desc: "turns the unit has stood on its tile", step: 1},
	{name: "turn", desc: "turns played", step: 5},
	{name: "energy", desc: "the player's energy", step: 1},
	{name: "units", desc: "the player's units", step: 1},
	{name: "enemies", desc: "enemy units in sight", step: 1},
	{name: "cores", desc: "the player's active cores", step: 1, tenths: true},
	{name: "enemy_cores", desc: "enemy cores known or suspected", step: 1, tenths: true},
	{name: "score", desc: "the player's score", step: 1},
}

// Goal indices (the order of progGoals).
const (
	gHold = iota
	gGather
	gExplore
	gAttackCore
	gRaze
	gHunt
	gDefend
	gGroup
	gFlee
	gSafety
	nGoals
)

// progGoals name and describe the goals, by index.
var progGoals = [nGoals]struct{ name, desc string }{
	{"hold", "stay on the tile (the storm still moves the unit)"},
	{"gather", "collect: units matched one to one with energy tiles full or due soon, the spare ones exploring or waiting near energy"},
	{"explore", "walk to the sectors no own unit has seen for 20 turns, one unit a sector"},
	{"attack_core", "walk to the nearest enemy core, seen or suspected (no target: none known)"},
	{"raze", "walk onto the nearest seen enemy core with no unit on it (no target: none)"},
	{"hunt", "chase the nearest isolated enemy unit within 40 steps (no target: none)"},
	{"defend", "stand two steps from the own core nearest an enemy (no target: no own core)"},
	{"group", "walk to the allies' centre: the own unit with most allies in range (no target: a lone unit)"},
	{"flee", "walk away from the enemy units within 30 steps (no target: none)"},
	{"safety", "walk to the storm's nearest centre (no target: the zone is off)"},
}

// Comparisons and joins.
var progOps = [2]string{"<", ">="}
var progJoins = [3]string{"", "and", "or"}

// progCond is one comparison: feature f, op 0 (<) or 1 (>=), constant k.
type progCond struct{ f, op, k int }

// progRule is one rule of a program.
type progRule struct {
	role  int // 0: any role, else 1..progRoles
	cond  [2]progCond
	join  int // 0: only cond[0]; 1: and; 2: or
	goal  int
	bold  int // 0..100
	order int // the slot it came from (kept only while decoding)
}

// acbProgram is a program as the policy plays it.
type acbProgram struct {
	shares  [progRoles]int // percent of the units per role, summing to 100
	regroup int            // turns between role rebalances
	reach   int            // finishing: steps to an open enemy core in sight (-1: any)
	strike  bool           // finishing: strike when dominant
	rules   []progRule
}

// Gene layout: the globals, then progSlots runs of ruleGenes.
const (
	geneShare2 = iota
	geneShare3
	geneRegroup
	geneReach
	geneStrike
	nGlobals
)

const (
	rOn = iota
	rRole
	rIf1
	rOp1
	rK1
	rJoin
	rIf2
	rOp2
	rK2
	rGoal
	rBold
	ruleGenes
)

// programSchema is the genome of a program: all parameters integers, the
// defaults the empty program (every unit holds, no finishing).
func programSchema() strategies.Schema {
	s := strategies.Schema{
		iparam("share2", "percent of the units in role 2", 0, 100, 0),
		iparam("share3", "percent of the units in role 3 (role 1 has the rest)", 0, 100, 0),
		iparam("regroup", "turns between rebalances of the roles to their shares", 1, 100, 10),
		iparam("finish_reach", "steps a unit walks to an open enemy core in sight (-1: any distance, 0: never)", -1, 20, 0),
		iparam("finish_strike", "1: half the units strike the nearest enemy core when the player is dominant", 0, 1, 0),
	}
	for r := 1; r <= progSlots; r++ {
		n := func(k string) string { return fmt.Sprintf("rule%d.%s", r, k) }
		s = append(s,
			iparam(n("on"), "1: the rule is part of the program", 0, 1, 0),
			iparam(n("role"), "role the rule applies to (0: any)", 0, progRoles, 0),
			iparam(n("if1"), "feature of the first comparison (0: always)", 0, nFeatures-1, 0),
			iparam(n("op1"), "first comparison: 0 <, 1 >=", 0, 1, 0),
			iparam(n("k1"), "constant of the first comparison, a step on the feature's grid", 0, 100, 0),
			iparam(n("join"), "0: one comparison, 1: and, 2: or the second", 0, 2, 0),
			iparam(n("if2"), "feature of the second comparison (0: always)", 0, nFeatures-1, 0),
			iparam(n("op2"), "second comparison: 0 <, 1 >=", 0, 1, 0),
			iparam(n("k2"), "constant of the second comparison", 0, 100, 0),
			iparam(n("goal"), "goal: 0 hold, 1 gather, 2 explore, 3 attack_core, 4 raze, 5 hunt, 6 defend, 7 group, 8 flee, 9 safety", 0, nGoals-1, 0),
			iparam(n("bold"), "boldness of the goal's walk, 0 to 100", 0, 100, 50),
		)
	}
	return s
}

// decodeProgram reads the program of a clamped genome.
func decodeProgram(g strategies.Genome) acbProgram {
	at := func(i int) int { return int(g[i]) }
	p := acbProgram{regroup: at(geneRegroup), reach: at(geneReach), strike: at(geneStrike) == 1}
	s2 := at(geneShare2)
	s3 := min(at(geneShare3), 100-s2)
	p.shares = [progRoles]int{100 - s2 - s3, s2, s3}
	for r := 0; r < progSlots; r++ {
		b := nGlobals + r*ruleGenes
		if at(b+rOn) != 1 {
			continue
		}
		ru := progRule{role: at(b + rRole), join: at(b + rJoin), goal: at(b + rGoal), bold: at(b + rBold), order: r}
		ru.cond[0] = progCond{at(b + rIf1), at(b + rOp1), at(b + rK1)}
		if ru.join != 0 {
			ru.cond[1] = progCond{at(b + rIf2), at(b + rOp2), at(b + rK2)}
		}
		p.rules = append(p.rules, ru.canonical())
	}
	return p
}

// canonical clears what the rule does not use.
func (ru progRule) canonical() progRule {
	for k := range ru.cond {
		if ru.cond[k].f == fAlways {
			ru.cond[k].op, ru.cond[k].k = 0, 0
		}
	}
	if ru.join == 0 {
		ru.cond[1] = progCond{}
	}
	ru.order = 0
	return ru
}

// genome writes p as its canonical genome.
func (p acbProgram) genome() strategies.Genome {
	g := programSchema().Defaults()
	g[geneShare2], g[geneShare3] = float64(p.shares[1]), float64(p.shares[2])
	g[geneRegroup], g[geneReach] = float64(p.regroup), float64(p.reach)
	if p.strike {
		g[geneStrike] = 1
	}
	for r, ru := range p.rules {
		if r >= progSlots {
			break
		}
		ru = ru.canonical()
		b := nGlobals + r*ruleGenes
		vals := [ruleGenes]int{1, ru.role, ru.cond[0].f, ru.cond[0].op, ru.cond[0].k, ru.join,
			ru.cond[1].f, ru.cond[1].op, ru.cond[1].k, ru.goal, ru.bold}
		for k, v := range vals {
			g[b+k] = float64(v)
		}
	}
	return g
}

// canonicalProgram is the canonical genome of the program g plays as.
func canonicalProgram(g strategies.Genome) strategies.Genome {
	return decodeProgram(programSchema().Clamp(g)).genome()
}
