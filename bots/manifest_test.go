package bots_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"crucible/bots"
	"crucible/strategies"
)

var testGames = []string{"acb", "kindling"}

// specExample is the manifest of ../shared/specs/bots.md.
const specExample = `{
  "kind": "crucible-bot/1",
  "game": "acb",
  "name": "mybot",
  "command": ["python3", "main.py"],
  "dir": ".",
  "env": {"LOG_LEVEL": "warn"},
  "concurrency": 1,
  "params": [
    {"name": "aggression", "min": 0, "max": 1, "default": 0.5,
     "description": "share of units sent at enemy cores"},
    {"name": "radius", "min": 1, "max": 8, "default": 3, "integer": true}
  ],
  "values": {"aggression": 0.7}
}`

// TestParseSpecExample checks that the spec's own manifest reads as it
// says: every field, the defaults overridden by values.
func TestParseSpecExample(t *testing.T) {
	m, err := bots.Parse([]byte(specExample), "/srv/mybot", "bot.json", testGames)
	if err != nil {
		t.Fatal(err)
	}
	want := &bots.Manifest{
		Game: "acb", Name: "mybot", Command: []string{"python3", "main.py"}, Dir: ".",
		Env: map[string]string{"LOG_LEVEL": "warn"}, Concurrency: 1,
		Params: strategies.Schema{
			{Name: "aggression", Min: 0, Max: 1, Default: 0.5, Description: "share of units sent at enemy cores"},
			{Name: "radius", Min: 1, Max: 8, Default: 3, Integer: true},
		},
		Values: map[string]float64{"aggression": 0.7},
		Folder: "/srv/mybot",
	}
	if !reflect.DeepEqual(m, want) {
		t.Fatalf("parsed\n%+v\nwant\n%+v", m, want)
	}
	if g := m.Genome(); !slices.Equal(g, strategies.Genome{0.7, 3}) {
		t.Fatalf("genome %v, want the default radius 3 and the value 0.7", g)
	}
	if d := m.WorkDir(); d != "/srv/mybot" {
		t.Fatalf("work dir %q", d)
	}
}

// TestParseDefaults checks the defaults of the optional fields: dir is
// the manifest's folder, concurrency 1, no params, no values.
func TestParseDefaults(t *testing.T) {
	m, err := bots.Parse([]byte(`{"kind":"crucible-bot/1","game":"kindling","name":"k","command":["./agent"]}`), "/a/b", "x", testGames)
	if err != nil {
		t.Fatal(err)
	}
	if m.Dir != "." || m.WorkDir() != "/a/b" || m.Concurrency != 1 || len(m.Params) != 0 || m.Values != nil {
		t.Fatalf("defaults: %+v", m)
	}
	m, err = bots.Parse([]byte(`{"kind":"crucible-bot/1","game":"kindling","name":"k","command":["./agent"],"dir":"../src"}`), "/a/b", "x", testGames)
	if err != nil || m.WorkDir() != "/a/src" {
		t.Fatalf("dir ../src from /a/b: %v %v", m, err)
	}
	m, err = bots.Parse([]byte(`{"kind":"crucible-bot/1","game":"kindling","name":"k","command":["./agent"],"dir":"/opt/bot/"}`), "/a/b", "x", testGames)
	if err != nil || m.WorkDir() != "/opt/bot" {
		t.Fatalf("absolute dir: %v %v", m, err)
	}
}

