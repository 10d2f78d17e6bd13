// Package bidders holds the Kindling bidders: each a distinct idea with
// named, bounded parameters, including the house bots easy and normal.
//
// Every bidder implements kindling.Bidder (engine/kindling): it sees only
// the public state of its seat (a kindling.View) and always makes a legal
// move. Blind bidding is a game whose equilibria are mixed, so every bidder
// mixes: it draws from a math/rand/v2 generator seeded with the seat seed
// given to Strategy.New, so a match is the same for the same seed and
// varies across seeds. The hand-rule bidders (random, even, greedy, sniper,
// farmer, saver, contrarian, growth, dump, bestresp, easy) keep their idea
// and add bounded noise, a parameter named jitter where they had none (0
// turns it off); normal plays a perturbed best response.
//
// Three bidders are built on the game's structure rather than on a rule:
//   - lotto plays each turn's General Lotto relaxation: every beacon is a
//     contest of its own, sparks are priced in points, and the mixed
//     equilibria of the contests were solved offline by regret matching
//     into a table (internal/lotto, written by go generate);
//   - cfr solves each turn as a zero-sum game against its strongest rival
//     with CFR+ over each seat's bid lattice (stage.go), the budget held
//     exactly, and draws its move from the solution;
//   - modeller keeps every rival's revealed moves, predicts them three ways
//     (recent moves by beacon, by value rank, and a ridge model of what the
//     rival saw), draws scenarios from the predictions it trusts and plays
//     the best response to them.
//
// tuned is the evolver's champion of one of them, checked in as a variant
// file (variants/tuned.json) and registered under its own name.
package bidders

import (
	"fmt"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// def is one bidder before registration: its parameters and how to build
// it for one match, reading each parameter by name from d (seed is the
// seat's own random seed).
type def struct {
	name, desc string
	schema     strategies.Schema
	build      func(d strategies.Decoder, seed uint64) kindling.Bidder
}

// defs lists the bidders, the house bots easy and normal and then the
// evolver's reference variant tuned last. It panics if the checked-in
// variant of tuned does not fit its base (see tunedDef): a build defect.
func defs() []def {
	list := []def{
		randomDef(),
		evenDef(),
		greedyDef(),
		sniperDef(),
		farmerDef(),
		saverDef(),
		contrarianDef(),
		growthDef(),
		dumpDef(),
		bestRespDef(),
		lottoDef(),
		cfrDef(),
		modellerDef(),
		mcbrDef(),
		crowdDef(),
		blottoDef(),
		easyDef(),
		normalDef(),
	}
	tuned, err := tunedDef(list)
	if err != nil {
		panic(fmt.Sprintf("kindling bidder tuned: %v", err))
	}
	return append(list, tuned)
}

// All returns every Kindling bidder of the package, the house bots easy
// and normal among them. It panics if a bidder's constructor and schema
// disagree (see strategyOf): a programming error that must stop the
// program at start-up.
func All() []strategies.Strategy {
	var out []strategies.Strategy
	for _, d := range defs() {
		s, err := strategyOf(d)
		if err != nil {
			panic(err)
		}
		out = append(out, s)
	}
	return out
}

// strategyOf registers d: its constructor must read every parameter of its
// schema by a name the schema has (strategies.Schema.CheckDecode), so that
// no edit of the schema can leave a parameter unused or hand a bidder the
// value of another.
func strategyOf(d def) (strategies.Strategy, error) {
	if err := d.schema.CheckDecode(func(dec strategies.Decoder) { d.build(dec, 0) }); err != nil {
		return strategies.Strategy{}, fmt.Errorf("kindling bidder %s: %w", d.name, err)
	}
	return strategies.Strategy{
		Game:        "kindling",
		Name:        d.name,
		Description: d.desc,
		Schema:      d.schema,
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			return d.build(d.schema.Decoder(g), seed)
		},
	}, nil
}
