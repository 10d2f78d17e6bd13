package bidders

// tuned: the reference variant found by the evolver, checked in as a
// variant file (variants/tuned.json) and registered as a strategy of its
// own: its base's code and schema with the variant's values as defaults.
// The same file can be given to the arena or the evolver as a variant
// (--players strategies/bidders/variants/tuned.json); the strategy makes
// it a name (--players tuned) and a starting point (evolve --base tuned).

import (
	_ "embed"
	"fmt"
	"slices"

	"crucible/strategies"
)

// tunedJSON is the checked-in variant that strategy "tuned" plays,
// exactly as the evolver wrote it (crucible evolve ... --out DIR leaves it
// in DIR/champion.json).
//
//go:embed variants/tuned.json
var tunedJSON []byte

// tunedDef builds the def of "tuned" from tunedJSON and the defs of its
// possible bases.
func tunedDef(bases []def) (def, error) {
	v, err := strategies.ParseVariant(tunedJSON, "variants/tuned.json")
	if err != nil {
		return def{}, err
	}
	if v.Game != "kindling" {
		return def{}, fmt.Errorf("variants/tuned.json: a variant of game %s, not kindling", v.Game)
	}
	i := slices.IndexFunc(bases, func(d def) bool { return d.name == v.Base })
	if i < 0 {
		return def{}, fmt.Errorf("variants/tuned.json: unknown base %q", v.Base)
	}
	base := bases[i]
	g, err := base.schema.FromMap(v.Params)
	if err != nil {
		return def{}, fmt.Errorf("variants/tuned.json: %w", err)
	}
	if len(v.Params) != len(base.schema) {
		return def{}, fmt.Errorf("variants/tuned.json: %d parameters for the %d of %s (re-tune it after changing the base)", len(v.Params), len(base.schema), base.name)
	}
	schema := slices.Clone(base.schema)
	for k := range schema {
		schema[k].Default = g[k]
	}
	return def{name: "tuned", schema: schema, build: base.build,
		desc: fmt.Sprintf("%s as tuned by the evolver (variant %s, variants/tuned.json): %s", base.name, v.Label(), base.desc)}, nil
}
