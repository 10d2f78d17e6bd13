package acbhttp

import (
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"

	"crucible/engine/acb"
)

func TestParseOrdersIsStrictOnKnownFieldsOnly(t *testing.T) {
	mv := func(r, c int, d acb.Dir) acb.Move { return acb.Move{Position: acb.Pos{Row: r, Col: c}, Direction: d} }
	tests := []struct {
		rule string
		body string
		want []acb.Move // nil with ok=false means malformed
		ok   bool
	}{
		{"the seed's example reply", `{"moves":[{"position":{"row":5,"col":5},"direction":"N"},{"position":{"row":7,"col":8},"direction":"E"},{"position":{"row":9,"col":2},"direction":"stay"}]}`,
			[]acb.Move{mv(5, 5, acb.North), mv(7, 8, acb.East), mv(9, 2, acb.Stay)}, true},
		{"an empty move list is valid", `{"moves":[]}`, []acb.Move{}, true},
		{"unknown fields are ignored at every level", `{"moves":[{"position":{"row":1,"col":2,"z":9},"direction":"W","why":"x"}],"spawn":[1],"debug":{"a":1}}`,
			[]acb.Move{mv(1, 2, acb.West)}, true},
		{"S is south", `{"moves":[{"direction":"S","position":{"col":3,"row":4}}]}`, []acb.Move{mv(4, 3, acb.South)}, true},
		{"moves missing", `{}`, nil, false},
		{"moves null is no moves (the platform's Go starter sends it)", `{"moves":null}`, []acb.Move{}, true},
		{"moves null with spaces and debug", `{ "moves" : null , "debug":{"units":0}}`, []acb.Move{}, true},
		{"moves false", `{"moves":false}`, nil, false},
		{"moves 0", `{"moves":0}`, nil, false},
		{"moves the string null", `{"moves":"null"}`, nil, false},
		{"moves an object", `{"moves":{"position":{"row":1,"col":1},"direction":"N"}}`, nil, false},
		{"moves a string", `{"moves":"N"}`, nil, false},
		{"a move that is null", `{"moves":[null]}`, nil, false},
		{"a move without position", `{"moves":[{"direction":"N"}]}`, nil, false},
		{"a position that is not an object", `{"moves":[{"position":[1,2],"direction":"N"}]}`, nil, false},
		{"a position without row", `{"moves":[{"position":{"col":1},"direction":"N"}]}`, nil, false},
		{"a row that is null", `{"moves":[{"position":{"row":null,"col":1},"direction":"N"}]}`, nil, false},
		{"a row that is a string", `{"moves":[{"position":{"row":"1","col":1},"direction":"N"}]}`, nil, false},
		{"a row with a fraction", `{"moves":[{"position":{"row":1.5,"col":1},"direction":"N"}]}`, nil, false},
		{"a row written as 1.0", `{"moves":[{"position":{"row":1.0,"col":1},"direction":"N"}]}`, nil, false},
		{"a row in exponent form", `{"moves":[{"position":{"row":1e1,"col":1},"direction":"N"}]}`, nil, false},
		{"a col too large for an int", `{"moves":[{"position":{"row":1,"col":99999999999999999999},"direction":"N"}]}`, nil, false},
		{"a move without direction", `{"moves":[{"position":{"row":1,"col":1}}]}`, nil, false},
		{"a lower-case direction", `{"moves":[{"position":{"row":1,"col":1},"direction":"n"}]}`, nil, false},
		{"a direction STAY in capitals", `{"moves":[{"position":{"row":1,"col":1},"direction":"STAY"}]}`, nil, false},
		{"a numeric direction", `{"moves":[{"position":{"row":1,"col":1},"direction":1}]}`, nil, false},
		{"one bad move invalidates the good ones", `{"moves":[{"position":{"row":1,"col":1},"direction":"N"},{"position":{"row":1},"direction":"N"}]}`, nil, false},
		{"field names are case-sensitive", `{"Moves":[]}`, nil, false},
		{"a top-level array", `[]`, nil, false},
		{"null", `null`, nil, false},
		{"trailing garbage", `{"moves":[]} x`, nil, false},
		{"not JSON", `moves: []`, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			prefix := []acb.Move{mv(9, 9, acb.South)}
			got, _, err := ParseOrders([]byte(tt.body), prefix)
			if !tt.ok {
				if err == nil || !errors.Is(err, ErrMalformed) {
					t.Fatalf("ParseOrders(%s) = %v, %v; want ErrMalformed", tt.body, got, err)
				}
				if len(got) != 1 {
					t.Fatalf("a malformed reply left moves in buf: %v", got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseOrders(%s): %v", tt.body, err)
			}
			if !reflect.DeepEqual(got[1:], tt.want) {
				t.Fatalf("ParseOrders(%s) = %v, want %v after the prefix", tt.body, got[1:], tt.want)
			}
		})
	}
}

func TestParseOrdersPassesDebugThrough(t *testing.T) {
	_, debug, err := ParseOrders([]byte(`{"moves":[],"debug":{"plan":"rush"}}`), nil)
	if err != nil || string(debug) != `{"plan":"rush"}` {
		t.Fatalf("debug = %s, %v", debug, err)
	}
}

func TestMarshalOrdersNeverWritesNull(t *testing.T) {
	b, err := MarshalOrders(nil)
	if err != nil || string(b) != `{"moves":[]}` {
		t.Fatalf("MarshalOrders(nil) = %s, %v", b, err)
	}
}

func TestParseTurnRequestDefaultsTheBudget(t *testing.T) {
	body := []byte(`{"match_id":"m_7f3a9b2c","turn":42,"config":{"rows":40,"cols":40,"max_turns":500},"you":{"id":0,"energy":7,"score":3},"bots":[{"position":{"row":10,"col":15},"owner":0}],"energy":[{"row":20,"col":25}],"cores":[{"position":{"row":5,"col":5},"owner":0,"active":true}],"walls":[{"row":10,"col":10}],"dead":[],"extra":{"future":true}}`)
	v, err := ParseTurnRequest(body, RequestAuth{MatchID: "m_7f3a9b2c", Turn: "42"})
	if err != nil {
		t.Fatal(err)
	}
	if v.Config.TurnTimeout != acb.DefaultTurnTimeout {
		t.Fatalf("turn_timeout = %d, want the 3 s default when absent", v.Config.TurnTimeout)
	}
	if v.MatchID != "m_7f3a9b2c" || v.Turn != 42 || len(v.Bots) != 1 || v.Bots[0].Position != (acb.Pos{Row: 10, Col: 15}) || !v.Cores[0].Active {
		t.Fatalf("decoded %+v", v)
	}
}

// FuzzParseOrders: the reply parser never panics, and whatever it accepts
// survives a round trip through MarshalOrders unchanged.
func FuzzParseOrders(f *testing.F) {
	for _, s := range []string{
		`{"moves":[{"position":{"row":5,"col":5},"direction":"N"}]}`,
		`{"moves":[]}`, `{"moves":null}`, `{"moves":[{"position":{"row":1.0,"col":1},"direction":"stay"}]}`,
		`{"moves":[{}],"debug":[]}`, `[]`, `null`, `{"moves":[{"position":null,"direction":"E"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		moves, _, err := ParseOrders(body, nil)
		if err != nil {
			if len(moves) != 0 {
				t.Fatalf("error %v with moves %v", err, moves)
			}
			return
		}
		again, err := MarshalOrders(moves)
		if err != nil {
			t.Fatal(err)
		}
		back, _, err := ParseOrders(again, nil)
		if err != nil || len(back) != len(moves) {
			t.Fatalf("round trip of %s: %v, %v", again, back, err)
		}
		for i := range back {
			if back[i] != moves[i] {
				t.Fatalf("round trip changed move %d: %v -> %v", i, moves[i], back[i])
			}
		}
	})
}

// FuzzParseTurnRequest: the /turn body parser never panics, and whatever it
// accepts matches the headers and keeps every position inside the grid.
func FuzzParseTurnRequest(f *testing.F) {
	seed, _ := json.Marshal(sampleView("m1", 3, 4))
	f.Add(seed, "m1", "3")
	f.Add([]byte(`{"match_id":"m1","turn":3,"config":{"rows":40,"cols":40},"bots":[{"position":{"row":-1,"col":0}}]}`), "m1", "3")
	f.Add([]byte(`{"match_id":"m1","turn":3}`), "m1", "03")
	f.Add([]byte(`{"match_id":null,"turn":"3"}`), "", "x")
	f.Fuzz(func(t *testing.T, body []byte, matchID, turn string) {
		v, err := ParseTurnRequest(body, RequestAuth{MatchID: matchID, Turn: turn})
		if err != nil {
			if !errors.Is(err, ErrBody) {
				t.Fatalf("error %v does not wrap ErrBody", err)
			}
			return
		}
		if v.MatchID != matchID || strconv.Itoa(v.Turn) != trimZeros(turn) {
			t.Fatalf("accepted match %q turn %d for headers %q %q", v.MatchID, v.Turn, matchID, turn)
		}
		inside := func(p acb.Pos) bool {
			return p.Row >= 0 && p.Row < v.Config.Rows && p.Col >= 0 && p.Col < v.Config.Cols
		}
		for _, u := range append(append([]acb.Unit(nil), v.Bots...), v.Dead...) {
			if !inside(u.Position) {
				t.Fatalf("accepted unit at %v outside %dx%d", u.Position, v.Config.Rows, v.Config.Cols)
			}
		}
		tiles := append(append([]acb.Pos(nil), v.Energy...), v.Walls...)
		for _, c := range v.Cores {
			tiles = append(tiles, c.Position)
		}
		for _, p := range tiles {
			if !inside(p) {
				t.Fatalf("accepted tile %v outside %dx%d", p, v.Config.Rows, v.Config.Cols)
			}
		}
		if v.Config.TurnTimeout <= 0 {
			t.Fatalf("accepted turn_timeout %d", v.Config.TurnTimeout)
		}
	})
}

// trimZeros normalises a decimal header the way strconv.Atoi reads it.
func trimZeros(s string) string {
	n, err := strconv.Atoi(s)
	if err != nil {
		return s
	}
	return strconv.Itoa(n)
}

// FuzzFastViewMatchesEncodingJSON: whenever the reflection-free decoder
// accepts a body, encoding/json accepts it too and decodes exactly the
// same value (encoding/json is the oracle; the fast path only skips work).
func FuzzFastViewMatchesEncodingJSON(f *testing.F) {
	v := sampleView("m_7f3a9b2c", 42, 6)
	v.Zone = &acb.Zone{Center: acb.Pos{Row: 20, Col: 20}, Centers: []acb.Pos{{Row: 20, Col: 20}, {Row: 7, Col: 33}}, Radius: 9}
	seed, _ := json.Marshal(v)
	f.Add(seed)
	f.Add([]byte(`{"match_id":"m_7f3a9b2c","turn":42,"config":{"rows":40,"cols":40,"max_turns":500,"vision_radius2":49,"attack_radius2":25,"spawn_cost":3,"energy_interval":10,"cores_per_player":2,"zone_enabled":true,"zone_start_turn":10,"zone_shrink_interval":1,"zone_shrink_step":1,"zone_min_radius":2,"kill_score":1},"you":{"id":0,"energy":7,"score":3},"bots":[{"position":{"row":10,"col":15},"owner":0}],"energy":[{"row":20,"col":25}],"cores":[{"position":{"row":5,"col":5},"owner":0,"active":true}],"walls":[{"row":10,"col":10}],"dead":[]}`))
	f.Add([]byte(` { "turn" : -0 , "bots" : [ ] , "you" : { } } `))
	f.Add([]byte(`{"turn":9223372036854775807,"config":{"turn_timeout":-9223372036854775808}}`))
	f.Add([]byte(`{"turn":1,"Turn":2}`))
	f.Add([]byte(`{"match_id":"\u00e9","turn":01}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		var fast turnBody
		if !decodeViewFast(body, &fast) {
			return
		}
		var slow turnBody
		if err := json.Unmarshal(body, &slow); err != nil {
			t.Fatalf("fast path accepted %q, encoding/json rejects it: %v", body, err)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("decoders differ on %q:\nfast %+v\nslow %+v", body, fast, slow)
		}
	})
}

