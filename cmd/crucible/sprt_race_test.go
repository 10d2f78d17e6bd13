package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// A race of three Kindling bidders against contrarian: the JSON counts
// every candidate's matches, the verdict is the same at 1 and 2 workers,
// and --resume of the finished race plays nothing.
func TestSPRTRaceKindling(t *testing.T) {
	out := filepath.Join(t.TempDir(), "race.jsonl")
	args := []string{"sprt", "--game", "kindling", "--baseline", "contrarian", "--candidates", "normal,sniper,easy",
		"--elo0", "0", "--elo1", "20", "--format", "json", "--out", out}
	type report struct {
		Rounds         int     `json:"rounds"`
		Matches        int     `json:"matches"`
		Winner         string  `json:"winner"`
		CandidateAlpha float64 `json:"candidate_alpha"`
		Played         int     `json:"played"`
		Resumed        int     `json:"resumed"`
		Candidates     []struct {
			Name   string `json:"name"`
			Status string `json:"status"`
			Pairs  int    `json:"pairs"`
		} `json:"candidates"`
	}
	parse := func(s string) report {
		var r report
		if err := json.Unmarshal([]byte(s), &r); err != nil {
			t.Fatalf("%v in %s", err, s)
		}
		return r
	}
	js, _, err := execRoot(t, append(args, "--workers", "1")...)
	if err != nil {
		t.Fatal(err)
	}
	first := parse(js)
	if first.CandidateAlpha != 0.05/3 || len(first.Candidates) != 3 {
		t.Fatalf("candidate alpha %v over %d candidates, want 0.05/3 over 3", first.CandidateAlpha, len(first.Candidates))
	}
	for _, c := range first.Candidates {
		if c.Status == "active" || c.Pairs > first.Rounds {
			t.Fatalf("candidate %s is %s after %d of %d rounds", c.Name, c.Status, c.Pairs, first.Rounds)
		}
	}
	js2, _, err := execRoot(t, append(args[:len(args)-1], filepath.Join(t.TempDir(), "race2.jsonl"), "--workers", "2")...)
	if err != nil {
		t.Fatal(err)
	}
	if second := parse(js2); second.Rounds != first.Rounds || second.Winner != first.Winner {
		t.Fatalf("1 worker: %d rounds, winner %q; 2 workers: %d rounds, winner %q", first.Rounds, first.Winner, second.Rounds, second.Winner)
	}
	js3, _, err := execRoot(t, append(args, "--resume")...)
	if err != nil {
		t.Fatal(err)
	}
	if again := parse(js3); again.Played != 0 || again.Resumed < first.Matches || again.Rounds != first.Rounds {
		t.Fatalf("resumed finished race played %d, resumed %d, %d rounds (first run %d)", again.Played, again.Resumed, again.Rounds, first.Rounds)
	}
}

// The simulation prints the three ways of testing, and the race keeps the
// family's false-positive rate where testing each alone at alpha does not.
func TestSPRTSimulate(t *testing.T) {
	out, _, err := execRoot(t, "sprt", "--simulate", "300", "--true-elo", "0,0,0,0", "--elo0", "0", "--elo1", "40", "--format", "json")
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Result struct {
			Families int `json:"families"`
			Race     struct {
				Matches        int64 `json:"matches"`
				FalsePositives int   `json:"false_positives"`
			} `json:"race"`
			Alone struct {
				FalsePositives int `json:"false_positives"`
			} `json:"alone"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	r := rep.Result
	if r.Families != 300 || r.Race.Matches == 0 {
		t.Fatalf("%d families, %d race matches", r.Families, r.Race.Matches)
	}
	// 300 families: alpha 0.05 gives 15 expected, at most about 27; four
	// equal candidates alone give about 50.
	if r.Race.FalsePositives > 27 || r.Alone.FalsePositives <= r.Race.FalsePositives {
		t.Fatalf("false positives: race %d, alone %d of 300", r.Race.FalsePositives, r.Alone.FalsePositives)
	}
	table, _, err := execRoot(t, "sprt", "--simulate", "20", "--true-elo", "60,0", "--elo0", "0", "--elo1", "40")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"race (alpha/2 each, leader first, eliminations)", "each alone at alpha 0.05", "each alone at alpha/2", "race saves"} {
		if !strings.Contains(table, want) {
			t.Fatalf("table lacks %q:\n%s", want, table)
		}
	}
}

func TestSPRTRaceErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--simulate", "10", "--elo0", "0", "--elo1", "10"}, "--simulate needs --true-elo"},
		{[]string{"--simulate", "10", "--true-elo", "0,x", "--elo0", "0", "--elo1", "10"}, `--true-elo "0,x": "x" is not a number`},
		{[]string{"--simulate", "0", "--true-elo", "0", "--elo0", "0", "--elo1", "10"}, "--simulate 0 is outside its range"},
		{[]string{"--simulate", "10", "--true-elo", "0", "--candidates", "normal", "--elo0", "0", "--elo1", "10"}, "give one or the other"},
		{[]string{"--candidates", "normal", "--game", "kindling", "--elo0", "0", "--elo1", "10"}, "a race needs --candidates"},
		{[]string{"--candidates", "normal", "--baseline", "normal", "--game", "kindling", "--elo0", "0", "--elo1", "10"}, "which is the --baseline"},
		{[]string{"--candidates", "normal", "--baseline", "easy", "--elo0", "0", "--elo1", "10"}, "--game is required"},
		{[]string{"--candidates", "normal", "--baseline", "easy", "--a", "easy", "--game", "kindling", "--elo0", "0", "--elo1", "10"}, "--a does not apply to a race"},
		{[]string{"--candidates", "normal", "--baseline", "easy", "--delta", "2", "--game", "kindling", "--elo0", "0", "--elo1", "10"}, "--delta 2 is not in (0, 1)"},
	}
	for _, tt := range tests {
		_, _, err := execRoot(t, append([]string{"sprt"}, tt.args...)...)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}
