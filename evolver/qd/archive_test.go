package qd

import (
	"math"
	"reflect"
	"testing"

	"crucible/evolver/behave"
)

func gridArchive() *Archive {
	return &Archive{Format: Kind, Bins: 4, Descriptors: []behave.Descriptor{{Name: "a", Lo: 0, Hi: 1}, {Name: "b", Lo: 10, Hi: 20}}}
}

// Rule: a variant enters an empty cell; a better one replaces the cell's
// elite, a worse or equal one does not; an elite measured again is
// removed and offered anew; values outside a range fall into the edge
// cells.
func TestQDArchiveInsertion(t *testing.T) {
	a := gridArchive()
	steps := []struct {
		e    Elite
		want int
		cell []int
	}{
		{Elite{ID: "p", Fitness: 0.5, Behaviour: []float64{0.1, 11}}, Added, []int{0, 0}},
		{Elite{ID: "q", Fitness: 0.4, Behaviour: []float64{0.2, 12}}, Rejected, []int{0, 0}},
		{Elite{ID: "r", Fitness: 0.5, Behaviour: []float64{0.2, 12}}, Rejected, []int{0, 0}},
		{Elite{ID: "s", Fitness: 0.7, Behaviour: []float64{0.24, 10}}, Improved, []int{0, 0}},
		{Elite{ID: "t", Fitness: 0.1, Behaviour: []float64{0.99, 25}}, Added, []int{3, 3}},
		{Elite{ID: "u", Fitness: -0.2, Behaviour: []float64{-3, 19.9}}, Added, []int{0, 3}},
		{Elite{ID: "v", Fitness: 0.3, Behaviour: []float64{0.5, 15}}, Added, []int{2, 2}},
	}
	for i, s := range steps {
		if got := a.Insert(s.e); got != s.want {
			t.Fatalf("step %d (%s): insertion %d, want %d", i, s.e.ID, got, s.want)
		}
		if c := a.CellOf(s.e.Behaviour); !reflect.DeepEqual(c, s.cell) {
			t.Fatalf("step %d: cell %v, want %v", i, c, s.cell)
		}
	}
	// Measured again, s leaves its cell and comes back with its new
	// figures.
	if old, ok := a.Remove("s"); !ok || old.Fitness != 0.7 {
		t.Fatalf("Remove(s) = %+v, %v", old, ok)
	}
	if _, ok := a.Remove("s"); ok {
		t.Fatal("s removed twice")
	}
	if got := a.Insert(Elite{ID: "s", Fitness: 0.6, Behaviour: []float64{0.2, 10.5}}); got != Added {
		t.Fatalf("re-measured s: insertion %d, want Added", got)
	}
	var ids []string
	for _, e := range a.Elites {
		ids = append(ids, e.ID)
	}
	if want := []string{"s", "u", "v", "t"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("elites in cell order %v, want %v", ids, want)
	}
	if a.Elites[0].Fitness != 0.6 {
		t.Errorf("re-measured elite keeps fitness %v, want 0.6", a.Elites[0].Fitness)
	}
	// Coverage 4 of 16; QD-score (0.6+1)+(-0.2+1)+(0.3+1)+(0.1+1) = 4.8.
	st := a.Stats()
	if st.Filled != 4 || st.Coverage != 0.25 || math.Abs(st.QDScore-4.8) > 1e-12 || st.Best != 0.6 || st.BestID != "s" {
		t.Fatalf("stats %+v, want 4 filled, coverage 0.25, QD-score 4.8, best 0.6 (s)", st)
	}
}
