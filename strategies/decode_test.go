package strategies

import (
	"slices"
	"strings"
	"testing"
)

// sniperParams is what a constructor fills from a genome of testSchema.
type sniperParams struct {
	margin int
	greed  float64
}

func decodeSniper(d Decoder) sniperParams {
	return sniperParams{margin: d.Int("margin"), greed: d.Float("greed")}
}

func TestDecoderReadsByName(t *testing.T) {
	got := decodeSniper(testSchema.Decoder(Genome{3, 0.25}))
	if got != (sniperParams{margin: 3, greed: 0.25}) {
		t.Fatalf("decoded %+v, want margin 3, greed 0.25", got)
	}
	// The same values under the schema in the other order (a parameter
	// moved) decode to the same fields.
	moved := Schema{testSchema[1], testSchema[0]}
	if got := decodeSniper(moved.Decoder(Genome{0.25, 3})); got != (sniperParams{margin: 3, greed: 0.25}) {
		t.Fatalf("decoded %+v under the reordered schema, want margin 3, greed 0.25", got)
	}
	// A parameter inserted in front shifts every position but no name.
	inserted := slices.Insert(slices.Clone(testSchema), 0, Param{Name: "nerve", Min: 0, Max: 1, Default: 0.5})
	if got := decodeSniper(inserted.Decoder(Genome{0.9, 3, 0.25})); got != (sniperParams{margin: 3, greed: 0.25}) {
		t.Fatalf("decoded %+v under the schema with a parameter inserted, want margin 3, greed 0.25", got)
	}
}

func TestCheckDecode(t *testing.T) {
	inserted := slices.Insert(slices.Clone(testSchema), 1, Param{Name: "nerve", Min: 0, Max: 1, Default: 0.5})
	renamed := slices.Clone(testSchema)
	renamed[1].Name = "greediness"
	realMargin := slices.Clone(testSchema)
	realMargin[0].Integer = false
	tests := []struct {
		name    string
		schema  Schema
		decode  func(Decoder)
		wantErr string
	}{
		{"every parameter read", testSchema, func(d Decoder) { decodeSniper(d) }, ""},
		{"reordered schema", Schema{testSchema[1], testSchema[0]}, func(d Decoder) { decodeSniper(d) }, ""},
		{"a parameter inserted and never read", inserted, func(d Decoder) { decodeSniper(d) },
			"constructor never reads parameter nerve"},
		{"a parameter renamed", renamed, func(d Decoder) { decodeSniper(d) },
			`constructor reads parameter "greed", which the schema lacks (known: margin, greediness)`},
		{"a whole number read from a real parameter", realMargin, func(d Decoder) { decodeSniper(d) },
			"constructor reads parameter margin as a whole number, but it is real-valued in [0, 5]"},
		{"two parameters unread", testSchema, func(d Decoder) {},
			"constructor never reads parameter margin, greed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.schema.CheckDecode(tt.decode)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatalf("CheckDecode: %v", err)
				}
				return
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("CheckDecode error %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestCheckDecodePassesOtherPanicsOn(t *testing.T) {
	defer func() {
		if r := recover(); r == nil || !strings.Contains(r.(string), "boom") {
			t.Fatalf("recovered %v, want the constructor's own panic", r)
		}
	}()
	testSchema.CheckDecode(func(d Decoder) { panic("boom") })
	t.Fatal("CheckDecode swallowed a panic that was not a decoding mistake")
}

func TestDecoderPanicsOnUnknownName(t *testing.T) {
	defer func() {
		r := recover()
		de, ok := r.(decodeError)
		if !ok || !strings.Contains(de.msg, `"greedy"`) {
			t.Fatalf("recovered %v, want a decodeError naming greedy", r)
		}
	}()
	testSchema.Decoder(testSchema.Defaults()).Float("greedy")
	t.Fatal("reading an unknown name did not panic")
}
