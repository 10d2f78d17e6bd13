package kindprog

import (
	"context"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// TestRandomProgramsBidLegally plays programs grown by the structural
// operators in 2- and 4-seat matches: the rules game rejects any illegal
// move, so every match finishing proves the bids legal; every mutant is
// canonical and prints back to a valid program.
func TestRandomProgramsBidLegally(t *testing.T) {
	s := Program()
	r := rand.New(rand.NewSource(3))
	g := s.Schema.Defaults()
	for i := 0; i < 300; i++ {
		g = mutate(g, r)
		if i%7 == 0 {
			g, _ = cross(g, mutate(s.Schema.Defaults(), r), r)
		}
		if !slices.Equal(canonical(g), g) {
			t.Fatalf("step %d: not canonical", i)
		}
		js, err := encodeJSON(g)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Genome(js)
		if err != nil || !slices.Equal(back, g) {
			t.Fatalf("step %d: %s reads back as %v, %v", i, js, back, err)
		}
		seats := 2 + 2*(i%2)
		spec := engine.MatchSpec{Seed: uint64(i)}
		for k := 0; k < seats; k++ {
			spec.Seats = append(spec.Seats, engine.Seat{Name: "p" + string(rune('0'+k)), Strategy: "program", Player: s.New(g, engine.SeatSeed(uint64(i), k), k)})
		}
		if _, err := (kindling.Game{}).Play(context.Background(), spec); err != nil {
			t.Fatalf("step %d, program\n%s: %v", i, text(g), err)
		}
	}
}

func TestEmptyProgramBidsNothingAndRulesApply(t *testing.T) {
	v := &kindling.View{Turn: 3, Turns: 8, Seats: 2, You: 0, Values: [5]int{1, 2, 6, 3, 2}}
	v.Sparks[0], v.Sparks[1] = 7, 9
	var out kindling.Bid
	newBidder(decode(schema().Defaults()), 1).Bid(v, &out)
	if out != (kindling.Bid{}) {
		t.Errorf("the empty program bid %v", out)
	}
	g, err := Genome([]byte(`{"spend": 100, "targets": 1, "rules": [{"when": "value >= 5", "then": "skip"}, {"when": "sparks < 8", "then": "save 3"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out = kindling.Bid{}
	newBidder(decode(g), 1).Bid(v, &out)
	// Crown (6) is skipped; of the rest Tor (3) is the one target; 7
	// sparks, 3 saved: 4 on Tor.
	if want := (kindling.Bid{0, 0, 0, 4, 0}); out != want {
		t.Errorf("bid %v, want %v", out, want)
	}
}

func TestProgramErrorsNameRuleAndField(t *testing.T) {
	tests := []struct{ json, want string }{
		{`{"rules":[{"when":"always","then":"spend 50"},{"when":"value > 3","then":"skip"}]}`, `rule 2: when "value > 3": comparison ">" is not < or >=`},
		{`{"rules":[{"when":"always","then":"spend 150"}]}`, `rule 1: then "spend 150": spend 150 is outside [0, 100]`},
		{`{"rules":[{"when":"always","then":"favour heat 1"}]}`, `favour: unknown feature "heat"`},
		{`{"rules":[{"when":"always","then":"favour embers 0.55"}]}`, `weight "0.55" is not a number in -5..5 in steps of 0.1`},
		{`{"rules":[{"when":"always","then":"burn"}]}`, `unknown action "burn"`},
		{`{"rules":[{"when":"always","then":"save"}]}`, "save takes 1 argument(s)"},
		{`{"targets": 7, "rules":[]}`, "targets = 7 is outside [1, 5]"},
		{`{"rules":[], "mood": 1}`, `unknown field "mood"`},
		{`{"rules":[` + strings.Repeat(`{"when":"always","then":"skip"},`, 8) + `{"when":"always","then":"skip"}]}`, "rules: 9 rules, more than the 8"},
	}
	for _, tt := range tests {
		if _, err := Genome([]byte(tt.json)); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.json, err, tt.want)
		}
	}
	if _, err := strategies.NewRegistry(Program()); err != nil {
		t.Errorf("registering the program bidder: %v", err)
	}
}

func TestFeatureTableMatchesIndices(t *testing.T) {
	if len(features) != nFeatures || features[fAlways].Name != "always" || features[fLead].Name != "lead" {
		t.Errorf("features: %d entries, want %d from always to lead", len(features), nFeatures)
	}
}
