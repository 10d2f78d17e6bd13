// Package strategies describes parameterised strategies: the schema of
// their named, bounded parameters, genomes (parameter vectors in schema
// order), variants (a base strategy with a genome, stored as JSON files) and
// the registry from a strategy's name to its constructor.
//
// Strategies never import the arena; the arena and the evolver reach them
// only through this package.
package strategies

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Param is one named, bounded parameter of a strategy.
type Param struct {
	// Name is the parameter's key, unique within its schema.
	Name string `json:"name"`
	// Description says what the parameter changes in play.
	Description string `json:"description"`
	// Min and Max bound the value, inclusive.
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	// Default is the value the strategy plays with when not told otherwise.
	Default float64 `json:"default"`
	// Integer marks parameters that only take whole values.
	Integer bool `json:"integer"`
}

// Clamp brings v into the parameter's bounds, rounding integer parameters
// to the nearest whole number.
func (p Param) Clamp(v float64) float64 {
	if math.IsNaN(v) {
		v = p.Default
	}
	if p.Integer {
		v = math.Round(v)
	}
	return math.Max(p.Min, math.Min(p.Max, v))
}

// Range describes the allowed values for error messages, e.g. "[0, 12]" or
// "[0.1, 0.9]".
func (p Param) Range() string {
	return fmt.Sprintf("[%s, %s]", formatNum(p.Min), formatNum(p.Max))
}

func formatNum(v float64) string {
	return strings.TrimSuffix(strings.TrimRight(fmt.Sprintf("%.6f", v), "0"), ".")
}

// Check reports whether v is a legal value: inside the bounds and whole for
// integer parameters. The error names the parameter and its range.
func (p Param) Check(v float64) error {
	if math.IsNaN(v) || v < p.Min || v > p.Max {
		return fmt.Errorf("parameter %s = %s is outside its range %s", p.Name, formatNum(v), p.Range())
	}
	if p.Integer && v != math.Trunc(v) {
		return fmt.Errorf("parameter %s = %s must be a whole number in %s", p.Name, formatNum(v), p.Range())
	}
	return nil
}

// Schema is the ordered list of a strategy's parameters. Genomes follow its
// order.
type Schema []Param

// Validate checks that names are unique and non-empty and that every
// default lies within its bounds.
func (s Schema) Validate() error {
	seen := map[string]bool{}
	for i, p := range s {
		if p.Name == "" {
			return fmt.Errorf("parameter %d has no name", i)
		}
		if seen[p.Name] {
			return fmt.Errorf("parameter %s appears twice", p.Name)
		}
		seen[p.Name] = true
		if !(p.Min < p.Max) {
			return fmt.Errorf("parameter %s: min %s is not below max %s", p.Name, formatNum(p.Min), formatNum(p.Max))
		}
		if err := p.Check(p.Default); err != nil {
			return fmt.Errorf("default: %w", err)
		}
	}
	return nil
}

// Index returns the position of the named parameter, or -1.
func (s Schema) Index(name string) int {
	for i, p := range s {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// Names lists the parameter names in schema order.
func (s Schema) Names() []string {
	out := make([]string, len(s))
	for i, p := range s {
		out[i] = p.Name
	}
	return out
}

// Defaults returns the genome of default values.
func (s Schema) Defaults() Genome {
	g := make(Genome, len(s))
	for i, p := range s {
		g[i] = p.Default
	}
	return g
}

// Clamp returns a copy of g with every value clamped into its bounds and
// integer parameters rounded. A genome of the wrong length is padded with
// defaults or cut.
func (s Schema) Clamp(g Genome) Genome {
	out := make(Genome, len(s))
	for i, p := range s {
		v := p.Default
		if i < len(g) {
			v = g[i]
		}
		out[i] = p.Clamp(v)
	}
	return out
}

// Normalize maps a genome into the unit cube: 0 is each parameter's Min and
// 1 its Max. Search algorithms work in this space.
func (s Schema) Normalize(g Genome) []float64 {
	x := make([]float64, len(s))
	for i, p := range s {
		v := p.Default
		if i < len(g) {
			v = g[i]
		}
		x[i] = (v - p.Min) / (p.Max - p.Min)
	}
	return x
}

// Denormalize maps a point of the unit cube back to a legal genome, clamping
// values outside [0,1] and rounding integer parameters.
func (s Schema) Denormalize(x []float64) Genome {
	g := make(Genome, len(s))
	for i, p := range s {
		u := 0.5
		if i < len(x) {
			u = x[i]
		}
		g[i] = p.Clamp(p.Min + u*(p.Max-p.Min))
	}
	return g
}

// Map returns the genome as name -> value.
func (s Schema) Map(g Genome) map[string]float64 {
	m := make(map[string]float64, len(s))
	for i, p := range s {
		if i < len(g) {
			m[p.Name] = g[i]
		}
	}
	return m
}

// FromMap builds a genome from name -> value, starting from the defaults.
// An unknown name or a value outside its range is an error naming it.
func (s Schema) FromMap(m map[string]float64) (Genome, error) {
	g := s.Defaults()
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		if err := s.Set(g, k, m[k]); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Set stores value under name in g after checking it. An unknown name is an
// error that lists the known ones.
func (s Schema) Set(g Genome, name string, value float64) error {
	i := s.Index(name)
	if i < 0 {
		return fmt.Errorf("unknown parameter %q (known: %s)", name, strings.Join(s.Names(), ", "))
	}
	if err := s[i].Check(value); err != nil {
		return err
	}
	g[i] = value
	return nil
}

// Genome is a strategy's parameter vector in schema order.
type Genome []float64
