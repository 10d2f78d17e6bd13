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
	path := filepath.Join(t.TempDir(), "v.json")
	os.WriteFile(path, []byte(`{"game":"kindling","base":"sniper","id":"0000000000","params":{"margin":2}}`), 0o644)
	if _, err := LoadVariant(path); err == nil || !strings.Contains(err.Error(), "does not match its content") {
		t.Fatalf("tampered id error: %v", err)
	}
	os.WriteFile(path, []byte(`{"game":"kindling","base":"sniper","params":{"margin":2},"extra":1}`), 0o644)
	if _, err := LoadVariant(path); err == nil || !strings.Contains(err.Error(), "extra") {
		t.Fatalf("unknown field error: %v", err)
	}
	os.WriteFile(path, []byte(`{"game":"kindling","base":"sniper","params":{"margin":9}}`), 0o644)
	v, err := LoadVariant(path)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := NewRegistry(testStrategy())
	if _, _, err := r.Resolve(v); err == nil || !strings.Contains(err.Error(), "margin = 9 is outside its range [0, 5]") {
		t.Fatalf("out-of-range variant error: %v", err)
	}
}

// FuzzParseVariant: whatever a variant file holds, ParseVariant either
// fails or gives a variant whose id is its content's hash, and Resolve then
// either fails or gives a genome inside the schema's bounds.
func FuzzParseVariant(f *testing.F) {
	f.Add([]byte(`{"game":"kindling","base":"sniper","params":{"margin":2,"greed":0.3}}`))
	f.Add([]byte(`{"game":"kindling","base":"sniper","id":"0000000000","params":{}}`))
	f.Add([]byte(`{"game":"kindling","base":"sniper","params":{"margin":1e308}}`))
	f.Add([]byte(`{"game":"","base":"x"}`))
	f.Add([]byte(`[1,2]`))
	r, err := NewRegistry(testStrategy())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := ParseVariant(data, "fuzz")
		if err != nil {
			return
		}
		if v.ID != VariantID(v.Game, v.Base, v.Params) {
			t.Fatalf("accepted id %q for content hashing to %q", v.ID, VariantID(v.Game, v.Base, v.Params))
		}
		_, g, err := r.Resolve(v)
		if err != nil {
			return
		}
		for i, p := range testSchema {
			if p.Check(g[i]) != nil {
				t.Fatalf("resolved genome %v breaks %s's range %s", g, p.Name, p.Range())
			}
		}
	})
}
