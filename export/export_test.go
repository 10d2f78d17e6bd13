package export_test

import (
	"bytes"
	"context"
	"debug/elf"
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/engine/acb"
	"crucible/export"
	"crucible/games/lab"
	"crucible/protocol/acbhttp"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// target is the export target of game, from the lab's table of games.
func target(t *testing.T, game string) export.Target {
	t.Helper()
	g, err := lab.Table().Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	if g.Export == nil {
		t.Fatalf("game %s has no export target", game)
	}
	return *g.Export
}

func registry(t *testing.T) *strategies.Registry {
	t.Helper()
	reg, err := lab.Table().Registry()
	if err != nil {
		t.Fatal(err)
	}
	return reg
}

// requireGo skips the test when the Go toolchain export builds with is
// missing.
func requireGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("export builds the bot with the go command, which is not on PATH; skipping the build test")
	}
	if testing.Short() {
		t.Skip("-short: skipping the export build")
	}
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := export.FindModuleRoot(".")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func variantOf(t *testing.T, reg *strategies.Registry, game, base string) strategies.Variant {
	t.Helper()
	s, err := reg.Lookup(game, base)
	if err != nil {
		t.Fatal(err)
	}
	return strategies.NewVariant(s, s.Schema.Defaults())
}

// checkStaticLinux asserts the binary is a Linux ELF for arch with no
// dynamic loader and no shared libraries.
func checkStaticLinux(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		t.Fatalf("%s is not an ELF binary: %v", path, err)
	}
	defer f.Close()
	if f.Machine != elf.EM_X86_64 {
		t.Fatalf("%s is for %v, want x86-64 (the default --arch amd64)", path, f.Machine)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Fatalf("%s is dynamically linked (program header %v)", path, p.Type)
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Fatalf("%s needs shared libraries %v", path, libs)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

func canRun() bool { return runtime.GOOS == "linux" && runtime.GOARCH == "amd64" }

// readmeFlags returns the bot's flags a README names: those on a command
// line after ./bot (up to a # comment), and those quoted as `-flag`.
func readmeFlags(readme string) []string {
	dash := regexp.MustCompile(`(?:^|\s)-([a-z][a-z-]*)`)
	quoted := regexp.MustCompile("`-([a-z][a-z-]*)")
	var out []string
	for _, line := range strings.Split(readme, "\n") {
		if _, after, ok := strings.Cut(line, "./bot"); ok {
			after, _, _ = strings.Cut(after, "#")
			for _, m := range dash.FindAllStringSubmatch(after, -1) {
				out = append(out, m[1])
			}
		}
		for _, m := range quoted.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// checkReadmeFlags runs the exported bot with -help and fails unless every
// flag its README names is one the bot lists.
func checkReadmeFlags(t *testing.T, dir string) {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("./bot", "-help")
	cmd.Dir = dir
	help, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("./bot -help: %v\n%s", err, help)
	}
	flags := readmeFlags(string(readme))
	if len(flags) == 0 {
		t.Fatal("no flag found in the README: readmeFlags no longer reads it")
	}
	for _, f := range flags {
		if f == "help" {
			continue // the flag package's own
		}
		if !regexp.MustCompile(`(?m)^\s+-` + regexp.QuoteMeta(f) + `\b`).Match(help) {
			t.Errorf("the README names the flag -%s, which ./bot -help does not list:\n%s", f, help)
		}
	}
}

// buildLimit bounds the package's go builds of the bot. The first export
// of the test binary compiles the bot and everything it imports with the
// export's flags (-trimpath, CGO_ENABLED=0), which no other build of the
// test run shares; the second only links. Both took 87 s of CPU in all
// (measured: time go test ./export/ on a loaded 2-core machine, 7m50s
// wall), so about 30 minutes at a load of 40 on 2 cores, where each process
// gets 1/20 of a core. The package's go test -timeout must allow as much;
// testContext stops the test before it.
const buildLimit = 30 * time.Minute

// builtExport is one export made for the package's tests.
type builtExport struct {
	res export.Result
	v   strategies.Variant
	err error
}

// exports holds the exports made so far, by game and base: every test that
// runs a game's exported bot shares one build of it.
var exports = struct {
	sync.Mutex
	done map[string]*builtExport
}{done: map[string]*builtExport{}}

// testContext is a context for t that ends a little before the test
// binary's deadline (-timeout), so that a test stops with its own error
// rather than the binary's panic.
func testContext(t *testing.T) context.Context {
	t.Helper()
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-15*time.Second))
		t.Cleanup(cancel)
	}
	return ctx
}

