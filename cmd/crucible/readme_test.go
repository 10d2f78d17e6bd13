package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeExamples runs the README's command examples, in order, through
// the command tree, so that the README cannot drift from the CLI. Paths
// under /tmp/ are moved into the test's own directory. Examples that start
// or need servers, build binaries, measure speed or run by wall clock are
// left to their own tests (serve_test.go, kindling_test.go, export tests)
// and are only checked to parse here.
func TestReadmeExamples(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ran := 0
	for _, line := range strings.Split(string(data), "\n") {
		cmdline, ok := strings.CutPrefix(line, "    crucible ")
		if !ok {
			if strings.HasPrefix(line, "    ") && strings.Contains(line, " crucible ") && !strings.Contains(line, "&") {
				t.Errorf("README example %q is not checked by this test; start it with crucible", line)
			}
			continue
		}
		args := strings.Fields(strings.ReplaceAll(cmdline, "/tmp/", dir+"/"))
		skip := false
		for _, a := range args {
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
