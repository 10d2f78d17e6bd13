package evolver

import (
	"strings"
	"testing"
)

// FuzzParseGenerations feeds generations.jsonl contents to the parser: it
// never panics, what it accepts has increasing generations, and every
// error names the file and a line.
func FuzzParseGenerations(f *testing.F) {
	f.Add([]byte("{\"generation\":0,\"best\":0.5}\n{\"generation\":1,\"best\":0.6}\n"))
	f.Add([]byte("{\"generation\":0}\n{\"generation\":1"))
	f.Add([]byte("\n\n{\"generation\":3}\n{\"generation\":2}\n"))
	f.Add([]byte("not json\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		gens, _, err := parseGenerations(data, "g.jsonl")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "g.jsonl:") {
				t.Fatalf("error %q does not name the file and line", err)
			}
			return
		}
		for i := 1; i < len(gens); i++ {
			if gens[i].Generation <= gens[i-1].Generation {
				t.Fatalf("accepted generation %d after %d", gens[i].Generation, gens[i-1].Generation)
			}
		}
	})
}
