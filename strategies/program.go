package strategies

import "encoding/json"

// Rand is the randomness the structural operators of a program draw from:
// math/rand's *Rand (the genetic algorithm's) satisfies it.
type Rand interface {
	Intn(n int) int
	Float64() float64
}

// Program is the program form of a strategy whose genome encodes a
// program: ordered rules in a fixed number of slots, each slot a run of
// integer parameters (enabled, role, condition, goal, ...). Every search
// algorithm works on such a genome unchanged; Program adds what only a
// program has: its readable JSON (kept in the variant file's "program"
// field), its text, a canonical genome (disabled slots cleared, rules
// packed to the front: two genomes of one program get one id) and
// structural operators the genetic algorithm uses when present.
type Program struct {
	// Encode returns the program's JSON of g (a clamped genome).
	Encode func(g Genome) (json.RawMessage, error)
	// Decode parses a program's JSON into its canonical genome. Errors
	// name the rule and the field.
	Decode func(data []byte) (Genome, error)
	// Text prints the program of g, one rule a line.
	Text func(g Genome) string
	// Canonical returns the canonical genome of the program g plays as.
	Canonical func(g Genome) Genome
	// Size is the number of rules of g's program (parsimony: within
	// noise, the shorter program wins).
	Size func(g Genome) int
	// Mutate returns a structurally mutated copy of g: a rule inserted,
	// deleted, replaced or moved, or a feature, comparison, constant or
	// goal changed.
	Mutate func(g Genome, r Rand) Genome
	// Crossover splices the rule lists of a and b: the head of one
	// followed by the tail of the other, both ways.
	Crossover func(a, b Genome, r Rand) (Genome, Genome)
	// Grammar describes the language (features, comparisons, goals and
	// the JSON form) for people and for LLM prompts.
	Grammar string
}

// canonical returns g clamped by the schema and, for a program strategy,
// in the program's canonical form.
func (s Strategy) canonical(g Genome) Genome {
	g = s.Schema.Clamp(g)
	if s.Program != nil && s.Program.Canonical != nil {
		g = s.Program.Canonical(g)
	}
	return g
}

// Canonical returns the genome g plays as: clamped and rounded by the
// schema and, for a program strategy, in the program's canonical form.
func (s Strategy) Canonical(g Genome) Genome { return s.canonical(g) }
