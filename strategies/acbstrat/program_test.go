package acbstrat

import (
	"math/rand"
	"slices"
	"strings"
	"testing"

	"crucible/strategies"
)

func TestProgramRefsParseAndPrint(t *testing.T) {
	refs, err := ProgramRefs()
	if err != nil {
		t.Fatal(err)
	}
	for name, g := range refs {
		t.Logf("%s:\n%s", name, programText(g))
		js, err := encodeProgramJSON(g)
		if err != nil {
			t.Fatal(err)
		}
		g2, err := ProgramGenome(js)
		if err != nil {
			t.Fatalf("%s: re-reading %s: %v", name, js, err)
		}
		if programText(g2) != programText(g) {
			t.Errorf("%s: JSON round trip changed the program:\n%s\n%s", name, programText(g), programText(g2))
		}
	}
	if !strings.Contains(programText(refs["gatherer"]), "1. when d_open_core < 6 then raze (boldness 0)") {
		t.Errorf("gatherer text:\n%s", programText(refs["gatherer"]))
	}
}

func TestProgramValidationNamesRuleAndField(t *testing.T) {
	tests := []struct {
		name, json, want string
	}{
		{"unknown feature", `{"rules":[{"when":"always","then":"gather"},{"when":"dist < 3","then":"hold"}]}`, `rule 2: when "dist < 3": unknown feature "dist"`},
		{"unknown goal", `{"rules":[{"when":"always","then":"dance"}]}`, `rule 1: then: unknown goal "dance"`},
		{"comparison", `{"rules":[{"when":"d_enemy > 3","then":"flee"}]}`, `rule 1: when "d_enemy > 3": comparison ">" is not < or >=`},
		{"off the grid", `{"rules":[{"when":"enemy_next >= 2.55","then":"flee"}]}`, "enemy_next compares with 2.55, which is not on its grid 0 to 10 in steps of 0.1"},
		{"bounds", `{"rules":[{"when":"always","then":"hunt","boldness":140}]}`, "rule 1: boldness = 140 is outside [0, 100]"},
		{"role", `{"rules":[{"role":4,"when":"always","then":"hunt"}]}`, "rule 1: role = 4 is outside [0, 3]"},
		{"type", `{"rules":[{"when":3,"then":"hunt"}]}`, "not a program object"},
		{"unknown field", `{"rules":[],"tactic":"win"}`, `unknown field "tactic"`},
		{"shares", `{"roles":[50,30,30],"rules":[]}`, "roles: shares [50 30 30] sum to 110, not 100"},
		{"size limit", `{"rules":[` + strings.Repeat(`{"when":"always","then":"hold"},`, 8) + `{"when":"always","then":"hold"}]}`, "rules: 9 rules, more than the 8 a program holds"},
		{"join", `{"rules":[{"when":"d_enemy < 3 xor allies >= 2","then":"flee"}]}`, `joins with "xor"; want and or or`},
		{"missing then", `{"rules":[{"when":"always"}]}`, "rule 1: then: missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ProgramGenome([]byte(tt.json))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestProgramCanonicalAndOperators(t *testing.T) {
	g, err := ProgramGenome([]byte(`{"rules":[{"when":"d_enemy < 5 or allies >= 2.5","then":"flee","boldness":10},{"role":2,"when":"always","then":"gather"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "1. when d_enemy < 5 or allies >= 2.5 then flee (boldness 10)\n2. [role 2] when always then gather (boldness 50)\n"
	if !strings.Contains(programText(g), want) {
		t.Fatalf("text:\n%s\nwant it to contain\n%s", programText(g), want)
	}
	// A disabled slot's leftovers and an empty first slot do not change
	// the canonical genome: the enabled rules are packed to the front.
	moved := append(strategies.Genome(nil), g...)
	s1, s3 := nGlobals, nGlobals+2*ruleGenes
	copy(moved[s3:s3+ruleGenes], g[s1:s1+ruleGenes])
	for k := 0; k < ruleGenes; k++ {
		moved[s1+k] = 7 // junk, rule1.on = 7 clamps to 1: set it off below
	}
	moved[s1+rOn] = 0
	moved[nGlobals+ruleGenes+rOn] = 0
	copy(moved[s3+ruleGenes:s3+2*ruleGenes], g[s1+ruleGenes:s1+2*ruleGenes])
	if c := canonicalProgram(moved); !slices.Equal(c, g) {
		t.Errorf("canonical of the moved program\n%v\nwant\n%v", c, g)
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		m := mutateProgram(g, r)
		if !slices.Equal(canonicalProgram(m), m) {
			t.Fatalf("mutation %d gave a genome that is not canonical", i)
		}
		if _, err := ProgramGenome(mustJSON(t, m)); err != nil {
			t.Fatalf("mutation %d does not print back to a valid program: %v", i, err)
		}
		a, b := crossProgram(g, m, r)
		if len(decodeProgram(a).rules)+len(decodeProgram(b).rules) != len(decodeProgram(g).rules)+len(decodeProgram(m).rules) &&
			len(decodeProgram(a).rules) != progSlots && len(decodeProgram(b).rules) != progSlots {
			t.Fatalf("splicing lost rules: %d + %d from %d + %d", len(decodeProgram(a).rules), len(decodeProgram(b).rules),
				len(decodeProgram(g).rules), len(decodeProgram(m).rules))
		}
		g = m
	}
}

func mustJSON(t *testing.T, g strategies.Genome) []byte {
	t.Helper()
	js, err := encodeProgramJSON(g)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

func TestProgramVariantFile(t *testing.T) {
	reg, err := strategies.NewRegistry(append(All(), Program())...)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(reg.List("acb")); got != 21 {
		t.Errorf("List has %d strategies, want the 21 references (programs are not in the field)", got)
	}
	if s, err := reg.Lookup("acb", "program"); err != nil || s.Program == nil {
		t.Fatalf("Lookup program: %v", err)
	}
	v, err := strategies.ParseVariant([]byte(`{"game":"acb","base":"program","program":{"rules":[{"when":"d_enemy < 4","then":"flee"}]}}`), "t.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := reg.Check(v)
	if err != nil {
		t.Fatal(err)
	}
	// The resolved variant carries params and the program; read back, it
	// is the same variant with the same id.
	back, err := reg.Check(res.Variant)
	if err != nil || back.Variant.ID != res.Variant.ID {
		t.Fatalf("re-checking the written variant: id %s, %v (want %s)", back.Variant.ID, err, res.Variant.ID)
	}
	edited := res.Variant
	edited.Program = []byte(`{"rules":[{"when":"d_enemy < 5","then":"flee"}]}`)
	if _, err := reg.Check(edited); err == nil || !strings.Contains(err.Error(), "params and program describe different programs") {
		t.Errorf("an edited program under old params: %v", err)
	}
	edited.Params, edited.ID = nil, ""
	if r, err := reg.Check(edited); err != nil || r.Variant.ID == res.Variant.ID {
		t.Errorf("the edited program alone: %v (id %s, before %s)", err, r.Variant.ID, res.Variant.ID)
	}
	bad := v
	bad.Program = []byte(`{"rules":[{"when":"d_enemy < 4","then":"flea"}]}`)
	if _, err := reg.Check(bad); err == nil || !strings.Contains(err.Error(), `program: rule 1: then: unknown goal "flea"`) {
		t.Errorf("a bad goal: %v", err)
	}
}

func TestProgramFeatureTableMatchesIndices(t *testing.T) {
	if len(progFeatures) != nFeatures || progFeatures[fAlways].Name != "always" || progFeatures[fScore].Name != "score" {
		t.Errorf("progFeatures: %d entries, want %d from always to score", len(progFeatures), nFeatures)
	}
}
