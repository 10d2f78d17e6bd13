// Package export turns a variant into a directory a user can deploy as it
// is: a static Linux binary that plays only that variant, the variant
// JSON, a Dockerfile and a README with the run commands. What
// the binary does with the variant is its game's Target (the AI Code Battle
// HTTP bot, the Kindling agent), which each game's entry in the table of
// games gives.
//
// The binary is built with the Go toolchain from the crucible source tree:
// `go build` of the small main in games/lab/bot with the variant linked in
// (-ldflags -X), CGO_ENABLED=0, GOOS=linux. Building rather than copying
// the running crucible binary means the export is static and Linux whatever
// machine and build flags crucible itself came from, and contains only the
// bot. It needs `go` on PATH and the checkout (found from the working
// directory upwards, or given as Options.Src).
package export

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"text/template"

	"crucible/strategies"
)

// ModulePath is the module the export builds from.
const ModulePath = "crucible"

// BotPackage is the main package of exported binaries, relative to the
// module root: it runs the linked-in variant with its game's Target, from
// the lab's table of games (which imports this package, hence a main of
// its own above it).
const BotPackage = "./games/lab/bot"

// Options configures Export.
type Options struct {
	// Variant is the variant to export; it must resolve in Registry.
	Variant  strategies.Variant
	Registry *strategies.Registry
	// Target is the export of the variant's game (the table of games
	// gives each game's).
	Target Target
	// OutDir is the directory to create. It must not exist, or be empty.
	OutDir string
	// Src is the crucible module root; empty means the nearest directory
	// at or above the working directory whose go.mod declares module
	// crucible.
	Src string
	// GOARCH is the target architecture (default amd64); GOOS is always
	// linux.
	GOARCH string
	// Go is the go command (default "go", looked up on PATH).
	Go string
	// Log receives the build's output; nil discards it.
	Log io.Writer
}

// Result lists what Export wrote.
type Result struct {
	// Dir is the export's absolute directory and Binary the bot in it.
	Dir    string
	Binary string
	// Files are the names written in Dir, sorted.
	Files []string
	// Variant is the exported variant as written to variant.json: every
	// parameter of its schema, its id recomputed.
	Variant strategies.Variant
}

// Export builds the deployable directory. Nothing is left behind on
// error: the files are written to a temporary directory beside OutDir and
// renamed into place at the end.
func Export(ctx context.Context, o Options) (Result, error) {
	if o.Registry == nil {
		return Result{}, errors.New("export: no registry")
	}
	if o.Target.Game != o.Variant.Game || o.Target.Run == nil {
		return Result{}, fmt.Errorf("export: a variant of game %q needs that game's target, not %q's", o.Variant.Game, o.Target.Game)
	}
	// Normalise: every parameter of the schema written out, id over the
	// full genome.
	r, err := o.Registry.Check(o.Variant)
	if err != nil {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	s, v := r.Strategy, r.Variant
	if o.OutDir == "" {
		return Result{}, errors.New("export: no output directory (--out)")
	}
	out, err := filepath.Abs(o.OutDir)
	if err != nil {
		return Result{}, err
	}
	if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
		return Result{}, fmt.Errorf("export: %s exists and is not empty; choose a new directory", out)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return Result{}, fmt.Errorf("export: %w", err)
	}
	src := o.Src
	if src == "" {
		if src, err = FindModuleRoot("."); err != nil {
			return Result{}, err
		}
	} else if err := checkModuleRoot(src); err != nil {
		return Result{}, err
	}
	goCmd := o.Go
	if goCmd == "" {
		goCmd = "go"
	}
	goPath, err := exec.LookPath(goCmd)
	if err != nil {
		return Result{}, fmt.Errorf("export builds the bot with the Go toolchain, and %q is not on PATH: install Go 1.26 (https://go.dev/dl/) and run export from the crucible checkout", goCmd)
	}
	arch := o.GOARCH
	if arch == "" {
		arch = "amd64"
	}

	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return Result{}, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(out), "."+filepath.Base(out)+".export-*")
	if err != nil {
		return Result{}, err
	}
	keep := false
	defer func() {
		if !keep {
			os.RemoveAll(tmp)
		}
	}()

	variantBytes, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return Result{}, err
	}
	variantBytes = append(variantBytes, '\n')
	if err := build(ctx, goPath, src, arch, filepath.Join(tmp, "bot"), variantBytes, o.Log); err != nil {
		return Result{}, err
	}
	files := map[string][]byte{"variant.json": variantBytes}
	page := pageData{V: v, Label: v.Label(), Params: paramRows(s, v), Arch: arch, Description: s.Description}
	if s.Program != nil && s.Program.Text != nil {
		page.Program = s.Program.Text(r.Genome)
	}
	for name, tpl := range map[string]*template.Template{"Dockerfile": o.Target.Dockerfile, "README.md": o.Target.README} {
		var b bytes.Buffer
		if err := tpl.Execute(&b, page); err != nil {
			return Result{}, fmt.Errorf("export: writing %s: %w", name, err)
		}
		files[name] = b.Bytes()
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			return Result{}, err
		}
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		return Result{}, err
	}
	os.Remove(out) // an empty directory may stand where the export goes
	if err := os.Rename(tmp, out); err != nil {
		return Result{}, fmt.Errorf("export: moving the export into %s: %w", out, err)
	}
	keep = true
	res := Result{Dir: out, Binary: filepath.Join(out, "bot"), Files: []string{"bot"}, Variant: v}
	for name := range files {
		res.Files = append(res.Files, name)
	}
	sort.Strings(res.Files)
	return res, nil
}

