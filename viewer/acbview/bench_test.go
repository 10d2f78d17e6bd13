package acbview

import (
	"bytes"
	"crucible/viewer/viewertest"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/chromedp/chromedp"

	"crucible/engine/acb"
)

// bigReplay is the performance target's match: 500 turns, 6 players, a
// 60x60 map (config {"rows":60,"cols":60}), as
// `crucible match acb --players gatherer,rusher,hunter,economist,farmer,swarm --seed 7 --config cfg.json --replay r.json`.
func bigReplay(b testing.TB) []byte {
	b.Helper()
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols = 60, 60
	data, res := playReplay(b, 7, cfg, "gatherer", "rusher", "hunter", "economist", "farmer", "swarm")
	if res.Turns != 500 {
		b.Fatalf("the match lasted %d turns, want 500", res.Turns)
	}
	return data
}

// BenchmarkWrite measures the Go side of `crucible replay` on the big
// replay: decoding, win probabilities, commentary and the page.
func BenchmarkWrite(b *testing.B) {
	data := bigReplay(b)
	var page bytes.Buffer
	b.ResetTimer()
	for b.Loop() {
		page.Reset()
		if err := Write(&page, data); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(data)), "replay-bytes")
	b.ReportMetric(float64(page.Len()), "page-bytes")
}

// BenchmarkACBPageInChromium measures the page of the big replay in
// headless Chromium: the time from navigation to the first frame drawn
// (performance.now() when the map is first drawn, averaged over b.N
// loads), then, playing at 16x for 400 animation frames, the mean and
// longest time to draw one turn (map, legend, cursors) and the median
// and 95th-percentile interval between animation frames.
func BenchmarkACBPageInChromium(b *testing.B) {
	data := bigReplay(b)
	var page bytes.Buffer
	if err := Write(&page, data); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "big.html")
	if err := os.WriteFile(path, page.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	u := "file://" + path
	br := viewertest.NewBrowser(b)
	b.ResetTimer()
	var first, start, parsed float64
	for b.Loop() {
		br.Open(u)
		first += viewertest.Eval[float64](br, `window.viewerFirstFrame`)
		start += viewertest.Eval[float64](br, `window.viewerScriptStart`)
		parsed += viewertest.Eval[float64](br, `window.viewerParsed`)
	}
	b.StopTimer()
	n := float64(b.N)
	b.ReportMetric(first/n, "ms-to-first-frame")
	b.ReportMetric(start/n, "ms-to-script-start")
	b.ReportMetric((parsed-start)/n, "ms-json-parse")
	b.ReportMetric(float64(page.Len()), "page-bytes")

	br.Do(chromedp.SetValue(chromedp.ID("speed"), "16"), chromedp.Evaluate[chromedp.Void](`(() => {
		viewer.stats.frames = 0; viewer.stats.totalMs = 0; viewer.stats.maxMs = 0;
		window.frameGaps = [];
		let last = performance.now();
		const tick = (now) => {
			window.frameGaps.push(now - last);
			last = now;
			if (window.frameGaps.length < 400) requestAnimationFrame(tick);
		};
		requestAnimationFrame(tick);
		viewer.play();
	})()`))
	br.WaitFor(`window.frameGaps.length >= 400 || !viewer.playing()`)
	gaps := viewertest.Eval[[]float64](br, `window.frameGaps.slice(1)`)
	st := viewertest.Eval[map[string]float64](br, `viewer.stats`)
	sort.Float64s(gaps)
	if len(gaps) < 10 || st["frames"] == 0 {
		b.Fatalf("played %d frames (%v draws)", len(gaps), st["frames"])
	}
	b.ReportMetric(st["totalMs"]/st["frames"], "ms/draw")
	b.ReportMetric(st["maxMs"], "ms-longest-draw")
	b.ReportMetric(gaps[len(gaps)/2], "ms-median-frame-gap")
	b.ReportMetric(gaps[len(gaps)*95/100], "ms-p95-frame-gap")
	b.Logf("page %d bytes (replay %d), %d frames played", page.Len(), len(data), len(gaps))
}
