package main

import (
	"strings"
	"testing"
)

// TestCommandsFollowTheTableOfGames checks that the commands take their
// games from the table: every game of the table is named in the --game
// help of each command that has one, has a bench, and its variants export
// with the table's target (whose run hint export prints).
func TestCommandsFollowTheTableOfGames(t *testing.T) {
	root := newRootCmd()
	for _, path := range [][]string{{"arena"}, {"strategies"}, {"bench"}} {
		cmd, _, err := root.Find(path)
		if err != nil {
			t.Fatal(err)
		}
		usage := cmd.Flags().Lookup("game").Usage
		for _, g := range labGames.All() {
			if !strings.Contains(usage, g.Name) {
				t.Errorf("crucible %s --game help %q does not name %s", path[0], usage, g.Name)
			}
		}
	}
	export, _, _ := root.Find([]string{"export"})
	for _, g := range labGames.All() {
		if g.Bench == nil {
			t.Errorf("crucible bench has no engine figures for %s", g.Name)
		}
		if g.Export != nil && !strings.Contains(export.Long, g.Export.Bot) {
			t.Errorf("crucible export --help does not describe the %s bot", g.Name)
		}
		if _, err := lookupGame(g.Name); err != nil {
			t.Error(err)
		}
	}
	if _, _, err := execRoot(t, "strategies", "--game", "chess"); err == nil || !strings.Contains(err.Error(), `--game: unknown game "chess" (known: `+strings.Join(labGames.Names(), ", ")) {
		t.Fatalf("strategies --game chess: %v", err)
	}
	if _, _, err := execRoot(t, "bench", "--game", "chess"); err == nil || !strings.Contains(err.Error(), `unknown game "chess"`) {
		t.Fatalf("bench --game chess: %v", err)
	}
}

// crucible match with a game that is not one says so and lists the games
// (issue 20: it said only "unknown flag: --players").
func TestMatchOfAnUnknownGameListsTheGames(t *testing.T) {
	for _, args := range [][]string{{"match", "chess", "--players", "a,b"}, {"match", "chess"}} {
		_, _, err := execRoot(t, args...)
		if err == nil || err.Error() != `unknown game "chess" (known: `+strings.Join(labGames.Names(), ", ")+`)` {
			t.Errorf("crucible %s: %v", strings.Join(args, " "), err)
		}
	}
	if out, _, err := execRoot(t, "match"); err != nil || !strings.Contains(out, "crucible match acb --players") || !strings.Contains(out, "crucible match kindling --players") {
		t.Errorf("crucible match alone: %v\n%s", err, out)
	}
}
