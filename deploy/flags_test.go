package deploy

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// pendingFlags lists crucible commands and flags the deployment may use
// before the CLI has them (TestFlagsAreReal accepts exactly these and
// fails on an entry no longer needed). None is pending: the queue's
// worker and arena --db exist.
var pendingFlags = map[string][]string{}

// invocation is one crucible command line of the deployment.
type invocation struct {
	where string
	args  []string // without the program name: the image's ENTRYPOINT is crucible
}

// invocations returns every crucible command line of the manifests and the
// compose file.
func invocations(t *testing.T) []invocation {
	m := loadManifests(t)
	var out []invocation
	for _, d := range m.deployments {
		for _, c := range d.Spec.Template.Spec.Containers {
			out = append(out, invocation{"Deployment " + d.Name + " container " + c.Name, c.Args})
		}
	}
	for _, cj := range m.cronJobs {
		for _, c := range cj.Spec.JobTemplate.Spec.Template.Spec.Containers {
			out = append(out, invocation{"CronJob " + cj.Name + " container " + c.Name, c.Args})
		}
	}
	for name, s := range loadCompose(t).services {
		if s.Image == "crucible:local" {
			out = append(out, invocation{composeFile + " service " + name, s.Command})
		}
	}
	return out
}

// split returns an invocation's command path (the words before the first
// flag) and the names of its flags. Flags must be long (--name or
// --name=value): a short flag is reported as a name starting with "-".
func split(args []string) (path []string, flags []string) {
	i := 0
	for i < len(args) && !strings.HasPrefix(args[i], "-") {
		i++
	}
	path = args[:i]
	for _, a := range args[i:] {
		if name, ok := strings.CutPrefix(a, "--"); ok {
			name, _, _ = strings.Cut(name, "=")
			flags = append(flags, name)
		} else if strings.HasPrefix(a, "-") && len(a) > 1 {
			flags = append(flags, a)
		}
	}
	return path, flags
}

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
	binDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// crucible builds ./cmd/crucible as the Dockerfile does (CGO_ENABLED=0,
// static), once, and returns the binary's path.
func crucible(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		if binDir, buildErr = os.MkdirTemp("", "crucible-deploy-"); buildErr != nil {
			return
		}
		binary = filepath.Join(binDir, "crucible")
		cmd := exec.Command("go", "build", "-o", binary, "./cmd/crucible")
		cmd.Dir = ".."
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("CGO_ENABLED=0 go build ./cmd/crucible: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binary
}

// helpFlag matches a flag line of cobra's help: "  -h, --help" or
// "      --db string".
var helpFlag = regexp.MustCompile(`(?m)^\s+(?:-[A-Za-z], )?--([a-z0-9][a-z0-9-]*)`)

// commandFlags returns the flags of the crucible command at path (its own
// and the inherited ones) from its --help, and false when the command does
// not exist.
func commandFlags(t *testing.T, path []string) ([]string, bool) {
	t.Helper()
	out, err := exec.Command(crucible(t), append(slices.Clone(path), "--help")...).CombinedOutput()
	usage := "crucible " + strings.Join(path, " ") + " [flags]"
	if err != nil || !strings.Contains(string(out), usage) {
		if strings.Contains(string(out), "unknown command") {
			return nil, false
		}
		t.Fatalf("crucible %s --help: %v\n%s", strings.Join(path, " "), err, out)
	}
	var flags []string
	for _, m := range helpFlag.FindAllStringSubmatch(string(out), -1) {
		flags = append(flags, m[1])
	}
	return flags, true
}

// TestFlagsAreReal: every command and flag of a crucible command line of
// the deployment is one of the built command tree (its --help), apart from
// the explicit pendingFlags.
func TestFlagsAreReal(t *testing.T) {
	needed := map[string]bool{} // "cmd --flag" entries of pendingFlags still needed
	seen := 0
	for _, inv := range invocations(t) {
		path, flags := split(inv.args)
		if len(path) == 0 {
			t.Errorf("%s: no crucible command in %q", inv.where, inv.args)
			continue
		}
		key := strings.Join(path, " ")
		known, exists := commandFlags(t, path)
		pending := pendingFlags[key]
		if !exists && pending == nil {
			t.Errorf("%s: crucible %s is not a command", inv.where, key)
			continue
		}
		for _, f := range flags {
			seen++
			switch {
			case strings.HasPrefix(f, "-"):
				t.Errorf("%s: short flag %s; use the long form", inv.where, f)
			case slices.Contains(known, f):
				if slices.Contains(pending, f) {
					t.Errorf("crucible %s --%s exists now: remove it from pendingFlags in deploy/flags_test.go", key, f)
				}
			case slices.Contains(pending, f):
				needed[key+" --"+f] = true
			default:
				t.Errorf("%s: crucible %s has no flag --%s (its flags: %s)", inv.where, key, f, strings.Join(known, ", "))
			}
		}
	}
	if seen < 10 {
		t.Errorf("only %d flags found in the deployment's command lines; the parsing is broken", seen)
	}
	for key, flags := range pendingFlags {
		for _, f := range flags {
			if !needed[key+" --"+f] {
				t.Errorf("pendingFlags lists crucible %s --%s, which no command line of the deployment needs excused: remove it", key, f)
			}
		}
	}
}

// TestCommandFlagsSeesRealFlags guards the help parsing: ladder run has
// --budget and the inherited --db, not --no-such-flag; crucible has no
// command named no-such-command.
func TestCommandFlagsSeesRealFlags(t *testing.T) {
	flags, ok := commandFlags(t, []string{"ladder", "run"})
	if !ok || !slices.Contains(flags, "budget") || !slices.Contains(flags, "db") || slices.Contains(flags, "no-such-flag") {
		t.Errorf("ladder run flags %v (exists %v)", flags, ok)
	}
	if _, ok := commandFlags(t, []string{"no-such-command"}); ok {
		t.Error("crucible no-such-command reported as a command")
	}
}

// TestBinaryIsStatic: CGO_ENABLED=0 builds a binary with no dynamic
// loader and no shared libraries, so it runs on a distroless static image.
func TestBinaryIsStatic(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the image's binary is a Linux ELF; checked on Linux")
	}
	f, err := elf.Open(crucible(t))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("the binary has a %v program header: dynamically linked", p.Type)
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("the binary needs shared libraries %v", libs)
	}
}
