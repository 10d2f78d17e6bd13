package kindlingapi_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"crucible/games/lab"
	"crucible/internal/browsertest"
	"crucible/protocol/httpguard/guardtest"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// serveKindling starts a Kindling server with the lab's house bots (the
// strategies normal and easy) on a free port of 127.0.0.1, stopped when t
// ends, and returns its base URL and the registry.
func serveKindling(t *testing.T) (string, *strategies.Registry) {
	t.Helper()
	reg, err := lab.Table().Registry()
	if err != nil {
		t.Fatal(err)
	}
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: house})
	if err != nil {
		t.Fatal(err)
	}
	return "http://" + guardtest.Serve(t, srv.Serve), reg
}

// page is a tab of a headless Chromium that records the page's uncaught
// exceptions and fails the test for them.
type page struct {
	t     *testing.T
	ctx   context.Context
	shots string
}

func newPage(t *testing.T) *page {
	p := &page{t: t, ctx: browsertest.New(t, 90*time.Second)}
	browsertest.FailOnExceptions(t, p.ctx)
	return p
}

// do runs actions.
func (p *page) do(actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := chromedp.Do(p.ctx, actions...); err != nil {
		p.t.Fatal(err)
	}
}

// eval evaluates a JavaScript expression and decodes its value.
func eval[T any](p *page, expr string, opts ...chromedp.EvaluateOption) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](expr, opts...))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript condition until it holds (within d).
func (p *page) waitFor(cond string, d time.Duration) {
	p.t.Helper()
	if _, err := chromedp.Run(p.ctx, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(d), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		p.t.Fatalf("waiting for %s: %v (the page shows: %q)", cond, err, p.visibleText())
	}
}

// visibleText is the page's text, for failure messages.
func (p *page) visibleText() string {
	s, _ := chromedp.Run(p.ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

// text is the text of the element with id.
func (p *page) text(id string) string {
	p.t.Helper()
	return strings.TrimSpace(eval[string](p, fmt.Sprintf(`document.getElementById(%q).textContent`, id)))
}

// number is the text of the element with id read as an integer.
func (p *page) number(id string) int {
	p.t.Helper()
	s := p.text(id)
	n, err := strconv.Atoi(s)
	if err != nil {
		p.t.Fatalf("#%s reads %q, not a number", id, s)
	}
	return n
}

// typeInto replaces the text of input id by typing s, as a person does:
// clearing it and each key fire the input event the bid editor checks on.
func (p *page) typeInto(id, s string) {
	p.t.Helper()
	eval[chromedp.Void](p, fmt.Sprintf(`(e => { e.focus(); e.value = ""; e.dispatchEvent(new Event("input", {bubbles: true})); })(document.getElementById(%q))`, id))
	p.do(chromedp.SendKeys(chromedp.ID(id), s))
}

// choose selects value in the select id and fires its change event.
func (p *page) choose(id, value string) {
	p.t.Helper()
	got := eval[string](p, fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("change")); return e.value; })(document.getElementById(%q))`, value, id))
	if got != value {
		p.t.Fatalf("#%s has no option %q", id, value)
	}
}

// screenshot writes a PNG of the whole page into the screenshot directory.
func (p *page) screenshot(name string) {
	p.t.Helper()
	if p.shots == "" {
		dir, err := os.MkdirTemp("", "crucible-kindling-ui-shots-")
		if err != nil {
			p.t.Fatal(err)
		}
		p.shots = dir
		p.t.Logf("screenshots go to %s", dir)
	}
	png, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(p.shots, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", path)
}
