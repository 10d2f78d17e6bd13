package acbview

import (
	"bytes"
	"crucible/viewer/viewertest"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/strategies/acbstrat"
)

// rawReplay is the test's own reading of a replay, independent of the
// viewer's decoder: the oracle the page is compared with.
type rawReplay struct {
	Config struct {
		Rows          int `json:"rows"`
		Cols          int `json:"cols"`
		VisionRadius2 int `json:"vision_radius2"`
		ZoneStartTurn int `json:"zone_start_turn"`
	} `json:"config"`
	Players []struct {
		Name string `json:"name"`
	} `json:"players"`
	Map struct {
		Walls  [][2]int `json:"walls"`
		Energy [][2]int `json:"energy"`
		Cores  []struct {
			ID, Owner, Row, Col int
		} `json:"cores"`
	} `json:"map"`
	Initial struct {
		Units [][4]int `json:"units"`
	} `json:"initial"`
	Turns []struct {
		Units      [][4]int `json:"units"`
		CoresRazed []int    `json:"cores_razed"`
		Energy     [][2]int `json:"energy"`
		Players    []struct {
			Score  int `json:"score"`
			Energy int `json:"energy"`
		} `json:"players"`
		Events []struct {
			Type   string `json:"type"`
			Player int    `json:"player"`
		} `json:"events"`
	} `json:"turns"`
}

func (r *rawReplay) units(t int) [][4]int {
	if t == 0 {
		return r.Initial.Units
	}
	return r.Turns[t-1].Units
}

// unitCount is player p's living units at the end of turn t.
func (r *rawReplay) unitCount(t, p int) int {
	n := 0
	for _, u := range r.units(t) {
		if u[1] == p {
			n++
		}
	}
	return n
}

