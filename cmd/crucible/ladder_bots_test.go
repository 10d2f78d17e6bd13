package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ladder add --bot stores a manifest and a night starts the bot from it:
// the night's standings list it, its log lies beside the database, and
// sprt --a takes the same manifest. A manifest whose command is not on
// this machine is refused naming the command.
func TestLadderAndSprtTakeABotManifest(t *testing.T) {
	if testing.Short() {
		t.Skip("plays the example Python bot as a real process")
	}
	needPython(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "l.db")
	bot := examplePath("acb-python", "bot.json")
	for _, args := range [][]string{
		{"ladder", "init", "--game", "acb", "--db", db},
		{"ladder", "add", "py", "--bot", bot, "--db", db},
		{"ladder", "add", "g", "--strategy", "guardian", "--db", db},
	} {
		if _, errs, err := execRoot(t, args...); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, errs)
		}
	}
	out, errs, err := execRoot(t, "ladder", "run", "--db", db, "--seeds-per-night", "1", "--new-version-factor", "1", "--sprt-pairs", "0")
	if err != nil {
		t.Fatalf("ladder run: %v\n%s", err, errs)
	}
	if !strings.Contains(out, "│ py ") {
		t.Errorf("the night's standings do not list the bot py:\n%s", out)
	}
	if logs, _ := filepath.Glob(filepath.Join(dir, "l-bots", "acb-python_*.log")); len(logs) == 0 {
		t.Errorf("no log of the bot beside the database; stderr:\n%s", errs)
	}

	missing := filepath.Join(dir, "missing.json")
	os.WriteFile(missing, []byte(`{"kind": "crucible-bot/1", "game": "acb", "name": "gone", "command": ["no-such-bot-binary-xyz"]}`), 0o644)
	if _, _, err := execRoot(t, "ladder", "add", "gone", "--bot", missing, "--db", db); err == nil || !strings.Contains(err.Error(), `command "no-such-bot-binary-xyz" is not on this machine's PATH`) {
		t.Errorf("ladder add of a bot whose command is missing: %v", err)
	}

	out, errs, err = execRoot(t, "sprt", "--game", "acb", "--a", "guardian", "--b", bot, "--max-pairs", "2", "--workers", "2", "--elo0", "0", "--elo1", "10")
	if err != nil {
		t.Fatalf("sprt: %v\n%s", err, errs)
	}
	if !strings.Contains(out+errs, "acb-python#") {
		t.Errorf("sprt does not name the bot:\n%s\n%s", out, errs)
	}
}
