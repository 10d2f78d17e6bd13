package acbstrat

import (
	"fmt"
	"sort"

	"crucible/engine"
	"crucible/strategies"
)

// Program returns the AI Code Battle program strategy "program" (see
// program_lang.go for the language). Its defaults are the empty program:
// every unit holds.
func Program() strategies.Strategy {
	return programStrategy("program", "A program of rules (when CONDITION then GOAL, per role) the evolver rewrites", programSchema())
}

// Programs returns the program strategies: "program" (the empty program)
// and one "program-NAME" per reference program (programs/NAME.json),
// whose defaults are that program, so that a search can start from it
// (crucible evolve --base program-hunter). It panics if an embedded
// program does not parse: a build defect.
func Programs() []strategies.Strategy {
	out := []strategies.Strategy{Program()}
	refs, err := ProgramRefs()
	if err != nil {
		panic(err)
	}
	names := make([]string, 0, len(refs))
	for n := range refs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		schema := programSchema()
		for i := range schema {
			schema[i].Default = refs[n][i]
		}
		out = append(out, programStrategy("program-"+n, "The program strategy starting from "+n+" written as a program", schema))
	}
	return out
}

func programStrategy(name, desc string, schema strategies.Schema) strategies.Strategy {
	return strategies.Strategy{
		Game:        "acb",
		Name:        name,
		Description: desc,
		Schema:      schema,
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			return newProgController(decodeProgram(schema.Clamp(g)), seed)
		},
		Program: &strategies.Program{
			Encode: encodeProgramJSON,
			Decode: func(data []byte) (strategies.Genome, error) {
				p, err := parseProgramJSON(data)
				if err != nil {
					return nil, err
				}
				return p.genome(), nil
			},
			Text:      programText,
			Canonical: canonicalProgram,
			Size:      func(g strategies.Genome) int { return len(decodeProgram(schema.Clamp(g)).rules) },
			Mutate:    mutateProgram,
			Crossover: crossProgram,
			Grammar:   programGrammar(),
		},
	}
}

// ProgramGenome parses a program's JSON (see programJSON) into the
// genome of the program strategy; errors name the rule and the field.
func ProgramGenome(data []byte) (strategies.Genome, error) {
	p, err := parseProgramJSON(data)
	if err != nil {
		return nil, fmt.Errorf("acb program: %w", err)
	}
	return p.genome(), nil
}

// mutateProgram applies one structural change to the program of g.
func mutateProgram(g strategies.Genome, r strategies.Rand) strategies.Genome {
	p := decodeProgram(programSchema().Clamp(g))
	n := len(p.rules)
	switch op := r.Intn(8); {
	case n == 0 || (op == 0 && n < progSlots): // insert
		at := r.Intn(n + 1)
		p.rules = append(p.rules[:at], append([]progRule{randomRule(r)}, p.rules[at:]...)...)
	case op == 1 && n > 0: // delete
		at := r.Intn(n)
		p.rules = append(p.rules[:at], p.rules[at+1:]...)
	case op == 2: // replace
		p.rules[r.Intn(n)] = randomRule(r)
	case op == 3 && n > 1: // move one rule up
		at := 1 + r.Intn(n-1)
		p.rules[at-1], p.rules[at] = p.rules[at], p.rules[at-1]
	case op == 4: // a feature or a comparison
		ru := &p.rules[r.Intn(n)]
		c := &ru.cond[r.Intn(1+min(ru.join, 1))]
		if r.Intn(2) == 0 {
			c.F = 1 + r.Intn(nFeatures-1)
			c.K = r.Intn(101)
		} else {
			c.Op = 1 - c.Op
		}
	case op == 5: // a constant
		ru := &p.rules[r.Intn(n)]
		c := &ru.cond[r.Intn(1+min(ru.join, 1))]
		c.K = max(0, min(100, c.K+r.Intn(21)-10))
		if c.F == fAlways {
			c.F, c.K = 1+r.Intn(nFeatures-1), r.Intn(101)
		}
	case op == 6: // a goal or its boldness, or the join
		ru := &p.rules[r.Intn(n)]
		switch r.Intn(3) {
		case 0:
			ru.goal = r.Intn(nGoals)
		case 1:
			ru.bold = max(0, min(100, ru.bold+r.Intn(41)-20))
		default:
			ru.join = r.Intn(3)
			if ru.join != 0 && ru.cond[1].F == fAlways {
				ru.cond[1] = progFeatures.Random(r)
			}
		}
	default: // roles, a rule's role, or the finishing
		switch r.Intn(4) {
		case 0:
			p.rules[r.Intn(n)].role = r.Intn(progRoles + 1)
		case 1:
			k := 1 + r.Intn(2) // role 2 or 3; role 1 has the rest
			p.shares[k] = r.Intn(101)
			p.shares[3-k] = min(p.shares[3-k], 100-p.shares[k])
			p.shares[0] = 100 - p.shares[1] - p.shares[2]
		case 2:
			p.reach = r.Intn(22) - 1
		default:
			p.strike = !p.strike
		}
	}
	return p.genome()
}

// randomRule draws a rule: one comparison (or always) and a goal.
func randomRule(r strategies.Rand) progRule {
	ru := progRule{goal: r.Intn(nGoals), bold: r.Intn(101)}
	if r.Intn(4) > 0 {
		ru.cond[0] = progFeatures.Random(r)
	}
	if r.Intn(4) == 0 {
		ru.role = 1 + r.Intn(progRoles)
	}
	return ru.canonical()
}

// crossProgram splices the rule lists: a's head and b's tail, and b's
// head and a's tail, each cut at a random point (the globals follow the
// head).
func crossProgram(ga, gb strategies.Genome, r strategies.Rand) (strategies.Genome, strategies.Genome) {
	s := programSchema()
	a, b := decodeProgram(s.Clamp(ga)), decodeProgram(s.Clamp(gb))
	ca, cb := r.Intn(len(a.rules)+1), r.Intn(len(b.rules)+1)
	splice := func(head, tail acbProgram, h, t int) acbProgram {
		out := head
		out.rules = append(append([]progRule(nil), head.rules[:h]...), tail.rules[t:]...)
		if len(out.rules) > progSlots {
			out.rules = out.rules[:progSlots]
		}
		return out
	}
	return splice(a, b, ca, cb).genome(), splice(b, a, cb, ca).genome()
}
