package acb

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestReplayGolden pins the replay bytes of a small match played to the
// end (adjudication off): a change to the map generator, the rules or the
// format shows up here (rerun with -update after a deliberate change and
// review the diff). The adjudicated replay of the same match (the storm
// leaves nothing alive) is the golden one cut after the turn it stops at,
// with the same result marked adjudicated.
func TestReplayGolden(t *testing.T) {
	cfg := goldenConfig()
	got := playRandomWith(t, 2, 3, MatchConfig{Config: cfg, NoAdjudication: true})
	path := filepath.Join("testdata", "replay_seed2_3p_18x18.json")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("replay differs from %s (%d vs %d bytes); rerun with -update if the change is deliberate", path, len(got), len(want))
	}
}

func TestReplayGoldenAdjudicated(t *testing.T) {
	cfg := goldenConfig()
	full, err := os.ReadFile(filepath.Join("testdata", "replay_seed2_3p_18x18.json"))
	if err != nil {
		t.Fatal(err)
	}
	adj := playRandom(t, 2, 3, cfg)
	cut := bytes.Index(adj, []byte("\n],\"result\":"))
	if cut < 0 || !bytes.HasPrefix(full, adj[:cut]) || full[cut] != ',' {
		t.Fatalf("the adjudicated replay's turns are not a prefix of the full match's")
	}
	a, err := ParseReplay(adj)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseReplay(full)
	if err != nil {
		t.Fatal(err)
	}
	if !a.Result.Adjudicated || len(a.Turns) >= len(f.Turns) {
		t.Fatalf("adjudicated %v after %d of %d turns, want a match stopped early", a.Result.Adjudicated, len(a.Turns), len(f.Turns))
	}
	a.Result.Adjudicated = false
	if !reflect.DeepEqual(a.Result, f.Result) {
		t.Fatalf("adjudicated result %+v, full match %+v", a.Result, f.Result)
	}
}

// goldenConfig is the small match of the golden replay.
func goldenConfig() Config {
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols = 16, 16
	cfg.MaxTurns = 30
	cfg.SpawnCost = 1
	cfg.EnergyInterval = 3
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 24
	return cfg
}
