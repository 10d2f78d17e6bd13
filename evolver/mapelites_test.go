package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"crucible/evolver/behave"
	"crucible/evolver/qd"
	"crucible/strategies"
)

// fakeBehaviour places a point by its first two coordinates.
func fakeBehaviour() *behave.Behaviour {
	return &behave.Behaviour{Game: "synthetic", Descriptors: []behave.Descriptor{{Name: "x0", Lo: 0, Hi: 1}, {Name: "x1", Lo: 0, Hi: 1}, {Name: "x2", Lo: 0, Hi: 1}},
		Values: func(c behave.Counts) []float64 {
			m := 1000 * float64(c.Matches)
			return []float64{float64(c.N[0]) / m, float64(c.N[1]) / m, float64(c.N[2]) / m}
		}}
}

// measureFake plays the evaluator's part for a fake behaviour: each proposal's
// behaviour is its canonical point, its fitness the synthetic true rate.
func measureFake(m *mapElites, props []proposal) []float64 {
	m.log.latest = map[string]behave.Counts{}
	fit := make([]float64, len(props))
	for i, p := range props {
		x := m.space.Canonical(p.X)
		var c behave.Counts
		c.Matches = 1
		for k := 0; k < 3; k++ {
			c.N[k] = int64(math.Round(1000 * x[k]))
		}
		m.log.latest[m.space.ID(x)] = c
		fit[i] = trueRate(m.space, m.space.Genome(x))
	}
	return fit
}

// Rule: MAP-Elites fills cells generation after generation, its QD-score
// never falls while no elite is measured again lower, the archive file
// matches its state, each elite is an exportable variant file, and a run
// restored from its state proposes what the uninterrupted run does.
func TestMapElitesFillsAndResumes(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	dir := t.TempDir()
	m, err := newMapElites(space, 10, 4, fakeBehaviour(), MapElitesOptions{Bins: 5}, dir)
	if err != nil {
		t.Fatal(err)
	}
	var states []json.RawMessage
	repeats := 0
	for g := 0; g < 8; g++ {
		elites := map[string]bool{}
		for _, e := range m.Archive().Elites {
			elites[e.ID] = true
		}
		props, err := m.Ask(context.Background(), g, history{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range props {
			if elites[m.space.ID(p.X)] {
				repeats++
			}
		}
		if err := m.Tell(g, measureFake(m, props)); err != nil {
			t.Fatal(err)
		}
		st, _ := m.State()
		states = append(states, st)
	}
	if repeats > 2 {
		t.Errorf("%d of 80 children repeat an elite; a repeat is bred again", repeats)
	}
	h := m.Archive().History
	if len(h) != 8 || h[7].Filled <= h[0].Filled || h[7].Filled > 25 {
		t.Fatalf("history %+v: the archive did not grow", h)
	}
	for i := 1; i < len(h); i++ {
		if h[i].QDScore < h[i-1].QDScore-1e-12 {
			t.Fatalf("QD-score fell from %v to %v (a deterministic objective never re-measures lower)", h[i-1].QDScore, h[i].QDScore)
		}
	}
	onFile, err := qd.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(onFile, m.Archive()) {
		t.Fatalf("archive.json differs from the state")
	}
	files, _ := os.ReadDir(filepath.Join(dir, qd.ElitesDir))
	if len(files) != len(onFile.Elites) {
		t.Fatalf("%d elite files for %d elites", len(files), len(onFile.Elites))
	}
	for _, e := range onFile.Elites {
		v, err := strategies.LoadVariant(filepath.Join(dir, qd.ElitesDir, qd.EliteFile(e)))
		if err != nil || v.ID != e.ID || !strings.Contains(v.Note, fmt.Sprintf("fitness %.3f", e.Fitness)) {
			t.Fatalf("elite file of %s: %v %q %v", e.ID, v.ID, v.Note, err)
		}
	}
	// Restore after 5 generations into a fresh instance and compare the
	// 6th generation's proposals.
	r, _ := newMapElites(space, 10, 4, fakeBehaviour(), MapElitesOptions{Bins: 5}, "")
	if err := r.Restore(5, states[4]); err != nil {
		t.Fatal(err)
	}
	fresh, _ := newMapElites(space, 10, 4, fakeBehaviour(), MapElitesOptions{Bins: 5}, "")
	for g := 0; g < 5; g++ {
		props, _ := fresh.Ask(context.Background(), g, history{})
		if err := fresh.Tell(g, measureFake(fresh, props)); err != nil {
			t.Fatal(err)
		}
	}
	a, _ := fresh.Ask(context.Background(), 5, history{})
	b, _ := r.Ask(context.Background(), 5, history{})
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("restored run proposes differently")
	}
	if err := r.Restore(4, states[4]); err == nil {
		t.Fatalf("a state of 5 generations restored as 4")
	}
}

// Rule: descriptor names and bins are checked; errors name the option by
// its flag.
func TestMapElitesOptionsValidation(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	for _, tt := range []struct {
		opt   MapElitesOptions
		field string
	}{
		{MapElitesOptions{Descriptors: []string{"x0", "nope"}}, "descriptors"},
		{MapElitesOptions{Descriptors: []string{"x0", "x0"}}, "descriptors"},
		{MapElitesOptions{Bins: 1}, "bins"},
		{MapElitesOptions{Bins: 100}, "bins"},
	} {
		_, err := newMapElites(space, 8, 1, fakeBehaviour(), tt.opt, "")
		fe, ok := err.(*FieldError)
		if !ok || fe.Field != tt.field {
			t.Errorf("%+v: error %v, want a FieldError of %s", tt.opt, err, tt.field)
		}
	}
	if _, err := newMapElites(space, 8, 1, nil, MapElitesOptions{}, ""); err == nil {
		t.Errorf("MAP-Elites without a behaviour accepted")
	}
}

// Rule: an elite proposed again is placed by its behaviour over all its
// matches: it moves to the cell that behaviour falls in and is in the
// archive once, with its latest fitness.
func TestMapElitesRemeasuredEliteMoves(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	m, err := newMapElites(space, 4, 1, fakeBehaviour(), MapElitesOptions{Bins: 5}, "")
	if err != nil {
		t.Fatal(err)
	}
	x := space.Canonical([]float64{0.5, 0.5, 0.5, 0.5})
	id := space.ID(x)
	tell := func(gen int, n0 int64, fit float64) qd.Stats {
		m.pending, m.gen = []proposal{{X: x}, {X: x}}, gen
		m.log.latest = map[string]behave.Counts{id: {Matches: 1, N: [behave.Slots]int64{n0, 500, 500}}}
		if err := m.Tell(gen, []float64{fit, fit}); err != nil {
			t.Fatal(err)
		}
		return m.arch.History[gen]
	}
	if st := tell(0, 100, 0.4); st.New != 1 || st.Remeasured != 0 {
		t.Fatalf("generation 0: %+v, want one new elite (the repeat counted once)", st)
	}
	if st := tell(1, 500, 0.3); st.Remeasured != 1 || st.Filled != 1 {
		t.Fatalf("generation 1: %+v, want the elite measured again, one cell", st)
	}
	e := m.arch.Elites[0]
	// x0 over both measures: (100 + 500) / 2 matches / 1000 = 0.3: cell 1.
	if len(m.arch.Elites) != 1 || e.Cell[0] != 1 || e.Counts.Matches != 2 || e.Fitness != 0.3 || math.Abs(e.Behaviour[0]-0.3) > 1e-12 {
		t.Fatalf("elites %+v", m.arch.Elites)
	}
}
