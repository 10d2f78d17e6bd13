package main

import (
	"encoding/json"
	"math"
	"regexp"
	"strings"
	"testing"
)

// sprtCases are the five published cases (fastchess
// tests/sprt_test.cpp, fishtest LLRcalc.py) as command lines.
var sprtCases = []struct {
	args []string
	llr  string
}{
	{[]string{"--model", "normalized", "--elo0", "0", "--elo1", "2", "--pentanomial", "365,16618,36229,16974,390"}, "2.25"},
	{[]string{"--model", "normalized", "--elo0", "-1.75", "--elo1", "0.25", "--pentanomial", "127,4883,10712,5150,104"}, "3.01"},
	{[]string{"--model", "logistic", "--elo0", "0.5", "--elo1", "2.5", "--pentanomial", "223,9863,21279,10037,246"}, "-3.07"},
	{[]string{"--elo0", "0", "--elo1", "2", "--pentanomial", "871,26175,55983,26678,821"}, "-4.98"},
	{[]string{"--model", "normalized", "--elo0", "0", "--elo1", "2", "--trinomial", "36433,68692,36027"}, "0.92"},
}

// TestSPRTPrintsPublishedCases checks the table prints each case's LLR
// to two decimals with the bounds and the verdict, and the JSON holds it
// within 0.01.
func TestSPRTPrintsPublishedCases(t *testing.T) {
	for _, tc := range sprtCases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			out, _, err := execRoot(t, append([]string{"sprt"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			line := regexp.MustCompile(`LLR\s+│ (\S+) \(bounds -2\.94, 2\.94\)`).FindStringSubmatch(out)
			if line == nil || line[1] != tc.llr {
				t.Fatalf("output lacks LLR %s with the bounds:\n%s", tc.llr, out)
			}
			// 3.01 is past the upper bound 2.94: H1 accepted.
			wantVerdict := "continue"
			switch tc.llr {
			case "3.01":
				wantVerdict = "H1 accepted"
			case "-3.07", "-4.98":
				wantVerdict = "H0 accepted"
			}
			if !strings.Contains(out, "│ "+wantVerdict) {
				t.Fatalf("verdict is not %q:\n%s", wantVerdict, out)
			}
			js, _, err := execRoot(t, append([]string{"sprt", "--format", "json"}, tc.args...)...)
			if err != nil {
				t.Fatal(err)
			}
			var rep struct {
				LLR     float64 `json:"llr"`
				Upper   float64 `json:"upper"`
				Verdict string  `json:"verdict"`
				Elo     struct {
					Elo   float64 `json:"elo"`
					EloLo float64 `json:"elo_lo"`
					EloHi float64 `json:"elo_hi"`
					Units int     `json:"units"`
				} `json:"elo"`
			}
			if err := json.Unmarshal([]byte(js), &rep); err != nil {
				t.Fatalf("%v in %s", err, js)
			}
			want, _ := stringsToFloat(tc.llr)
			if math.Abs(rep.LLR-want) > 0.01 || math.Abs(rep.Upper-math.Log(19)) > 1e-12 {
				t.Fatalf("json llr %v upper %v", rep.LLR, rep.Upper)
			}
			if !(rep.Elo.EloLo < rep.Elo.Elo && rep.Elo.Elo < rep.Elo.EloHi) || rep.Elo.Units == 0 {
				t.Fatalf("json elo %+v", rep.Elo)
			}
		})
	}
}

// TestSPRTPrintsEloEstimate checks the estimate printed beside the test
// against fastchess's elo_test.cpp "EloPentanomial 1": 55.58 ± 27.65
// logistic, 57.94 ± 28.28 normalized.
func TestSPRTPrintsEloEstimate(t *testing.T) {
	out, _, err := execRoot(t, "sprt", "--elo0", "0", "--elo1", "5", "--pentanomial", "34,54,63,64,75")
	if err != nil {
		t.Fatal(err)
	}
	// The interval is asymmetric in Elo; fastchess prints its half-width.
	m := regexp.MustCompile(`Elo\s+│ \+(\S+) \[\+(\S+), \+(\S+)\] logistic`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no Elo line:\n%s", out)
	}
	elo, _ := stringsToFloat(m[1])
	lo, _ := stringsToFloat(m[2])
	hi, _ := stringsToFloat(m[3])
	if math.Abs(elo-55.58) > 0.01 || math.Abs((hi-lo)/2-27.65) > 0.02 {
		t.Fatalf("Elo %v [%v, %v], want 55.58 ± 27.65", elo, lo, hi)
	}
	if !strings.Contains(out, "pentanomial LL 34, LD 54, WL+DD 63, WD 64, WW 75 (290 pairs)") {
		t.Fatalf("counts line:\n%s", out)
	}
}

