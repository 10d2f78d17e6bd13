package evolver

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"crucible/engine/kindling"
)

// errKilled stands for a kill: a run stops where its write hook returns it.
var errKilled = errors.New("killed")

// tinyKindling is a whole run (search and final stages) of a few tens of
// milliseconds.
func tinyKindling(t *testing.T, algo, out string) Config {
	return Config{
		Game: kindling.Game{}, Registry: kindlingRegistry(t), Base: "contrarian", Algorithm: algo,
		Pool: []string{"easy", "even", "greedy"}, Population: 4, Seeds: 2, Seed: 5, Generations: 3,
		Workers: 2, Top: 2, TournamentSeeds: 2, Holdout: 4, Out: out,
	}
}

// interrupt leaves at path what a kill in the middle of writing it leaves:
// half a line at the end of generations.jsonl (which is appended to), the
// temporary file of an atomic write for any other file.
func interrupt(t *testing.T, path string) {
	t.Helper()
	if filepath.Base(path) == GenerationsFile {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(`{"generation":`)
		f.Close()
		return
	}
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp123456")
	if err := os.WriteFile(tmp, []byte(`{"half":`), 0o600); err != nil {
		t.Fatal(err)
	}
}

// runDigest is what must be the same in a resumed and an uninterrupted run:
// every file's content but the checkpoint's, with the wall times of
// generations.jsonl and report.json left out.
func runDigest(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch rel {
		case CheckpointFile:
			return nil
		case GenerationsFile:
			var lines []string
			for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
				var g GenStats
				if err := json.Unmarshal([]byte(l), &g); err != nil {
					t.Fatalf("%s: line %q: %v", path, l, err)
				}
				g.WallMS, g.ElapsedMS = 0, 0
				b, _ := json.Marshal(g)
				lines = append(lines, string(b))
			}
			data = []byte(strings.Join(lines, "\n"))
		case ReportFile:
			var r Report
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			r.Dir, r.ElapsedS, r.ElapsedTotalS = "", 0, 0
			data, _ = json.Marshal(r)
		}
		out[rel] = string(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// Defect 4: a run killed at any point — before or after any file it writes,
// or in the middle of writing it — and resumed ends exactly as the run left
// alone, with no temporary file left behind. The kill points are every
// write of the uninterrupted run, in order: the first checkpoint, each
// generation's line, hall files and checkpoint, and the final stages'
// files.
func TestEvolveResumesFromEveryWritePoint(t *testing.T) {
	for _, algo := range []string{"ga", "cmaes", "spsa"} {
		t.Run(algo, func(t *testing.T) {
			wholeDir := filepath.Join(t.TempDir(), "whole")
			cfg := tinyKindling(t, algo, wholeDir)
			var points []string
			cfg.files.hook = func(when, path string) error {
				rel, _ := filepath.Rel(wholeDir, path)
				points = append(points, when+" "+rel)
				return nil
			}
			whole, err := Evolve(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			want := runDigest(t, wholeDir)
			if len(points) < 20 || points[0] != "before "+CheckpointFile || points[2] != "before "+GenerationsFile {
				t.Fatalf("write points %v: want the first checkpoint, then the first generation's line, and many more", points)
			}
			for k, point := range points {
				dir := filepath.Join(t.TempDir(), "cut")
				cfg := tinyKindling(t, algo, dir)
				n := 0
				cfg.files.hook = func(when, path string) error {
					if n++; n <= k {
						return nil
					}
					if when == "before" {
						interrupt(t, path)
					}
					return errKilled
				}
				if _, err := Evolve(context.Background(), cfg); !errors.Is(err, errKilled) {
					t.Fatalf("killed at %q: the run returned %v", point, err)
				}
				cfg = tinyKindling(t, algo, dir)
				cfg.Resume = true
				got, err := Evolve(context.Background(), cfg)
				if err != nil {
					t.Fatalf("killed at %q: resume: %v", point, err)
				}
				if got.Champion.ID != whole.Champion.ID || !reflect.DeepEqual(got.Holdout, whole.Holdout) || got.Matches != whole.Matches {
					t.Errorf("killed at %q: resumed run's champion %s, held-out %v, %d matches; uninterrupted %s, %v, %d",
						point, got.Champion.ID, got.Holdout, got.Matches, whole.Champion.ID, whole.Holdout, whole.Matches)
				}
				if d := runDigest(t, dir); !reflect.DeepEqual(d, want) {
					for f := range mergeKeys(d, want) {
						if d[f] != want[f] {
							t.Errorf("killed at %q: %s differs after resuming:\nresumed       %.300s\nuninterrupted %.300s", point, f, d[f], want[f])
						}
					}
				}
			}
			t.Logf("%s: resumed identically from each of %d write points", algo, len(points))
		})
	}
}

func mergeKeys(a, b map[string]string) map[string]bool {
	out := map[string]bool{}
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}
