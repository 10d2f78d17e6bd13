package evolver

import (
	"context"
	"encoding/json"
	"math"
	"testing"

	"crucible/strategies"
)

func TestSpaceMapping(t *testing.T) {
	space := Space{Base: testStrategy()}
	tests := []struct {
		name string
		x    []float64
		want strategies.Genome
	}{
		{"0 is every Min and 1 every Max", []float64{0, 1, 0, 1}, strategies.Genome{0, 10, -50, 2.5}},
		{"the middle maps linearly", []float64{0.5, 0.5, 0.5, 0.5}, strategies.Genome{0.5, 5, 0, 1.5}},
		{"points outside the cube are clamped", []float64{-0.3, 1.7, 2, -1}, strategies.Genome{0, 10, 50, 0.5}},
		{"integer parameters are rounded", []float64{0.25, 0.26, 0.25, 0.25}, strategies.Genome{0.25, 3, -25, 1}},
		{"NaN takes the default", []float64{math.NaN(), 0, 0, 0}, strategies.Genome{0.2, 0, -50, 0.5}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := space.Genome(tc.x); !equalGenome(got, tc.want) {
				t.Errorf("Genome(%v) = %v, want %v", tc.x, got, tc.want)
			}
		})
	}
	if got := space.Genome(space.Origin()); !equalGenome(got, space.Base.Schema.Defaults()) {
		t.Errorf("the origin plays %v, not the defaults %v", got, space.Base.Schema.Defaults())
	}
	// Two points that round to the same genome are the same variant.
	a, b := []float64{0.5, 0.31, 0.5, 0.5}, []float64{0.5, 0.27, 0.5, 0.5}
	if space.ID(a) != space.ID(b) {
		t.Errorf("points playing the same genome have ids %s and %s", space.ID(a), space.ID(b))
	}
	if c := space.Canonical(a); c[1] != 0.3 {
		t.Errorf("canonical point of %v has reserve coordinate %v, want 0.3", a, c[1])
	}
	v := space.Variant(a, "p1")
	if v.ID != space.ID(a) || v.Params["reserve"] != 3 || len(v.Parents) != 1 {
		t.Errorf("variant %+v does not match the point", v)
	}
}

// lucky scores one variant 1.0 in generation 0 only and 0.2 after, and
// every other variant 0.5: a search must not keep trusting the lucky one.
type lucky struct {
	id string
}

func (l lucky) Evaluate(ctx context.Context, b Batch) ([]Measure, error) {
	out := make([]Measure, len(b.IDs))
	for i, id := range b.IDs {
		rate := 0.5
		if id == l.id {
			rate = 0.2
			if b.Generation == 0 {
				rate = 1
			}
		}
		out[i] = Measure{Points: rate * 40, Games: 40, Matches: 20}
	}
	return out, nil
}

// Rule: GA elites keep eaopt's cached fitness only as a running mean: they
// are measured again every generation on fresh seeds, their count grows,
// and a genome that was lucky once loses its place.
func TestGAReevaluatesCachedElites(t *testing.T) {
	space := Space{Base: testStrategy()}
	baseID := space.ID(space.Origin())
	ga, err := NewGA(space, 6, 9, GAOptions{Elites: 1})
	if err != nil {
		t.Fatal(err)
	}
	ev := lucky{id: baseID}
	s := &Search{Space: space, Algorithm: ga, Evaluator: ev, Seed: 9, Seeds: 2, Generations: 1, Dir: t.TempDir(), Hall: 2}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Hall[0].ID != baseID {
		t.Fatalf("after generation 0 the lucky base should lead the hall, got %s", res.Hall[0].ID)
	}
	// The base is the GA's elite; the cached fitness must be its mean.
	if f := eliteFitness(t, ga); f != -1 {
		t.Fatalf("elite's eaopt fitness %v, want -1 (rate 1 negated)", f)
	}
	s.Generations, s.Resume = 4, true
	ga2, _ := NewGA(space, 6, 9, GAOptions{Elites: 1})
	s.Algorithm = ga2
	res, err = s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if res.Base.Evals < 2 {
		t.Errorf("the lucky elite was measured %d times, want it measured again", res.Base.Evals)
	}
	if want := (40 + 8*float64(res.Base.Evals-1)) / (40 * float64(res.Base.Evals)); math.Abs(res.Base.Mean()-want) > 1e-12 {
		t.Errorf("running mean %v, want %v over %d generations", res.Base.Mean(), want, res.Base.Evals)
	}
	if res.Hall[0].ID == baseID {
		t.Errorf("the once-lucky base still leads the hall with running mean %.3f", res.Base.Mean())
	}
	// Every individual's cached fitness equals its archive running mean.
	st, _ := ga2.State()
	var gst gaState
	json.Unmarshal(st, &gst)
	cp, _ := readCheckpoint(s.Dir)
	means := map[string]float64{}
	for _, e := range cp.Archive {
		means[e.ID] = e.Mean()
	}
	for _, isl := range gst.Islands {
		for _, in := range isl {
			if m, ok := means[space.ID(in.X)]; ok && -in.Fitness != m {
				t.Errorf("individual %s caches fitness %v, its running mean is %v", in.ID, -in.Fitness, m)
			}
		}
	}
}

func eliteFitness(t *testing.T, ga *GA) float64 {
	t.Helper()
	return ga.pops[0].Individuals[0].Fitness
}
