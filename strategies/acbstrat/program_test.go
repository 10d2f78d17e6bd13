package acbstrat

import (
	"strings"
	"testing"
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
