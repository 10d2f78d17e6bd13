package evolver

import (
	"context"
	"testing"

	"crucible/strategies/kindprog"
)

// Rule: on a program strategy the GA's operators change the program's
// structure: from the empty program (whose Gaussian perturbations almost
// never switch a rule slot on), bred children hold rules; and of two
// programs told the same fitness, the shorter ranks first (parsimony).
func TestGAGrowsProgramsAndPrefersShortOnes(t *testing.T) {
	space := paramSpace{Base: kindprog.Program()}
	ga, err := newGA(space, 8, 11, GAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	size := func(x []float64) int { return space.Base.Program.Size(space.Genome(x)) }
	ctx := context.Background()
	var h history
	props, err := ga.Ask(ctx, 0, h)
	if err != nil {
		t.Fatal(err)
	}
	for gen := 1; gen <= 3; gen++ {
		fit := make([]float64, len(props))
		for i := range fit {
			fit[i] = 0.5 // all alike: only parsimony orders them
		}
		if err := ga.Tell(gen-1, fit); err != nil {
			t.Fatal(err)
		}
		inds := ga.pops[0].Individuals
		for i := 1; i < len(inds); i++ {
			if a, b := size(inds[i-1].Genome.(*gaGenome).x), size(inds[i].Genome.(*gaGenome).x); a > b {
				t.Fatalf("generation %d: a program of %d rules ranks before one of %d at equal fitness", gen, a, b)
			}
		}
		if props, err = ga.Ask(ctx, gen, h); err != nil {
			t.Fatal(err)
		}
	}
	grown := 0
	for _, p := range props {
		if size(p.X) > 0 {
			grown++
		}
	}
	if grown == 0 {
		t.Error("after three generations no child of the empty program holds a rule")
	}
}
