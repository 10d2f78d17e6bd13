package main

import (
	"html"
	"path/filepath"
	"strings"
	"testing"

	"crucible/evolver"
	"crucible/strategies"
)

// smallKindlingRun runs a short ga evolution of the Kindling strategy
// base (3 generations, the final stages on a few seeds) and returns its
// directory and what evolve printed.
func smallKindlingRun(t *testing.T, base string) (run, stdout string) {
	t.Helper()
	run = filepath.Join(t.TempDir(), "run")
	stdout, _, err := evolveExec(t, "--game", "kindling", "--base", base, "--algo", "ga", "--generations", "3", "--seeds", "2",
		"--holdout", "4", "--tournament-seeds", "2", "--workers", "2", "--out", run)
	if err != nil {
		t.Fatal(err)
	}
	return run, stdout
}

// The report of a program run shows the champion as the program it is
// (the text crucible strategies --show prints), not as its rule slots.
func TestReportShowsTheChampionProgram(t *testing.T) {
	run, stdout := smallKindlingRun(t, "program")
	champ, err := strategies.LoadVariant(filepath.Join(run, evolver.ChampionFile))
	if err != nil {
		t.Fatal(err)
	}
	reg, err := newRegistry()
	if err != nil {
		t.Fatal(err)
	}
	text, rules, ok := programOf(reg, nil, champ)
	if !ok || strings.TrimSpace(text) == "" {
		t.Fatalf("the champion %s of a program run is not a program (text %q)", champ.Label(), text)
	}
	if !strings.Contains(stdout, text) {
		t.Errorf("evolve does not print the champion's program:\n%s\nwant:\n%s", stdout, text)
	}
	page, err := reportFile(t, filepath.Join(t.TempDir(), "evo.html"), "--run", run)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<pre class="program">` + html.EscapeString(text), "<strong class=\"name\">" + champ.Label() + "</strong>", "a program of "} {
		if !strings.Contains(page, want) {
			t.Errorf("run report lacks %q", want)
		}
	}
	if rules > 0 != strings.Contains(text, "1. when") {
		t.Errorf("%d rules, but the text is:\n%s", rules, text)
	}
	if strings.Contains(page, `<td class="name">rule1.`) {
		t.Error("the run report lists the program's rule slots as parameters")
	}
}
