package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
)

// rateFixture plays a small Kindling round robin and returns its file.
func rateFixture(t *testing.T) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), "r.jsonl")
	if _, _, err := execRoot(t, "arena", "--players", "normal,easy", "--seeds", "3", "--out", out, "--format", "csv"); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRateOnePeriod checks that rate treats the whole file as one period:
// its ratings equal rating.RatePeriod over all outcomes, the --out file
// holds them, and a player of --prior without games only ages.
func TestRateOnePeriod(t *testing.T) {
	results := rateFixture(t)
	dir := t.TempDir()
	prior := filepath.Join(dir, "prior.json")
	os.WriteFile(prior, []byte(`{"normal": {"rating": 1700, "rd": 80, "volatility": 0.06},
		"ghost": {"rating": 1600, "rd": 50, "volatility": 0.06}}`), 0o644)
	out := filepath.Join(dir, "after.json")
	stdout, _, err := execRoot(t, "rate", "--results", results, "--method", "glicko2", "--prior", prior, "--out", out, "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	got, err := rating.ParseRatings(data, out)
	if err != nil {
		t.Fatal(err)
	}
	res, _ := arena.LoadResults(results)
	var outs []rating.Outcome
	for _, r := range res.Records {
		outs = append(outs, r.Outcomes()...)
	}
	start, _ := rating.ParseRatings([]byte(`{"normal": {"rating": 1700, "rd": 80, "volatility": 0.06},
		"ghost": {"rating": 1600, "rd": 50, "volatility": 0.06}}`), "prior")
	want := rating.Default().RatePeriod(start, outs)
	if len(got) != 3 {
		t.Fatalf("ratings for %d players, want normal, easy and ghost", len(got))
	}
	for name, w := range want {
		if got[name] != w {
			t.Fatalf("%s: file has %+v, one period gives %+v", name, got[name], w)
		}
	}
	if g := got["ghost"]; g.Rating != 1600 || !(g.RD > 50) || math.Abs(g.RD-math.Hypot(50, 0.06*173.7178)) > 1e-6 {
		t.Fatalf("idle ghost became %+v, want its RD grown from 50", g)
	}
	if got["easy"].RD >= 350 {
		t.Fatalf("easy started at defaults and played, yet RD %v", got["easy"].RD)
	}
	var sum rating.Summary
	if err := json.Unmarshal([]byte(stdout), &sum); err != nil || len(sum.Standings) != 3 {
		t.Fatalf("stdout %q (%v)", stdout, err)
	}
}

// TestRateBadInput checks the errors of rate: a missing file, a corrupt
// line in the middle (with its line number), a bad prior, and the warning
// for a half-written last line.
func TestRateBadInput(t *testing.T) {
	good, _ := os.ReadFile(rateFixture(t))
	lines := strings.SplitAfter(string(good), "\n")
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		return p
	}
	corrupt := write("corrupt.jsonl", lines[0]+lines[1]+"{\"job\": garbage\n"+lines[2])
	half := write("half.jsonl", lines[0]+lines[1]+lines[2][:30])
	badPrior := write("prior.json", `{"normal": {"rating": 1700, "rd": -3, "volatility": 0.06}}`)
	okFile := write("ok.jsonl", string(good))
	empty := write("empty.jsonl", "")

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"missing results flag", nil, "--results is required"},
		{"missing results file", []string{"--results", filepath.Join(dir, "none.jsonl")}, "no such file"},
		{"empty results file (refused as crucible report refuses it)", []string{"--results", empty}, "--results " + empty + " holds no match to rate"},
		{"corrupt middle line", []string{"--results", corrupt}, corrupt + ":3: not a result record"},
		{"bad prior", []string{"--results", okFile, "--method", "glicko2", "--prior", badPrior}, `player "normal": rd -3 is outside (0, 10000]`},
		{"bad format", []string{"--results", okFile, "--format", "xml"}, `format "xml" is not one of`},
		{"prior with bt", []string{"--results", okFile, "--method", "bt", "--prior", badPrior}, "--prior is a Glicko-2 ratings file: it applies to --method glicko2 only, not bt"},
		{"prior alone is glicko2", []string{"--results", okFile, "--prior", badPrior}, `player "normal": rd -3 is outside (0, 10000]`},
		{"out with alpharank", []string{"--results", okFile, "--method", "alpharank", "--out", filepath.Join(dir, "x.json")}, "--out is a Glicko-2 ratings file: it applies to --method glicko2 only, not alpharank"},
		{"unknown method", []string{"--results", okFile, "--method", "trueskill"}, `--method: model "trueskill" is not one of bt, glicko2, weng-lin, alpharank, nash`},
		{"rating is a rating model", []string{"--results", okFile, "--rating", "nash"}, `--rating: model "nash" is not one of bt, glicko2, weng-lin`},
		{"method and rating", []string{"--results", okFile, "--method", "bt", "--rating", "bt"}, "give --method or --rating, not both"},
		{"periods without glicko2", []string{"--results", okFile, "--periods", "rounds"}, "--periods applies to --method glicko2 only"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := execRoot(t, append([]string{"rate"}, tt.args...)...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
	_, stderr, err := execRoot(t, "rate", "--results", half, "--format", "csv")
	if err != nil || !strings.Contains(stderr, half+":3: skipping a half-written last line") {
		t.Fatalf("half-written last line: err %v, stderr %q", err, stderr)
	}
}
