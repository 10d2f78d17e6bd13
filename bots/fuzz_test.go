package bots_test

import (
	"strings"
	"testing"

	"crucible/bots"
)

// FuzzParse feeds arbitrary bytes to the manifest parser: it must never
// panic, every error must say which manifest it is about, and what it
// accepts must hold the spec's invariants and write back as a manifest
// that parses as the same variant.
func FuzzParse(f *testing.F) {
	f.Add([]byte(specExample))
	f.Add([]byte(`{"kind":"crucible-bot/1","game":"kindling","name":"k","command":["./agent"]}`))
	f.Add([]byte(`{"kind":"crucible-bot/1","game":"acb","name":"b","command":["b"],"params":[{"name":"n","min":0,"max":9,"default":2,"integer":true}],"values":{"n":9}}`))
	f.Add([]byte(`{"kind":"crucible-bot/1","game":"acb","name":"b","command":["b"],"env":{"A":"1"},"concurrency":3,"dir":"x"}`))
	f.Add([]byte(`{"kind":1}`))
	f.Add([]byte(`null`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := bots.Parse(data, "/f", "fuzz.json", testGames)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "bot manifest fuzz.json: ") {
				t.Fatalf("error without the manifest's name: %v", err)
			}
			return
		}
		if len(m.Command) == 0 || m.Command[0] == "" || m.Concurrency < 1 || m.Name == "" {
			t.Fatalf("accepted an impossible manifest: %+v", m)
		}
		if err := m.Params.Validate(); err != nil {
			t.Fatalf("accepted an invalid schema: %v", err)
		}
		if _, err := m.Params.FromMap(m.Values); err != nil {
			t.Fatalf("accepted illegal values: %v", err)
		}
		v := m.Own()
		out, err := v.Marshal("/f")
		if err != nil {
			t.Fatal(err)
		}
		back, err := bots.Parse(out, "/f", "back.json", testGames)
		if err != nil {
			t.Fatalf("the written manifest does not parse: %v\n%s", err, out)
		}
		if back.Own().ID != v.ID || back.WorkDir() != m.WorkDir() {
			t.Fatalf("written and read back: id %s in %s, want %s in %s", back.Own().ID, back.WorkDir(), v.ID, m.WorkDir())
		}
	})
}
