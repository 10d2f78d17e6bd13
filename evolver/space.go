package evolver

import (
	"math"

	"crucible/strategies"
)

// paramSpace is the normalised search space of one base strategy: every
// parameter becomes a coordinate in [0,1] (0 its Min, 1 its Max), so the
// same algorithms fit every strategy. Points outside the cube are legal
// inputs; they are clamped (and integer parameters rounded) when mapped to
// a genome.
type paramSpace struct {
	// Base is the strategy whose schema spans the space.
	Base strategies.Strategy
}

// Dim is the number of coordinates (the schema's length).
func (s paramSpace) Dim() int { return len(s.Base.Schema) }

// Genome maps a point of the space to the legal genome it plays as (for
// a program strategy, in its program's canonical form).
func (s paramSpace) Genome(x []float64) strategies.Genome {
	g := s.Base.Schema.Denormalize(x)
	if s.Base.Program != nil {
		g = s.Base.Canonical(g)
	}
	return g
}

// Point maps a genome into the space.
func (s paramSpace) Point(g strategies.Genome) []float64 {
	return s.Base.Schema.Normalize(g)
}

// Canonical returns the point of the genome x plays as: clamped into the
// cube and with integer coordinates snapped to their grid. Two points with
// the same canonical point are the same strategy.
func (s paramSpace) Canonical(x []float64) []float64 {
	return s.Point(s.Genome(x))
}

// Origin is the base strategy's defaults as a point: where a search starts.
func (s paramSpace) Origin() []float64 {
	return s.Point(s.Base.Schema.Defaults())
}

// ID is the variant id of the genome x plays as.
func (s paramSpace) ID(x []float64) string {
	g := s.Genome(x)
	return strategies.VariantID(s.Base.Game, s.Base.Name, s.Base.Schema.Map(g))
}

// Variant builds the variant x plays as, with its parents.
func (s paramSpace) Variant(x []float64, parents ...string) strategies.Variant {
	return strategies.NewVariant(s.Base, s.Genome(x), parents...)
}

// clamp01 clamps every coordinate of x into [0,1] in place and returns x.
func clamp01(x []float64) []float64 {
	for i, v := range x {
		switch {
		case math.IsNaN(v):
			x[i] = 0.5
		case v < 0:
			x[i] = 0
		case v > 1:
			x[i] = 1
		}
	}
	return x
}