// visible says whether player p saw tile (row, col) at the end of turn t:
// within vision_radius2 of one of its living units or active cores, the
// shorter way round each axis.
func (r *rawReplay) visible(t, p, row, col int) bool {
	rows, cols := r.Config.Rows, r.Config.Cols
	near := func(a, b int) bool {
		dr, dc := abs(row-a), abs(col-b)
		dr, dc = min(dr, rows-dr), min(dc, cols-dc)
		return dr*dr+dc*dc <= r.Config.VisionRadius2
	}
	for _, u := range r.units(t) {
		if u[1] == p && near(u[2], u[3]) {
			return true
		}
	}
	razed := map[int]bool{}
	if t > 0 {
		for _, c := range r.Turns[t-1].CoresRazed {
			razed[c] = true
		}
	}
	for _, c := range r.Map.Cores {
		if c.Owner == p && !razed[c.ID] && near(c.Row, c.Col) {
			return true
		}
	}
	return false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// playReplay plays one match through acb.Game.Play and returns its replay
// and result.
func playReplay(t testing.TB, seed uint64, cfg acb.Config, names ...string) ([]byte, engine.Result) {
	t.Helper()
	return viewertest.PlayMatch(t, acb.Game{}, acbstrat.All(), seed, acb.MatchConfig{Config: cfg}, names...)
}

// checkLegend compares the legend with the replay at turn t.
func checkLegend(t *testing.T, b *viewertest.Browser, r *rawReplay, turn int) {
	t.Helper()
	if got := b.Turn(); got != turn {
		t.Fatalf("#turn shows %d, want %d", got, turn)
	}
	for p := range r.Players {
		score, energy := 0, 0
		if turn > 0 {
			score, energy = r.Turns[turn-1].Players[p].Score, r.Turns[turn-1].Players[p].Energy
		}
		want := map[string]int{"score": score, "energy": energy, "units": r.unitCount(turn, p)}
		for field, w := range want {
			id := fmt.Sprintf("%s-%d", field, p)
			if got := b.Text(id); got != strconv.Itoa(w) {
				t.Errorf("turn %d: #%s shows %q, the replay has %d", turn, id, got, w)
			}
		}
	}
}

// pixel reads the canvas's colour at the centre of tile (row, col).
func pixel(b *viewertest.Browser, row, col int) [4]int {
	return viewertest.Eval[[4]int](b, fmt.Sprintf(`(() => {
		const c = viewer.canvas, cell = c.width / %d;
		return Array.from(c.getContext("2d").getImageData(Math.floor((%d + 0.5) * cell), Math.floor((%d + 0.5) * cell), 1, 1).data);
	})()`, cols(b), col, row))
}

func cols(b *viewertest.Browser) int { return viewertest.Eval[int](b, `DATA.map.cols`) }

// canvasHash is a checksum of every pixel of the map.
func canvasHash(b *viewertest.Browser) int {
	return viewertest.Eval[int](b, `(() => {
		const c = viewer.canvas, d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
		let h = 0;
		for (let i = 0; i < d.length; i++) h = (h * 31 + d[i]) | 0;
		return h;
	})()`)
}

// browserConfig is the match of the ACB browser tests: 4 players on the
// default 40x40 map, the zone on from turn 200 and shrinking one step
// every 25 turns (seed 14 has razes, eliminations and ends at turn 359).
func browserConfig() acb.Config {
	cfg := acb.DefaultConfig()
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 200
	cfg.ZoneShrinkInterval = 25
	return cfg
}

func TestACBPageInChromium(t *testing.T) {
	cfg := browserConfig()
	data, res := playReplay(t, 14, cfg, "rusher", "gatherer", "hunter", "economist")
	var r rawReplay
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	T := len(r.Turns)
	if T < 60 {
		t.Fatalf("the test match lasted %d turns; pick a longer one", T)
	}
	dir := t.TempDir()
	shots := viewertest.ScreenshotDir(t)
	u := viewertest.WritePage(t, dir, "acb.html", data, func(w *bytes.Buffer, d []byte) error { return Write(w, d) })
	b := viewertest.NewBrowser(t)

	// Opens at turn 0 from a file:// URL, the legend as the replay has it.
	b.Open(u)
	checkLegend(t, b, &r, 0)
	if n := viewertest.Eval[int](b, `performance.getEntriesByType("resource").length`); n != 0 {
		t.Errorf("the page loaded %d resources; it must load none", n)
	}
	b.Screenshot(shots, "acb-turn0.png")

	// #t=N opens at turn N.
	mid := T / 2
	b.Open(fmt.Sprintf("%s#t=%d", u, mid))
	checkLegend(t, b, &r, mid)
	b.Screenshot(shots, fmt.Sprintf("acb-turn%d.png", mid))

	// Keys: → and ← step, End and Home jump to the ends.
	b.Do(chromedp.KeyEvent(kb.ArrowRight))
	checkLegend(t, b, &r, mid+1)
	b.Do(chromedp.KeyEvent(kb.ArrowLeft), chromedp.KeyEvent(kb.ArrowLeft))
	checkLegend(t, b, &r, mid-1)
	b.Do(chromedp.KeyEvent(kb.End))
	checkLegend(t, b, &r, T)
	b.Do(chromedp.KeyEvent(kb.Home))
	checkLegend(t, b, &r, 0)

	// The buttons step, the slider and the jump box move to a turn, and the
	// URL follows.
	b.Do(chromedp.Click(chromedp.ID("fwd")), chromedp.Click(chromedp.ID("fwd")))
	checkLegend(t, b, &r, 2)
	b.Do(chromedp.Click(chromedp.ID("back")))
	checkLegend(t, b, &r, 1)
	b.Do(chromedp.Evaluate[chromedp.Void](`(() => { const s = document.getElementById("slider"); s.value = "17"; s.dispatchEvent(new Event("input")); })()`))
	checkLegend(t, b, &r, 17)
	// Issue 20: the jump box stayed at 0; it follows the turn shown.
	if got := viewertest.Eval[string](b, `document.getElementById("jump").value`); got != "17" {
		t.Errorf("at turn 17 the jump box reads %q", got)
	}
	b.Do(chromedp.SetValue(chromedp.ID("jump"), "44"), chromedp.Click(chromedp.ID("go")))
	checkLegend(t, b, &r, 44)
	if h := viewertest.Eval[string](b, `location.hash`); h != "#t=44" {
		t.Errorf("after jumping to 44 the URL's fragment is %q, want #t=44", h)
	}
	// A new fragment in the same page moves there too.
	b.Do(chromedp.Evaluate[chromedp.Void](`location.hash = "#t=12"`))
	b.WaitFor(`document.getElementById("turn").textContent === "12"`)
	checkLegend(t, b, &r, 12)

	// Space plays; the turn advances; Space pauses and the URL holds the
	// turn shown.
	b.Do(chromedp.KeyEvent(" "))
	b.WaitFor(`Number(document.getElementById("turn").textContent) >= 15`)
	b.Do(chromedp.KeyEvent(" "))
	if viewertest.Eval[bool](b, `viewer.playing()`) {
		t.Fatal("Space did not pause")
	}
	now := b.Turn()
	checkLegend(t, b, &r, now)
	if h := viewertest.Eval[string](b, `location.hash`); h != fmt.Sprintf("#t=%d", now) {
		t.Errorf("paused at turn %d, the URL's fragment is %q", now, h)
	}

	// The play button, once clicked (and focused), is not pressed again
	// by the Space that pauses.
	b.Do(chromedp.Click(chromedp.ID("play")))
	if !viewertest.Eval[bool](b, `viewer.playing()`) {
		t.Fatal("the play button did not play")
	}
	b.Do(chromedp.KeyEvent(" "))
	if viewertest.Eval[bool](b, `viewer.playing()`) {
		t.Fatal("Space on the focused play button did not pause")
	}

	// At 16x it plays to the last turn and stops there, the legend then
	// equal to the engine's result.
	b.Do(chromedp.SetValue(chromedp.ID("speed"), "16"), chromedp.Click(chromedp.ID("play")))
	b.WaitFor(fmt.Sprintf(`document.getElementById("turn").textContent === "%d" && !viewer.playing()`, T))
	det := res.Detail.(acb.Detail)
	for p, st := range det.Players {
		for field, want := range map[string]int{"score": st.Score, "energy": st.Energy, "units": st.Units, "cores": st.Cores} {
			id := fmt.Sprintf("%s-%d", field, p)
			if got := b.Text(id); got != strconv.Itoa(want) {
				t.Errorf("last turn: #%s shows %q, the engine's result has %d", id, got, want)
			}
		}
	}
	b.Screenshot(shots, "acb-end.png")

	// Issue 20: energy tiles (#ffd54a) and player 3's units (#f2c230) were
	// yellow squares of about one size. No seat's colour is near energy's,
	// and an energy tile is a diamond: its centre is energy's colour, its
	// corner the floor's.
	for p := 0; p < 6; p++ {
		c := viewertest.Eval[string](b, fmt.Sprintf(`colour(%d)`, p))
		var pr, pg, pb int
		fmt.Sscanf(c, "#%02x%02x%02x", &pr, &pg, &pb)
		if d := abs(pr-0xff) + abs(pg-0xd5) + abs(pb-0x4a); d < 90 {
			t.Errorf("player %d's colour %s is %d from energy's #ffd54a (RGB distance); want at least 90 (#f2c230 was 58)", p, c, d)
		}
	}
	// (The zone's overlay off, so that the pixels are the tiles'.)
	b.Do(chromedp.Evaluate[chromedp.Void](`viewer.goTo(0); document.getElementById("zone").checked = false; viewer.redraw()`))
	if cell := viewertest.Eval[int](b, `viewer.canvas.width / DATA.map.cols`); cell >= 6 {
		e := r.Map.Energy[0]
		centre := pixel(b, e[0], e[1])
		corner := viewertest.Eval[[4]int](b, fmt.Sprintf(`Array.from(viewer.canvas.getContext("2d").getImageData(%d * %d + 1, %d * %d + 1, 1, 1).data)`, e[1], cell, e[0], cell))
		if centre != [4]int{0xff, 0xd5, 0x4a, 255} || corner == centre {
			t.Errorf("energy tile %v: centre %v, corner %v; want a diamond of #ffd54a on the floor", e, centre, corner)
		}
	}
	b.Do(chromedp.Evaluate[chromedp.Void](`document.getElementById("zone").checked = true; viewer.redraw()`))
	// Issue 20: the energy chart was the energy held, a 0-2 zigzag; it is
	// the energy collected so far, which never falls, and at the end is
	// the replay's collections.
	collected := make([]int, len(r.Players))
	for _, turn := range r.Turns {
		for _, ev := range turn.Events {
			if ev.Type == "collected" {
				collected[ev.Player]++
			}
		}
	}
	for p := range r.Players {
		ys := viewertest.Eval[[]float64](b, fmt.Sprintf(`(() => {
			const fig = [...document.querySelectorAll("#charts figure")].find((f) => f.querySelector(".ctitle").textContent === "energy collected");
			return fig.querySelectorAll("polyline")[%d].getAttribute("points").trim().split(" ").map((xy) => Number(xy.split(",")[1]));
		})()`, p))
		for i := 1; i < len(ys); i++ {
			if ys[i] > ys[i-1] {
				t.Fatalf("player %d's energy collected falls at turn %d", p, i)
			}
		}
	}
	if collected[0] == 0 {
		t.Errorf("player 0 collected no energy in the replay: the chart is not checked")
	}

	// The fog of player 0 at turn mid: a tile it did not see is darker, an
	// enemy unit it did not see is not drawn, a tile it saw is unchanged.
	b.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`viewer.goTo(%d)`, mid)))
	wall := map[[2]int]bool{}
	for _, w := range r.Map.Walls {
		wall[w] = true
	}
	occupied := map[[2]int]bool{}
	for _, u := range r.units(mid) {
		occupied[[2]int{u[2], u[3]}] = true
	}
	for _, e := range r.Turns[mid-1].Energy {
		occupied[e] = true
	}
	for _, c := range r.Map.Cores {
		occupied[[2]int{c.Row, c.Col}] = true
	}
	var hidden, seen [2]int
	var hiddenUnit [4]int
	foundHidden, foundSeen, foundUnit := false, false, false
	for row := 0; row < r.Config.Rows; row++ {
		for col := 0; col < r.Config.Cols; col++ {
			tile := [2]int{row, col}
			if wall[tile] || occupied[tile] {
				continue
			}
			if r.visible(mid, 0, row, col) && !foundSeen {
				seen, foundSeen = tile, true
			} else if !r.visible(mid, 0, row, col) && !foundHidden {
				hidden, foundHidden = tile, true
			}
		}
	}
	for _, u := range r.units(mid) {
		if u[1] != 0 && !r.visible(mid, 0, u[2], u[3]) {
			hiddenUnit, foundUnit = u, true
			break
		}
	}
	if !foundHidden || !foundSeen || !foundUnit {
		t.Fatalf("turn %d has no hidden tile, seen tile or hidden enemy unit for player 0 (%v %v %v)", mid, foundHidden, foundSeen, foundUnit)
	}
	offHash := canvasHash(b)
	offHidden, offSeen, offUnit := pixel(b, hidden[0], hidden[1]), pixel(b, seen[0], seen[1]), pixel(b, hiddenUnit[2], hiddenUnit[3])
	b.Do(chromedp.SetValue(chromedp.ID("fog"), "0"), chromedp.Evaluate[chromedp.Void](`document.getElementById("fog").dispatchEvent(new Event("change"))`))
	if canvasHash(b) == offHash {
		t.Error("the fog of player 0 left the map's pixels unchanged")
	}
	onHidden, onSeen, onUnit := pixel(b, hidden[0], hidden[1]), pixel(b, seen[0], seen[1]), pixel(b, hiddenUnit[2], hiddenUnit[3])
	if brightness(onHidden) >= brightness(offHidden) {
		t.Errorf("tile %v, unseen by player 0, is not darker under its fog: %v without, %v with", hidden, offHidden, onHidden)
	}
	if onSeen != offSeen {
		t.Errorf("tile %v, seen by player 0, changed under its fog: %v without, %v with", seen, offSeen, onSeen)
	}
	if onUnit == offUnit {
		t.Errorf("player %d's unit at (%d, %d), unseen by player 0, is still drawn under its fog (%v)", hiddenUnit[1], hiddenUnit[2], hiddenUnit[3], onUnit)
	}
	b.Screenshot(shots, fmt.Sprintf("acb-fog0-turn%d.png", mid))
	b.Do(chromedp.SetValue(chromedp.ID("fog"), "-1"), chromedp.Evaluate[chromedp.Void](`document.getElementById("fog").dispatchEvent(new Event("change"))`))
	if canvasHash(b) != offHash {
		t.Error("turning the fog off did not restore the map")
	}

	// The zone's radius is the config formula's at several turns.
	for _, tt := range []int{0, cfg.ZoneStartTurn - 1, cfg.ZoneStartTurn, cfg.ZoneStartTurn + 25, T} {
		b.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`viewer.goTo(%d)`, tt)))
		want := fmt.Sprintf("r = %d", acb.ZoneRadius(cfg, tt))
		if got := b.Text("zonelabel"); !strings.HasPrefix(got, want) {
			t.Errorf("turn %d: the zone label reads %q, want %q", tt, got, want)
		}
	}

	// The commentary and the ribbon's marks jump to their turns.
	n := viewertest.Eval[int](b, `document.querySelectorAll("#moments li").length`)
	if n == 0 {
		t.Fatal("the commentary is empty")
	}
	for _, k := range []int{0, n / 2, n - 1} {
		want := viewertest.Eval[string](b, fmt.Sprintf(`document.querySelectorAll("#moments li")[%d].dataset.turn`, k))
		b.Do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelectorAll("#moments li")[%d].click()`, k)))
		if got := b.Text("turn"); got != want {
			t.Errorf("commentary line %d is for turn %s but clicking it shows turn %s", k, want, got)
		}
	}
	marks := viewertest.Eval[int](b, `document.querySelectorAll("#ribbon .mark").length`)
	if marks == 0 {
		t.Fatal("the event ribbon has no marks (razes, eliminations)")
	}
	want := viewertest.Eval[string](b, `document.querySelectorAll("#ribbon .mark")[0].dataset.turn`)
	b.Do(chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("#ribbon .mark")[0].dispatchEvent(new MouseEvent("click", {bubbles: true}))`))
	if got := b.Text("turn"); got != want {
		t.Errorf("the first ribbon mark is for turn %s but clicking it shows turn %s", want, got)
	}
	b.Screenshot(shots, "acb-mark.png")
}