// TestParseRefusals lists every refusal of the spec and of the checks
// the manifest shares with strategies.Param: each error names the field
// and the value at fault.
func TestParseRefusals(t *testing.T) {
	base := map[string]string{
		"kind": `"crucible-bot/1"`, "game": `"acb"`, "name": `"mybot"`, "command": `["python3","main.py"]`,
		"params": `[{"name":"share","min":0,"max":1,"default":0.5},{"name":"radius","min":1,"max":8,"default":3,"integer":true}]`,
	}
	build := func(change map[string]string) string {
		fields := map[string]string{}
		for k, v := range base {
			fields[k] = v
		}
		for k, v := range change {
			if v == "" {
				delete(fields, k)
			} else {
				fields[k] = v
			}
		}
		var parts []string
		for _, k := range []string{"kind", "game", "name", "command", "dir", "env", "concurrency", "params", "values", "extra", "Name"} {
			if v, ok := fields[k]; ok {
				parts = append(parts, `"`+k+`":`+v)
			}
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	tests := []struct {
		rule   string
		change map[string]string
		raw    string // the whole file, when not built from base
		want   []string
	}{
		{rule: "an empty file", raw: "  \n", want: []string{"empty"}},
		{rule: "not an object", raw: "[1]", want: []string{"not a JSON object"}},
		{rule: "null", raw: "null", want: []string{"null"}},
		{rule: "data after the object", raw: build(nil) + " {}", want: []string{"after the JSON object"}},
		{rule: "an unknown field", change: map[string]string{"extra": "1"}, want: []string{"unknown field extra"}},
		{rule: "fields are case-sensitive", change: map[string]string{"Name": `"x"`}, want: []string{"unknown field Name"}},
		{rule: "kind is required", change: map[string]string{"kind": ""}, want: []string{`kind = ""`, "crucible-bot/1"}},
		{rule: "another kind", change: map[string]string{"kind": `"crucible-bot/2"`}, want: []string{`kind = "crucible-bot/2"`}},
		{rule: "kind of the wrong type", change: map[string]string{"kind": `1`}, want: []string{"kind = 1: want a string"}},
		{rule: "an unknown game", change: map[string]string{"game": `"chess"`}, want: []string{`game = "chess"`, "acb, kindling"}},
		{rule: "a missing game", change: map[string]string{"game": ""}, want: []string{`game = ""`}},
		{rule: "a missing name", change: map[string]string{"name": ""}, want: []string{`name = ""`}},
		{rule: "a name with a space", change: map[string]string{"name": `"my bot"`}, want: []string{`name = "my bot"`}},
		{rule: "a name with #", change: map[string]string{"name": `"a#b"`}, want: []string{`name = "a#b"`}},
		{rule: "a name too long", change: map[string]string{"name": `"` + strings.Repeat("a", 65) + `"`}, want: []string{"name = ", "1 to 64"}},
		{rule: "a missing command", change: map[string]string{"command": ""}, want: []string{"field command is missing"}},
		{rule: "an empty command", change: map[string]string{"command": `[]`}, want: []string{"command = []"}},
		{rule: "a command with an empty program", change: map[string]string{"command": `["","x"]`}, want: []string{`command = ["","x"]`}},
		{rule: "a command as a string (no shell)", change: map[string]string{"command": `"python3 main.py"`}, want: []string{`command = "python3 main.py": want a list of strings`}},
		{rule: "a command with a number", change: map[string]string{"command": `["python3", 3]`}, want: []string{"command = [\"python3\", 3]: want a list of strings"}},
		{rule: "a null command", change: map[string]string{"command": `null`}, want: []string{"command = null"}},
		{rule: "a command with NUL", change: map[string]string{"command": `["a\u0000b"]`}, want: []string{"command[0]", "NUL"}},
		{rule: "an empty dir", change: map[string]string{"dir": `""`}, want: []string{`dir = ""`}},
		{rule: "dir of the wrong type", change: map[string]string{"dir": `["."]`}, want: []string{`dir = ["."]: want a string`}},
		{rule: "env not an object", change: map[string]string{"env": `["A=1"]`}, want: []string{`env = ["A=1"]: want an object of strings`}},
		{rule: "env with a number", change: map[string]string{"env": `{"A":1}`}, want: []string{`env = {"A":1}`}},
		{rule: "env name with =", change: map[string]string{"env": `{"A=B":"1"}`}, want: []string{`variable name "A=B"`}},
		{rule: "env with an empty name", change: map[string]string{"env": `{"":"1"}`}, want: []string{`variable name ""`}},
		{rule: "env sets PORT", change: map[string]string{"env": `{"PORT":"80"}`}, want: []string{`env.PORT = "80"`, "sets PORT itself"}},
		{rule: "env sets BOT_SECRET", change: map[string]string{"env": `{"BOT_SECRET":"x"}`}, want: []string{`env.BOT_SECRET = "x"`}},
		{rule: "env sets a CRUCIBLE_ variable", change: map[string]string{"env": `{"CRUCIBLE_PARAM_SHARE":"1"}`}, want: []string{"env.CRUCIBLE_PARAM_SHARE"}},
		{rule: "env sets KINDLING_URL", change: map[string]string{"env": `{"KINDLING_URL":"http://x"}`}, want: []string{"env.KINDLING_URL"}},
		{rule: "concurrency 0", change: map[string]string{"concurrency": `0`}, want: []string{"concurrency = 0 is outside [1, 256]"}},
		{rule: "concurrency too large", change: map[string]string{"concurrency": `257`}, want: []string{"concurrency = 257 is outside"}},
		{rule: "concurrency not whole", change: map[string]string{"concurrency": `1.5`}, want: []string{"concurrency = 1.5: want a whole number"}},
		{rule: "params not a list", change: map[string]string{"params": `{"share":1}`}, want: []string{`params = {"share":1}: want a list`}},
		{rule: "a param not an object", change: map[string]string{"params": `[3]`}, want: []string{"params[0] = 3"}},
		{rule: "a param with an unknown field", change: map[string]string{"params": `[{"name":"a","min":0,"max":1,"default":0,"step":1}]`}, want: []string{"unknown field params[0].step"}},
		{rule: "a param without max", change: map[string]string{"params": `[{"name":"a","min":0,"default":0}]`}, want: []string{"params[0].max is missing"}},
		{rule: "a param without default", change: map[string]string{"params": `[{"name":"a","min":0,"max":1}]`}, want: []string{"params[0].default is missing"}},
		{rule: "a param min of the wrong type", change: map[string]string{"params": `[{"name":"a","min":"0","max":1,"default":0}]`}, want: []string{`params[0].min = "0": want a number`}},
		{rule: "a param integer of the wrong type", change: map[string]string{"params": `[{"name":"a","min":0,"max":1,"default":0,"integer":1}]`}, want: []string{"params[0].integer = 1: want true or false"}},
		{rule: "a param without a name", change: map[string]string{"params": `[{"name":"","min":0,"max":1,"default":0}]`}, want: []string{"parameter 0 has no name"}},
		{rule: "a param twice", change: map[string]string{"params": `[{"name":"a","min":0,"max":1,"default":0},{"name":"a","min":0,"max":1,"default":0}]`}, want: []string{"parameter a appears twice"}},
		{rule: "min not below max", change: map[string]string{"params": `[{"name":"a","min":2,"max":1,"default":1}]`}, want: []string{"parameter a: min 2 is not below max 1"}},
		{rule: "a default outside its bounds", change: map[string]string{"params": `[{"name":"a","min":0,"max":1,"default":1.5}]`}, want: []string{"default", "parameter a = 1.5 is outside its range [0, 1]"}},
		{rule: "an integer default not whole", change: map[string]string{"params": `[{"name":"n","min":0,"max":9,"default":2.5,"integer":true}]`}, want: []string{"parameter n = 2.5 must be a whole number"}},
		{rule: "two params with one variable", change: map[string]string{"params": `[{"name":"max-r","min":0,"max":1,"default":0},{"name":"max_r","min":0,"max":1,"default":0}]`}, want: []string{`"max-r" and "max_r"`, "CRUCIBLE_PARAM_MAX_R"}},
		{rule: "values not an object", change: map[string]string{"values": `[1]`}, want: []string{"values = [1]"}},
		{rule: "a value not a number", change: map[string]string{"values": `{"share":"high"}`}, want: []string{`values.share = "high" is not a number`}},
		{rule: "a null value", change: map[string]string{"values": `{"share":null}`}, want: []string{"values.share = null"}},
		{rule: "a value of an unknown parameter", change: map[string]string{"values": `{"speed":1}`}, want: []string{`unknown parameter "speed"`, "share, radius"}},
		{rule: "a value outside its bounds", change: map[string]string{"values": `{"share":1.2}`}, want: []string{"values", "parameter share = 1.2 is outside its range [0, 1]"}},
		{rule: "an integer value not whole", change: map[string]string{"values": `{"radius":2.5}`}, want: []string{"parameter radius = 2.5 must be a whole number in [1, 8]"}},
		{rule: "values without params", change: map[string]string{"params": "", "values": `{"share":1}`}, want: []string{`unknown parameter "share"`}},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			data := tc.raw
			if data == "" {
				data = build(tc.change)
			}
			_, err := bots.Parse([]byte(data), "/x", "bot.json", testGames)
			if err == nil {
				t.Fatalf("accepted %s", data)
			}
			for _, w := range append([]string{"bot manifest bot.json: "}, tc.want...) {
				if !strings.Contains(err.Error(), w) {
					t.Fatalf("error %q does not say %q", err, w)
				}
			}
		})
	}
	if _, err := bots.Parse([]byte(build(nil)), "/x", "bot.json", testGames); err != nil {
		t.Fatalf("the base of the table is refused: %v", err)
	}
}

