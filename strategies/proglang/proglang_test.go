package proglang

import (
	"strings"
	"testing"
)

var testFeatures = Features{
	{Name: "always"},
	{Name: "dist", Step: 1},
	{Name: "share", Step: 1, Tenths: true},
	{Name: "lead", Min: -20, Step: 2},
}

func TestGrid(t *testing.T) {
	for _, c := range []struct {
		f       int
		v       float64
		k       int
		grid    string
		offGrid string
	}{
		{1, 7, 7, "0..100 step 1", "7.5"},
		{2, 2.3, 23, "0..10 step 0.1", "2.35"},
		{3, -4, 8, "-20..180 step 2", "-3"},
	} {
		f := testFeatures[c.f]
		if got := f.Grid(); got != c.grid {
			t.Errorf("%s grid %q, want %q", f.Name, got, c.grid)
		}
		k, err := f.Constant(c.v)
		if err != nil || k != c.k || f.Value(k) != c.v {
			t.Errorf("%s constant of %v: %d %v, want %d", f.Name, c.v, k, err, c.k)
		}
		_, err = testFeatures.ParseComparison([]string{f.Name, "<", c.offGrid})
		want := f.Name + " compares with " + c.offGrid + ", which is not on its grid " + strings.ReplaceAll(strings.Replace(c.grid, "..", " to ", 1), " step ", " in steps of ")
		if err == nil || err.Error() != want {
			t.Errorf("off the grid: %v, want %q", err, want)
		}
	}
}

func TestConditionText(t *testing.T) {
	for _, s := range []string{"always", "dist < 3", "share >= 0.5 and lead < 0", "dist >= 12 or always"} {
		parts, join, err := Split(s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var c [2]Cond
		for k, w := range parts {
			if len(w) == 3 {
				if c[k], err = testFeatures.ParseComparison(w); err != nil {
					t.Fatalf("%q: %v", s, err)
				}
			}
		}
		c = Canonical(c, join)
		g := Genes(c, join)
		back, bj := Decode(func(i int) int { return g[i-10] }, 10)
		if got := testFeatures.WhenText(back, bj); got != s {
			t.Errorf("%q printed back as %q (genes %v)", s, got, g)
		}
	}
	if _, _, err := Split("dist < 3 and share < 1 or lead < 0"); err == nil || !strings.Contains(err.Error(), "at most two") {
		t.Errorf("three comparisons: %v", err)
	}
	if _, err := testFeatures.ParseComparison([]string{"heat", "<", "3"}); err == nil || err.Error() != `unknown feature "heat" (features: dist, share, lead)` {
		t.Errorf("unknown feature: %v", err)
	}
}

func TestFires(t *testing.T) {
	read := map[int]int{}
	feature := func(f int) float64 { read[f]++; return float64(f) } // dist 1, share 2, lead 3
	c := [2]Cond{{F: 1, Op: 1, K: 1}, {F: 3, Op: 0, K: 0}}          // dist >= 1, lead < -20
	if !testFeatures.Fires(c, 0, feature) || testFeatures.Fires(c, 1, feature) || !testFeatures.Fires(c, 2, feature) {
		t.Error("dist >= 1 alone, and, or lead < -20: want true, false, true")
	}
	if read[3] != 1 {
		t.Errorf("the second comparison read %d times, want 1 (for and; not alone, not for or once the first holds)", read[3])
	}
}
