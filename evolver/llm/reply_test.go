package llm

import (
	"slices"
	"strings"
	"testing"

	"crucible/strategies"
)

// testSchema is the schema of the evolver's synthetic test strategy.
func testSchema() strategies.Schema {
	return strategies.Schema{
		{Name: "aggression", Description: "how hard to push", Min: 0, Max: 1, Default: 0.2},
		{Name: "reserve", Description: "sparks kept back", Min: 0, Max: 10, Default: 8, Integer: true},
		{Name: "horizon", Description: "turns looked ahead", Min: -50, Max: 50, Default: -30},
		{Name: "greed", Description: "value weight", Min: 0.5, Max: 2.5, Default: 2.3},
	}
}

// Rule: every rejected genome's reason names the parameter and the value
// (and the range when it is out of it); a reply that holds no answer says
// what it holds.
func TestParseReplyReasons(t *testing.T) {
	schema := testSchema()
	for _, tc := range []struct {
		reply string
		want  string // a note, or the error when no note is expected
	}{
		{`{"genomes": [{"aggression": 1.7, "reserve": 3, "horizon": 0, "greed": 1}]}`, "genome 1 rejected: parameter aggression = 1.7 is outside its range [0, 1]"},
		{`{"genomes": [{"aggression": 0.5, "reserve": 3, "horizon": -80, "greed": 1}]}`, "genome 1 rejected: parameter horizon = -80 is outside its range [-50, 50]"},
		{`{"genomes": [{"aggression": 0.5, "reserv": 3}]}`, `genome 1 rejected: unknown parameter "reserv" = 3 (known: aggression, reserve, horizon, greed)`},
		{`{"genomes": [{"params": {"aggression": 0.5, "style": "bold"}}]}`, `genome 1 rejected: unknown parameter "style" = "bold"`},
		{`{"genomes": [{"aggression": "high"}]}`, `genome 1 rejected: parameter aggression = "high" is a string, not a number`},
		{`{"genomes": [{"aggression": true}]}`, `genome 1 rejected: parameter aggression = true is a boolean, not a number`},
		{`{"genomes": [{"aggression": null}]}`, `genome 1 rejected: parameter aggression is null, not a number`},
		{`{"genomes": [{"aggression": [0.5]}]}`, `genome 1 rejected: parameter aggression = [0.5] is a list, not a number`},
		{`{"genomes": [{"aggression": 1e400}]}`, `genome 1 rejected: parameter aggression = 1e400 is not a finite number`},
		{`{"genomes": [{"params": [0.5, 3, 0, 1]}]}`, `genome 1 rejected: "params" is a list, not an object of parameters`},
		{`{"genomes": [0.5, {"aggression": 0.5}]}`, `genome 1 rejected: it is 0.5, not an object of parameters`},
		{`{"genomes": [{}]}`, `genome 1 rejected: it names no parameter`},
		{`{"genomes": {"aggression": 0.5}}`, `genome 1 rejected: "genomes" is an object, not a list`},
		{`{"genomes": []}`, `reply's "genomes" list is empty`},
		{`I cannot help with that.`, `reply holds no JSON with genomes ({"genomes": [...]}, a list, or {"params": {...}}); it begins "I cannot help with that."`},
		{`{"answer": [1, 2]}`, `reply holds no JSON with genomes`},
		{"   ", `reply is empty`},
		{"<think>the user wants genomes; let me", `reply has nothing after its <think> block`},
	} {
		_, notes, err := ParseReply([]byte(tc.reply), schema, 4)
		text := strings.Join(notes, "\n")
		if err != nil {
			text += "\nerror: " + err.Error()
		}
		if !strings.Contains(text, tc.want) {
			t.Errorf("reply %s: got\n%s\nwant %q", tc.reply, text, tc.want)
		}
	}
}

// Rule: the accepted shapes all read as the same genomes: the object with
// "genomes", a bare list, {"params": ...} items, a single genome, flat or
// wrapped, with unknown top-level fields ignored.
func TestParseReplyShapes(t *testing.T) {
	schema := testSchema()
	one := strategies.Genome{0.7, 3, 25, 1.2}
	flat := `{"aggression": 0.7, "reserve": 3, "horizon": 25, "greed": 1.2}`
	wrapped := `{"params": ` + flat + `, "fitness": 0.9, "games": 100}`
	for _, reply := range []string{
		`{"genomes": [` + flat + `]}`,
		`{"genomes": [` + wrapped + `]}`,
		`{"thoughts": ["a", "b"], "genomes": [` + wrapped + `], "reasoning": {"x": 1}}`,
		`[` + flat + `]`,
		`[` + wrapped + `]`,
		flat,
		wrapped,
		"```\n" + wrapped + "\n```",
		"Answer:\n```json\n[" + wrapped + "]\n```\nDone.",
	} {
		gs, notes, err := ParseReply([]byte(reply), schema, 4)
		if err != nil || len(gs) != 1 || !slices.Equal(gs[0], one) || len(notes) != 0 {
			t.Errorf("reply %s: got %v, notes %q, error %v; want [%v] and no note", reply, gs, notes, err, one)
		}
	}
}

// Rule: numbers the prompt shows are rounded to 3 significant digits,
// written without exponent or trailing zeros.
func TestSig3(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{0.30000000000000004, "0.3"}, {0.41666666666666663, "0.417"}, {-0.041666, "-0.0417"},
		{12.345, "12.3"}, {1234.5, "1230"}, {9.996, "10"}, {0.9996, "1"}, {0.00012345, "0.000123"},
		{0, "0"}, {-0.0000001, "-0.0000001"}, {100, "100"}, {2.5, "2.5"}, {-30, "-30"},
	} {
		if got := sig3(tc.v); got != tc.want {
			t.Errorf("sig3(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := signed(0.125); got != "+0.125" {
		t.Errorf("signed(0.125) = %q", got)
	}
}
