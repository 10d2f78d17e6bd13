package kindlingview

import (
	"bytes"
	"crucible/viewer/viewertest"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies/bidders"
)

// playKindling plays one Kindling match through kindling.Game.Play and
// returns its log and the result.
func playKindling(t testing.TB, seed uint64, names ...string) ([]byte, engine.Result) {
	t.Helper()
	return viewertest.PlayMatch(t, kindling.Game{}, bidders.All(), seed, nil, names...)
}

// checkKindlingTurn compares the page with the log at turn t (1..8): the
// turn, the values, who lit each beacon, every seat's bids, strengths,
// embers and score.
func checkKindlingTurn(t *testing.T, b *viewertest.Browser, l *kindling.Log, turn int) {
	t.Helper()
	if got := b.Turn(); got != turn {
		t.Fatalf("#turn shows %d, want %d", got, turn)
	}
	r := l.Turns[turn-1]
	for i := range kindling.Beacons {
		if got := b.Text(fmt.Sprintf("kvalue-%d", i)); got != strconv.Itoa(r.Values[i]) {
			t.Errorf("turn %d: beacon %d's value shows %q, the log has %d", turn, i, got, r.Values[i])
		}
		want := "unlit"
		if w := r.Winners[i]; w != kindling.NoWinner {
			want = fmt.Sprintf("lit by S%d %s (+%d)", w, l.Players[w].Name, r.Values[i])
		}
		if got := b.Text(fmt.Sprintf("klit-%d", i)); got != want {
			t.Errorf("turn %d: beacon %d reads %q, want %q", turn, i, got, want)
		}
		for s := range l.Players {
			for field, v := range map[string]int{"kbid": r.Bids[s][i], "kstr": r.Strength[s][i], "kemb": r.Embers[s][i]} {
				id := fmt.Sprintf("%s-%d-%d", field, s, i)
				if got := b.Text(id); got != strconv.Itoa(v) {
					t.Errorf("turn %d: #%s shows %q, the log has %d", turn, id, got, v)
				}
			}
		}
	}
	for s := range l.Players {
		if got := b.Text(fmt.Sprintf("kscore-%d", s)); got != strconv.Itoa(r.Scores[s]) {
			t.Errorf("turn %d: seat %d's score shows %q, the log has %d", turn, s, got, r.Scores[s])
		}
		if got := b.Text(fmt.Sprintf("kpoints-%d", s)); got != strconv.Itoa(r.Points[s]) {
			t.Errorf("turn %d: seat %d's points show %q, the log has %d", turn, s, got, r.Points[s])
		}
	}
}

func TestKindlingPageInChromium(t *testing.T) {
	data, res := playKindling(t, 4, "bestresp", "greedy", "easy")
	var l kindling.Log
	if err := json.Unmarshal(data, &l); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	shots := viewertest.ScreenshotDir(t)
	u := viewertest.WritePage(t, dir, "kindling.html", data, func(w *bytes.Buffer, d []byte) error { return Write(w, d) })
	b := viewertest.NewBrowser(t)

	b.Open(u)
	if got := b.Turn(); got != 0 {
		t.Fatalf("the page opens at turn %d, want 0", got)
	}
	for s := range l.Players {
		if got := b.Text(fmt.Sprintf("kscore-%d", s)); got != "0" {
			t.Errorf("turn 0: seat %d's score shows %q, want 0", s, got)
		}
		if got := b.Text(fmt.Sprintf("ksparks-%d", s)); got != strconv.Itoa(kindling.StartSparks) {
			t.Errorf("turn 0: seat %d holds %q sparks, want %d", s, got, kindling.StartSparks)
		}
	}
	b.Screenshot(shots, "kindling-turn0.png")

	b.Open(u + "#t=3")
	checkKindlingTurn(t, b, &l, 3)
	b.Screenshot(shots, "kindling-turn3.png")
	b.Do(chromedp.KeyEvent(kb.ArrowRight))
	checkKindlingTurn(t, b, &l, 4)
	b.Do(chromedp.Click(chromedp.ID("back")), chromedp.Click(chromedp.ID("back")))
	checkKindlingTurn(t, b, &l, 2)
	b.Do(chromedp.KeyEvent(kb.End))
	checkKindlingTurn(t, b, &l, kindling.Turns)
	if h := viewertest.Eval[string](b, `location.hash`); h != fmt.Sprintf("#t=%d", kindling.Turns) {
		t.Errorf("at the last turn the URL's fragment is %q", h)
	}
	// The last turn's scores are the match's result, and the final line
	// lists the standings.
	for s, want := range res.Scores {
		if got := b.Text(fmt.Sprintf("kscore-%d", s)); got != strconv.Itoa(int(want)) {
			t.Errorf("last turn: seat %d's score shows %q, the result has %v", s, got, want)
		}
	}
	if got := b.Text("final"); got == "" {
		t.Error("the last turn shows no final standings")
	}
	b.Screenshot(shots, "kindling-end.png")

	// Space plays from the start to the end and stops.
	b.Do(chromedp.KeyEvent(kb.Home), chromedp.SetValue(chromedp.ID("speed"), "16"), chromedp.KeyEvent(" "))
	b.WaitFor(fmt.Sprintf(`document.getElementById("turn").textContent === "%d" && !viewer.playing()`, kindling.Turns))
	checkKindlingTurn(t, b, &l, kindling.Turns)
}
