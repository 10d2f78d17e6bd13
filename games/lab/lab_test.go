package lab_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"crucible/games/lab"
)

// ownPackages are, for each game of the lab, the packages that are the
// game's own: its rules, strategies, protocol, viewer page, entry and the
// arena entrant of its outside bots.
// Only they, the table (games/lab) and tests may name the game.
var ownPackages = map[string][]string{
	"acb":      {"engine/acb", "strategies/acbstrat", "protocol/acbhttp", "viewer/acbview", "games/acbgame", "bots/acbbot"},
	"kindling": {"engine/kindling", "strategies/bidders", "strategies/kindprog", "protocol/kindlingapi", "viewer/kindlingview", "games/kindlinggame"},
}

// stillNaming are the files outside the games' packages that still name a
// game, each with why. The list may only shrink: a new file that names a
// game fails the test.
var stillNaming = map[string]string{}

// TestNoPackageOutsideAGameNamesIt reads every non-test Go file of the
// module and fails on one outside the games' own packages and the table
// that imports a game's own package or holds a game's name as a string
// ("acb"), which is how a per-game switch or list starts.
func TestNoPackageOutsideAGameNamesIt(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, g := range lab.Games() {
		names[g.Name] = true
		if _, ok := ownPackages[g.Name]; !ok {
			t.Fatalf("game %s of the table has no entry in ownPackages", g.Name)
		}
	}
	own := func(dir string) bool {
		if dir == "games/lab" || strings.HasPrefix(dir, "games/lab/") {
			return true
		}
		for _, pkgs := range ownPackages {
			if slices.Contains(pkgs, dir) {
				return true
			}
		}
		return false
	}
	found := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") || own(filepath.ToSlash(filepath.Dir(rel))) {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), rel, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		var why []string
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if dir, ok := strings.CutPrefix(p, "crucible/"); ok && dir != "games/lab" && own(dir) {
				why = append(why, "imports "+p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && names[s] {
					why = append(why, "holds the string "+lit.Value)
				}
			}
			return true
		})
		if len(why) == 0 {
			return nil
		}
		found++
		if reason, ok := stillNaming[rel]; ok {
			t.Logf("%s still names a game (%s): %s", rel, reason, strings.Join(why, "; "))
			return nil
		}
		t.Errorf("%s names a game: %s; ask the table of games instead (or move the code into the game's package)", rel, strings.Join(why, "; "))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found == 0 {
		t.Log("no file outside the games' packages names a game")
	}
}
