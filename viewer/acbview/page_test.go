package acbview

import (
	"bytes"
	"crucible/viewer/viewertest"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"crucible/engine/acb"
)

// testReplay is a short 3-player match of the reference strategies.
func testReplay(t testing.TB) []byte {
	t.Helper()
	data, _ := playReplay(t, 3, acb.DefaultConfig(), "gatherer", "rusher", "random")
	return data
}

func TestWriteRefusesWhatIsNotAReplay(t *testing.T) {
	tests := []struct {
		name string
		data string
		want []string
	}{
		{"not JSON", `this is not json`, []string{"not an AI Code Battle replay", "not a JSON object"}},
		{"a JSON array", `[1, 2, 3]`, []string{"not an AI Code Battle replay", "not a JSON object"}},
		{"no format", `{"hello": 1}`, []string{"not an AI Code Battle replay", `no "format" field`, "crucible-acb-replay/1"}},
		{"another format", `{"format": "acb-replay/9"}`, []string{"not an AI Code Battle replay", `format is "acb-replay/9"`, "crucible-acb-replay/1"}},
		{"a Kindling log", `{"code": "K7QF2", "turns": []}`, []string{"not an AI Code Battle replay", `no "format" field`, "crucible-acb-replay/1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Write(&out, []byte(tc.data))
			if !errors.Is(err, ErrNotReplay) {
				t.Fatalf("error %v does not wrap ErrNotReplay", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if out.Len() != 0 {
				t.Errorf("wrote %d bytes of page for a refused document", out.Len())
			}
		})
	}
}

// An inconsistent replay is refused with an error naming the field and
// the value, before the page could misdraw it.
func TestWriteNamesTheInconsistentField(t *testing.T) {
	data := testReplay(t)
	turn := func(doc map[string]any, k int) map[string]any { return doc["turns"].([]any)[k].(map[string]any) }
	tests := []struct {
		name string
		f    func(doc map[string]any)
		want string
	}{
		{"unit off the grid", func(doc map[string]any) {
			turn(doc, 3)["units"].([]any)[0].([]any)[2] = 99
		}, "turns[3].units[0] = (99, "},
		{"unit of no player", func(doc map[string]any) {
			turn(doc, 2)["units"].([]any)[0].([]any)[1] = 7
		}, "turns[2].units[0] owner = 7 is not a player 0..2"},
		{"turns out of order", func(doc map[string]any) { turn(doc, 5)["turn"] = 9 }, "turns[5].turn = 9, want 6"},
		{"a razed core that does not exist", func(doc map[string]any) { turn(doc, 1)["cores_razed"] = []any{40} }, "turns[1].cores_razed lists 40"},
		{"a score missing", func(doc map[string]any) { turn(doc, 4)["players"] = []any{} }, "turns[4].players has 0 entries, want 3"},
		{"map and config disagree", func(doc map[string]any) { doc["config"].(map[string]any)["rows"] = 20.0 }, "config is 20x39 but the map is 39x39"},
		{"a zone centre off the grid", func(doc map[string]any) {
			doc["map"].(map[string]any)["zone_centers"] = []any{map[string]any{"row": 1, "col": 1}, map[string]any{"row": -1, "col": 3}}
		}, "map.zone_centers[1] = (-1, 3) is off the 39x39 grid"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(&bytes.Buffer{}, viewertest.Edit(t, data, tc.f))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// scriptBodies returns the text of every <script> element of a page.
func scriptBodies(page string) []string {
	re := regexp.MustCompile(`(?is)<script[^>]*>(.*?)</script`)
	var out []string
	for _, m := range re.FindAllStringSubmatch(page, -1) {
		out = append(out, m[1])
	}
	return out
}

// hostileName is a player name that would end the data's <script> element
// and run its own if the JSON were embedded as is.
const hostileName = "</script><script>window.pwned = 1</script><!-- \u2028 & \"quoted\""

// hostileReplay is a replay whose first player is called hostileName.
func hostileReplay(t *testing.T) []byte {
	t.Helper()
	return viewertest.Edit(t, testReplay(t), func(doc map[string]any) {
		doc["players"].([]any)[0].(map[string]any)["name"] = hostileName
	})
}

// The embedded JSON cannot break out of its <script> element: the page has
// exactly its three scripts (data, derived, code), no "<!--" inside them,
// and the data script's text decodes to the replay as given.
func TestEmbeddedJSONCannotBreakOutOfTheScript(t *testing.T) {
	data := hostileReplay(t)
	if !bytes.Contains(data, []byte("</script>")) || !bytes.Contains(data, []byte("\u2028")) {
		t.Fatal("the hostile replay does not hold a raw </script> and U+2028")
	}
	var out bytes.Buffer
	if err := Write(&out, data); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	scripts := scriptBodies(page)
	if len(scripts) != 3 {
		t.Fatalf("the page has %d <script> elements, want 3 (data, derived, code)", len(scripts))
	}
	for i, s := range scripts {
		if strings.Contains(s, "<!--") || strings.Contains(strings.ToLower(s), "<script") {
			t.Errorf("script %d holds %q or <script", i, "<!--")
		}
	}
	var got, want any
	if err := json.Unmarshal([]byte(scripts[0]), &got); err != nil {
		t.Fatalf("the data script is not JSON: %v", err)
	}
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the data script does not decode to the replay given")
	}
	if strings.Contains(page, "\u2028") {
		t.Error("the page holds a raw U+2028")
	}
	// The title, built from the match id, is escaped too.
	if !strings.Contains(page, "<title>AI Code Battle m_") {
		t.Errorf("the page has no title naming the match")
	}
}

func TestZoneRadiusIsTheEngines(t *testing.T) {
	for _, c := range []struct{ rows, cols, start, interval, step, min int }{
		{40, 40, 10, 1, 1, 2}, {39, 60, 0, 7, 2, 5}, {16, 200, 250, 3, 4, 0},
	} {
		cfg := acb.DefaultConfig()
		cfg.Rows, cfg.Cols, cfg.ZoneStartTurn, cfg.ZoneShrinkInterval, cfg.ZoneShrinkStep, cfg.ZoneMinRadius = c.rows, c.cols, c.start, c.interval, c.step, c.min
		ours := acb.Config{Rows: c.rows, Cols: c.cols, ZoneStartTurn: c.start, ZoneShrinkInterval: c.interval, ZoneShrinkStep: c.step, ZoneMinRadius: c.min}
		for turn := 0; turn <= 600; turn++ {
			if got, want := zoneRadius(ours, turn), acb.ZoneRadius(cfg, turn); got != want {
				t.Fatalf("%+v turn %d: radius %d, the engine's %d", c, turn, got, want)
			}
		}
	}
}

// The zone is drawn around every centre the map lists, else around
// (rows/2, cols/2).
func TestZoneCenters(t *testing.T) {
	cfg := acb.DefaultConfig()
	cfg.ZoneEnabled = true
	data, _ := playReplay(t, 5, cfg, "gatherer", "guardian")
	r, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	d := derive(r)
	if want := [][2]int{{r.Map.Rows / 2, r.Map.Cols / 2}}; !reflect.DeepEqual(d.ZoneCenters, want) {
		t.Errorf("without zone_centers the centres are %v, want %v", d.ZoneCenters, want)
	}
	if len(d.ZoneRadius) != len(r.Turns)+1 {
		t.Errorf("%d zone radii for %d turns and the start", len(d.ZoneRadius), len(r.Turns))
	}
	withCentres := viewertest.Edit(t, data, func(doc map[string]any) {
		doc["map"].(map[string]any)["zone_centers"] = []any{map[string]any{"row": 3, "col": 4}, map[string]any{"row": 30, "col": 31}}
	})
	r, err = decode(withCentres)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := derive(r).ZoneCenters, [][2]int{{3, 4}, {30, 31}}; !reflect.DeepEqual(got, want) {
		t.Errorf("zone_centers read as %v, want %v", got, want)
	}
}

// Win probabilities are a distribution over the living players and the
// draw at every turn, 0 for the eliminated, and the result at the end.
func TestWinProbabilitiesPerTurn(t *testing.T) {
	data, res := playReplay(t, 14, browserConfig(), "rusher", "gatherer", "hunter", "economist")
	r, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	states := statesOf(r)
	wp := winProbabilities(r, states)
	for tt, row := range wp {
		sum := 0.0
		for p, v := range row {
			sum += v
			if p < len(r.Players) && !states[tt][p].Alive() && v != 0 {
				t.Fatalf("turn %d: eliminated player %d has %.3f", tt, p, v)
			}
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Fatalf("turn %d: probabilities sum to %.12f", tt, sum)
		}
	}
	det := res.Detail.(acb.Detail)
	last := wp[len(wp)-1]
	for p := range r.Players {
		want := 0.0
		if p == det.Winner {
			want = 1
		}
		if last[p] != want {
			t.Errorf("last turn: player %d has %.3f, the result says %.0f", p, last[p], want)
		}
	}
	// The initial position is symmetric: every player has the same chance.
	for p := 1; p < len(r.Players); p++ {
		if math.Abs(wp[0][p]-wp[0][0]) > 1e-12 {
			t.Errorf("turn 0: player %d has %.4f, player 0 %.4f", p, wp[0][p], wp[0][0])
		}
	}
}

// The commentary tells every raze, elimination and inactive bot of the
// match at its turn, ends with the result, and is in turn order.
func TestCommentary(t *testing.T) {
	data, _ := playReplay(t, 14, browserConfig(), "rusher", "gatherer", "hunter", "economist")
	var raw rawReplay
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	r, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	states := statesOf(r)
	ms := commentary(r, states, winProbabilities(r, states))
	count := map[string]int{}
	for i, m := range ms {
		count[m.Kind]++
		if i > 0 && m.Turn < ms[i-1].Turn {
			t.Errorf("moment %d (turn %d) comes after turn %d", i, m.Turn, ms[i-1].Turn)
		}
	}
	razes, elims := 0, 0
	for k, tr := range raw.Turns {
		for _, e := range tr.Events {
			if e.Type == "captured" {
				razes++
			}
		}
		for p := range raw.Players {
			if k > 0 && coresLeft(&raw, k, p) > 0 && coresLeft(&raw, k+1, p) == 0 {
				elims++
			}
		}
	}
	if razes == 0 || elims == 0 {
		t.Fatalf("the test match has %d razes and %d eliminations; pick one with both", razes, elims)
	}
	if count["raze"] != razes || count["elimination"] != elims {
		t.Errorf("commentary tells %d razes and %d eliminations, the replay has %d and %d", count["raze"], count["elimination"], razes, elims)
	}
	if end := ms[len(ms)-1]; end.Kind != "end" || end.Turn != len(r.Turns) || !strings.Contains(end.Text, "wins (elimination)") {
		t.Errorf("the last moment is %+v, want the end at turn %d", end, len(r.Turns))
	}
	if count["lead"] == 0 {
		t.Error("the commentary has no win-probability lead")
	}
}

// coresLeft is player p's active cores at the end of turn t (from the
// raw replay).
func coresLeft(r *rawReplay, t, p int) int {
	n := 0
	razed := map[int]bool{}
	if t > 0 {
		for _, c := range r.Turns[t-1].CoresRazed {
			razed[c] = true
		}
	}
	for _, c := range r.Map.Cores {
		if c.Owner == p && !razed[c.ID] {
			n++
		}
	}
	return n
}

// The same replay gives the same page bytes.
func TestPageIsDeterministic(t *testing.T) {
	data := testReplay(t)
	var a, b bytes.Buffer
	if err := Write(&a, data); err != nil {
		t.Fatal(err)
	}
	if err := Write(&b, data); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two pages of one replay differ")
	}
}
