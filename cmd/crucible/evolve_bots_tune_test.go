package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The share bot (examples/acb-share: the Go example with its one
// parameter gather, the share of units sent to collect energy, from a
// poor default of 0.25) against guardian. Its best value was measured by
// a sweep of crucible arena on fresh seeds (100 seeds in both seat orders
// a value, base seed 1000; see the README's "Tune your own bot"): the
// score rate is 0 at 0.2 and below, 0.26 at 0.3, a flat top of 0.60-0.62
// over 0.5-0.65 (the best measured point 0.6, the fitted parabola's peak
// 0.62), 0.45 at 0.8 and 0.32 at 0.9.
const (
	shareBest = 0.6
	// shareDefault is the manifest's default.
	shareDefault = 0.25
	// shareHigh is where the sweep's score falls below 0.46, a quarter
	// below the top's: a step past it overshoots.
	shareHigh = 0.8
)

// spsaTheta reads θ, SPSA's current point, from a run's checkpoint (in
// the parameter's units, which are [0,1] for gather).
func spsaTheta(t *testing.T, out string) float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "checkpoint.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		State struct {
			Theta []float64 `json:"theta"`
		} `json:"state"`
	}
	if err := json.Unmarshal(data, &c); err != nil || len(c.State.Theta) != 1 {
		t.Fatalf("the checkpoint's SPSA state: %v %s", err, data)
	}
	return c.State.Theta[0]
}

// SPSA on an outside bot moves its parameter the right way: two
// generations from the share bot's poor default of 0.25 bring θ up by
// more than one final step and not past the sweep's good region. The run
// plays a fixed number of generations on fixed seeds, so its result does
// not depend on the machine's load.
func TestSPSATunesTheShareBotTowardItsBest(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Go bot as real processes")
	}
	bot := goBinaryManifest(t, "acb-share")
	out := filepath.Join(t.TempDir(), "ev")
	_, stderr, err := execRoot(t, "evolve", "--game", "acb", "--base", bot, "--algo", "spsa", "--population", "4",
		"--generations", "2", "--seeds", "4", "--pool", "guardian", "--hall-opponents", "0", "--hall", "1",
		"--spsa-c-end", "gather=0.1", "--spsa-r-end", "0.1",
		"--holdout", "0", "--top", "1", "--tournament-seeds", "1", "--workers", "2", "--seed", "3", "--out", out)
	if err != nil {
		t.Fatalf("evolve: %v\n%s", err, stderr)
	}
	theta := spsaTheta(t, out)
	if theta < shareDefault+0.1 || theta > shareHigh {
		t.Errorf("after 2 generations θ = %.3f; want it moved from the default %.2f by more than the final step 0.1 toward the best %.2f, and not past %.2f", theta, shareDefault, shareBest, shareHigh)
	}
}

// The tuning figure (CRUCIBLE_TUNE_FIGURE=1, some 10 minutes an algorithm
// at load 40 on 2 cores): spsa and cmaes each tune the share bot from
// 0.25 to within 10% of its best value, and the held-out comparison of
// the champion against the default on fresh seeds has its interval above
// zero. These are the README's runs.
//
//	CRUCIBLE_TUNE_FIGURE=1 go test -run TuningFigure -v -timeout 90m ./cmd/crucible/
func TestTuningFigure(t *testing.T) {
	if os.Getenv("CRUCIBLE_TUNE_FIGURE") == "" {
		t.Skip("the full tuning figure: set CRUCIBLE_TUNE_FIGURE=1")
	}
	bot := goBinaryManifest(t, "acb-share")
	common := []string{"--game", "acb", "--base", bot, "--pool", "guardian", "--hall-opponents", "0",
		"--seeds", "8", "--top", "2", "--tournament-seeds", "8", "--holdout", "64", "--workers", "2", "--seed", "11"}
	for _, tc := range []struct {
		algo  string
		extra []string
	}{
		{"spsa", []string{"--generations", "8", "--population", "4", "--spsa-c-end", "gather=0.1", "--spsa-r-end", "0.05"}},
		{"cmaes", []string{"--generations", "8", "--population", "6"}},
	} {
		t.Run(tc.algo, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), tc.algo)
			args := append(append([]string{"evolve", "--algo", tc.algo, "--out", out}, common...), tc.extra...)
			stdout, stderr, err := execRoot(t, args...)
			if err != nil {
				t.Fatalf("evolve: %v\n%s", err, stderr)
			}
			t.Logf("%s", stdout)
			v := championGather(t, out)
			if d := v - shareBest; d > 0.1*shareBest || d < -0.1*shareBest {
				t.Errorf("%s: the champion's gather %.3f is not within 10%% of the best %.2f", tc.algo, v, shareBest)
			}
			lo := holdoutLower(t, out)
			if lo <= 0 {
				t.Errorf("%s: the held-out gain's interval reaches %.3f, not above zero", tc.algo, lo)
			}
			t.Logf("%s: champion gather %.3f (best %.2f), held-out gain's lower bound %+.3f", tc.algo, v, shareBest, lo)
		})
	}
}

// championGather reads the champion manifest's gather.
func championGather(t *testing.T, out string) float64 {
	t.Helper()
	m, err := loadManifest("acb", filepath.Join(out, ChampionBotFile))
	if err != nil {
		t.Fatal(err)
	}
	v, ok := m.Values["gather"]
	if !ok {
		t.Fatalf("the champion manifest has no gather: %v", m.Values)
	}
	return v
}

// holdoutLower reads the lower end of the 95% interval of the held-out
// comparison's score-rate difference (champion less base, both against
// the pool on held-out seeds) from report.json.
func holdoutLower(t *testing.T, out string) float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Holdout *struct {
			Lo float64 `json:"lo"`
		} `json:"holdout"`
	}
	if err := json.Unmarshal(data, &r); err != nil || r.Holdout == nil {
		t.Fatalf("report.json has no held-out comparison: %v", err)
	}
	return r.Holdout.Lo
}
