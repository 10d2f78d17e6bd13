package acbstrat

import (
	"embed"
	"fmt"
	"path"
	"strings"

	"crucible/strategies"
)

// The reference strategies written as programs, so a search can start
// from them (crucible evolve --base program --init FILE, or a variant
// file of base program): programs/NAME.json.
//
//go:embed programs/*.json
var programFiles embed.FS

// ProgramRefs returns the reference programs by name (gatherer, hunter, swarm,
// rusher) as genomes of the program strategy.
func ProgramRefs() (map[string]strategies.Genome, error) {
	ents, err := programFiles.ReadDir("programs")
	if err != nil {
		return nil, err
	}
	out := map[string]strategies.Genome{}
	for _, e := range ents {
		data, err := programFiles.ReadFile(path.Join("programs", e.Name()))
		if err != nil {
			return nil, err
		}
		g, err := ProgramGenome(data)
		if err != nil {
			return nil, fmt.Errorf("programs/%s: %w", e.Name(), err)
		}
		out[strings.TrimSuffix(e.Name(), ".json")] = g
	}
	return out, nil
}
