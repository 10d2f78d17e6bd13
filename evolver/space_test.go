package evolver

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"crucible/strategies"
)

func TestSpaceMapping(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
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
			if got := space.Genome(tc.x); !slices.Equal(got, tc.want) {
				t.Errorf("Genome(%v) = %v, want %v", tc.x, got, tc.want)
			}
		})
	}
	if got := space.Genome(space.Origin()); !slices.Equal(got, space.Base.Schema.Defaults()) {
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

func (l lucky) Evaluate(ctx context.Context, b matchBatch) ([]measure, error) {
	out := make([]measure, len(b.IDs))
	for i, id := range b.IDs {
		rate := 0.5
		if id == l.id {
			rate = 0.2
			if b.Generation == 0 {
				rate = 1
			}
		}
		out[i] = measure{Points: rate * 40, Games: 40, Matches: 20}
	}
	return out, nil
}

// Rule: GA elites keep eaopt's cached fitness only as a running mean: they
// are measured again every generation on fresh seeds, their count grows,
// and a genome that was lucky once loses its place.
func TestGAReevaluatesCachedElites(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	baseID := space.ID(space.Origin())
	ga, err := newGA(space, 6, 9, GAOptions{Elites: 1})
	if err != nil {
		t.Fatal(err)
	}
	ev := lucky{id: baseID}
	s := &search{Space: space, Algorithm: ga, Evaluator: ev, Seed: 9, Seeds: 2, Generations: 1, Dir: t.TempDir(), Hall: 2}
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
	ga2, _ := newGA(space, 6, 9, GAOptions{Elites: 1})
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
	// Every individual's cached fitness equals its archive fitness.
	st, err := ga2.State()
	if err != nil {
		t.Fatal(err)
	}
	var gst gaState
	if err := json.Unmarshal(st, &gst); err != nil {
		t.Fatal(err)
	}
	cp, err := readCheckpoint(s.Dir)
	if err != nil {
		t.Fatal(err)
	}
	means := map[string]float64{}
	for _, e := range cp.Archive {
		means[e.ID] = e.Fitness
	}
	compared := 0
	for _, isl := range gst.Islands {
		for _, in := range isl {
			if m, ok := means[space.ID(in.X)]; ok {
				compared++
				if -in.Fitness != m {
					t.Errorf("individual %s caches fitness %v, its archive fitness is %v", in.ID, -in.Fitness, m)
				}
			}
		}
	}
	if compared == 0 {
		t.Error("no individual of the GA's state is in the archive: nothing was compared")
	}
}

func eliteFitness(t *testing.T, ga *geneticAlgo) float64 {
	t.Helper()
	return ga.pops[0].Individuals[0].Fitness
}

// scripted proposes fixed points: generation g gets points[g].
type scripted struct{ points [][][]float64 }

func (s *scripted) Name() string { return "scripted" }
func (s *scripted) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
	var out []proposal
	for _, x := range s.points[gen] {
		out = append(out, proposal{X: x})
	}
	return out, nil
}
func (s *scripted) Tell(gen int, fitness []float64) error         { return nil }
func (s *scripted) State() (json.RawMessage, error)               { return json.RawMessage(`{}`), nil }
func (s *scripted) Restore(done int, state json.RawMessage) error { return nil }
func (s *scripted) Close() error                                  { return nil }

// seedDifficulty scores each variant its strength plus the generation's
// offset: generation 3's seeds are easy for everyone.
type seedDifficulty struct {
	strength map[string]float64
}

func (s seedDifficulty) Evaluate(ctx context.Context, b matchBatch) ([]measure, error) {
	out := make([]measure, len(b.IDs))
	for i, id := range b.IDs {
		rate := s.strength[id]
		if b.Generation == 3 {
			rate += 0.3
		}
		out[i] = measure{Points: rate * 1000, Games: 1000, Matches: 500}
	}
	return out, nil
}

