package evolver

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Flags defines SPSA's gains: --spsa-c-end, --spsa-r-end, --spsa-alpha,
// --spsa-gamma and --spsa-a-ratio.
func (o *SPSAOptions) Flags(fs *flag.FlagSet) {
	fs.Var(gainsFlag{m: &o.CEnd}, "spsa-c-end", "spsa: final step c_end of parameters, NAME=VALUE,... in the parameter's units (default (max-min)/20 for each, as Stockfish's tune.cpp prints for fishtest)")
	fs.Var(gainsFlag{all: &o.REnd, m: &o.REndBy}, "spsa-r-end", "spsa: final learning rate r_end: VALUE for every parameter and/or NAME=VALUE,... (the default is fishtest's)")
	fs.Var(floatFlag{&o.Alpha, 0, 1}, "spsa-alpha", "spsa: decay exponent α of the learning rate, a_k = a/(A+k)^α, in (0, 1] (Spall's, fishtest's and OpenBench's 0.602)")
	fs.Var(floatFlag{&o.Gamma, 0, 1}, "spsa-gamma", "spsa: decay exponent γ of the step, c_k = c/k^γ, in (0, 1] (Spall's, fishtest's and OpenBench's 0.101)")
	fs.Var(floatFlag{&o.ARatio, 0, 1}, "spsa-a-ratio", "spsa: stability constant A as a share of the planned iterations N, in (0, 1] (fishtest's and OpenBench's A = 0.1·N)")
}

// Identity names every gain: a resumed run keeps its schedule.
func (o *SPSAOptions) Identity() []string {
	return []string{"spsa-c-end", "spsa-r-end", "spsa-alpha", "spsa-gamma", "spsa-a-ratio"}
}

// floatFlag is a number in (lo, hi].
type floatFlag struct {
	p      *float64
	lo, hi float64
}

func (f floatFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return strconv.FormatFloat(*f.p, 'g', -1, 64)
}

func (f floatFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	switch {
	case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
		return fmt.Errorf("is not a number")
	case v <= f.lo || v > f.hi:
		return fmt.Errorf("is outside its range (%g, %g]", f.lo, f.hi)
	}
	*f.p = v
	return nil
}

func (f floatFlag) Type() string { return "float" }

// gainsFlag is a comma-separated list of NAME=VALUE items (the values by
// parameter name) and, when all is set, of at most one bare VALUE (the
// value of every parameter not named). Values are non-negative numbers;
// which parameters exist is checked when the run is built.
type gainsFlag struct {
	all *float64
	m   *map[string]float64
}

func (f gainsFlag) String() string {
	var parts []string
	if f.all != nil && *f.all != 0 {
		parts = append(parts, strconv.FormatFloat(*f.all, 'g', -1, 64))
	}
	if f.m != nil {
		for _, k := range sortedKeys(*f.m) {
			parts = append(parts, k+"="+strconv.FormatFloat((*f.m)[k], 'g', -1, 64))
		}
	}
	return strings.Join(parts, ",")
}

func (f gainsFlag) Set(s string) error {
	m := map[string]float64{}
	all, bare := 0.0, false
	for _, item := range strings.Split(s, ",") {
		if item = strings.TrimSpace(item); item == "" {
			continue
		}
		name, val, named := strings.Cut(item, "=")
		if !named {
			val = name
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("item %q: %q is not a number", item, val)
		case v < 0:
			return fmt.Errorf("item %q: %g is negative", item, v)
		case !named && f.all == nil:
			return fmt.Errorf("item %q: give NAME=VALUE (the value is in that parameter's units)", item)
		case !named && bare:
			return fmt.Errorf("item %q: a second value for every parameter", item)
		case !named && v == 0:
			return fmt.Errorf("item %q: 0 for every parameter would never move one (NAME=0 holds one parameter still)", item)
		case !named:
			all, bare = v, true
		default:
			name = strings.TrimSpace(name)
			if _, dup := m[name]; dup {
				return fmt.Errorf("item %q: parameter %s given twice", item, name)
			}
			m[name] = v
		}
	}
	if f.all != nil && bare {
		*f.all = all
	}
	*f.m = m
	return nil
}

func (f gainsFlag) Type() string { return "list" }

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
