package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestOutputFlagNamingADirectory checks defect 7 of issue 10: an output
// file flag that names an existing directory says so with the flag's name
// (it used to say "rename .m.json.tmp123 DIR: file exists" after playing),
// and nothing is written beside it.
func TestOutputFlagNamingADirectory(t *testing.T) {
	results := rateFixture(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "taken")
	if err := os.Mkdir(target, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		flag string
	}{
		{"rate --out", []string{"rate", "--results", results, "--out", target}, "--out"},
		{"report --out", []string{"report", "--results", results, "--out", target}, "--out"},
		{"map --out", []string{"map", "--out", target}, "--out"},
		{"match kindling --log", []string{"match", "kindling", "--players", "normal,easy", "--log", target}, "--log"},
		{"match acb --replay", []string{"match", "acb", "--players", "random,idle", "--replay", target}, "--replay"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := execRoot(t, tt.args...)
			want := tt.flag + " " + target + " is a directory; name the file to write"
			if err == nil || err.Error() != want {
				t.Fatalf("error %v, want %q", err, want)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Fatalf("%d entries beside the directory, want none", len(entries)-1)
			}
		})
	}
}

// TestOutputFlagNamingAnInput checks that rate and report refuse to write
// over the file they read (rate --out r.jsonl replaced the results with
// ratings), while rate may still replace its --prior file.
func TestOutputFlagNamingAnInput(t *testing.T) {
	results := rateFixture(t)
	before, _ := os.ReadFile(results)
	for _, command := range []string{"rate", "report"} {
		_, _, err := execRoot(t, command, "--results", results, "--out", results)
		if want := "--out " + results + " is the --results file; choose another file to write"; err == nil || err.Error() != want {
			t.Fatalf("%s: error %v, want %q", command, err, want)
		}
	}
	if after, _ := os.ReadFile(results); string(after) != string(before) {
		t.Fatal("the results file changed")
	}
	prior := filepath.Join(t.TempDir(), "ladder.json")
	os.WriteFile(prior, []byte(`{"normal": {"rating": 1600, "rd": 80, "volatility": 0.06}}`), 0o644)
	if _, _, err := execRoot(t, "rate", "--results", results, "--prior", prior, "--out", prior, "--format", "csv"); err != nil {
		t.Fatalf("rate --out its --prior: %v", err)
	}
}
