package acbstrat

import (
	"fmt"

	"crucible/strategies"
	"crucible/strategies/proglang"
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

// progCond is one comparison: feature f, op 0 (<) or 1 (>=), constant k.
type progCond = proglang.Cond

// Feature indices (the order of progFeatures). fAlways is the condition
// that always holds.
const (
	fAlways = proglang.Always + iota
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
var progFeatures = proglang.Features{
	{Name: "always", Desc: "no comparison: the condition holds"},
	{Name: "d_energy", Desc: "steps to the nearest energy tile full or due within 6 turns", Step: 1},
	{Name: "d_enemy", Desc: "steps to the nearest enemy unit in sight (beyond 30: far)", Step: 1},
	{Name: "d_prey", Desc: "steps to the nearest isolated enemy unit (at most one other within squared distance 36; beyond 40: far)", Step: 1},
	{Name: "d_enemy_core", Desc: "steps to the nearest enemy core, seen or suspected", Step: 1},
	{Name: "d_open_core", Desc: "steps to the nearest seen enemy core with no unit on it", Step: 1},
	{Name: "d_own_core", Desc: "steps to the nearest own core", Step: 1},
	{Name: "enemy_now", Desc: "enemy units within attack range of the unit now", Step: 1, Tenths: true},
	{Name: "enemy_next", Desc: "enemy units that can be within attack range after their step", Step: 1, Tenths: true},
	{Name: "allies", Desc: "own units within attack range of the unit, itself included", Step: 1, Tenths: true},
	{Name: "storm", Desc: "turns the unit can still wait before it must walk to safety (100: the storm never comes)", Step: 1},
	{Name: "waited", Desc: "turns the unit has stood on its tile", Step: 1},
	{Name: "turn", Desc: "turns played", Step: 5},
	{Name: "energy", Desc: "the player's energy", Step: 1},
	{Name: "units", Desc: "the player's units", Step: 1},
	{Name: "enemies", Desc: "enemy units in sight", Step: 1},
	{Name: "cores", Desc: "the player's active cores", Step: 1, Tenths: true},
	{Name: "enemy_cores", Desc: "enemy cores known or suspected", Step: 1, Tenths: true},
	{Name: "score", Desc: "the player's score", Step: 1},
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

// The condition's genes run from rIf1 to rK2 as proglang lays them out.
var _ [proglang.CondGenes]int = [rK2 - rIf1 + 1]int{}

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
		)
		s = append(s, proglang.CondParams(n, nFeatures)...)
		s = append(s,
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
		ru := progRule{role: at(b + rRole), goal: at(b + rGoal), bold: at(b + rBold), order: r}
		ru.cond, ru.join = proglang.Decode(at, b+rIf1)
		p.rules = append(p.rules, ru.canonical())
	}
	return p
}

// canonical clears what the rule does not use.
func (ru progRule) canonical() progRule {
	ru.cond = proglang.Canonical(ru.cond, ru.join)
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
		g[b+rOn], g[b+rRole] = 1, float64(ru.role)
		for k, v := range proglang.Genes(ru.cond, ru.join) {
			g[b+rIf1+k] = float64(v)
		}
		g[b+rGoal], g[b+rBold] = float64(ru.goal), float64(ru.bold)
	}
	return g
}

// canonicalProgram is the canonical genome of the program g plays as.
func canonicalProgram(g strategies.Genome) strategies.Genome {
	return decodeProgram(programSchema().Clamp(g)).genome()
}
