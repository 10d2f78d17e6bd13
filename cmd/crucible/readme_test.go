package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadmeExamples runs the README's command examples, in order, through
// the command tree, so that the README cannot drift from the CLI. They run
// in a folder of their own (the test's temporary directory), as the README
// says to run them: an example that writes to a fixed absolute path (the
// tour once wrote to /tmp/..., so it could not be run twice or by two
// users on one machine) is an error. Examples that start
// or need servers, build binaries, measure speed or run by wall clock are
// left to their own tests (serve_test.go, kindling_test.go, export tests)
// and are only checked to parse here.
func TestReadmeExamples(t *testing.T) {
	readme, err := filepath.Abs("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := filepath.Abs("../../examples")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	// The tour's "tune your own bot" plays the starters, from a copy as a
	// user's checkout would hold them.
	if err := os.CopyFS("examples", os.DirFS(examples)); err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, line := range strings.Split(string(data), "\n") {
		cmdline, ok := strings.CutPrefix(line, "    crucible ")
		if !ok {
			if strings.HasPrefix(line, "    ") && strings.Contains(line, " crucible ") && !strings.Contains(line, "&") {
				t.Errorf("README example %q is not checked by this test; start it with crucible", line)
			}
			continue
		}
		args := strings.Fields(cmdline)
		skip := false
		for _, a := range args {
			if strings.HasPrefix(a, "/") {
				t.Errorf("README example %q names the fixed path %s; give paths relative to the folder the tour runs in", line, a)
			}
			switch {
			case a == "serve", a == "play", a == "bench", a == "export", a == "--budget", strings.Contains(a, "http://"):
				skip = true
			}
		}
		if skip {
			// Parse only: the flags must exist.
			cmd, rest, err := newRootCmd().Find(args)
			if err != nil {
				t.Errorf("README example %q: %v", line, err)
				continue
			}
			if err := cmd.ParseFlags(rest); err != nil {
				t.Errorf("README example %q: %v", line, err)
			}
			continue
		}
		if _, errOut, err := execRoot(t, args...); err != nil {
			t.Fatalf("README example %q failed: %v\n%s", line, err, errOut)
		}
		ran++
	}
	if ran < 10 {
		t.Fatalf("ran only %d README examples; the README lost its tour?", ran)
	}
}