// exportDefaults exports strategy base of game at its defaults (skipping
// the test without the Go toolchain), once per test binary: later calls
// get the same export. It checks that the binary is a static Linux one.
func exportDefaults(t *testing.T, game, base string) (export.Result, strategies.Variant, *strategies.Registry) {
	t.Helper()
	requireGo(t)
	reg := registry(t)
	exports.Lock()
	defer exports.Unlock()
	key := game + "/" + base
	b, ok := exports.done[key]
	if !ok {
		v := variantOf(t, reg, game, base)
		dir, err := os.MkdirTemp("", "crucible-export-test-")
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(testContext(t), buildLimit)
		defer cancel()
		res, err := export.Export(ctx, export.Options{Variant: v, Registry: reg, Target: target(t, game), OutDir: filepath.Join(dir, game+"-bot"), Src: moduleRoot(t)})
		b = &builtExport{res: res, v: v, err: err}
		exports.done[key] = b
	}
	if b.err != nil {
		t.Fatal(b.err)
	}
	checkStaticLinux(t, b.res.Binary)
	return b.res, b.v, reg
}

// TestMain removes the shared exports after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, b := range exports.done {
		if b.res.Dir != "" {
			os.RemoveAll(filepath.Dir(b.res.Dir))
		}
	}
	os.Exit(code)
}

// An exported ACB bot, started from its directory, plays a whole arena
// match (both seat orders) against an in-process player, then stops
// gracefully on SIGTERM.
func TestExportedACBBotPlaysAnArenaMatch(t *testing.T) {
	res, v, _ := exportDefaults(t, "acb", "gatherer")
	ctx := testContext(t)
	out := res.Dir
	if strings.Join(res.Files, " ") != "Dockerfile README.md bot variant.json" {
		t.Fatalf("exported files %v", res.Files)
	}
	docker, _ := os.ReadFile(filepath.Join(out, "Dockerfile"))
	for _, want := range []string{"FROM gcr.io/distroless/static", "COPY bot /bot", "ENV PORT=8080", "EXPOSE 8080", `ENTRYPOINT ["/bot"]`} {
		if !strings.Contains(string(docker), want) {
			t.Fatalf("Dockerfile lacks %q:\n%s", want, docker)
		}
	}
	readme, _ := os.ReadFile(filepath.Join(out, "README.md"))
	for _, want := range []string{"SHARED_SECRET=", "PORT", "docker run", v.ID} {
		if !strings.Contains(string(readme), want) {
			t.Fatalf("README lacks %q", want)
		}
	}
	saved, err := strategies.LoadVariant(filepath.Join(out, "variant.json"))
	if err != nil || saved.ID != v.ID {
		t.Fatalf("variant.json: %+v, %v (want id %s)", saved, err, v.ID)
	}
	if !canRun() {
		t.Skipf("built a linux/amd64 binary; this %s/%s machine cannot run it", runtime.GOOS, runtime.GOARCH)
	}

	checkReadmeFlags(t, out)

	// Without SHARED_SECRET the bot refuses to start.
	noSecret := exec.Command("./bot")
	noSecret.Dir = out
	noSecret.Env = []string{"PORT=" + strconv.Itoa(freePort(t))}
	msg, err := noSecret.CombinedOutput()
	if err == nil || !strings.Contains(string(msg), "SHARED_SECRET") {
		t.Fatalf("bot without SHARED_SECRET: %v, %s; want a start-up error naming it", err, msg)
	}

	const secret = "export-test-secret"
	port := freePort(t)
	cmd := exec.Command("./bot")
	cmd.Dir = out
	cmd.Env = []string{"SHARED_SECRET=" + secret, "PORT=" + strconv.Itoa(port)}
	var logs bytes.Buffer
	cmd.Stderr = &logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
		}
	}()
	bot, err := acbhttp.NewRemoteBot("http://127.0.0.1:"+strconv.Itoa(port), secret, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	entrants := []arena.Entrant{
		{Name: "exported", Strategy: "remote", New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			return bot.NewPlayer(ctx, seat)
		}},
		{Name: "random", Strategy: "random", New: func(ctx context.Context, seed uint64, seat int) (engine.Player, error) {
			return acb.NewRandom(seed), nil
		}},
	}
	cfg := acb.DefaultConfig()
	cfg.MaxTurns = 200
	var recs []arena.Record
	err = arena.Run(ctx, acb.Game{}, entrants, arena.RoundRobin(2, arena.Seeds(1, 1)), arena.Options{Workers: 2, Config: cfg},
		func(r arena.Record) error { recs = append(recs, r); return nil })
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2 (both seat orders)", len(recs))
	}
	for _, r := range recs {
		if r.Error != "" {
			t.Fatalf("match %s failed: %s\nbot log:\n%s", r.Job, r.Error, logs.String())
		}
		seat := 0
		if r.Players[1].Name == "exported" {
			seat = 1
		}
		if r.Crashed != nil && r.Crashed[seat] {
			t.Fatalf("match %s: the exported bot crashed\nbot log:\n%s", r.Job, logs.String())
		}
		if r.Turns < 10 {
			t.Fatalf("match %s lasted %d turns", r.Job, r.Turns)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("bot exit after SIGTERM: %v\n%s", err, logs.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("bot did not stop on SIGTERM")
	}
	if !strings.Contains(logs.String(), "stopped") {
		t.Fatalf("no graceful stop in the bot log:\n%s", logs.String())
	}
}

// An exported Kindling agent plays a whole match on our server against a
// house bot and prints the standings.
func TestExportedKindlingAgentPlaysAMatch(t *testing.T) {
	res, v, reg := exportDefaults(t, "kindling", "sniper")
	ctx := testContext(t)
	out := res.Dir
	docker, _ := os.ReadFile(filepath.Join(out, "Dockerfile"))
	if !strings.Contains(string(docker), "ENV KINDLING_URL=https://kindling.adamhaleworks.workers.dev") {
		t.Fatalf("Dockerfile:\n%s", docker)
	}
	if !canRun() {
		t.Skipf("built a linux/amd64 binary; this %s/%s machine cannot run it", runtime.GOOS, runtime.GOARCH)
	}
	checkReadmeFlags(t, out)
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: house})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	cmd := exec.CommandContext(ctx, "./bot", "-seats", "2", "-bots", "1", "-poll", "20ms", "-quiet")
	cmd.Dir = out
	cmd.Env = []string{"KINDLING_URL=" + ts.URL}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("agent: %v\n%s", err, stderr.String())
	}
	text := stdout.String()
	first, _, _ := strings.Cut(text, "\n")
	f := strings.Fields(first)
	if len(f) < 2 || f[0] != "match" || !strings.Contains(first, "finished") {
		t.Fatalf("standings start %q, want \"match CODE (finished ...\"\n%s", first, text)
	}
	client, _ := kindlingapi.NewClient(ts.URL)
	lg, err := client.Log(ctx, f[1])
	if err != nil {
		t.Fatal(err)
	}
	if len(lg.Turns) != 8 || lg.Final == nil || lg.Players[0].Name != v.Label() || lg.Players[0].Kind != kindlingapi.KindAgent {
		t.Fatalf("log: %d turns, final %v, players %+v", len(lg.Turns), lg.Final, lg.Players)
	}
	for _, rec := range lg.Turns {
		if rec.Missed[0] {
			t.Fatalf("the exported agent missed turn %d", rec.Turn)
		}
	}
	if !strings.Contains(text, v.Label()+" (you)") || !strings.Contains(text, "win") {
		t.Fatalf("standings:\n%s", text)
	}
}

