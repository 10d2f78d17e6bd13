package evolver

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"
)

// runCMA asks and tells gens generations of f (a fitness of the played
// point) and returns the points of the last generation and the notes.
func runCMA(t *testing.T, c *cmaES, gens int, f func(x []float64) float64) ([][]float64, []string) {
	t.Helper()
	var last [][]float64
	var notes []string
	for g := 0; g < gens; g++ {
		props, err := c.Ask(context.Background(), g, history{})
		if err != nil {
			t.Fatal(err)
		}
		notes = append(notes, c.Note())
		fit := make([]float64, len(props))
		last = last[:0]
		for i, p := range props {
			for _, v := range p.X {
				if v < 0 || v > 1 {
					t.Fatalf("generation %d proposed %v, outside the box", g, p.X)
				}
			}
			fit[i] = f(p.X)
			last = append(last, p.X)
		}
		if err := c.Tell(g, fit); err != nil {
			t.Fatal(err)
		}
	}
	return last, notes
}

func meanOf(xs [][]float64) []float64 {
	m := make([]float64, len(xs[0]))
	for _, x := range xs {
		for i, v := range x {
			m[i] += v / float64(len(xs))
		}
	}
	return m
}

// Rule: with the optimum inside the box but near a bound (0.93 on every
// coordinate, the defaults far from it), the distribution settles on the
// optimum, not on the bound: the last generation's points are centred
// within 0.03 of 0.93 and few of them sit on the bound.
func TestCMAESOptimumNearABound(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	c, err := newCMAES(space, 12, 3, CMAOptions{Stall: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	opt := []float64{0.93, 0.93, 0.93, 0.93}
	last, _ := runCMA(t, c, 60, func(x []float64) float64 { return -sqDist(x, opt) })
	m := meanOf(last)
	onBound := 0
	for _, x := range last {
		for _, v := range x {
			if v > 0.995 {
				onBound++
			}
		}
	}
	for i, v := range m {
		if math.Abs(v-0.93) > 0.03 {
			t.Fatalf("coordinate %d: last generation centred at %.3f, want 0.93 (mean %v)", i, v, m)
		}
	}
	if onBound > len(last) {
		t.Errorf("%d of %d coordinates of the last generation on the bound", onBound, 4*len(last))
	}
}

// Rule: with the optimum on a bound (fitness rising towards 1 on every
// coordinate), mirroring still lets the samples reach it.
func TestCMAESOptimumOnTheBound(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	c, err := newCMAES(space, 12, 5, CMAOptions{Stall: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	last, _ := runCMA(t, c, 40, func(x []float64) float64 {
		s := 0.0
		for _, v := range x {
			s += v
		}
		return s
	})
	best := last[0]
	for _, x := range last {
		if x[0]+x[1]+x[2]+x[3] > best[0]+best[1]+best[2]+best[3] {
			best = x
		}
	}
	for i, v := range meanOf(last) {
		if v < 0.9 || best[i] < 0.95 {
			t.Fatalf("coordinate %d: last generation centred at %.3f, best point %v; want both near the bound 1", i, v, best)
		}
	}
}

// Rule: a search that stalls (a flat objective: no better value for
// Stall generations) restarts with twice the population, and the note of
// that generation says so; a restored run proposes what the uninterrupted
// one does after the restart.
func TestCMAESRestartDoublesPopulation(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	flat := func([]float64) float64 { return 0.5 }
	c, err := newCMAES(space, 6, 9, CMAOptions{Stall: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var sizes []int
	var notes []string
	for g := 0; g < 9; g++ {
		props, err := c.Ask(context.Background(), g, history{})
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(props))
		notes = append(notes, c.Note())
		fit := make([]float64, len(props))
		for i, p := range props {
			fit[i] = flat(p.X)
		}
		if err := c.Tell(g, fit); err != nil {
			t.Fatal(err)
		}
	}
	// Generation 0 sets the restart's best; 1, 2, 3 do not improve it, so
	// generation 4 restarts with 12, and 4..7 stall again: 8 has 24.
	want := []int{6, 6, 6, 6, 12, 12, 12, 12, 24}
	if !reflect.DeepEqual(sizes, want) {
		t.Fatalf("populations %v, want %v", sizes, want)
	}
	if !strings.HasPrefix(notes[4], "restart 1 (no better value in 3 generations): population 12") || !strings.HasPrefix(notes[8], "restart 2") {
		t.Errorf("notes %q", notes)
	}
	if c.Restarts() != 2 || c.Population() != 24 {
		t.Errorf("restarts %d population %d", c.Restarts(), c.Population())
	}
	// Restore after 9 generations and ask the 10th on both.
	st, err := c.State()
	if err != nil {
		t.Fatal(err)
	}
	r, _ := newCMAES(space, 6, 9, CMAOptions{Stall: 3})
	defer r.Close()
	if err := r.Restore(9, st); err != nil {
		t.Fatal(err)
	}
	a, err := c.Ask(context.Background(), 9, history{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Ask(context.Background(), 9, history{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) || r.Population() != 24 {
		t.Fatalf("restored run proposes %d points, uninterrupted %d, or different ones", len(b), len(a))
	}
}

// Rule: a collapsed distribution (all samples nearly equal) restarts.
func TestCMAESRestartOnCollapse(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	c, err := newCMAES(space, 6, 1, CMAOptions{Stall: 1000, MinSpread: 10})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_, notes := runCMA(t, c, 2, func(x []float64) float64 { return x[0] })
	if !strings.HasPrefix(notes[1], "restart 1 (spread") || c.Population() != 12 {
		t.Fatalf("notes %q, population %d", notes, c.Population())
	}
}

// Rule: mirroring reflects at both bounds as often as needed.
func TestMirror01(t *testing.T) {
	got := mirror01([]float64{1.2, -0.3, 2.5, 0.4, -1.25, math.NaN()})
	want := []float64{0.8, 0.3, 0.5, 0.4, 0.75, 0.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12 {
			t.Fatalf("mirror01 = %v, want %v", got, want)
		}
	}
}

// Rule: in a noisy search (the synthetic evaluator's Bernoulli games)
// whose optimum lies inside the box near its upper bound, CMA-ES neither
// plays the bound itself in most of its late samples nor crowns a
// champion there: clamping made every sample beyond the bound the same
// genome, re-measured ever more often, on the bound.
func TestCMAESNoisySearchNearABound(t *testing.T) {
	saved := optimum
	optimum = []float64{0.9, 0.3, 0.9, 0.9}
	defer func() { optimum = saved }()
	space := paramSpace{Base: testStrategy()}
	algo, err := newCMAES(space, 10, 42, CMAOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer algo.Close()
	rec := &recorder{algorithm: algo}
	s := &search{Space: space, Algorithm: rec, Evaluator: &synthetic{space: space, gamesPerSeed: 4}, Seed: 42, Seeds: 6, Generations: 30, Dir: t.TempDir()}
	res, err := s.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// The continuous coordinates near the bound: 0, 2 and 3.
	onBound, total := 0, 0
	for _, props := range rec.asked[15:] {
		for _, p := range props {
			x := space.Canonical(p.X)
			for _, i := range []int{0, 2, 3} {
				total++
				if x[i] == 1 {
					onBound++
				}
			}
		}
	}
	champ := space.Canonical(res.Hall[0].X)
	t.Logf("champion %v (optimum %v); %d of %d late coordinates on the bound", champ, optimum, onBound, total)
	if onBound*20 > total {
		t.Errorf("%d of %d late sample coordinates sit on the bound", onBound, total)
	}
	for _, i := range []int{0, 2, 3} {
		if champ[i] == 1 || math.Abs(champ[i]-0.9) > 0.08 {
			t.Errorf("champion coordinate %d = %.3f, want near the optimum 0.9, not on the bound", i, champ[i])
		}
	}
}

// recorder keeps the proposals of every generation.
type recorder struct {
	algorithm
	asked [][]proposal
}

func (r *recorder) Ask(ctx context.Context, gen int, h history) ([]proposal, error) {
	p, err := r.algorithm.Ask(ctx, gen, h)
	r.asked = append(r.asked, p)
	return p, err
}
