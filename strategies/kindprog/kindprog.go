package kindprog

import (
	"fmt"
	"slices"
	"sync"

	"crucible/engine"
	"crucible/strategies"
)

// Program returns the Kindling program bidder "program". Its defaults are
// the empty program, which bids nothing.
func Program() strategies.Strategy {
	s := schema()
	c := &lastDecoded{}
	return strategies.Strategy{
		Game:        "kindling",
		Name:        "program",
		Description: "A program of rules (when CONDITION then spend, save, targets, favour or skip) the evolver rewrites",
		Schema:      s,
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			return newBidder(c.program(s, g), seed)
		},
		Program: &strategies.Program{
			Encode: encodeJSON,
			Decode: func(data []byte) (strategies.Genome, error) {
				p, err := parseJSON(data)
				if err != nil {
					return nil, err
				}
				return p.genome(), nil
			},
			Text:      text,
			Canonical: canonical,
			Size:      func(g strategies.Genome) int { return len(decode(s.Clamp(g)).rules) },
			Mutate:    mutate,
			Crossover: cross,
			Grammar:   grammar(),
		},
	}
}

// Genome parses a program's JSON (see programJSON) into the program
// bidder's genome; errors name the rule and the field.
func Genome(data []byte) (strategies.Genome, error) {
	p, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("kindling program: %w", err)
	}
	return p.genome(), nil
}

func randomCond(r strategies.Rand) cond {
	return features.Random(r)
}

func randomRule(r strategies.Rand) rule {
	ru := rule{action: r.Intn(nActions), weigh: 1 + r.Intn(nFeatures-1)}
	a := actions[ru.action]
	ru.amount = a.lo + r.Intn(a.hi-a.lo+1)
	if r.Intn(4) > 0 {
		ru.cond[0] = randomCond(r)
	}
	return ru.canonical()
}

// mutate applies one structural change to the program of g.
func mutate(g strategies.Genome, r strategies.Rand) strategies.Genome {
	p := decode(schema().Clamp(g))
	n := len(p.rules)
	switch op := r.Intn(7); {
	case n == 0 || (op == 0 && n < Slots):
		at := r.Intn(n + 1)
		p.rules = append(p.rules[:at], append([]rule{randomRule(r)}, p.rules[at:]...)...)
	case op == 1:
		at := r.Intn(n)
		p.rules = append(p.rules[:at], p.rules[at+1:]...)
	case op == 2:
		p.rules[r.Intn(n)] = randomRule(r)
	case op == 3 && n > 1:
		at := 1 + r.Intn(n-1)
		p.rules[at-1], p.rules[at] = p.rules[at], p.rules[at-1]
	case op == 4:
		ru := &p.rules[r.Intn(n)]
		c := &ru.cond[r.Intn(1+min(ru.join, 1))]
		switch r.Intn(3) {
		case 0:
			*c = randomCond(r)
		case 1:
			c.Op = 1 - c.Op
		default:
			c.K = max(0, min(100, c.K+r.Intn(11)-5))
		}
	case op == 5:
		ru := &p.rules[r.Intn(n)]
		switch r.Intn(3) {
		case 0:
			ru.action = r.Intn(nActions)
		case 1:
			ru.amount += r.Intn(21) - 10
		default:
			ru.join = r.Intn(3)
			if ru.join != 0 && ru.cond[1].F == fAlways {
				ru.cond[1] = randomCond(r)
			}
		}
		*ru = ru.canonical()
	default:
		switch r.Intn(3) {
		case 0:
			p.jitter = max(0, min(100, p.jitter+r.Intn(41)-20))
		case 1:
			p.spend = max(0, min(100, p.spend+r.Intn(41)-20))
		default:
			p.targets = 1 + r.Intn(5)
		}
	}
	return p.genome()
}

// cross splices the rule lists: a's head and b's tail, and b's head and
// a's tail (the globals follow the head).
func cross(ga, gb strategies.Genome, r strategies.Rand) (strategies.Genome, strategies.Genome) {
	s := schema()
	a, b := decode(s.Clamp(ga)), decode(s.Clamp(gb))
	ca, cb := r.Intn(len(a.rules)+1), r.Intn(len(b.rules)+1)
	splice := func(head, tail program, h, t int) program {
		out := head
		out.rules = append(append([]rule(nil), head.rules[:h]...), tail.rules[t:]...)
		if len(out.rules) > Slots {
			out.rules = out.rules[:Slots]
		}
		return out
	}
	return splice(a, b, ca, cb).genome(), splice(b, a, cb, ca).genome()
}

// lastDecoded keeps the program of the last genome a player was built
// from: an arena builds the same genome's players match after match, and
// a Kindling match is short enough that decoding it each time would be a
// good part of its cost. A program is never changed once decoded, so the
// players share it.
type lastDecoded struct {
	mu sync.Mutex
	g  strategies.Genome
	p  program
}

func (c *lastDecoded) program(s strategies.Schema, g strategies.Genome) program {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !slices.Equal(c.g, g) {
		c.g, c.p = slices.Clone(g), decode(s.Clamp(g))
	}
	return c.p
}