// brightness is the sum of a pixel's colour channels.
func brightness(p [4]int) int { return p[0] + p[1] + p[2] }

// A player named to break out of the data's <script> shows its name as
// text and runs nothing; with the map's zone_centers the storm spares the
// tiles around every centre.
func TestHostileNameAndZoneCentresInChromium(t *testing.T) {
	cfg := acb.DefaultConfig()
	cfg.ZoneEnabled = true
	data, _ := playReplay(t, 5, cfg, "gatherer", "guardian")
	centres := [][2]int{{3, 4}, {30, 31}}
	data = viewertest.Edit(t, data, func(doc map[string]any) {
		doc["players"].([]any)[0].(map[string]any)["name"] = hostileName
		doc["map"].(map[string]any)["zone_centers"] = []any{
			map[string]any{"row": centres[0][0], "col": centres[0][1]},
			map[string]any{"row": centres[1][0], "col": centres[1][1]},
		}
	})
	var r rawReplay
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	T := len(r.Turns)
	if acb.ZoneRadius(cfg, T) > 4 {
		t.Fatalf("the zone's radius at the last turn is %d; the test needs a small one", acb.ZoneRadius(cfg, T))
	}
	u := viewertest.WritePage(t, t.TempDir(), "hostile.html", data, func(w *bytes.Buffer, d []byte) error { return Write(w, d) })
	b := viewertest.NewBrowser(t)
	b.Open(fmt.Sprintf("%s#t=%d", u, T))
	if viewertest.Eval[bool](b, `typeof window.pwned !== "undefined"`) {
		t.Fatal("the player's name ran as script")
	}
	if got := viewertest.Eval[string](b, `document.querySelector("#row-0 td.name").firstChild.textContent`); got != "P0 "+hostileName {
		t.Errorf("player 0's name shows as %q", got)
	}
	if n := viewertest.Eval[int](b, `document.scripts.length`); n != 3 {
		t.Errorf("the page has %d scripts, want 3", n)
	}
	far := [2]int{17, 17}
	on := [3][4]int{pixel(b, centres[0][0], centres[0][1]), pixel(b, centres[1][0], centres[1][1]), pixel(b, far[0], far[1])}
	b.Do(chromedp.Click(chromedp.ID("zone")))
	off := [3][4]int{pixel(b, centres[0][0], centres[0][1]), pixel(b, centres[1][0], centres[1][1]), pixel(b, far[0], far[1])}
	for i, c := range centres {
		if on[i] != off[i] {
			t.Errorf("the storm tints centre %v: %v with the zone drawn, %v without", c, on[i], off[i])
		}
	}
	if on[2] == off[2] {
		t.Errorf("the storm leaves tile %v, far from both centres, untinted (%v)", far, on[2])
	}
}

