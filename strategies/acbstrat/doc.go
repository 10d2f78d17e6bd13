// Package acbstrat holds the 21 reference strategies of AI Code Battle, playing
// through the engine's fog-filtered view.
//
// Every strategy is built on the same navigation layer: a map memory per
// player (walls, cores and energy tiles stay known once seen), distance
// fields by breadth-first search on the wrapping grid that are computed
// once and shared by all units (cached per target, rebuilt when new walls
// make them stale), focus-fire odds per tile, and a move resolver that
// never sends two own units onto one tile. Strategies differ in how they
// give their units roles and how they weigh targets against danger.
//
// What makes it cheap (every decision is the same as without): searches on
// the same remembered walls are shared by the bots of a process (store.go);
// a turn's searches read at a few tiles are lazy, labelling only as far as
// their reads need (lazy.go); and a bot's grid buffers go back to a pool
// when its match is over, for the bots of later matches (pool.go).
package acbstrat

import (
	"fmt"

	"crucible/engine"
	"crucible/strategies"
)

// def is one strategy before registration: its parameters and how to
// build its per-turn policy, reading each parameter by name from d.
type def struct {
	name, desc string
	params     []strategies.Param
	build      func(d strategies.Decoder) policy
	// fin is how the strategy finishes a won game (see bot.convert); the
	// zero value (random's) never takes over a unit.
	fin finishing
}

// defs lists the strategies in the order of the seed's table.
func defs() []def {
	return []def{
		randomDef(), gathererDef(), rusherDef(), guardianDef(), swarmDef(), hunterDef(),
		assassinDef(), coordinatorDef(), defenderDef(), economistDef(), farmerDef(),
		kamikazeDef(), leaderTargeterDef(), nomadDef(), opportunistDef(), pacifistDef(),
		phalanxDef(), raiderDef(), scoutDef(), siegeDef(), zoneDriverDef(),
	}
}

// All returns the 21 reference strategies. It panics if a strategy's
// constructor and schema disagree (see strategyOf): a programming error
// that must stop the program at start-up.
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
// no edit of the schema can leave a parameter unused or hand a policy the
// value of another.
func strategyOf(d def) (strategies.Strategy, error) {
	schema := strategies.Schema(d.params)
	if err := schema.CheckDecode(func(dec strategies.Decoder) { d.build(dec) }); err != nil {
		return strategies.Strategy{}, fmt.Errorf("acb strategy %s: %w", d.name, err)
	}
	return strategies.Strategy{
		Game:        "acb",
		Name:        d.name,
		Description: d.desc,
		Schema:      schema,
		New: func(g strategies.Genome, seed uint64, seat int) engine.Player {
			b := newBot(seed)
			return &controller{b: b, p: d.build(schema.Decoder(schema.Clamp(g))), fin: d.fin, fs: finishState{target: -1}}
		},
	}, nil
}

// param is a shorthand for a real-valued strategies.Param.
func param(name, desc string, min, max, def float64) strategies.Param {
	return strategies.Param{Name: name, Description: desc, Min: min, Max: max, Default: def}
}

// iparam is a shorthand for an integer strategies.Param.
func iparam(name, desc string, min, max, def float64) strategies.Param {
	return strategies.Param{Name: name, Description: desc, Min: min, Max: max, Default: def, Integer: true}
}
