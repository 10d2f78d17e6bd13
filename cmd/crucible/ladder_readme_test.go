package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// nightlyExamples returns the README's nightly examples: the cron line's
// command (after its five time fields), the GitHub Actions job's script
// that plays the night and its report step's command.
func nightlyExamples(t *testing.T) (cron, night, report string) {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	i := strings.Index(text, "### A nightly ladder")
	if i < 0 {
		t.Fatal("the README has no section \"A nightly ladder\"")
	}
	sec := text[i+1:]
	if j := strings.Index(sec, "\n#"); j >= 0 {
		sec = sec[:j]
	}
	lines := strings.Split(sec, "\n")
	for k, l := range lines {
		if rest, ok := strings.CutPrefix(l, "    0 3 * * * "); ok {
			cron = rest
		}
		if strings.Contains(l, "- name: Play tonight's night") {
			// The step's "run: |" block: the lines indented as its first.
			block, indent := false, ""
			for _, r := range lines[k+1:] {
				if strings.HasSuffix(r, "run: |") {
					block = true
					continue
				}
				if !block {
					continue
				}
				if indent == "" {
					indent = r[:len(r)-len(strings.TrimLeft(r, " "))]
				}
				if !strings.HasPrefix(r, indent) {
					break
				}
				night += strings.TrimPrefix(r, indent) + "\n"
			}
		}
		if strings.Contains(l, "- name: Ladder report") {
			for _, r := range lines[k+1:] {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(r), "run: "); ok {
					report = rest
					break
				}
			}
		}
	}
	if cron == "" || night == "" || report == "" {
		t.Fatalf("README nightly examples not found: cron %q, night script %q, report %q", cron, night, report)
	}
	return cron, night, report
}

// sh runs script with bash in dir, with env added, and returns its output
// and exit status.
func sh(t *testing.T, dir, script string, env ...string) (string, int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return out.String(), ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), 0
}

// The README's cron line and GitHub Actions job do what the README says:
// against a ladder whose new version is weaker, the cron line prints the
// status 3 and the job's night step fails with status 3 and an error
// annotation (its report step still writes the page); against a healthy
// ladder, both pass in silence. ./bin/crucible is this test binary acting
// as crucible.
func TestReadmeNightly(t *testing.T) {
	cron, night, report := nightlyExamples(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	weak := variantFile(t, "normal", map[string]float64{"sparkValue": 0, "emberValue": 0})
	for _, regressed := range []bool{true, false} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "bin"), 0o755)
		wrapper := "#!/bin/sh\n" + childArgv + "=1 exec " + self + " \"$@\"\n"
		if err := os.WriteFile(filepath.Join(dir, "bin", "crucible"), []byte(wrapper), 0o755); err != nil {
			t.Fatal(err)
		}
		db := filepath.Join(dir, "ladder.db")
		setupLadder(t, db, "normal", "sniper", "greedy")
		lad(t, db, "add", "bot", "--strategy", "normal")
		lad(t, db, "run", "--night", "n1", "--seeds-per-night", "2", "--budget", "0")
		if regressed {
			lad(t, db, "add", "bot", "--variant", weak)
		}

		out, status := sh(t, dir, strings.Replace(cron, "cd /srv/lab", "cd "+dir, 1))
		log, _ := os.ReadFile(filepath.Join(dir, "ladder.log"))
		switch {
		case status != 0:
			t.Fatalf("cron command (regressed %v): status %d\n%s", regressed, status, out)
		case regressed && !strings.Contains(out, "exited with status 3 (3: a new version is weaker"):
			t.Fatalf("cron command with a regression printed %q, want the status 3\n%s", out, log)
		case regressed && !strings.Contains(string(log), "regression test of bot@v2: H0: weaker than bot"):
			t.Fatalf("ladder.log lacks the verdict:\n%s", log)
		case !regressed && out != "":
			t.Fatalf("cron command on a healthy ladder printed %q (cron would mail it)\n%s", out, log)
		}

		env := "CRUCIBLE_DB=" + db
		out, status = sh(t, dir, night, env)
		annotated := strings.Contains(out, "::error::a new version is weaker")
		if regressed && (status != 3 || !annotated) || !regressed && (status != 0 || annotated) {
			t.Fatalf("CI night step (regressed %v): status %d\n%s", regressed, status, out)
		}
		if out, status := sh(t, dir, report, env); status != 0 {
			t.Fatalf("CI report step: status %d\n%s", status, out)
		}
		if page, err := os.ReadFile(filepath.Join(dir, "ladder.html")); err != nil || strings.Contains(string(page), `<tr class="regression">`) != regressed {
			t.Fatalf("CI report (regressed %v): %v", regressed, err)
		}
	}
}
