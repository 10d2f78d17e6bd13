package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crucible match kindling takes an outside agent's manifest among its
// players, as crucible match acb does: the example Python agent is
// started with the lab's server and plays its seat (it bids: the turns
// show no missed seat), and a --param aimed at it is refused with the way
// to set its values.
func TestMatchKindlingPlaysAManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Python agent as a real process")
	}
	needPython(t)
	agent := examplePath("kindling-python", "bot.json")
	logPath := filepath.Join(t.TempDir(), "m.json")
	stdout, stderr, err := execRoot(t, "match", "kindling", "--players", agent+",normal", "--seed", "3", "--log", logPath)
	if err != nil {
		t.Fatalf("match kindling with a manifest: %v\n%s", err, stderr)
	}
	if !strings.Contains(stdout, "seat 0 kindling-python#") || !strings.Contains(stdout, "final standings") {
		t.Fatalf("the agent's seat is not in the match:\n%s", stdout)
	}
	if strings.Contains(stdout, "missed the turn") {
		t.Errorf("the agent missed turns (it did not bid through the lab's server):\n%s", stdout)
	}
	if data, err := os.ReadFile(logPath); err != nil || !strings.Contains(string(data), "kindling-python") {
		t.Errorf("the match log does not name the agent: %v", err)
	}
	_, _, err = execRoot(t, "match", "kindling", "--players", agent+",normal", "--param", agent+".focus=2")
	if err == nil || !strings.Contains(err.Error(), "set its values in its manifest") {
		t.Errorf("--param on an agent: %v", err)
	}
}
