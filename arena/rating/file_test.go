package rating

import (
	"strings"
	"testing"
)

// TestParseRatings checks the ratings file format and its errors.
func TestParseRatings(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"valid", `{"a": {"rating": 1600, "rd": 80, "volatility": 0.06}}`, ""},
		{"empty object", `{}`, ""},
		{"not JSON", `{"a":`, "ratings f.json: unexpected end of JSON input"},
		{"null", `null`, "got null"},
		{"missing field", `{"a": {"rating": 1600, "rd": 80}}`, `player "a" needs rating, rd and volatility`},
		{"unknown field", `{"a": {"rating": 1600, "rd": 80, "volatility": 0.06, "elo": 3}}`, `player "a": unknown field "elo"`},
		{"key in another case", `{"a": {"rating": 1600, "RD": 80, "volatility": 0.06}}`, `player "a": unknown field "RD"`},
		{"null entry", `{"a": null}`, `player "a" is null`},
		{"null field", `{"a": {"rating": null, "rd": 80, "volatility": 0.06}}`, `player "a": rating is null; want a number`},
		{"string for a number", `{"a": {"rating": "1600", "rd": 80, "volatility": 0.06}}`, `player "a": rating is "1600"; want a number`},
		{"trailing data", `{"a": {"rating": 1600, "rd": 80, "volatility": 0.06}} xyz`, "invalid character 'x' after top-level value"},
		{"zero rd", `{"a": {"rating": 1600, "rd": 0, "volatility": 0.06}}`, `player "a": rd 0 is outside (0, 10000]`},
		{"negative volatility", `{"a": {"rating": 1600, "rd": 10, "volatility": -1}}`, `volatility -1 is outside (0, 10]`},
		{"empty name", `{"": {"rating": 1600, "rd": 10, "volatility": 0.06}}`, "a player has an empty name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := ParseRatings([]byte(tt.data), "f.json")
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v (%v), want %q", err, m, tt.want)
			}
		})
	}
}

// TestParseRatingsErrorIsStable checks that a file with several bad
// entries always reports the same one, the first by name: the message
// must not depend on map iteration order.
func TestParseRatingsErrorIsStable(t *testing.T) {
	data := []byte(`{"zed": {"rating": 1, "rd": -1, "volatility": 0.06}, "amy": {"rating": 1, "rd": 0, "volatility": 0.06},
		"kim": {"rating": 1, "rd": 5, "volatility": -2}, "bob": {"rating": 1, "rd": 5}}`)
	for i := 0; i < 50; i++ {
		_, err := ParseRatings(data, "f.json")
		if err == nil || !strings.Contains(err.Error(), `player "amy": rd 0 is outside`) {
			t.Fatalf("attempt %d: error %v, want the first player by name, amy", i, err)
		}
	}
}

// TestRatingsRoundTrip checks that MarshalRatings writes what ParseRatings
// reads, in the documented shape.
func TestRatingsRoundTrip(t *testing.T) {
	in := map[string]Rating{"b": {Rating: 1400.5, RD: 60, Volatility: 0.059}, "a": {Rating: 1600, RD: 80, Volatility: 0.06}}
	data, err := MarshalRatings(in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"a": {`+"\n"+`    "rating": 1600,`) || strings.Index(string(data), `"a"`) > strings.Index(string(data), `"b"`) {
		t.Fatalf("unexpected layout:\n%s", data)
	}
	out, err := ParseRatings(data, "x")
	if err != nil || len(out) != 2 || out["b"] != in["b"] || out["a"] != in["a"] {
		t.Fatalf("round trip gave %v, %v", out, err)
	}
}

// FuzzParseRatings checks that no input panics the parser and that what it
// accepts survives a round trip.
func FuzzParseRatings(f *testing.F) {
	f.Add([]byte(`{"a": {"rating": 1600, "rd": 80, "volatility": 0.06}}`))
	f.Add([]byte(`{"a": {"rating": 1e308, "rd": 1e-300, "volatility": 10}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseRatings(data, "fuzz")
		if err != nil {
			return
		}
		out, err := MarshalRatings(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseRatings(out, "again")
		if err != nil || len(back) != len(m) {
			t.Fatalf("round trip failed: %v", err)
		}
		for k, v := range m {
			if back[k] != v {
				t.Fatalf("%q: %v became %v", k, v, back[k])
			}
		}
	})
}
