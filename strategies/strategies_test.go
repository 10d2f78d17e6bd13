package strategies

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"crucible/engine"
)

var testSchema = Schema{
	{Name: "margin", Description: "bid above the threat", Min: 0, Max: 5, Default: 1, Integer: true},
	{Name: "greed", Description: "share on the best beacon", Min: 0.1, Max: 0.9, Default: 0.5},
}

func testStrategy() Strategy {
	return Strategy{Game: "kindling", Name: "sniper", Schema: testSchema,
		New: func(g Genome, seed uint64, seat int) engine.Player { return g }}
}

func TestClampAndRound(t *testing.T) {
	tests := []struct {
		name string
		in   Genome
		want Genome
	}{
		{"inside stays", Genome{2, 0.3}, Genome{2, 0.3}},
		{"integer rounds to nearest", Genome{2.6, 0.3}, Genome{3, 0.3}},
		{"below min clamps", Genome{-4, 0}, Genome{0, 0.1}},
		{"above max clamps", Genome{99, 7}, Genome{5, 0.9}},
		{"short genome takes defaults", Genome{4}, Genome{4, 0.5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := testSchema.Clamp(tt.in); !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("Clamp(%v) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestNormalizeRoundTrip(t *testing.T) {
	g := Genome{3, 0.7}
	x := testSchema.Normalize(g)
	if x[0] != 0.6 || x[1] < 0.749 || x[1] > 0.751 {
		t.Fatalf("Normalize(%v) = %v", g, x)
	}
	if back := testSchema.Denormalize(x); back[0] != 3 || back[1] < 0.699 || back[1] > 0.701 {
		t.Fatalf("Denormalize(%v) = %v", x, back)
	}
	if out := testSchema.Denormalize([]float64{1.7, -0.2}); out[0] != 5 || out[1] != 0.1 {
		t.Fatalf("Denormalize outside the cube = %v, want [5 0.1]", out)
	}
}

func TestSetErrors(t *testing.T) {
	tests := []struct {
		name, param string
		value       float64
		wantErr     string
	}{
		{"unknown lists known", "nerve", 1, `unknown parameter "nerve" (known: margin, greed)`},
		{"out of range names range", "margin", 6, "parameter margin = 6 is outside its range [0, 5]"},
		{"fraction for integer", "margin", 2.5, "parameter margin = 2.5 must be a whole number in [0, 5]"},
		{"float range", "greed", 0.05, "parameter greed = 0.05 is outside its range [0.1, 0.9]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := testSchema.Set(testSchema.Defaults(), tt.param, tt.value)
			if err == nil || err.Error() != tt.wantErr {
				t.Fatalf("Set(%s=%v) error %v, want %q", tt.param, tt.value, err, tt.wantErr)
			}
		})
	}
}

func TestSchemaValidate(t *testing.T) {
	bad := Schema{{Name: "a", Min: 0, Max: 1, Default: 2}}
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "parameter a = 2") {
		t.Fatalf("Validate of a default out of range: %v", err)
	}
	dup := Schema{{Name: "a", Min: 0, Max: 1}, {Name: "a", Min: 0, Max: 1}}
	if err := dup.Validate(); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("Validate of a duplicate name: %v", err)
	}
}

func TestRegistryLookup(t *testing.T) {
	r, err := NewRegistry(testStrategy())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Lookup("kindling", "sniper"); err != nil {
		t.Fatal(err)
	}
	_, err = r.Lookup("kindling", "snipe")
	if err == nil || err.Error() != `unknown kindling strategy "snipe" (known: sniper)` {
		t.Fatalf("unknown strategy error: %v", err)
	}
	if _, err := r.Lookup("chess", "x"); err == nil || !strings.Contains(err.Error(), `unknown game "chess"`) {
		t.Fatalf("unknown game error: %v", err)
	}
	if _, err := NewRegistry(testStrategy(), testStrategy()); err == nil {
		t.Fatal("a strategy registered twice was accepted")
	}
	noCtor := testStrategy()
	noCtor.Game, noCtor.New = "", nil
	if _, err := NewRegistry(noCtor); err == nil || err.Error() != `strategy "sniper" of game "" has no Game, New` {
		t.Fatalf("incomplete strategy error: %v", err)
	}
}

func TestVariantFileRoundTrip(t *testing.T) {
	s := testStrategy()
	v := NewVariant(s, Genome{4, 0.25}, "abc")
	if len(v.ID) != 10 {
		t.Fatalf("id %q is not 10 hex digits", v.ID)
	}
	if v2 := NewVariant(s, Genome{4, 0.25}); v2.ID != v.ID {
		t.Fatal("same base and genome gave different ids")
	}
	if v3 := NewVariant(s, Genome{4, 0.26}); v3.ID == v.ID {
		t.Fatal("different genomes gave the same id")
	}
	path := filepath.Join(t.TempDir(), "v.json")
	if err := v.Save(path); err != nil {
		t.Fatal(err)
	}
	got, err := LoadVariant(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("saved variant mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
	if !reflect.DeepEqual(got, v) {
		t.Fatalf("loaded %+v, saved %+v", got, v)
	}
	r, _ := NewRegistry(s)
	_, g, err := r.Resolve(got)
	if err != nil || !reflect.DeepEqual(g, Genome{4, 0.25}) {
		t.Fatalf("Resolve = %v, %v", g, err)
	}
}

func TestVariantTamperedID(t *testing.T) {
	r, _ := NewRegistry(testStrategy())
	path := filepath.Join(t.TempDir(), "v.json")
	os.WriteFile(path, []byte(`{"game":"kindling","base":"sniper","id":"0000000000","params":{"margin":2}}`), 0o644)
	v, err := LoadVariant(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Check(v); err == nil || !strings.Contains(err.Error(), "does not match its content") {
		t.Fatalf("tampered id error: %v", err)
	}
	os.WriteFile(path, []byte(`{"game":"kindling","base":"sniper","params":{"margin":2},"extra":1}`), 0o644)
	if _, err := LoadVariant(path); err == nil || !strings.Contains(err.Error(), `unknown field "extra"`) {
		t.Fatalf("unknown field error: %v", err)
	}
	os.WriteFile(path, []byte(`{"game":"kindling","base":"sniper","params":{"margin":9}}`), 0o644)
	v, err = LoadVariant(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Resolve(v); err == nil || !strings.Contains(err.Error(), "margin = 9 is outside its range [0, 5]") {
		t.Fatalf("out-of-range variant error: %v", err)
	}
}

// TestVariantIDIgnoresHowItIsWritten checks defect 11 of issue 10: a
// variant file that leaves a parameter at its default out and the same
// variant with every parameter written out (as export writes it) get the
// same id, the hash of the full clamped genome; so do ids from NewVariant
// and Strategy.VariantID.
func TestVariantIDIgnoresHowItIsWritten(t *testing.T) {
	s := testStrategy()
	r, _ := NewRegistry(s)
	partial, err := ParseVariant([]byte(`{"game":"kindling","base":"sniper","params":{"margin":3}}`), "partial")
	if err != nil {
		t.Fatal(err)
	}
	full, err := ParseVariant([]byte(`{"game":"kindling","base":"sniper","params":{"margin":3,"greed":0.5}}`), "full")
	if err != nil {
		t.Fatal(err)
	}
	a, err := r.Check(partial)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Check(full)
	if err != nil {
		t.Fatal(err)
	}
	want := NewVariant(s, Genome{3, 0.5}).ID
	if a.Variant.ID != want || b.Variant.ID != want || s.VariantID(Genome{3}) != want {
		t.Fatalf("ids: partial %s, full %s, Strategy.VariantID %s; want %s for all", a.Variant.ID, b.Variant.ID, s.VariantID(Genome{3}), want)
	}
	if !reflect.DeepEqual(a.Variant.Params, map[string]float64{"margin": 3, "greed": 0.5}) {
		t.Fatalf("the resolved partial variant has params %v, want every parameter", a.Variant.Params)
	}
	if a.Notice != "" || b.Notice != "" {
		t.Fatalf("notices %q, %q for files without ids", a.Notice, b.Notice)
	}
	// The exported file carries the id; it loads with it.
	b.Variant.Note = "exported"
	path := filepath.Join(t.TempDir(), "export.json")
	if err := b.Variant.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadVariant(path)
	if err != nil {
		t.Fatal(err)
	}
	if c, err := r.Check(back); err != nil || c.Variant.ID != want || c.Notice != "" {
		t.Fatalf("the exported file resolves to %+v, %v", c.Variant, err)
	}
}

// TestVariantLegacyID checks that a file written under the earlier id rule
// (the hash of the parameters it spells out: a file saved before the
// schema gained a parameter) still loads, with its id recomputed and a
// notice naming both ids.
func TestVariantLegacyID(t *testing.T) {
	s := testStrategy()
	r, _ := NewRegistry(s)
	old := map[string]float64{"margin": 2}
	legacy := VariantID("kindling", "sniper", old)
	v := Variant{Game: "kindling", Base: "sniper", ID: legacy, Params: old, Parents: []string{"p1"}, Note: "old run"}
	res, err := r.Check(v)
	if err != nil {
		t.Fatal(err)
	}
	want := NewVariant(s, Genome{2, 0.5}).ID
	if res.Variant.ID != want || legacy == want {
		t.Fatalf("recomputed id %s (legacy %s), want %s", res.Variant.ID, legacy, want)
	}
	if !strings.Contains(res.Notice, legacy) || !strings.Contains(res.Notice, want) {
		t.Fatalf("notice %q does not name both ids", res.Notice)
	}
	if res.Variant.Note != "old run" || !reflect.DeepEqual(res.Variant.Parents, []string{"p1"}) {
		t.Fatalf("parents and note lost: %+v", res.Variant)
	}
}

// TestParseVariantMessages checks the errors for variant files that are
// not what they should be (defects 7 and 8 of issue 10): each says what is
// wrong and names the field or parameter.
func TestParseVariantMessages(t *testing.T) {
	tests := []struct {
		name, data, want string
	}{
		{"empty file", "", "variant v.json: the file is empty"},
		{"blank file", " \n\t", "variant v.json: the file is empty"},
		{"null", "null", "variant v.json: the file holds null"},
		{"not an object", "[1,2]", "variant v.json: not a JSON object"},
		{"trailing data", `{"game":"kindling","base":"sniper"} xyz`, "unexpected data after the JSON object"},
		{"second object", `{"game":"kindling","base":"sniper"}{}`, "unexpected data after the JSON object"},
		{"key in another case", `{"game":"kindling","BASE":"sniper"}`, `unknown field "BASE"`},
		{"missing base", `{"game":"kindling"}`, "fields game and base are required"},
		{"null base", `{"game":"kindling","base":null}`, "base is null; want a string"},
		{"number for a string", `{"game":"kindling","base":7}`, "base: want a string, got 7"},
		{"string for a number", `{"game":"kindling","base":"sniper","params":{"margin":"2"}}`, `parameter margin: "2" is not a number`},
		{"null parameter", `{"game":"kindling","base":"sniper","params":{"margin":null}}`, "parameter margin is null; want a number"},
		{"null params", `{"game":"kindling","base":"sniper","params":null}`, "params is null"},
		{"params not an object", `{"game":"kindling","base":"sniper","params":[1]}`, "params: want an object from parameter name to value, got [1]"},
		{"null parents", `{"game":"kindling","base":"sniper","parents":null}`, "parents is null"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseVariant([]byte(tt.data), "v.json")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

// FuzzParseVariant: whatever a variant file holds, ParseVariant either
// fails or gives a variant that Check either refuses or resolves to a
// genome inside the schema's bounds whose id is the full genome's hash.
func FuzzParseVariant(f *testing.F) {
	f.Add([]byte(`{"game":"kindling","base":"sniper","params":{"margin":2,"greed":0.3}}`))
	f.Add([]byte(`{"game":"kindling","base":"sniper","id":"0000000000","params":{}}`))
	f.Add([]byte(`{"game":"kindling","base":"sniper","params":{"margin":1e308}}`))
	f.Add([]byte(`{"game":"","base":"x"}`))
	f.Add([]byte(`[1,2]`))
	s := testStrategy()
	r, err := NewRegistry(s)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseVariant(data, "fuzz")
		if err != nil {
			return
		}
		res, err := r.Check(v)
		if err != nil {
			return
		}
		for i, p := range testSchema {
			if p.Check(res.Genome[i]) != nil {
				t.Fatalf("resolved genome %v breaks %s's range %s", res.Genome, p.Name, p.Range())
			}
		}
		if res.Variant.ID != s.VariantID(res.Genome) {
			t.Fatalf("resolved id %q, the full genome hashes to %q", res.Variant.ID, s.VariantID(res.Genome))
		}
		if v.ID != "" && v.ID != res.Variant.ID && res.Notice == "" {
			t.Fatalf("id %q replaced by %q without a notice", v.ID, res.Variant.ID)
		}
	})
}
