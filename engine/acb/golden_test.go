package acb

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// TestReplayGolden pins the replay bytes of a small match: a change to the
// map generator, the rules or the format shows up here (rerun with -update
// after a deliberate change and review the diff).
func TestReplayGolden(t *testing.T) {
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols = 16, 16
	cfg.MaxTurns = 30
	cfg.SpawnCost = 1
	cfg.EnergyInterval = 3
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 24
	got := playRandom(t, 2, 3, cfg)
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