// TestLoad reads a manifest from its file: dir is taken from the file's
// folder, and a missing file is an error naming it.
func TestLoad(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bot.json")
	if err := os.WriteFile(path, []byte(specExample), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := bots.Load(path, testGames)
	if err != nil {
		t.Fatal(err)
	}
	if m.WorkDir() != dir {
		t.Fatalf("work dir %q, want %q", m.WorkDir(), dir)
	}
	if _, err := bots.Load(filepath.Join(dir, "nope.json"), testGames); err == nil || !strings.Contains(err.Error(), "nope.json") {
		t.Fatalf("missing file: %v", err)
	}
}

// TestParseAgreesWithVariantChecks checks that a manifest's params are
// checked by the very rules of strategies.Param: for each value the
// schema's Set refuses, the manifest's values refuse it with the same
// words.
func TestParseAgreesWithVariantChecks(t *testing.T) {
	schema := strategies.Schema{{Name: "n", Min: -2, Max: 5, Default: 1, Integer: true}}
	for _, v := range []float64{-3, 5.5, 0.5, 6} {
		werr := schema.Set(schema.Defaults(), "n", v)
		if werr == nil {
			t.Fatalf("the schema accepts %v", v)
		}
		data, _ := json.Marshal(map[string]any{"kind": bots.Kind, "game": "acb", "name": "b", "command": []string{"b"},
			"params": schema, "values": map[string]float64{"n": v}})
		_, err := bots.Parse(data, "/", "b.json", testGames)
		if err == nil || !strings.Contains(err.Error(), werr.Error()) {
			t.Fatalf("value %v: manifest error %v, schema error %v", v, err, werr)
		}
	}
}

// TestIsManifest tells manifests from variant files and other JSON.
func TestIsManifest(t *testing.T) {
	tests := []struct {
		data string
		want bool
	}{
		{specExample, true},
		{`{"kind":"crucible-bot/2"}`, true},
		{`{"game":"acb","base":"gatherer","params":{}}`, false},
		{`{"kind":"other"}`, false},
		{`{"kind":3}`, false},
		{`[1]`, false},
		{`not json`, false},
	}
	for _, tc := range tests {
		if got := bots.IsManifest([]byte(tc.data)); got != tc.want {
			t.Errorf("IsManifest(%s) = %v", tc.data, got)
		}
	}
}

// TestCheckRunnable checks that a bot whose files are not on this machine
// is refused with their names: a missing folder, a program not on PATH, a
// relative program that is missing or not executable.
func TestCheckRunnable(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "bot"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	manifest := func(dir, cmd string) *bots.Manifest {
		return mustParse(t, `{"kind":"crucible-bot/1","game":"acb","name":"b","dir":"`+dir+`","command":["`+cmd+`"]}`, filepath.Dir(filepath.Join(t.TempDir(), "x")))
	}
	tests := []struct {
		m    *bots.Manifest
		want string // "" for runnable
	}{
		{manifest(dir, "./bot"), ""},
		{manifest(dir, "sh"), ""},
		{manifest(dir+"/missing", "./bot"), "its folder " + dir + "/missing"},
		{manifest(dir, "no-such-program-xyz"), `command "no-such-program-xyz" is not on this machine's PATH`},
		{manifest(dir, "./nope"), "command ./nope (" + dir + "/nope) is not an executable file"},
		{manifest(dir, "./data.txt"), "command ./data.txt"},
	}
	for _, tc := range tests {
		err := tc.m.CheckRunnable()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s in %s: %v, want %q", tc.m.Command[0], tc.m.WorkDir(), err, tc.want)
		}
	}
}
