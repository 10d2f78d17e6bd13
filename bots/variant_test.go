package bots_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"crucible/bots"
	"crucible/strategies"
)

func mustParse(t *testing.T, data, folder string) *bots.Manifest {
	t.Helper()
	m, err := bots.Parse([]byte(data), folder, "bot.json", testGames)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestEnvNames checks the spec's rule for a parameter's variable: upper
// case, every character outside [A-Z0-9] turned into '_'.
func TestEnvNames(t *testing.T) {
	tests := []struct{ name, want string }{
		{"aggression", "CRUCIBLE_PARAM_AGGRESSION"},
		{"max-radius", "CRUCIBLE_PARAM_MAX_RADIUS"},
		{"gather.share2", "CRUCIBLE_PARAM_GATHER_SHARE2"},
		{"camelCase", "CRUCIBLE_PARAM_CAMELCASE"},
		{"a b", "CRUCIBLE_PARAM_A_B"},
		{"été", "CRUCIBLE_PARAM__T_"},
	}
	for _, tc := range tests {
		if got := bots.EnvName(tc.name); got != tc.want {
			t.Errorf("EnvName(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestEnv checks the variables of a variant: the manifest's env, every
// value in CRUCIBLE_PARAMS as JSON and one CRUCIBLE_PARAM_ variable each,
// whole numbers without a decimal point.
func TestEnv(t *testing.T) {
	m := mustParse(t, specExample, "/srv")
	got := m.Own().Env()
	want := []string{
		"LOG_LEVEL=warn",
		`CRUCIBLE_PARAMS={"aggression":0.7,"radius":3}`,
		"CRUCIBLE_PARAM_AGGRESSION=0.7",
		"CRUCIBLE_PARAM_RADIUS=3",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("env\n%q\nwant\n%q", got, want)
	}
	v := m.Variant(strategies.Genome{1, 8})
	env := v.Env()
	if env[1] != `CRUCIBLE_PARAMS={"aggression":1,"radius":8}` || env[2] != "CRUCIBLE_PARAM_AGGRESSION=1" {
		t.Fatalf("whole numbers: %q", env)
	}
	tenth := 0.1 // a variable, so that 0.1+0.2 is float64 arithmetic
	for _, x := range []struct {
		v    float64
		want string
	}{{3, "3"}, {-2, "-2"}, {0.25, "0.25"}, {1e-7, "0.0000001"}, {1e21, "1000000000000000000000"}, {tenth + 0.2, "0.30000000000000004"}} {
		if got := bots.FormatValue(x.v); got != x.want {
			t.Errorf("FormatValue(%v) = %q, want %q", x.v, got, x.want)
		}
	}
	var params map[string]float64
	if err := json.Unmarshal([]byte(strings.TrimPrefix(env[1], bots.ParamsEnv+"=")), &params); err != nil || params["radius"] != 8 {
		t.Fatalf("CRUCIBLE_PARAMS does not decode: %v %v", params, err)
	}
}

// TestVariantID checks the id's rules: it names what plays, so spelling
// out a default, moving the folder or changing the concurrency or a
// description keeps it, while another value, command, env, name or game
// changes it.
func TestVariantID(t *testing.T) {
	const tmpl = `{"kind":"crucible-bot/1","game":"%GAME%","name":"%NAME%","command":%CMD%,"dir":"%DIR%","env":%ENV%,"concurrency":%CONC%,
	"params":[{"name":"a","min":0,"max":1,"default":0.5,"description":"%DESC%"},{"name":"r","min":1,"max":8,"default":3,"integer":true}],"values":%VALUES%}`
	base := map[string]string{"%GAME%": "acb", "%NAME%": "b", "%CMD%": `["python3","main.py"]`, "%DIR%": ".", "%ENV%": `{}`,
		"%CONC%": "1", "%DESC%": "x", "%VALUES%": `{"a":0.7}`}
	id := func(change map[string]string, folder string) string {
		s := tmpl
		for k, v := range base {
			if c, ok := change[k]; ok {
				v = c
			}
			s = strings.ReplaceAll(s, k, v)
		}
		return mustParse(t, s, folder).Own().ID
	}
	ref := id(nil, "/a")
	if len(ref) != 10 {
		t.Fatalf("id %q is not 10 hex digits", ref)
	}
	same := []map[string]string{
		{"%VALUES%": `{"a":0.7,"r":3}`},
		{"%DIR%": "sub"},
		{"%CONC%": "4"},
		{"%DESC%": "another description"},
	}
	for _, c := range same {
		if got := id(c, "/a"); got != ref {
			t.Errorf("%v changed the id: %s, want %s", c, got, ref)
		}
	}
	if got := id(nil, "/elsewhere"); got != ref {
		t.Errorf("another folder changed the id")
	}
	other := []map[string]string{
		{"%VALUES%": `{"a":0.8}`},
		{"%VALUES%": `{}`},
		{"%VALUES%": `{"a":0.7,"r":4}`},
		{"%CMD%": `["python3","main2.py"]`},
		{"%CMD%": `["python3","main.py","--fast"]`},
		{"%ENV%": `{"MODE":"fast"}`},
		{"%NAME%": "c"},
		{"%GAME%": "kindling"},
	}
	seen := map[string]bool{ref: true}
	for _, c := range other {
		got := id(c, "/a")
		if seen[got] {
			t.Errorf("%v did not change the id (%s)", c, got)
		}
		seen[got] = true
	}
	m := mustParse(t, specExample, "/")
	if m.Variant(strategies.Genome{0.7}).ID != m.Variant(strategies.Genome{0.7, 3}).ID {
		t.Errorf("a short genome is not padded with the defaults")
	}
	if v := m.Variant(strategies.Genome{2, 3.4}); !slices.Equal(v.Genome, strategies.Genome{1, 3}) {
		t.Errorf("genome not clamped: %v", v.Genome)
	}
}

// TestWriteChampion checks that a written variant is a manifest with
// every value filled in, whose dir still names the bot's folder from where
// it was written, and that it loads back as the same variant.
func TestWriteChampion(t *testing.T) {
	root := t.TempDir()
	botDir := filepath.Join(root, "src", "mybot")
	if err := os.MkdirAll(botDir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(botDir, "bot.json")
	if err := os.WriteFile(path, []byte(specExample), 0o644); err != nil {
		t.Fatal(err)
	}
	m, err := bots.Load(path, testGames)
	if err != nil {
		t.Fatal(err)
	}
	champ := m.Variant(strategies.Genome{0.25, 6})
	runDir := filepath.Join(root, "runs", "evolve")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(runDir, "champion.json")
	if err := champ.Write(out); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if raw["dir"] != "../../src/mybot" {
		t.Errorf("dir %v, want the bot's folder relative to the run's", raw["dir"])
	}
	values, _ := raw["values"].(map[string]any)
	if len(values) != 2 || values["aggression"] != 0.25 || values["radius"] != 6.0 {
		t.Errorf("values %v, want every value filled in", raw["values"])
	}
	back, err := bots.Load(out, testGames)
	if err != nil {
		t.Fatalf("the written champion does not load: %v\n%s", err, data)
	}
	if back.WorkDir() != botDir || back.Own().ID != champ.ID || !slices.Equal(back.Genome(), champ.Genome) {
		t.Fatalf("loaded back as %s in %s, want %s in %s", back.Own().ID, back.WorkDir(), champ.ID, botDir)
	}
	// A bot without parameters writes an empty list, which loads.
	bare := mustParse(t, `{"kind":"crucible-bot/1","game":"acb","name":"b","command":["b"]}`, botDir)
	if err := bare.Own().Write(out); err != nil {
		t.Fatal(err)
	}
	if _, err := bots.Load(out, testGames); err != nil {
		t.Fatalf("a written bot without parameters does not load: %v", err)
	}
}
