package games_test

import (
	"strings"
	"testing"

	"crucible/games"
)

// TestTableIsConsistent checks every row of the table of games: the rules,
// the strategies and the export target all belong to the game of the row,
// names are unique, and a game whose remote bots the arena cannot call
// says where they play instead.
func TestTableIsConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, g := range games.All() {
		if g.Name == "" || seen[g.Name] {
			t.Fatalf("game name %q is empty or repeated", g.Name)
		}
		seen[g.Name] = true
		if g.Rules == nil || g.Rules.Name() != g.Name {
			t.Fatalf("game %s: rules named %q", g.Name, g.Rules.Name())
		}
		list := g.Strategies()
		if len(list) == 0 {
			t.Fatalf("game %s has no strategies", g.Name)
		}
		for _, s := range list {
			if s.Game != g.Name {
				t.Fatalf("game %s lists strategy %s of game %s", g.Name, s.Name, s.Game)
			}
		}
		if g.Export.Game != g.Name || g.Export.Run == nil || g.Export.Dockerfile == nil || g.Export.README == nil {
			t.Fatalf("game %s: export target of %q is incomplete", g.Name, g.Export.Game)
		}
		if g.Remote == nil && g.Elsewhere == "" {
			t.Fatalf("game %s has no remote bots and does not say where its bots play", g.Name)
		}
		got, err := games.Lookup(g.Name)
		if err != nil || got.Name != g.Name {
			t.Fatalf("Lookup(%s) = %s, %v", g.Name, got.Name, err)
		}
	}
	reg, err := games.Registry()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range games.Names() {
		if !strings.Contains(games.List(), name) || len(reg.List(name)) == 0 {
			t.Fatalf("game %s is missing from List %q or from the registry", name, games.List())
		}
	}
	if _, err := games.Lookup("chess"); err == nil || err.Error() != `unknown game "chess" (known: `+strings.Join(games.Names(), ", ")+`)` {
		t.Fatalf("unknown game: %v", err)
	}
}

// TestRemoteNeedsASecret checks that a remote bot is refused without a
// shared secret, before any match.
func TestRemoteNeedsASecret(t *testing.T) {
	t.Setenv("ACB_SECRET", "")
	t.Setenv("SHARED_SECRET", "")
	for _, g := range games.All() {
		if g.Remote == nil {
			continue
		}
		if _, err := g.Remote("http://127.0.0.1:1", ""); err == nil || !strings.Contains(err.Error(), "ACB_SECRET") {
			t.Fatalf("game %s: a remote bot without a secret: %v", g.Name, err)
		}
		e, err := g.Remote("http://127.0.0.1:1", "s3cret")
		if err != nil || e.Name != "http://127.0.0.1:1" || e.New == nil {
			t.Fatalf("game %s: remote entrant %+v, %v", g.Name, e, err)
		}
	}
}
