package deploy

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// instruction is one Dockerfile instruction, continuation lines joined.
type instruction struct {
	cmd  string // upper case: FROM, RUN, COPY, ...
	args string
}

// stage is one build stage: its FROM image, its name and instructions.
type stage struct {
	image, name string
	body        []instruction
}

// dockerfile parses ../Dockerfile into its stages.
func dockerfile(t *testing.T) []stage {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	cur := ""
	for _, l := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(l)
		if strings.HasPrefix(trimmed, "#") || (trimmed == "" && cur == "") {
			continue
		}
		if c, ok := strings.CutSuffix(trimmed, `\`); ok {
			cur += c + " "
			continue
		}
		lines = append(lines, cur+trimmed)
		cur = ""
	}
	var stages []stage
	for _, l := range lines {
		if l == "" {
			continue
		}
		cmd, args, _ := strings.Cut(l, " ")
		in := instruction{strings.ToUpper(cmd), strings.TrimSpace(args)}
		if in.cmd == "FROM" {
			f := strings.Fields(in.args)
			s := stage{image: f[0]}
			if len(f) == 3 && strings.EqualFold(f[1], "AS") {
				s.name = f[2]
			}
			stages = append(stages, s)
			continue
		}
		if len(stages) == 0 {
			t.Fatalf("Dockerfile: %s before the first FROM", in.cmd)
		}
		stages[len(stages)-1].body = append(stages[len(stages)-1].body, in)
	}
	if len(stages) < 2 {
		t.Fatalf("Dockerfile: %d stages, want a build stage and a runtime stage", len(stages))
	}
	return stages
}

// goBuild matches the build command: environment assignments, go build,
// its options, the package.
var goBuild = regexp.MustCompile(`^((?:[A-Z_]+=\S+\s+)*)go build\s+(.*?)\s*(\S+)$`)

// TestDockerfile: a golang builder of the module's Go release builds
// ./cmd/crucible with CGO_ENABLED=0; the runtime stage is another, small
// image that copies that binary, runs it as ENTRYPOINT, as a numeric
// non-root user, the one the Kubernetes pods run as.
func TestDockerfile(t *testing.T) {
	stages := dockerfile(t)
	build, final := stages[0], stages[len(stages)-1]

	goVersion := ""
	if data, err := os.ReadFile(filepath.Join("..", "go.mod")); err == nil {
		if m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(data); m != nil {
			goVersion = string(m[1])
		}
	}
	if goVersion == "" || !strings.HasPrefix(build.image, "golang:"+goVersion) {
		t.Errorf("Dockerfile: build stage FROM %s, want golang:%s (go.mod's go line)", build.image, goVersion)
	}

	var out string
	for _, in := range build.body {
		if in.cmd != "RUN" || !strings.Contains(in.args, "go build") {
			continue
		}
		m := goBuild.FindStringSubmatch(in.args)
		if m == nil {
			t.Fatalf("Dockerfile: cannot read the build command %q", in.args)
		}
		if !strings.Contains(" "+m[1], " CGO_ENABLED=0 ") {
			t.Errorf("Dockerfile: %q does not build with CGO_ENABLED=0", in.args)
		}
		if m[3] != "./cmd/crucible" {
			t.Errorf("Dockerfile: builds %q, want ./cmd/crucible", m[3])
		}
		f := strings.Fields(m[2])
		for i := range f[:len(f)-1] {
			if f[i] == "-o" {
				out = f[i+1]
			}
		}
	}
	if out == "" {
		t.Fatal("Dockerfile: no `go build -o FILE ./cmd/crucible` in the build stage")
	}

	if strings.HasPrefix(final.image, "golang:") || final.image == build.image {
		t.Errorf("Dockerfile: runtime stage FROM %s, want a small image (distroless static or alpine)", final.image)
	}
	var user, entry string
	var copied []string // destinations of the binary copied from the build stage
	for _, in := range final.body {
		switch in.cmd {
		case "USER":
			user = in.args
		case "COPY":
			f := strings.Fields(in.args)
			from := false
			var paths []string
			for _, a := range f {
				if v, ok := strings.CutPrefix(a, "--from="); ok {
					from = v == build.name || v == "0"
				} else if !strings.HasPrefix(a, "--") {
					paths = append(paths, a)
				}
			}
			if from && len(paths) == 2 && paths[0] == out {
				copied = append(copied, paths[1])
			}
		case "ENTRYPOINT":
			var argv []string
			if err := json.Unmarshal([]byte(in.args), &argv); err != nil || len(argv) == 0 {
				t.Errorf("Dockerfile: ENTRYPOINT %s is not the exec form [\"...\"]", in.args)
			} else {
				entry = argv[0]
			}
		}
	}
	if len(copied) != 1 || entry != copied[0] || filepath.Base(entry) != "crucible" {
		t.Errorf("Dockerfile: ENTRYPOINT %q, the build's %s copied to %v; want the copied crucible", entry, out, copied)
	}
	uid, _, _ := strings.Cut(user, ":")
	n, err := strconv.Atoi(uid)
	if err != nil || n == 0 {
		t.Fatalf("Dockerfile: runtime USER %q, want a numeric non-root user (Kubernetes' runAsNonRoot checks numbers only)", user)
	}
	m := loadManifests(t)
	for _, d := range m.deployments {
		if sc := d.Spec.Template.Spec.SecurityContext; sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != int64(n) {
			t.Errorf("Deployment %s: runAsUser is not the image's user %d", d.Name, n)
		}
	}
	for _, c := range m.cronJobs {
		if sc := c.Spec.JobTemplate.Spec.Template.Spec.SecurityContext; sc == nil || sc.RunAsUser == nil || *sc.RunAsUser != int64(n) {
			t.Errorf("CronJob %s: runAsUser is not the image's user %d", c.Name, n)
		}
	}
}

// TestDockerignoreKeepsTheSources: the build context keeps go.mod, go.sum
// and the directory of every package ./cmd/crucible is built from, and
// leaves out .git.
func TestDockerignoreKeepsTheSources(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", ".dockerignore"))
	if err != nil {
		t.Fatal(err)
	}
	var patterns []string
	for _, l := range strings.Split(string(data), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
			patterns = append(patterns, strings.TrimPrefix(l, "/"))
		}
	}
	ignored := func(p string) bool {
		for _, pat := range patterns {
			if ok, _ := filepath.Match(pat, p); ok {
				return true
			}
		}
		return false
	}
	if !ignored(".git") {
		t.Error(".dockerignore does not leave out .git")
	}
	cmd := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.Dir}}{{end}}", "./cmd/crucible")
	cmd.Dir = ".."
	list, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	need := []string{"go.mod", "go.sum"}
	for _, dir := range strings.Fields(string(list)) {
		if rel, err := filepath.Rel(root, dir); err == nil && !strings.HasPrefix(rel, "..") {
			need = append(need, rel)
		}
	}
	if len(need) < 10 {
		t.Fatalf("go list found only %v in the module", need)
	}
	for _, p := range need {
		// A pattern that leaves out a directory leaves out all below it.
		for prefix := p; prefix != "."; prefix = filepath.Dir(prefix) {
			if ignored(filepath.ToSlash(prefix)) {
				t.Errorf(".dockerignore leaves out %s, needed to build ./cmd/crucible", prefix)
				break
			}
		}
	}
}