// TestSPRTBadInput checks every refused input names its flag and value.
func TestSPRTBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--elo0", "0", "--elo1", "2", "--pentanomial", "1,-2,3,4,5"}, `--pentanomial "1,-2,3,4,5": count LD is -2, want >= 0`},
		{[]string{"--elo0", "0", "--elo1", "2", "--pentanomial", "1,2,3"}, `--pentanomial "1,2,3": want 5 counts LL,LD,WLDD,WD,WW, got 3`},
		{[]string{"--elo0", "0", "--elo1", "2", "--trinomial", "1,x,3"}, `--trinomial "1,x,3": count D "x" is not a whole number`},
		{[]string{"--elo0", "0", "--elo1", "2", "--trinomial", "0,0,0"}, `--trinomial "0,0,0" counts no game`},
		{[]string{"--elo0", "2", "--elo1", "2", "--trinomial", "1,2,3"}, "--elo0 2 must be below --elo1 2"},
		{[]string{"--elo0", "3", "--elo1", "2", "--trinomial", "1,2,3"}, "--elo0 3 must be below --elo1 2"},
		// Issue 20 (low): absurd bounds were accepted.
		{[]string{"--elo0", "-5000", "--elo1", "5000", "--trinomial", "1,2,3"}, "--elo0 -5000 and --elo1 5000 must lie in [-800, 800]"},
		{[]string{"--elo0", "0", "--elo1", "801", "--trinomial", "1,2,3"}, "--elo0 0 and --elo1 801 must lie in [-800, 800]"},
		{[]string{"--elo0", "NaN", "--elo1", "2", "--trinomial", "1,2,3"}, "--elo0 NaN and --elo1 2 must lie in [-800, 800]"},
		{[]string{"--elo0", "0", "--elo1", "2", "--alpha", "1.5", "--trinomial", "1,2,3"}, "--alpha 1.5 is not in (0, 1)"},
		{[]string{"--elo0", "0", "--elo1", "2", "--beta", "0", "--trinomial", "1,2,3"}, "--beta 0 is not in (0, 1)"},
		{[]string{"--elo0", "0", "--elo1", "2", "--alpha", "0.5", "--beta", "0.5", "--trinomial", "1,2,3"}, "--alpha 0.5 + --beta 0.5 must be below 1"},
		{[]string{"--elo0", "0", "--elo1", "2", "--trinomial", "1,2,3", "--pentanomial", "1,2,3,4,5"}, "give --pentanomial or --trinomial, not both"},
		{[]string{"--elo0", "0", "--elo1", "2"}, "give the counts (--pentanomial LL,LD,WLDD,WD,WW or --trinomial W,D,L), or the players to play (--game, --a, --b)"},
		{[]string{"--elo0", "0", "--elo1", "2", "--model", "bayesian", "--trinomial", "1,2,3"}, `--model: model "bayesian" is not one of logistic, normalized`},
		{[]string{"--elo0", "0", "--elo1", "2", "--format", "csv", "--trinomial", "1,2,3"}, `--format "csv" is not one of table, json`},
		{[]string{"--elo1", "2", "--trinomial", "1,2,3"}, "--elo0 and --elo1 are required"},
	}
	for _, tc := range tests {
		_, _, err := execRoot(t, append([]string{"sprt"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q", tc.args, err, tc.want)
		}
	}
}

func stringsToFloat(s string) (float64, error) {
	var v float64
	err := json.Unmarshal([]byte(s), &v)
	return v, err
}
