package acbhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"crucible/engine/acb"
)

// The seed's own examples, verbatim: a bot written against them must find
// every field it reads under the same name and JSON type.
const (
	seedTurnBody = `{
  "match_id": "m_7f3a9b2c",
  "turn": 42,
  "config": {
    "rows": 40, "cols": 40, "max_turns": 500, "vision_radius2": 49,
    "attack_radius2": 25, "spawn_cost": 3, "energy_interval": 10,
    "cores_per_player": 2, "zone_enabled": true, "zone_start_turn": 10,
    "zone_shrink_interval": 1, "zone_shrink_step": 1, "zone_min_radius": 2,
    "kill_score": 1
  },
  "you": { "id": 0, "energy": 7, "score": 3 },
  "bots": [ { "position": { "row": 10, "col": 15 }, "owner": 0 } ],
  "energy": [ { "row": 20, "col": 25 } ],
  "cores": [ { "position": { "row": 5, "col": 5 }, "owner": 0, "active": true } ],
  "walls": [ { "row": 10, "col": 10 } ],
  "dead": []
}`
	seedReply = `{
  "moves": [
    { "position": { "row": 5, "col": 5 }, "direction": "N" },
    { "position": { "row": 7, "col": 8 }, "direction": "E" },
    { "position": { "row": 9, "col": 2 }, "direction": "stay" }
  ]
}`
)

// shape describes a JSON value by its paths and types: "config.rows
// number", "bots[] object", "dead array"... Array elements share the path
// "name[]". Numbers are "integer" when written without fraction or exponent.
func shape(t *testing.T, data []byte) map[string]string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%v in %s", err, data)
	}
	out := map[string]string{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case map[string]any:
			out[path] = "object"
			for k, e := range x {
				walk(strings.TrimPrefix(path+"."+k, "."), e)
			}
		case []any:
			out[path] = "array"
			for _, e := range x {
				walk(path+"[]", e)
			}
		case json.Number:
			if strings.ContainsAny(string(x), ".eE") {
				out[path] = "number"
			} else {
				out[path] = "integer"
			}
		case string:
			out[path] = "string"
		case bool:
			out[path] = "bool"
		case nil:
			out[path] = "null"
		}
	}
	walk("", v)
	return out
}

// sameShape fails unless every path of want appears in got with the same
// type; got's extra paths must be listed in additive.
func sameShape(t *testing.T, what string, got, want map[string]string, additive ...string) {
	t.Helper()
	var bad []string
	for p, ty := range want {
		if got[p] != ty {
			bad = append(bad, p+": "+ty+" in the seed, "+orNone(got[p])+" here")
		}
	}
	for p, ty := range got {
		if _, ok := want[p]; ok {
			continue
		}
		extra := false
		for _, a := range additive {
			if p == a || strings.HasPrefix(p, a+".") {
				extra = true
			}
		}
		if !extra {
			bad = append(bad, p+": "+ty+" here, not in the seed")
		}
	}
	sort.Strings(bad)
	if len(bad) > 0 {
		t.Fatalf("%s differs from the seed's example:\n%s", what, strings.Join(bad, "\n"))
	}
}

func orNone(s string) string {
	if s == "" {
		return "absent"
	}
	return s
}

// The /turn body the engine sends to a remote bot has exactly the seed's
// field names and JSON types (turn_timeout an integer of nanoseconds,
// every list an array even when empty), plus only the spec's additive
// config.turn_timeout, config.rules_version and zone.
func TestTurnBodyHasTheSeedsShape(t *testing.T) {
	var body atomic.Value
	ts := fakeBot(t, func(w http.ResponseWriter, r *http.Request, b []byte) {
		body.Store(append([]byte(nil), b...))
		signedReply(200, `{"moves":[]}`)(w, r, b)
	})
	p := newTestPlayer(t, ts.URL)
	for _, zone := range []bool{false, true} {
		cfg := acb.DefaultConfig()
		cfg.ZoneEnabled = zone
		m, err := acb.NewMatch(cfg, nil, 5, []acb.Controller{acb.Idle{}, acb.Idle{}})
		if err != nil {
			t.Fatal(err)
		}
		v := m.View(0)
		if len(v.Bots) == 0 || len(v.Energy) == 0 || len(v.Cores) == 0 || len(v.Walls) == 0 || len(v.Dead) != 0 {
			t.Fatalf("seed 5 no longer shows units, energy, cores and walls at turn 0; pick another: %+v", v)
		}
		if _, err := p.Turn(context.Background(), v, nil); err != nil {
			t.Fatal(err)
		}
		got := shape(t, body.Load().([]byte))
		additive := []string{"config.turn_timeout", "config.rules_version"}
		if zone {
			additive = append(additive, "zone")
			for _, k := range []string{"zone", "zone.center", "zone.center.row", "zone.center.col", "zone.radius"} {
				if _, ok := got[k]; !ok {
					t.Fatalf("zone enabled: %s missing from the body", k)
				}
			}
		}
		if got["config.turn_timeout"] != "integer" {
			t.Fatalf("config.turn_timeout is %s, want integer nanoseconds", orNone(got["config.turn_timeout"]))
		}
		sameShape(t, "the /turn body", got, shape(t, []byte(seedTurnBody)), additive...)
	}
}

// The reply an exported bot sends has exactly the seed's shape, and the
// seed's own reply parses here to the moves it states.
func TestReplyHasTheSeedsShape(t *testing.T) {
	rec := &recorder{}
	_, ts := newTestServer(t, ServerConfig{Secret: testSecret, New: rec.factory})
	v := sampleView("m_7f3a9b2c", 0, 3)
	body := mustJSON(t, v)
	resp, err := http.DefaultClient.Do(signedRequest(t, ts.URL, testSecret, v.MatchID, "0", time.Now(), body))
	if err != nil {
		t.Fatal(err)
	}
	reply, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, reply)
	}
	want := shape(t, []byte(seedReply))
	want["moves[].direction"] = "string"
	sameShape(t, "the reply", shape(t, reply), want)
	moves, _, err := ParseOrders([]byte(seedReply), nil)
	wantMoves := []acb.Move{
		{Position: acb.Pos{Row: 5, Col: 5}, Direction: acb.North},
		{Position: acb.Pos{Row: 7, Col: 8}, Direction: acb.East},
		{Position: acb.Pos{Row: 9, Col: 2}, Direction: acb.Stay},
	}
	if err != nil || !slices.Equal(moves, wantMoves) {
		t.Fatalf("the seed's reply parses to %v, %v; want %v", moves, err, wantMoves)
	}
	// And the seed's request body is accepted by the bot side as it stands.
	got, err := ParseTurnRequest([]byte(seedTurnBody), RequestAuth{MatchID: "m_7f3a9b2c", Turn: "42"})
	if err != nil || got.You != (acb.PlayerInfo{ID: 0, Energy: 7, Score: 3}) || !got.Cores[0].Active || got.Config.TurnTimeout != acb.DefaultTurnTimeout {
		t.Fatalf("the seed's body: %+v, %v", got, err)
	}
}
