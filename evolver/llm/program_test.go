package llm

import (
	"strings"
	"testing"

	"crucible/strategies/acbstrat"
)

func TestParseProgramReply(t *testing.T) {
	prog := acbstrat.Program().Program
	reply := "<think>maybe flee?</think>Here are my programs.\n```json\n" + `{"reasoning": "hunt in packs", "programs": [
 {"program": {"rules": [{"when": "d_prey < 10 and allies >= 2", "then": "hunt", "boldness": 60, "why": "packs"}, {"when": "always", "then": "gather"}]}, "fitness": 0.9},
 {"rules": [{"when": "d_enemy < 4", "then": "run away"}]},
 {"roles": [50, 50], "style": "bold", "rules": [{"role": 2, "when": "always", "then": "attack_core"}]},
 {"rules": [{"when": "enemy_next >= 2.55", "then": "flee"}]}
]}` + "\n```\nGood luck."
	gs, notes, err := ParseProgramReply([]byte(reply), prog, 4)
	if err != nil {
		t.Fatal(err)
	}
	if len(gs) != 2 {
		t.Fatalf("%d programs accepted, want 2; notes %q", len(gs), notes)
	}
	if txt := prog.Text(gs[0]); !strings.Contains(txt, "1. when d_prey < 10 and allies >= 2 then hunt (boldness 60)") {
		t.Errorf("first program:\n%s", txt)
	}
	all := strings.Join(notes, "\n")
	for _, want := range []string{
		`program 1: field "why" is not part of a program: ignored`,
		`program 2 rejected: rule 1: then: unknown goal "run away"`,
		`program 3: field "style" is not part of a program: ignored`,
		"program 4 rejected: rule 1: when \"enemy_next >= 2.55\": enemy_next compares with 2.55, which is not on its grid",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("notes lack %q:\n%s", want, all)
		}
	}
	if _, _, err := ParseProgramReply([]byte("I would gather more."), prog, 4); err == nil || !strings.Contains(err.Error(), "reply holds no JSON with programs") {
		t.Errorf("prose only: %v", err)
	}
	if _, _, err := ParseProgramReply([]byte(`{"programs": [{"rules": [{"when": "always", "then": "dance"}]}]}`), prog, 4); err == nil || !strings.Contains(err.Error(), "no acceptable program") {
		t.Errorf("all refused: %v", err)
	}
}
