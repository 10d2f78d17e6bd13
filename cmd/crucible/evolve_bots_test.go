package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"crucible/bots"
)

// crucible evolve --base takes a bot manifest: its params are searched
// with processes of the bot, and the champion is written as a manifest
// with every value filled in that loads as it is; a bot named like a
// built-in strategy is refused.
func TestEvolveABotManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Python bot as real processes")
	}
	needPython(t)
	out := filepath.Join(t.TempDir(), "ev")
	bot := goBotManifest(t)
	stdout, stderr, err := execRoot(t, "evolve", "--game", "acb", "--base", bot, "--algo", "cmaes", "--population", "4",
		"--generations", "1", "--seeds", "1", "--pool", "guardian", "--holdout", "0", "--top", "1", "--tournament-seeds", "1",
		"--hall", "1", "--workers", "2", "--out", out)
	if err != nil {
		t.Fatalf("evolve: %v\n%s", err, stderr)
	}
	path := filepath.Join(out, ChampionBotFile)
	if !strings.Contains(stdout, "champion manifest written to "+path) {
		t.Errorf("evolve does not say where the champion's manifest is:\n%s", stdout)
	}
	m, err := bots.Load(path, labGames.Names())
	if err != nil {
		t.Fatalf("the champion's manifest does not load: %v", err)
	}
	if len(m.Values) != len(m.Params) || m.Name != "acb-go" {
		t.Errorf("champion manifest: name %s, values %v; want every one of %d params", m.Name, m.Values, len(m.Params))
	}
	if err := m.CheckRunnable(); err != nil {
		t.Errorf("the champion's manifest does not run from its folder: %v", err)
	}
	if !strings.Contains(stderr, "bot acb-go#") || !strings.Contains(stderr, "restarts") {
		t.Errorf("stderr lacks the bot's process summary:\n%s", stderr)
	}

	html := filepath.Join(t.TempDir(), "r.html")
	if _, errs, err := execRoot(t, "report", "--run", out, "--out", html); err != nil {
		t.Fatalf("report --run of a bot's run: %v\n%s", err, errs)
	}
	if page, _ := os.ReadFile(html); strings.Contains(string(page), "ranges are unknown") || !strings.Contains(string(page), "gather") {
		t.Errorf("the report of a bot's run does not show its parameters with their ranges")
	}

	clash := writeFile(t, "guardian.json", `{"kind": "crucible-bot/1", "game": "acb", "name": "guardian", "command": ["python3", "`+examplePath("acb-python", "main.py")+`"],
		"params": [{"name": "gather", "min": 0, "max": 1, "default": 0.5}]}`)
	if _, _, err := execRoot(t, "evolve", "--game", "acb", "--base", clash, "--generations", "1", "--out", filepath.Join(t.TempDir(), "x")); err == nil || !strings.Contains(err.Error(), `name "guardian" is a built-in strategy's`) {
		t.Errorf("a bot named like a built-in strategy: %v", err)
	}
}

// goBotManifest builds examples/acb-go into a temporary folder and writes
// its manifest beside the binary (a process of it starts in milliseconds,
// where the Python bot takes seconds on a loaded machine).
func goBotManifest(t *testing.T) string { return goBinaryManifest(t, "acb-go") }

// goBinaryManifest builds examples/acb-go into a temporary folder and
// writes there the manifest of examples/NAME (one that runs ./acb-go),
// its dir dropped so that it runs the binary beside it.
func goBinaryManifest(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "acb-go"), "./examples/acb-go")
	cmd.Dir = filepath.Join("..", "..")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building examples/acb-go: %v\n%s", err, out)
	}
	data, err := os.ReadFile(examplePath(name, "bot.json"))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "dir")
	if data, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "bot.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}