func TestExportRefusesBadInputAndLeavesNothing(t *testing.T) {
	reg := registry(t)
	good := variantOf(t, reg, "kindling", "sniper")
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	os.MkdirAll(full, 0o755)
	os.WriteFile(filepath.Join(full, "x"), []byte("x"), 0o644)
	notSrc := t.TempDir()
	tests := []struct {
		rule string
		o    export.Options
		want string
	}{
		{"an unknown base strategy", export.Options{Variant: strategies.Variant{Game: "kindling", Base: "nope"}, OutDir: filepath.Join(dir, "a")}, "unknown kindling strategy"},
		{"an unknown parameter", export.Options{Variant: strategies.Variant{Game: "kindling", Base: "sniper", Params: map[string]float64{"nonexistent": 1}}, OutDir: filepath.Join(dir, "b")}, "unknown parameter"},
		{"a non-empty output directory", export.Options{Variant: good, OutDir: full}, "not empty"},
		{"a source tree that is not crucible", export.Options{Variant: good, OutDir: filepath.Join(dir, "c"), Src: notSrc}, "not the crucible source"},
		{"no go toolchain", export.Options{Variant: good, OutDir: filepath.Join(dir, "d"), Src: moduleRoot(t), Go: "no-such-go-command"}, "Go toolchain"},
		{"another game's target", export.Options{Variant: good, Target: target(t, "acb"), OutDir: filepath.Join(dir, "e")}, `a variant of game "kindling" needs that game's target, not "acb"'s`},
		{"a variant whose id is not its content's", export.Options{Variant: func() strategies.Variant { v := good; v.ID = "0123456789"; return v }(), OutDir: filepath.Join(dir, "f")},
			"does not match its content"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			tt.o.Registry = reg
			if tt.o.Target.Game == "" {
				tt.o.Target = target(t, "kindling")
			}
			_, err := export.Export(context.Background(), tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Export = %v, want an error containing %q", err, tt.want)
			}
		})
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "full" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("failed exports left %v behind", names)
	}
}