// The page of the performance target (500 turns, 6 players, 60x60) shows
// the replay's figures at several turns, with and without fog.
func TestBigACBPageInChromium(t *testing.T) {
	data := bigReplay(t)
	var r rawReplay
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	shots := viewertest.ScreenshotDir(t)
	u := viewertest.WritePage(t, t.TempDir(), "big.html", data, func(w *bytes.Buffer, d []byte) error { return Write(w, d) })
	b := viewertest.NewBrowser(t)
	b.Open(u + "#t=137")
	checkLegend(t, b, &r, 137)
	for _, turn := range []int{250, 499, 500, 1} {
		b.Do(chromedp.SetValue(chromedp.ID("jump"), strconv.Itoa(turn)), chromedp.Click(chromedp.ID("go")))
		checkLegend(t, b, &r, turn)
	}
	b.Do(chromedp.Evaluate[chromedp.Void](`viewer.goTo(250)`))
	b.Screenshot(shots, "big-turn250.png")
	b.Do(chromedp.SetValue(chromedp.ID("fog"), "2"), chromedp.Evaluate[chromedp.Void](`document.getElementById("fog").dispatchEvent(new Event("change"))`))
	checkLegend(t, b, &r, 250)
	b.Screenshot(shots, "big-turn250-fog2.png")
}
