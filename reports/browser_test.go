package reports

import (
	"bytes"
	"net/url"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"crucible/arena/rating"
	"crucible/internal/browsertest"
)

// wideBoard is a ranking tournament as wide as an AI Code Battle run's:
// seventeen players, evolved ones with long labels, and pairings whose
// rounds repeat one outcome (so the units column reads "48 (12
// distinct)").
func wideBoard(t *testing.T) rating.Summary {
	t.Helper()
	names := []string{"zone-driver#0123456789", "zone-driver#abcdef0123", "zone-driver#fedcba9876",
		"gatherer", "rusher", "hunter", "swarm", "siege", "turtle", "zone-driver", "harvester", "raider", "sentinel", "scout", "defender", "random", "greedy-expander"}
	var ms []rating.Match
	for seed := range 24 {
		for i, a := range names {
			for j, b := range names[i+1:] {
				win := 1 + (i+j+seed%2)%2
				if (i+j)%3 == 0 {
					win = 1 + i%2 // the same outcome on every seed
				}
				fp := uint64(7 + win)
				if (i+j)%3 != 0 {
					fp = uint64(seed*1000 + i*37 + j)
				}
				ms = append(ms,
					rating.Match{Players: []string{a, b}, Ranks: []int{win, 3 - win}, Seed: uint64(seed), Result: fp},
					rating.Match{Players: []string{b, a}, Ranks: []int{3 - win, win}, Seed: uint64(seed), Result: fp + 1})
			}
		}
	}
	sum, err := rating.Leaderboard(names, ms, rating.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestEvolveTablesFitThePage opens an evolution report with a wide
// ranking tournament in Chromium (1280 pixels wide) and checks that no
// table is cut off: the ranking's Elo bar column, its last, ends inside
// the page instead of behind a scroll bar.
func TestEvolveTablesFitThePage(t *testing.T) {
	lb := wideBoard(t)
	pg := evolveSample()
	pg.Leaderboard, pg.Evolved = &lb, []string{"zone-driver#0123456789", "zone-driver#abcdef0123"}
	var buf bytes.Buffer
	if err := WriteEvolveHTML(&buf, pg); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(t.TempDir(), "evolve.html")
	if err := os.WriteFile(page, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := browsertest.New(t, 2*time.Minute)
	if err := chromedp.Do(ctx, chromedp.Navigate((&url.URL{Scheme: "file", Path: page}).String())); err != nil {
		t.Fatal(err)
	}
	type box struct {
		Section             string
		Scroll, Client, Bar float64
		Right               float64
	}
	boxes, err := chromedp.Run(ctx, chromedp.Evaluate[[]box](`[...document.querySelectorAll("div.scroll")].map(d => {
		const bar = d.querySelector("svg[aria-label='Elo bar']");
		return {Section: d.closest("section").id, Scroll: d.scrollWidth, Client: d.clientWidth,
			Bar: bar ? bar.getBoundingClientRect().right : 0, Right: d.getBoundingClientRect().right};
	})`))
	if err != nil {
		t.Fatal(err)
	}
	if len(boxes) == 0 {
		t.Fatal("the page has no table")
	}
	for _, b := range boxes {
		if b.Scroll > b.Client {
			t.Errorf("section %s: its table is %v pixels wide in a %v-pixel box: the right of it is cut off", b.Section, b.Scroll, b.Client)
		}
		if b.Bar > b.Right+0.5 {
			t.Errorf("section %s: the Elo bars end at %v, right of the table's box at %v", b.Section, b.Bar, b.Right)
		}
	}
}
