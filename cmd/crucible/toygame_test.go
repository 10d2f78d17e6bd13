package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"crucible/arena"
	"crucible/cmd/crucible/testdata/toygame"
	"crucible/games"
	"crucible/games/lab"
)

// useGames runs the commands of the test on table instead of the lab's,
// until the test ends.
func useGames(t *testing.T, table *games.Table) {
	t.Helper()
	saved, savedNames := labGames, gameNames
	labGames, gameNames = table, table.Names()
	t.Cleanup(func() { labGames, gameNames = saved, savedNames })
}

// TestAThirdGameTouchesNoFileOutsideItsPackage adds a toy game (its own
// package, testdata/toygame) to the lab's table and plays it through
// every path a table entry enables: its own command, crucible
// strategies, match, arena (with its viewer pages beside the replays),
// sprt, replay, bench and export. Nothing else is changed for it: a command that switched on the
// game's name instead of asking the table would refuse it here.
func TestAThirdGameTouchesNoFileOutsideItsPackage(t *testing.T) {
	useGames(t, games.MustNew(append(lab.Games(), toygame.Game())...))
	dir := t.TempDir()
	run := func(t *testing.T, args ...string) string {
		t.Helper()
		out, stderr, err := execRoot(t, args...)
		if err != nil {
			t.Fatalf("crucible %s: %v\n%s", strings.Join(args, " "), err, stderr)
		}
		return out
	}

	t.Run("strategies", func(t *testing.T) {
		if out := run(t, "strategies", "--game", "toy"); !strings.Contains(out, "3 toy strategies") || !strings.Contains(out, "aim") {
			t.Fatalf("strategies --game toy:\n%s", out)
		}
	})

	t.Run("its own command", func(t *testing.T) {
		if out := run(t, "toy-rules"); out != "5 rounds; the highest number called by one seat alone scores\n" {
			t.Fatalf("toy-rules: %q", out)
		}
	})

	t.Run("match", func(t *testing.T) {
		log := filepath.Join(dir, "m.json")
		out := run(t, "match", "toy", "--players", "high,low", "--seed", "3", "--log", log)
		if !strings.HasPrefix(out, "toy match, seed 3: high ") {
			t.Fatalf("match toy:\n%s", out)
		}
		var l toygame.Log
		data, err := os.ReadFile(log)
		if err != nil || json.Unmarshal(data, &l) != nil || len(l.Calls) != toygame.Rounds {
			t.Fatalf("the match log %s: %v, %+v", log, err, l)
		}
		// Its --help and the group's come from the entry.
		if out := run(t, "match", "--help"); !strings.Contains(out, "crucible match toy --players high,low --seed 3") {
			t.Errorf("crucible match --help does not show the toy game's example:\n%s", out)
		}
	})

	t.Run("arena with viewer pages", func(t *testing.T) {
		results, replays := filepath.Join(dir, "a.jsonl"), filepath.Join(dir, "replays")
		run(t, "arena", "--game", "toy", "--players", "all", "--seeds", "2", "--out", results, "--replays", replays, "--workers", "2")
		res, err := arena.LoadResults(results)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Records) != 12 { // 3 pairs, both seat orders, 2 seeds
			t.Fatalf("%d records, want 12", len(res.Records))
		}
		for _, r := range res.Records {
			if r.Error != "" || r.Turns != toygame.Rounds {
				t.Fatalf("record %+v", r)
			}
			page, err := os.ReadFile(filepath.Join(replays, r.Job+".html"))
			if err != nil || !strings.Contains(string(page), `data-kind="toy"`) {
				t.Fatalf("the viewer page of %s: %v", r.Job, err)
			}
		}
	})

	t.Run("sprt", func(t *testing.T) {
		out := run(t, "sprt", "--game", "toy", "--a", "low", "--b", "high", "--elo0", "0", "--elo1", "100", "--max-pairs", "40", "--workers", "1")
		if !strings.Contains(out, "B high against A low (toy, 2 seats)") {
			t.Fatalf("sprt --game toy:\n%s", out)
		}
	})

	t.Run("replay", func(t *testing.T) {
		log := filepath.Join(dir, "r.json")
		run(t, "match", "toy", "--players", "mid,low,high", "--seed", "5", "--log", log)
		page := filepath.Join(dir, "r.html")
		if out := run(t, "replay", "--toy-log", log, "--out", page); !strings.Contains(out, "wrote "+page) {
			t.Fatalf("replay --toy-log:\n%s", out)
		}
		// Another game's viewer refuses it and says which flag shows it.
		_, _, err := execRoot(t, "replay", "--log", log, "--out", filepath.Join(dir, "k.html"))
		if err == nil || !strings.Contains(err.Error(), "looks like a toy log (JSON): view it with --toy-log") {
			t.Fatalf("replay --log of a toy log: %v", err)
		}
	})

	t.Run("bench", func(t *testing.T) {
		out := run(t, "bench", "--game", "toy", "--workers", "1", "--repeat", "1", "--toy-matches", "50")
		for _, want := range []string{"engine: toy matches, 1 core", "round robin of 3 strategies, 3 seeds", "arena, 1 worker(s)"} {
			if !strings.Contains(out, want) {
				t.Fatalf("bench --game toy lacks %q:\n%s", want, out)
			}
		}
		if _, _, err := execRoot(t, "bench", "--game", "toy", "--toy-matches", "0"); err == nil || !strings.Contains(err.Error(), "--toy-matches 0 is outside its range 1..1000") {
			t.Fatalf("bench --toy-matches 0: %v", err)
		}
	})

	t.Run("export refuses a game without a target", func(t *testing.T) {
		v := filepath.Join(dir, "v.json")
		if err := os.WriteFile(v, []byte(`{"game":"toy","base":"high","params":{"aim":8}}`), 0o644); err != nil {
			t.Fatal(err)
		}
		_, _, err := execRoot(t, "export", "--variant", v, "--out", filepath.Join(dir, "x"))
		if err == nil || !strings.Contains(err.Error(), "variants of toy cannot be exported (exported games: acb, kindling)") {
			t.Fatalf("export of a toy variant: %v", err)
		}
	})

	t.Run("an unknown game names the toy game", func(t *testing.T) {
		_, _, err := execRoot(t, "match", "chess", "--players", "a,b")
		if err == nil || err.Error() != `unknown game "chess" (known: acb, kindling, toy)` {
			t.Fatalf("match chess: %v", err)
		}
	})
}
