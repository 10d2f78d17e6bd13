package acb

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMapJSONRoundTrip(t *testing.T) {
	m, err := GenerateMap(DefaultConfig(), 4, 3)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(data), `{"rows":40,"cols":40,"walls":[[`) {
		t.Fatalf("JSON starts %q, want the replay's map shape", data[:40])
	}
	back, err := ParseMap(data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, m) {
		t.Fatal("map changed through JSON")
	}
}

func TestMapSaveAndLoad(t *testing.T) {
	m, err := GenerateMap(DefaultConfig(), 3, 5)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := m.Save(path); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("saved map has mode %v (%v), want 0644 like every output file", fi.Mode().Perm(), err)
	}
	back, err := LoadMap(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, m) {
		t.Fatal("a saved map loads differently")
	}
	if err := m.Save(filepath.Join(dir, "no", "such", "dir.json")); err == nil {
		t.Fatal("saving into a missing directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("directory holds %d entries after a failed save, want only m.json", len(entries))
	}
	if _, err := LoadMap(filepath.Join(dir, "none.json")); err == nil {
		t.Fatal("loading a missing file succeeded")
	}
}

func TestParseMapErrors(t *testing.T) {
	cores := `"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":1,"owner":1,"row":10,"col":10}]`
	tests := []struct {
		name, json, want string
	}{
		{"not JSON", `{`, "map: unexpected EOF"},
		{"unknown field", `{"rows":20,"cols":20,"lava":[]}`, `unknown field "lava"`},
		{"rows too small", `{"rows":10,"cols":20,` + cores + `}`, "rows = 10 is outside its allowed range 16..200"},
		{"cols too large", `{"rows":20,"cols":201,` + cores + `}`, "cols = 201 is outside its allowed range 16..200"},
		{"wall off the grid", `{"rows":20,"cols":20,"walls":[[3,20]],` + cores + `}`, "wall 0 at (3,20) is outside the 20x20 grid"},
		{"duplicate wall", `{"rows":20,"cols":20,"walls":[[3,3],[3,3]],` + cores + `}`, "wall 1 at (3,3) is on a wall"},
		{"energy on a wall", `{"rows":20,"cols":20,"walls":[[3,3]],"energy":[[3,3]],` + cores + `}`, "energy tile 0 at (3,3) is on a wall"},
		{"core on energy", `{"rows":20,"cols":20,"energy":[[1,1]],` + cores + `}`, "core 0 at (1,1) is on an energy tile"},
		{"no cores", `{"rows":20,"cols":20}`, "has no cores"},
		{"one player", `{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1}]}`, "cores of 1 player(s); a match needs 2..6"},
		{"bad core id", `{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":5,"owner":1,"row":9,"col":9}]}`, "core id 5 is invalid"},
		{"missing owner", `{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":1,"owner":2,"row":9,"col":9}]}`, "player 1 has no core"},
		{"owner out of range", `{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":1,"owner":7,"row":9,"col":9}]}`, "core 1 has owner 7"},
		{"unequal cores", `{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":1,"owner":0,"row":2,"col":2},{"id":2,"owner":1,"row":9,"col":9}]}`, "player 1 has 1 cores but player 0 has 2"},
		{"walled-in core", `{"rows":20,"cols":20,"walls":[[0,1],[2,1],[1,0],[1,2]],` + cores + `}`, "core 1 at (10,10) cannot be reached from core 0"},
		{"walled-in energy", `{"rows":20,"cols":20,"walls":[[4,5],[6,5],[5,4],[5,6]],"energy":[[5,5]],` + cores + `}`, "energy tile 0 at (5,5) cannot be reached"},
		{"trailing data", `{"rows":20,"cols":20,` + cores + `} {}`, "map: unexpected data after the JSON value"},
		// Defect 8 of issue 10: each of these was accepted.
		{"a wall of one number", `{"rows":20,"cols":20,"walls":[[3,3],[1]],` + cores + `}`, "map: walls[1] = [1] has 1 element(s); want exactly 2"},
		{"energy of three numbers", `{"rows":20,"cols":20,"energy":[[3,3,3]],` + cores + `}`, "map: energy[0] = [3,3,3] has 3 element(s); want exactly 2"},
		{"a key in another case", `{"Rows":20,"cols":20,` + cores + `}`, `map: unknown field "Rows" (did you mean "rows"?`},
		{"a core key in another case", `{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":1,"Owner":1,"row":10,"col":10}]}`, `unknown field "Owner" in cores[1]`},
		{"null", `null`, "map: null is not allowed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseMap([]byte(tt.json))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
	if _, err := ParseMap([]byte(`{"rows":20,"cols":20,` + cores + `}`)); err != nil {
		t.Fatalf("a minimal valid map: %v", err)
	}
}

func FuzzParseMap(f *testing.F) {
	m, _ := GenerateMap(DefaultConfig(), 2, 1)
	data, _ := json.Marshal(m)
	f.Add(data)
	f.Add([]byte(`{"rows":20,"cols":20,"cores":[{"id":0,"owner":0,"row":1,"col":1},{"id":1,"owner":1,"row":10,"col":10}]}`))
	f.Add([]byte(`{"rows":16,"cols":16,"walls":[[0,1]],"energy":[[5,5]],"cores":[{"id":1,"owner":1,"row":1,"col":1},{"id":0,"owner":0,"row":10,"col":10}]}`))
	f.Add([]byte(`{"rows":-1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap(data)
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("ParseMap accepted a map that does not validate: %v", err)
		}
		again, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseMap(again)
		if err != nil {
			t.Fatalf("a parsed map does not parse again: %v", err)
		}
		if !reflect.DeepEqual(back, m) {
			t.Fatal("a parsed map changed through JSON")
		}
		if _, err := NewMatch(DefaultConfig(), m, 1, make([]Controller, m.Players())); err == nil {
			t.Fatal("NewMatch accepted nil controllers")
		}
	})
}
