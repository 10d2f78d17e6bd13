// Package viewertest drives viewer pages in a headless Chromium for the
// tests of the games' pages (viewer/acbview, viewer/kindlingview): a tab
// that fails the test on an uncaught exception, and the page's own
// controls (#turn) read back.
package viewertest

import (
	"bytes"
	"context"
	"crucible/engine"
	"crucible/strategies"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"crucible/internal/browsertest"
)

// WritePage writes the page of data into dir and returns its file:// URL.
func WritePage(t testing.TB, dir, name string, data []byte, write func(*bytes.Buffer, []byte) error) string {
	t.Helper()
	var page bytes.Buffer
	if err := write(&page, data); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return (&url.URL{Scheme: "file", Path: path}).String()
}

// Browser is a tab of a headless Chromium that records the page's
// uncaught exceptions.
type Browser struct {
	t   testing.TB
	ctx context.Context
}

// NewBrowser opens a tab for t, closed when t ends.
func NewBrowser(t testing.TB) *Browser {
	b := &Browser{t: t, ctx: browsertest.New(t, 3*time.Minute)}
	browsertest.FailOnExceptions(t, b.ctx)
	return b
}

// Context is the tab's chromedp context.
func (b *Browser) Context() context.Context { return b.ctx }

// Open loads u (a fresh load: through about:blank, so that a new #t=
// is not a same-document jump) and waits for the first frame.
func (b *Browser) Open(u string) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, chromedp.Navigate("about:blank"), chromedp.Navigate(u)); err != nil {
		b.t.Fatal(err)
	}
	b.WaitFor(`document.body.dataset.ready === "1"`)
}

// WaitFor polls a JavaScript condition until it holds. A poll that
// started in the document a navigation replaced is started again.
func (b *Browser) WaitFor(cond string) {
	b.t.Helper()
	var err error
	for range 5 {
		if _, err = chromedp.Run(b.ctx, chromedp.Poll[bool](cond)); err == nil || !strings.Contains(err.Error(), "Cannot find context") {
			break
		}
	}
	if err != nil {
		b.t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// Eval evaluates a JavaScript expression in b's page and decodes its
// value.
func Eval[T any](b *Browser, expr string) T {
	b.t.Helper()
	v, err := chromedp.Run(b.ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		b.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return v
}

// Do runs actions.
func (b *Browser) Do(actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	if err := chromedp.Do(b.ctx, actions...); err != nil {
		b.t.Fatal(err)
	}
}

// Text is the text of the element with id.
func (b *Browser) Text(id string) string {
	b.t.Helper()
	return Eval[string](b, fmt.Sprintf(`document.getElementById(%q).textContent`, id))
}

// Turn is the turn the page shows, read from #turn.
func (b *Browser) Turn() int {
	b.t.Helper()
	s := b.Text("turn")
	n, err := strconv.Atoi(s)
	if err != nil {
		b.t.Fatalf("#turn reads %q, not a number", s)
	}
	return n
}

// Screenshot writes a PNG of the page into dir.
func (b *Browser) Screenshot(dir, name string) {
	b.t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		b.t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		b.t.Fatal(err)
	}
	b.t.Logf("screenshot %s", path)
}

// ScreenshotDir is a directory that outlives the test, for looking at the
// screenshots.
func ScreenshotDir(t testing.TB) string {
	dir, err := os.MkdirTemp("", "crucible-viewer-shots-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots go to %s", dir)
	return dir
}

// Edit decodes a JSON document, lets f change it and encodes it again,
// with <, >, & and U+2028 written raw (as other encoders than Go's may).
func Edit(t *testing.T, data []byte, f func(doc map[string]any)) []byte {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	f(doc)
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		t.Fatal(err)
	}
	return bytes.ReplaceAll(out.Bytes(), []byte(`\u2028`), []byte("\u2028"))
}

// PlayMatch plays one match of rules through Game.Play with the strategies
// of list named by names (each at its defaults, in seat order) on seed and
// config cfg (nil: the defaults), and returns its replay or log and the
// result.
func PlayMatch(t testing.TB, rules engine.Game, list []strategies.Strategy, seed uint64, cfg any, names ...string) ([]byte, engine.Result) {
	t.Helper()
	seats := make([]engine.Seat, len(names))
	for i, n := range names {
		k := slices.IndexFunc(list, func(s strategies.Strategy) bool { return s.Name == n })
		if k < 0 {
			t.Fatalf("no %s strategy %q", rules.Name(), n)
		}
		s := list[k]
		g := s.Schema.Defaults()
		seats[i] = engine.Seat{Name: n, Strategy: n, Params: s.Schema.Map(g), Player: s.New(g, engine.SeatSeed(seed, i), i)}
	}
	var buf bytes.Buffer
	res, err := rules.Play(context.Background(), engine.MatchSpec{Seed: seed, Config: cfg, Seats: seats, Replay: &buf})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), res
}
