package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// planMatches is what a plan plays: one generation (its points on seeds ×
// pool × 2 seat orders, and the new genomes' probes) and the final stages
// as the evolver counts them, with its margin.
func planMatches(p botPlan) (generation, finals float64) {
	generation = float64((p.population+1+p.hall)*p.seeds*p.pool*2 + planProbes*(p.population+1))
	field := p.pool + 1
	finals = planFinalMargin * float64(p.top*2*field*p.tournamentSeeds+4*field*p.holdout+(field+1)*field*p.tournamentSeeds+p.top*(p.top-1)*p.tournamentSeeds)
	return generation, finals
}

// A budgeted bot run is sized to the bot's speed: a fast bot keeps more of
// the pool and more seeds than a slow one, and in each the planned
// generations and final stages fit the budget's matches.
func TestBotPlanFitsTheBudget(t *testing.T) {
	fast := newBotPlan(0.1, 15*time.Minute, 2, "spsa", 0, 0, 20)
	slow := newBotPlan(2, 15*time.Minute, 2, "spsa", 0, 0, 20)
	if fast.pool*fast.seeds <= slow.pool*slow.seeds || fast.holdout < slow.holdout {
		t.Errorf("a 20x faster bot plays no more a generation or held out: fast %+v, slow %+v", fast, slow)
	}
	for _, p := range []botPlan{fast, slow} {
		gen, fin := planMatches(p)
		if total := planGenerations*gen + fin; total > float64(p.capacity) {
			t.Errorf("plan %+v plays %.0f matches (8 generations of %.0f and %.0f in the final stages), more than the budget's %d", p, total, gen, fin, p.capacity)
		}
		if p.population != 4 || p.seeds < 1 || p.seeds > 8 || p.pool < 1 || p.pool > 20 {
			t.Errorf("plan %+v outside its ranges", p)
		}
	}
	if p := newBotPlan(0.1, 15*time.Minute, 2, "spsa", 0, 3, 20); p.seeds != 3 {
		t.Errorf("given seeds 3, the plan has %d", p.seeds)
	}
}

// The pool kept for a slow bot starts with the calibration opponents the
// bot came closest to even against; the others follow spread over the
// pool.
func TestChoosePoolPrefersEvenOpponents(t *testing.T) {
	pool := []string{"a", "b", "c", "d", "e", "f"}
	c := calibration{score: map[string]float64{"a": 0, "c": 0.5, "e": 1}}
	if got := fmt.Sprint(choosePool(pool, c, 2)); got != "[c a]" {
		t.Errorf("2 of the pool: %s, want [c a]", got)
	}
	if got := fmt.Sprint(choosePool(pool, c, 4)); got != "[c a e b]" {
		t.Errorf("4 of the pool: %s, want [c a e b]", got)
	}
	if got := fmt.Sprint(choosePool(pool, c, 6)); got != fmt.Sprint(pool) {
		t.Errorf("the whole pool: %s", got)
	}
}

// crucible evolve --budget on an outside bot plays its calibration
// matches, prints the plan it set, and ends with the champion's manifest.
func TestEvolveABotPlansItsBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Go bot as real processes")
	}
	bot := goBinaryManifest(t, "acb-share")
	out := filepath.Join(t.TempDir(), "ev")
	stdout, stderr, err := execRoot(t, "evolve", "--game", "acb", "--base", bot, "--algo", "spsa", "--budget", "60s", "--workers", "2", "--out", out)
	if err != nil {
		t.Fatalf("evolve: %v\n%s\n%s", err, stdout, stderr)
	}
	if !strings.Contains(stdout, "plan for 1m0s: a match takes") || !strings.Contains(stdout, "population 4, hall 2, hall-opponents 0") {
		t.Errorf("evolve does not print its plan:\n%s", stdout)
	}
	if _, err := os.Stat(filepath.Join(out, ChampionBotFile)); err != nil {
		t.Errorf("no champion manifest: %v", err)
	}
}
