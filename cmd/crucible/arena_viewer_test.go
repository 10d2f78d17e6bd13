package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"crucible/arena"
	"crucible/internal/browsertest"
)

// viewerLink is a match row's link in the report's match table.
var viewerLink = regexp.MustCompile(`<tr><td class="text">([^<]+)</td>.*?<a class="viewer" href="([^"]+)">watch</a>`)

// An arena run with --replays writes each match's viewer page beside its
// replay; the report with --replays lists every match with a link, relative
// to the report, whose target exists and is the viewer page of that
// match's replay (for both games), and that page opens and plays in a
// browser from the report.
func TestArenaReplaysLinkViewerPagesFromTheReport(t *testing.T) {
	dir := t.TempDir()
	var reports []string
	for _, run := range []struct{ game, players, title string }{
		{"kindling", "normal,easy,greedy", "<title>Kindling "},
		{"acb", "gatherer,rusher", "<title>AI Code Battle"},
	} {
		replays := filepath.Join(dir, run.game+"-replays")
		results := filepath.Join(dir, run.game+".jsonl")
		_, stderr, err := execRoot(t, "arena", "--game", run.game, "--players", run.players, "--seeds", "2", "--workers", "2", "--replays", replays, "--out", results)
		if err != nil {
			t.Fatal(err)
		}
		res, err := arena.LoadResults(results)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(stderr, fmt.Sprintf("%d viewer pages in %s", len(res.Records), replays)) {
			t.Fatalf("arena says:\n%s", stderr)
		}
		out := filepath.Join(dir, "reports", run.game+".html")
		os.MkdirAll(filepath.Dir(out), 0o755)
		if _, stderr, err = execRoot(t, "report", "--results", results, "--replays", replays, "--out", out); err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		html, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		links := viewerLink.FindAllStringSubmatch(string(html), -1)
		if len(links) != len(res.Records) {
			t.Fatalf("%s: the report links %d matches, the run played %d", run.game, len(links), len(res.Records))
		}
		seen := map[string]bool{}
		for _, l := range links {
			job, href := l[1], l[2]
			seen[job] = true
			u, err := url.Parse(href)
			if err != nil || u.IsAbs() || strings.HasPrefix(u.Path, "/") {
				t.Fatalf("%s: link %q is not relative to the report", job, href)
			}
			target := filepath.Join(filepath.Dir(out), filepath.FromSlash(u.Path))
			if target != filepath.Join(replays, job+".html") {
				t.Errorf("%s links %s, want the page beside its replay", job, target)
			}
			page, err := os.ReadFile(target)
			if err != nil {
				t.Fatalf("%s: link target: %v", job, err)
			}
			if !strings.Contains(string(page), run.title) || !strings.Contains(string(page), `id="turn"`) {
				t.Errorf("%s: %s is not a viewer page of %s", job, target, run.game)
			}
		}
		for _, r := range res.Records {
			if !seen[r.Job] {
				t.Errorf("%s: match %s has no link", run.game, r.Job)
			}
		}
		reports = append(reports, out)
	}

	// From the report, a link opens the viewer page, which plays.
	ctx := browsertest.New(t, 4*time.Minute)
	for _, out := range reports {
		u := (&url.URL{Scheme: "file", Path: out}).String()
		if err := chromedp.Do(ctx, chromedp.Navigate(u), chromedp.Click(chromedp.CSS(`a.viewer`))); err != nil {
			t.Fatal(err)
		}
		if err := pollPage(ctx, `location.pathname.includes("-replays/") && document.body.dataset.ready === "1" && document.getElementById("turn") !== null`); err != nil {
			where, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href + " ready=" + document.body.dataset.ready + " turn=" + (document.getElementById("turn") || {}).textContent`))
			t.Fatalf("%s: the first link did not open a viewer page: %v (at %s)", out, err, where)
		}
		if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`location.hash = "#t=2"`)); err != nil {
			t.Fatal(err)
		}
		if err := pollPage(ctx, `document.getElementById("turn").textContent === "2"`); err != nil {
			t.Fatalf("%s: the viewer page did not go to turn 2: %v", out, err)
		}
	}
}

// pollPage waits for a JavaScript condition, up to a minute (a page on a
// loaded machine can take long to load and run its script); a poll begun in
// a document that a navigation replaced ("Cannot find context", "target
// navigated or closed") is begun again in the new one.
func pollPage(ctx context.Context, cond string) error {
	deadline := time.Now().Add(time.Minute)
	for {
		left := time.Until(deadline)
		if left <= 0 {
			left = time.Second
		}
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(left)))
		if err == nil || time.Now().After(deadline) {
			return err
		}
		if msg := err.Error(); !strings.Contains(msg, "Cannot find context") && !strings.Contains(msg, "navigated or closed") {
			return err
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// viewerPages keeps a page newer than its replay, rewrites a stale one,
// skips matches without a replay, warns about a replay it cannot show and
// still writes the others; a missing directory is an error.
func TestViewerPagesUpToDate(t *testing.T) {
	dir := t.TempDir()
	replays := filepath.Join(dir, "reps")
	if _, _, err := execRoot(t, "arena", "--game", "kindling", "--players", "normal,easy", "--seeds", "1", "--replays", replays, "--out", filepath.Join(dir, "r.jsonl")); err != nil {
		t.Fatal(err)
	}
	refs := []replayRef{{"r0-0v1", "kindling"}, {"r0-1v0", "kindling"}, {"nothing", "kindling"}, {"broken", "kindling"}}
	if err := os.WriteFile(filepath.Join(replays, "broken.json"), []byte(`{"turns": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(replays, "r0-0v1.html")
	stale := filepath.Join(replays, "r0-1v0.html")
	os.WriteFile(kept, []byte("kept"), 0o644)
	os.WriteFile(stale, []byte("stale"), 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(stale, old, old)
	pages, written, warnings, err := viewerPages(t.Context(), replays, refs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 2 || pages["r0-0v1"] != kept || pages["r0-1v0"] != stale || written != 1 {
		t.Fatalf("pages %v, %d written", pages, written)
	}
	if b, _ := os.ReadFile(kept); string(b) != "kept" {
		t.Error("a page newer than its replay was rewritten")
	}
	if b, _ := os.ReadFile(stale); !strings.Contains(string(b), "<title>Kindling ") {
		t.Error("a page older than its replay was not rewritten")
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "broken.json has no viewer page") {
		t.Errorf("warnings %q", warnings)
	}
	if _, _, _, err := viewerPages(t.Context(), filepath.Join(dir, "none"), refs, nil); err == nil || !strings.Contains(err.Error(), "--replays") {
		t.Errorf("a missing directory: %v", err)
	}
	if _, _, err := execRoot(t, "report", "--run", dir, "--replays", replays); err == nil || !strings.Contains(err.Error(), "--replays applies to --results only") {
		t.Errorf("report --run --replays: %v", err)
	}
}
