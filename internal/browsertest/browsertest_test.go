package browsertest

import (
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A page opened from a file:// URL runs its script in the real browser.
func TestChromiumRunsAPageFromAFile(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	html := `<!doctype html><title>t</title><p id="out"></p><script>document.getElementById("out").textContent = String(6 * 7);</script>`
	if err := os.WriteFile(page, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := New(t, 60*time.Second)
	u := url.URL{Scheme: "file", Path: page}
	if err := chromedp.Do(ctx, chromedp.Navigate(u.String())); err != nil {
		t.Fatal(err)
	}
	got, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("out")))
	if err != nil {
		t.Fatal(err)
	}
	if got != "42" {
		t.Fatalf("script wrote %q, want 42", got)
	}
}
