package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `crucible replay` turns a replay written by `match acb` and a log written
// by `match kindling` into pages; --out defaults to the input's name with
// .html.
func TestReplayWritesPages(t *testing.T) {
	dir := t.TempDir()
	replay := filepath.Join(dir, "r.json")
	if _, _, err := execRoot(t, "match", "acb", "--players", "gatherer,rusher", "--seed", "4", "--replay", replay); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "r.html")
	out, _, err := execRoot(t, "replay", "--replay", replay, "--out", page)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "wrote "+page) || !strings.Contains(out, "from "+replay) {
		t.Errorf("output %q does not name the page and the replay", out)
	}
	html, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<!doctype html>`, `id="turn"`, `<canvas id="map"`, `"format":"crucible-acb-replay/1"`} {
		if !strings.Contains(string(html), want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	for _, banned := range []string{"https://", "<script src", "<link", "@import", "url(", "fetch(", "XMLHttpRequest", "<img", "<iframe"} {
		if strings.Contains(string(html), banned) {
			t.Errorf("the page holds %q: it must load nothing", banned)
		}
	}
	// The only http:// is the SVG namespace, a name rather than a load.
	if n, ns := strings.Count(string(html), "http://"), strings.Count(string(html), "http://www.w3.org/2000/svg"); n != ns {
		t.Errorf("the page holds %d http:// addresses besides the SVG namespace", n-ns)
	}

	log := filepath.Join(dir, "k.json")
	if _, _, err := execRoot(t, "match", "kindling", "--players", "greedy,even,easy", "--seed", "2", "--log", log); err != nil {
		t.Fatal(err)
	}
	if _, _, err := execRoot(t, "replay", "--log", log); err != nil {
		t.Fatal(err)
	}
	html, err = os.ReadFile(filepath.Join(dir, "k.html"))
	if err != nil {
		t.Fatalf("--out did not default to k.html: %v", err)
	}
	if !strings.Contains(string(html), `id="ridge"`) {
		t.Error("the Kindling page has no ridge")
	}
}

func TestReplayErrors(t *testing.T) {
	dir := t.TempDir()
	notReplay := filepath.Join(dir, "notes.json")
	if err := os.WriteFile(notReplay, []byte(`{"hello": "world"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.json")
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"missing file", []string{"--replay", missing}, []string{missing}},
		{"not a replay", []string{"--replay", notReplay}, []string{notReplay + ": not an AI Code Battle replay", `no "format" field`}},
		{"not a log", []string{"--log", notReplay}, []string{notReplay + ": not a Kindling log"}},
		{"both inputs", []string{"--replay", notReplay, "--log", notReplay}, []string{"--replay or --log, not both"}},
		{"no input", nil, []string{"--replay FILE", "--log FILE"}},
		{"out is the input", []string{"--replay", notReplay, "--out", notReplay}, []string{"would overwrite the input"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := execRoot(t, append([]string{"replay"}, tc.args...)...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "notes.html")); !os.IsNotExist(err) {
		t.Error("a refused input still left a page")
	}
}