// build compiles BotPackage with the variant linked in.
func build(ctx context.Context, goPath, src, arch, dst string, variant []byte, log io.Writer) error {
	ldflags := "-s -w -X main.variantJSON=" + base64.StdEncoding.EncodeToString(variant)
	cmd := exec.CommandContext(ctx, goPath, "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", dst, BotPackage)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	var outBuf bytes.Buffer
	cmd.Stdout = &outBuf
	cmd.Stderr = &outBuf
	err := cmd.Run()
	if log != nil {
		log.Write(outBuf.Bytes())
	}
	if err != nil {
		return fmt.Errorf("export: go build %s in %s failed: %v\n%s", BotPackage, src, err, strings.TrimSpace(outBuf.String()))
	}
	return nil
}

// FindModuleRoot returns the nearest directory at or above dir whose
// go.mod declares module crucible and which holds BotPackage.
func FindModuleRoot(dir string) (string, error) {
	d, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	for {
		if checkModuleRoot(d) == nil {
			return d, nil
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", fmt.Errorf("export builds the bot from the crucible source, and no directory from %s upwards holds its go.mod: run export inside the checkout or pass --src", dir)
		}
		d = parent
	}
}

// checkModuleRoot checks that dir is the crucible module root.
func checkModuleRoot(dir string) error {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return fmt.Errorf("%s is not the crucible source: %w", dir, err)
	}
	found := false
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "module" && f[1] == ModulePath {
			found = true
		}
	}
	if !found {
		return fmt.Errorf("%s/go.mod is not module %s", dir, ModulePath)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(BotPackage), "main.go")); err != nil {
		return fmt.Errorf("%s lacks %s/main.go: %w", dir, BotPackage, err)
	}
	return nil
}

// paramRow is one parameter in the README.
type paramRow struct {
	Name, Value, Range, Default, Description string
}

func paramRows(s strategies.Strategy, v strategies.Variant) []paramRow {
	var rows []paramRow
	for _, p := range s.Schema {
		rows = append(rows, paramRow{
			Name:        p.Name,
			Value:       fmt.Sprint(v.Params[p.Name]),
			Range:       p.Range(),
			Default:     fmt.Sprint(p.Default),
			Description: p.Description,
		})
	}
	return rows
}