// Rule: fitness reads rates as strength plus a generation effect measured
// by the base on the same seeds, so a newcomer measured once on easy
// seeds does not displace a stronger elite measured on many, though its
// raw score rate is higher, and the fitness gap is the true strength gap.
func TestFitnessPairedWithAnchors(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	strong := []float64{0.7, 0.3, 0.75, 0.35}
	alg := &scripted{}
	strength := map[string]float64{space.ID(space.Origin()): 0.3, space.ID(strong): 0.6}
	for g := 0; g < 5; g++ {
		x := []float64{0.1 * float64(g), 0.5, 0.5, 0.5}
		strength[space.ID(x)] = 0.55
		pts := [][]float64{x}
		if g == 0 {
			pts = append(pts, strong)
		}
		alg.points = append(alg.points, pts)
	}
	s := &search{Space: space, Algorithm: alg, Evaluator: seedDifficulty{strength}, Seed: 1, Seeds: 1, Generations: 4, Hall: 6, Dir: t.TempDir()}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	lucky := space.ID(alg.points[3][0])
	champ := res.Hall[0]
	if champ.ID != space.ID(strong) {
		t.Fatalf("champion %s, want the strong elite %s (the lucky newcomer is %s)", champ.ID, space.ID(strong), lucky)
	}
	found := false
	for _, e := range res.Hall {
		if e.ID == lucky {
			found = true
			if !(e.Mean() > champ.Mean()) {
				t.Fatalf("test premise: the newcomer's raw rate %.3f should beat the elite's %.3f", e.Mean(), champ.Mean())
			}
			if math.Abs(champ.Fitness-e.Fitness-0.05) > 1e-9 {
				t.Errorf("fitness gap %.3f, want the true strength gap 0.05", champ.Fitness-e.Fitness)
			}
		}
	}
	if !found {
		t.Errorf("the newcomer %s is not in the hall %v", lucky, res.Hall)
	}
}

// equalNoisy scores every variant but the base 0.6 give or take a
// pseudo-random 0.03 that differs by variant and generation; the base
// scores 0.3.
type equalNoisy struct{ base string }

func (e equalNoisy) Evaluate(ctx context.Context, b matchBatch) ([]measure, error) {
	out := make([]measure, len(b.IDs))
	for i, id := range b.IDs {
		rate := 0.3
		if id != e.base {
			h := fnv.New64a()
			fmt.Fprintf(h, "%s/%d", id, b.Generation)
			rate = 0.6 + 0.03*(float64(h.Sum64()%1000)/500-1)
		}
		out[i] = measure{Points: rate * 200, Games: 200, Matches: 100}
	}
	return out, nil
}

// Rule: variants of equal strength that trade the lead on noise do not
// each become a recorded champion (a hall/ file and an opponent).
func TestChampionsNeedAClearLead(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	alg := &scripted{}
	for g := 0; g < 30; g++ {
		var pts [][]float64
		for k := 0; k < 4; k++ {
			pts = append(pts, []float64{float64(g) / 30, float64(k) / 4, 0.5, 0.5})
		}
		alg.points = append(alg.points, pts)
	}
	s := &search{Space: space, Algorithm: alg, Evaluator: equalNoisy{base: space.ID(space.Origin())}, Seed: 1, Seeds: 1, Generations: 30, Dir: t.TempDir()}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	leads := map[string]bool{}
	for _, g := range stripTimes(t, readLines(t, filepath.Join(s.Dir, GenerationsFile))) {
		leads[g.Champion] = true
	}
	if len(leads) < 4 {
		t.Fatalf("test premise: the lead should change hands on noise, %d leaders seen", len(leads))
	}
	if len(res.Champions) > 3 {
		t.Errorf("%d variants led the hall and %d were recorded as champions; equal variants trading the lead should not be recorded", len(leads), len(res.Champions))
	}
	files, _ := os.ReadDir(filepath.Join(s.Dir, HallDir))
	if len(files) != len(res.Champions) {
		t.Errorf("hall/ holds %d files for %d recorded champions", len(files), len(res.Champions))
	}
}
