package evolver

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func newAlgorithm(t *testing.T, name string, space paramSpace, pop int, seed uint64) algorithm {
	t.Helper()
	var a algorithm
	var err error
	switch name {
	case "ga":
		a, err = newGA(space, pop, seed, GAOptions{Islands: 2, MigrateEvery: 3})
	case "cmaes":
		a, err = newCMAES(space, pop, seed, CMAOptions{})
	case "spsa":
		a, err = newSPSA(space, pop, seed, *newSPSAOptions())
	default:
		t.Fatalf("no algorithm %s", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

// Rule: from the base's defaults, each algorithm finds a champion whose
// true rate on the noisy objective is clearly above the base's, and the
// champion is measured on many games (re-evaluated, not one lucky score).
func TestAlgorithmsImproveNoisyQuadratic(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	base := trueRate(space, space.Genome(space.Origin()))
	for _, algo := range []string{"ga", "cmaes"} {
		t.Run(algo, func(t *testing.T) {
			ev := &synthetic{space: space, gamesPerSeed: 4}
			s := &search{
				Space: space, Algorithm: newAlgorithm(t, algo, space, 10, 42), Evaluator: ev,
				Seed: 42, Seeds: 6, Generations: 30, Dir: t.TempDir(),
			}
			res, err := s.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			champ := res.Hall[0]
			got := trueRate(space, space.Genome(champ.X))
			t.Logf("%s: base rate %.3f, champion %s true rate %.3f (fitness %.3f, measured %.3f over %.0f games)", algo, base, champ.ID, got, champ.Fitness, champ.Mean(), champ.Games)
			if got < base+0.3 {
				t.Errorf("champion's true rate %.3f is not clearly above the base's %.3f", got, base)
			}
			// Fitness estimates the score rate: no drift away from the
			// champion's true rate (the anchor is unbiased).
			if math.Abs(champ.Fitness-got) > 0.08 {
				t.Errorf("champion's fitness %.3f strays from its true rate %.3f", champ.Fitness, got)
			}
			if champ.Evals < 2 {
				t.Errorf("champion was measured in %d generations, want at least 2 (elites are re-measured)", champ.Evals)
			}
			lines := readLines(t, filepath.Join(s.Dir, GenerationsFile))
			if len(lines) != 30 {
				t.Errorf("generations.jsonl has %d lines, want 30", len(lines))
			}
		})
	}
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// Rule: a run cancelled in the middle of a generation and resumed from its
// checkpoint ends exactly as the run left alone: same champion, same hall,
// same archive, same generations.jsonl apart from wall times.
func TestResumeEqualsUninterrupted(t *testing.T) {
	space := paramSpace{Base: testStrategy()}
	for _, algo := range []string{"ga", "cmaes", "spsa"} {
		t.Run(algo, func(t *testing.T) {
			const gens = 12
			whole := &search{Space: space, Algorithm: newAlgorithm(t, algo, space, 8, 7), Evaluator: &synthetic{space: space, gamesPerSeed: 3},
				Seed: 7, Seeds: 4, Generations: gens, Dir: t.TempDir()}
			want, err := whole.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}

			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			ev := &synthetic{space: space, gamesPerSeed: 3, cancelAt: 5, cancel: cancel}
			first := &search{Space: space, Algorithm: newAlgorithm(t, algo, space, 8, 7), Evaluator: ev,
				Seed: 7, Seeds: 4, Generations: gens, Dir: dir}
			if _, err := first.Run(ctx); !errors.Is(err, context.Canceled) {
				t.Fatalf("cancelled run returned %v, want context.Canceled", err)
			}
			if cp := readCheckpointNoTime(t, dir); cp.Generations != 5 {
				t.Fatalf("cancelled in generation 5, the checkpoint covers %d generations, want 5", cp.Generations)
			}
			// A killed run may leave the line of a generation it did not
			// checkpoint; resume must drop it.
			f, _ := os.OpenFile(filepath.Join(dir, GenerationsFile), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString(`{"generation":5,"half":`)
			f.Close()

			second := &search{Space: space, Algorithm: newAlgorithm(t, algo, space, 8, 7), Evaluator: &synthetic{space: space, gamesPerSeed: 3},
				Seed: 7, Seeds: 4, Generations: gens, Dir: dir, Resume: true}
			got, err := second.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got.Generations != gens || got.Matches != want.Matches {
				t.Errorf("resumed run: %d generations, %d matches; uninterrupted: %d, %d", got.Generations, got.Matches, want.Generations, want.Matches)
			}
			if !reflect.DeepEqual(got.Hall, want.Hall) {
				t.Errorf("hall differs:\nresumed       %+v\nuninterrupted %+v", got.Hall, want.Hall)
			}
			if !reflect.DeepEqual(got.Champions, want.Champions) {
				t.Errorf("champions differ")
			}
			a, b := stripTimes(t, readLines(t, filepath.Join(dir, GenerationsFile))), stripTimes(t, readLines(t, filepath.Join(whole.Dir, GenerationsFile)))
			if !reflect.DeepEqual(a, b) {
				t.Errorf("generations.jsonl differs:\nresumed       %v\nuninterrupted %v", a, b)
			}
			ca, cb := readCheckpointNoTime(t, dir), readCheckpointNoTime(t, whole.Dir)
			if !reflect.DeepEqual(ca, cb) {
				t.Errorf("final checkpoints differ")
			}
		})
	}
}

func stripTimes(t *testing.T, lines []string) []GenStats {
	t.Helper()
	var out []GenStats
	for _, l := range lines {
		var g GenStats
		if err := json.Unmarshal([]byte(l), &g); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		g.WallMS, g.ElapsedMS = 0, 0
		out = append(out, g)
	}
	return out
}

func readCheckpointNoTime(t *testing.T, dir string) *checkpoint {
	t.Helper()
	cp, err := readCheckpoint(dir)
	if err != nil {
		t.Fatal(err)
	}
	cp.ElapsedMS = 0
	return cp
}

// FuzzRestore feeds arbitrary checkpoint states to the algorithms' Restore:
// a damaged checkpoint must give an error or a usable state, never a panic.
func FuzzRestore(f *testing.F) {
	space := paramSpace{Base: testStrategy()}
	f.Add(2, []byte(`{"islands":[[{"id":"a","x":[0.1,0.2,0.3,0.4],"fitness":-0.5}]]}`))
	f.Add(1, []byte(`{"lambda":4,"told":[[1,2,3,4]]}`))
	f.Add(2, []byte(`{"lambda":4,"told":[[1e300,-1e300,0,0],[0,0,0,0]],"last":[[0]]}`))
	f.Fuzz(func(t *testing.T, done int, state []byte) {
		if done < 0 || done > 20 {
			return
		}
		ga, _ := newGA(space, 4, 1, GAOptions{Islands: 1})
		if err := ga.Restore(done, state); err == nil && done > 0 {
			if _, err := ga.Ask(context.Background(), done, history{}); err != nil {
				t.Logf("ask after restore: %v", err)
			}
		}
		cma, _ := newCMAES(space, 4, 1, CMAOptions{})
		defer cma.Close()
		if err := cma.Restore(done, state); err == nil {
			if _, err := cma.Ask(context.Background(), done, history{}); err != nil {
				t.Logf("ask after restore: %v", err)
			}
		}
	})
}

// Rule: a generation's line describes its rates by mean, sample standard
// deviation (n-1), min and max; a single rate has no spread.
func TestDescribe(t *testing.T) {
	tests := []struct {
		name              string
		xs                []float64
		mean, std, lo, hi float64
	}{
		{"four rates", []float64{0.1, 0.2, 0.3, 0.4}, 0.25, math.Sqrt(0.05 / 3), 0.1, 0.4},
		{"one rate", []float64{0.7}, 0.7, 0, 0.7, 0.7},
		{"none", nil, 0, 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mean, std, lo, hi := describe(tc.xs)
			for _, c := range []struct{ got, want float64 }{{mean, tc.mean}, {std, tc.std}, {lo, tc.lo}, {hi, tc.hi}} {
				if math.Abs(c.got-c.want) > 1e-12 {
					t.Fatalf("describe(%v) = %v %v %v %v, want %v %v %v %v", tc.xs, mean, std, lo, hi, tc.mean, tc.std, tc.lo, tc.hi)
				}
			}
		})
	}
}
