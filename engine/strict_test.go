package engine

import (
	"strings"
	"testing"
)

type strictInner struct {
	ID  int    `json:"id"`
	Tag string `json:"tag,omitempty"`
}

type strictDoc struct {
	Rows   int               `json:"rows"`
	Zone   bool              `json:"zone_enabled"`
	Walls  [][2]int          `json:"walls"`
	Items  []strictInner     `json:"items"`
	Params map[string]int    `json:"params"`
	Inner  *strictInner      `json:"inner"`
	Skip   int               `json:"-"`
	Extra  map[string][2]int `json:"extra"`
}

// TestDecodeStrictRefuses checks each refusal of DecodeStrict against what
// encoding/json accepts, and that the error names the field and the value.
func TestDecodeStrictRefuses(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty input", "  \n", "empty input"},
		{"null where an object is expected", "null", "null is not allowed; want a JSON object"},
		{"trailing data", `{"rows":40} xyz`, "unexpected data after the JSON value"},
		{"a second value", `{"rows":40} {}`, "unexpected data after the JSON value"},
		{"a key in another case", `{"ROWS":40}`, `unknown field "ROWS" (did you mean "rows"? field names are case-sensitive)`},
		{"an unknown key", `{"lava":1}`, `unknown field "lava"`},
		{"a nested key in another case", `{"items":[{"id":1},{"ID":2}]}`, `unknown field "ID" in items[1] (did you mean "id"?`},
		{"a key in another case behind a pointer", `{"inner":{"Tag":"x"}}`, `unknown field "Tag" in inner`},
		{"a key given twice", `{"rows":1,"rows":2}`, `field "rows" is given twice`},
		{"a map key given twice", `{"params":{"a":1,"a":2}}`, `key "a" is given twice in params`},
		{"a short array", `{"walls":[[3,4],[1]]}`, "walls[1] = [1] has 1 element(s); want exactly 2"},
		{"a long array", `{"walls":[[3,4,5]]}`, "walls[0] = [3,4,5] has 3 element(s); want exactly 2"},
		{"a short array in a map value", `{"extra":{"k":[]}}`, "extra.k = [] has 0 element(s); want exactly 2"},
		{"a field tagged - is unknown", `{"-":1}`, `unknown field "-"`},
		{"a type error", `{"rows":"x"}`, "cannot unmarshal string"},
		{"broken JSON", `{"rows":`, "unexpected EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d strictDoc
			err := DecodeStrict([]byte(tt.in), &d)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("DecodeStrict(%s) = %v, want an error containing %q", tt.in, err, tt.want)
			}
		})
	}
}

func TestDecodeStrictDecodesOverDefaults(t *testing.T) {
	d := strictDoc{Rows: 40, Zone: true}
	in := `{"walls":[[1,2]], "items":[{"id":7,"tag":"a"}], "params":{"Any":1}, "inner":{"id":3}, "extra":{"k":[5,6]}}`
	if err := DecodeStrict([]byte(in), &d); err != nil {
		t.Fatal(err)
	}
	if d.Rows != 40 || !d.Zone || d.Walls[0] != [2]int{1, 2} || d.Items[0].Tag != "a" || d.Params["Any"] != 1 || d.Inner.ID != 3 || d.Extra["k"] != [2]int{5, 6} {
		t.Fatalf("decoded %+v", d)
	}
	var n int
	if err := DecodeStrict([]byte(" 12 "), &n); err != nil || n != 12 {
		t.Fatalf("a bare number: %d, %v", n, err)
	}
	if err := DecodeStrict([]byte("{}"), d); err == nil {
		t.Fatal("a non-pointer target was accepted")
	}
}
