package games_test

import (
	"strings"
	"testing"

	"crucible/engine/kindling"
	"crucible/games"
	"crucible/games/lab"
	"crucible/strategies/bidders"
)

// TestLabTableIsConsistent checks every row of the lab's table: the rules,
// the strategies and the export target all belong to the game of the row
// (New checks it), every game is found by Lookup, named by List and has
// strategies in the registry.
func TestLabTableIsConsistent(t *testing.T) {
	table, err := games.New(lab.Games()...)
	if err != nil {
		t.Fatal(err)
	}
	reg, err := table.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range table.All() {
		got, err := table.Lookup(g.Name)
		if err != nil || got.Name != g.Name {
			t.Fatalf("Lookup(%s) = %s, %v", g.Name, got.Name, err)
		}
		if !strings.Contains(table.List(), g.Name) || len(reg.List(g.Name)) == 0 {
			t.Fatalf("game %s is missing from List %q or from the registry", g.Name, table.List())
		}
		if rules, err := table.Rules(g.Name); err != nil || rules.Name() != g.Name {
			t.Fatalf("Rules(%s) = %v, %v", g.Name, rules, err)
		}
	}
	if _, err := table.Lookup("chess"); err == nil || err.Error() != `unknown game "chess" (known: `+strings.Join(table.Names(), ", ")+`)` {
		t.Fatalf("unknown game: %v", err)
	}
}

// TestNewRefusesABadRow checks the rules of a row: each broken row is
// refused with an error naming the game and what is wrong.
func TestNewRefusesABadRow(t *testing.T) {
	good := games.Game{Name: "kindling", Rules: kindling.Game{}, Strategies: bidders.All, Elsewhere: "on a server"}
	if _, err := games.New(good); err != nil {
		t.Fatalf("a minimal row is refused: %v", err)
	}
	tests := []struct {
		rule string
		edit func(g *games.Game)
		want string
	}{
		{"a name is needed", func(g *games.Game) { g.Name = "" }, "needs a name"},
		{"the rules are the game's", func(g *games.Game) { g.Name = "kindling2" }, `its rules are named "kindling"`},
		{"strategies are needed", func(g *games.Game) { g.Strategies = nil }, "no strategies"},
		{"no remote bots says where they play", func(g *games.Game) { g.Elsewhere = "" }, "must say where its bots play"},
		{"a viewer writes pages", func(g *games.Game) { g.Viewer = &games.Viewer{Flag: "log"} }, "no page writer"},
		{"a match command has flags", func(g *games.Game) { g.Match = &games.MatchCommand{Short: "x"} }, "match command has no flags"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			g := good
			tt.edit(&g)
			if _, err := games.New(g); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	if _, err := games.New(good, good); err == nil || !strings.Contains(err.Error(), `game "kindling" is listed twice`) {
		t.Fatalf("a repeated game: %v", err)
	}
}

// TestRemoteNeedsASecret checks that a remote bot is refused without a
// shared secret, before any match, and that a game without remote bots
// says where its bots play.
func TestRemoteNeedsASecret(t *testing.T) {
	t.Setenv("ACB_SECRET", "")
	t.Setenv("SHARED_SECRET", "")
	table := lab.Table()
	for _, g := range table.All() {
		if !g.HasRemote() {
			if _, err := table.Remote(g.Name, "http://127.0.0.1:1", "s"); err == nil || !strings.Contains(err.Error(), g.Elsewhere) {
				t.Fatalf("game %s: a remote bot of a game without them: %v", g.Name, err)
			}
			continue
		}
		if _, err := table.Remote(g.Name, "http://127.0.0.1:1", ""); err == nil || !strings.Contains(err.Error(), "ACB_SECRET") {
			t.Fatalf("game %s: a remote bot without a secret: %v", g.Name, err)
		}
		e, err := table.Remote(g.Name, "http://127.0.0.1:1", "s3cret")
		if err != nil || e.Name != "http://127.0.0.1:1" || e.New == nil {
			t.Fatalf("game %s: remote entrant %+v, %v", g.Name, e, err)
		}
	}
}
