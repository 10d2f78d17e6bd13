package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// setElapsed rewrites the wall time a run's checkpoint records, as if its
// sessions had taken ms milliseconds.
func setElapsed(t *testing.T, dir, ms string) {
	t.Helper()
	path := filepath.Join(dir, "checkpoint.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`"elapsed_ms":[0-9.e+-]+`)
	if !re.Match(data) {
		t.Fatalf("%s records no elapsed_ms", path)
	}
	if err := os.WriteFile(path, re.ReplaceAll(data, []byte(`"elapsed_ms":`+ms)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Rule: on --resume, --budget is this session's time, counted from now,
// and the run says what its earlier sessions took; left out, the run's
// budget goes on with what the earlier sessions left, and a budget they
// used up is refused with what they took.
func TestEvolveResumeBudget(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	args := append([]string{"--base", "easy", "--out", dir, "--budget", "1m"}, small...)
	if _, stderr, err := evolveExec(t, args...); err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	setElapsed(t, dir, "20000")
	_, stderr, err := evolveExec(t, "--out", dir, "--resume", "--generations", "3")
	if err != nil {
		t.Fatalf("resume within the run's budget: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "its earlier sessions took 20s of its budget of 1m0s, which leaves 40s for this session") {
		t.Errorf("resume without --budget does not say what is left:\n%s", stderr)
	}
	setElapsed(t, dir, "90000")
	_, _, err = evolveExec(t, "--out", dir, "--resume", "--generations", "4")
	if err == nil || !strings.Contains(err.Error(), "--budget: the run's budget of 1m0s is used up: its earlier sessions took 1m30s; give --budget for this session") {
		t.Fatalf("resume after the budget was used up: %v, want a refusal saying so", err)
	}
	stdout, stderr, err := evolveExec(t, "--out", dir, "--resume", "--generations", "4", "--budget", "30s")
	if err != nil {
		t.Fatalf("resume with a budget of its own after 1m30s: %v\n%s", err, stderr)
	}
	for _, want := range []string{"its earlier sessions took 1m30s; --budget 30s is this session's, counted from now", "it ends within 30s (and 6s) from now"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !strings.Contains(stdout, "champion easy#") {
		t.Errorf("the resumed session names no champion:\n%s", stdout)
	}
}

// Rule: a budget that cannot hold one generation is refused at the start,
// naming --budget and giving the estimate.
func TestEvolveBudgetTooShort(t *testing.T) {
	_, _, err := evolveExec(t, "--base", "easy", "--budget", "5s", "--population", "256", "--seeds", "256", "--out", filepath.Join(t.TempDir(), "run"))
	if err == nil || !strings.HasPrefix(err.Error(), "--budget 5s cannot hold one generation: the first plays about") {
		t.Fatalf("error %v, want a refusal of --budget with its estimate", err)
	}
}

// Rule: a run tuned in free-for-all groups is ranked in groups of the same
// seats, and says so; the held-out difference is given in Elo too.
func TestEvolveSeatsRankInSeats(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	stdout, stderr, err := evolveExec(t, append([]string{"--base", "easy", "--seats", "3", "--out", dir}, small...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	for _, want := range []string{"Ranking of the champion among the reference strategies (2 seeds, free-for-all groups of 3", "in Elo", "head-to-head (pairs"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		RankSeats int  `json:"rank_seats"`
		Validated bool `json:"validated"`
		Holdout   *struct {
			Diff  float64 `json:"diff"`
			Elo   float64 `json:"elo"`
			EloLo float64 `json:"elo_lo"`
			EloHi float64 `json:"elo_hi"`
		} `json:"holdout"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.RankSeats != 3 || !rep.Validated || rep.Holdout == nil {
		t.Fatalf("report.json: rank seats %d, validated %v, holdout %v", rep.RankSeats, rep.Validated, rep.Holdout)
	}
	if h := rep.Holdout; (h.Elo > 0) != (h.Diff > 0) || h.EloLo > h.Elo || h.Elo > h.EloHi {
		t.Errorf("held-out Elo %v [%v, %v] does not follow the difference %v", h.Elo, h.EloLo, h.EloHi, h.Diff)
	}
}
