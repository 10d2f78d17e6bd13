// Package proglang is the rule-language plumbing the program strategies
// share: a table of features, each with a grid of 101 constants; the
// conditions "always", "FEATURE OP NUMBER" (OP < or >=) and two such
// comparisons joined by and/or; their genes, text, parsing and
// evaluation. What a rule does (its action or goal) and which features a
// game reads stay with each game's program strategy.
package proglang

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"crucible/strategies"
)

// Feature is one quantity a condition compares.
type Feature struct {
	Name, Desc string
	// Min and Step: constant k (0..100) stands for Min + k*Step, and
	// Tenths divides the step by ten.
	Min, Step int
	Tenths    bool
}

// Value returns the feature value constant k stands for.
func (f Feature) Value(k int) float64 {
	v := float64(f.Min + k*f.Step)
	if f.Tenths {
		v = float64(f.Min*10+k*f.Step) / 10
	}
	return v
}

// Constant returns the k of value v, or an error when v is off the grid.
func (f Feature) Constant(v float64) (int, error) {
	var x float64
	if f.Tenths {
		x = (v*10 - float64(f.Min*10)) / float64(f.Step)
	} else {
		x = (v - float64(f.Min)) / float64(f.Step)
	}
	k := int(x + 0.5)
	if x < -1e-9 || k > 100 || abs(x-float64(k)) > 1e-6 {
		return 0, fmt.Errorf("%s compares with %s, which is not on its grid %s to %s in steps of %s", f.Name,
			FmtNum(v), FmtNum(f.Value(0)), FmtNum(f.Value(100)), FmtNum(f.Value(1)-f.Value(0)))
	}
	return k, nil
}