func TestFastViewDecodesTheEnginesBodies(t *testing.T) {
	for _, n := range []int{0, 1, 80} {
		v := sampleView("m", 3, n)
		body, _ := json.Marshal(wireView(v)) // what the HTTP player sends
		var tb turnBody
		if !decodeViewFast(body, &tb) {
			t.Fatalf("the fast path refused the canonical body of %d units", n)
		}
		if *tb.MatchID != "m" || *tb.Turn != 3 || len(tb.Bots) != len(v.Bots) || tb.Config != v.Config {
			t.Fatalf("decoded %+v", tb)
		}
	}
}

func TestMarshalOrdersMatchesEncodingJSON(t *testing.T) {
	var moves []acb.Move
	for i := 0; i < 7; i++ {
		moves = append(moves, acb.Move{Position: acb.Pos{Row: i * 13, Col: -i}, Direction: acb.Dir(i % 5)})
	}
	for n := 0; n <= len(moves); n++ {
		got, err := MarshalOrders(moves[:n])
		if err != nil {
			t.Fatal(err)
		}
		want, _ := json.Marshal(acb.Orders{Moves: append([]acb.Move{}, moves[:n]...)})
		if string(got) != string(want) {
			t.Fatalf("%d moves:\n got %s\nwant %s", n, got, want)
		}
	}
	if _, err := MarshalOrders([]acb.Move{{Direction: 9}}); err == nil {
		t.Fatal("a move without a valid direction was written")
	}
}