// Grid prints the feature's grid as "min..max step s".
func (f Feature) Grid() string {
	return FmtNum(f.Value(0)) + ".." + FmtNum(f.Value(100)) + " step " + FmtNum(f.Value(1)-f.Value(0))
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// FmtNum prints v in its shortest exact form.
func FmtNum(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// Features is a feature table; index Always (0) is the condition that
// always holds.
type Features []Feature

// Always is the feature index of the condition that always holds.
const Always = 0

// Index returns the index of the feature named name, or -1.
func (fs Features) Index(name string) int {
	for i, f := range fs {
		if f.Name == name {
			return i
		}
	}
	return -1
}

// Names lists the features (always left out), comma separated.
func (fs Features) Names() string {
	var out []string
	for _, f := range fs[1:] {
		out = append(out, f.Name)
	}
	return strings.Join(out, ", ")
}

// Cond is one comparison: feature F, Op 0 (<) or 1 (>=), constant K.
type Cond struct{ F, Op, K int }

// Ops are the comparisons and Joins the joins (0: one comparison) by index.
var (
	Ops   = [2]string{"<", ">="}
	Joins = [3]string{"", "and", "or"}
)

// Text prints one comparison.
func (fs Features) Text(c Cond) string {
	if c.F == Always {
		return "always"
	}
	f := fs[c.F]
	return f.Name + " " + Ops[c.Op] + " " + FmtNum(f.Value(c.K))
}

// WhenText prints a condition: c[0], then when join is not 0 the join and c[1].
func (fs Features) WhenText(c [2]Cond, join int) string {
	s := fs.Text(c[0])
	if join != 0 {
		s += " " + Joins[join] + " " + fs.Text(c[1])
	}
	return s
}

// Canonical clears what a condition does not use: the comparison of
// always, the second comparison without a join.
func Canonical(c [2]Cond, join int) [2]Cond {
	for k := range c {
		if c[k].F == Always {
			c[k].Op, c[k].K = 0, 0
		}
	}
	if join == 0 {
		c[1] = Cond{}
	}
	return c
}

// Split cuts a condition's text into its comparisons' words at and/or,
// with the join (0: none, 1: and, 2: or).
func Split(s string) (parts [][]string, join int, err error) {
	w := strings.Fields(s)
	cut := -1
	for i, x := range w {
		if x == "and" || x == "or" {
			if cut >= 0 {
				return nil, 0, errors.New("more than two comparisons; a condition joins at most two")
			}
			cut = i
		}
	}
	if cut < 0 {
		return [][]string{w}, 0, nil
	}
	join = 1
	if w[cut] == "or" {
		join = 2
	}
	return [][]string{w[:cut], w[cut+1:]}, join, nil
}

// ParseComparison reads the three words FEATURE OP NUMBER.
func (fs Features) ParseComparison(w []string) (Cond, error) {
	f := fs.Index(w[0])
	if f <= Always {
		return Cond{}, fmt.Errorf("unknown feature %q (features: %s)", w[0], fs.Names())
	}
	op := -1
	for i, o := range Ops {
		if w[1] == o {
			op = i
		}
	}
	if op < 0 {
		return Cond{}, fmt.Errorf("comparison %q is not < or >=", w[1])
	}
	v, err := strconv.ParseFloat(w[2], 64)
	if err != nil {
		return Cond{}, fmt.Errorf("%s %s: %q is not a number", w[0], w[1], w[2])
	}
	k, err := fs[f].Constant(v)
	if err != nil {
		return Cond{}, err
	}
	return Cond{F: f, Op: op, K: k}, nil
}

// Holds tells whether c holds, feature(f) reading feature f (not read
// for always).
func (fs Features) Holds(c Cond, feature func(f int) float64) bool {
	if c.F == Always {
		return true
	}
	x, k := feature(c.F), fs[c.F].Value(c.K)
	if c.Op == 0 {
		return x < k
	}
	return x >= k
}

// Fires tells whether the condition c joined by join holds; the second
// comparison is read only when the join needs it.
func (fs Features) Fires(c [2]Cond, join int, feature func(f int) float64) bool {
	ok := fs.Holds(c[0], feature)
	switch join {
	case 1:
		ok = ok && fs.Holds(c[1], feature)
	case 2:
		ok = ok || fs.Holds(c[1], feature)
	}
	return ok
}

// CondGenes is the number of genes of a condition: if1, op1, k1, join,
// if2, op2, k2.
const CondGenes = 7

// CondParams are the genes of a rule's condition, named by name (say
// "rule1.if1"), over nFeatures features.
func CondParams(name func(string) string, nFeatures int) []strategies.Param {
	p := func(n, desc string, hi int) strategies.Param {
		return strategies.Param{Name: name(n), Description: desc, Min: 0, Max: float64(hi), Default: 0, Integer: true}
	}
	return []strategies.Param{
		p("if1", "feature of the first comparison (0: always)", nFeatures-1),
		p("op1", "first comparison: 0 <, 1 >=", 1),
		p("k1", "constant of the first comparison, a step on the feature's grid", 100),
		p("join", "0: one comparison, 1: and, 2: or the second", 2),
		p("if2", "feature of the second comparison (0: always)", nFeatures-1),
		p("op2", "second comparison: 0 <, 1 >=", 1),
		p("k2", "constant of the second comparison", 100),
	}
}

// Decode reads the condition of the CondGenes genes from at(b) on; the
// second comparison only when joined.
func Decode(at func(int) int, b int) (c [2]Cond, join int) {
	c[0] = Cond{at(b), at(b + 1), at(b + 2)}
	join = at(b + 3)
	if join != 0 {
		c[1] = Cond{at(b + 4), at(b + 5), at(b + 6)}
	}
	return c, join
}

// Genes writes a condition as its CondGenes genes.
func Genes(c [2]Cond, join int) [CondGenes]int {
	return [CondGenes]int{c[0].F, c[0].Op, c[0].K, join, c[1].F, c[1].Op, c[1].K}
}

// Random draws a comparison: a feature other than always, then a
// comparison, then a constant.
func (fs Features) Random(r strategies.Rand) Cond {
	f := 1 + r.Intn(len(fs)-1)
	op := r.Intn(2)
	return Cond{F: f, Op: op, K: r.Intn(101)}
}
