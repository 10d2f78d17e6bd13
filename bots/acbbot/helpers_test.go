package acbbot_test

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"crucible/arena"
	"crucible/bots"
	"crucible/bots/acbbot"
	"crucible/bots/botproc"
	"crucible/engine/acb"
	"crucible/games/lab"
	"crucible/strategies"
)

// repoRoot is the module's root, where examples/ lies.
func repoRoot(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// needPython fails (never skips) when python3 is missing: the examples'
// tests are part of the lab's promise.
func needPython(t testing.TB) {
	t.Helper()
	out, err := exec.Command("python3", "-c", "import sys; print(sys.version_info >= (3, 8))").Output()
	if err != nil || !bytes.HasPrefix(out, []byte("True")) {
		t.Fatalf("these tests need python3 (3.8 or later) on PATH to run examples/acb-python: %v %s", err, out)
	}
}

var (
	goBotOnce sync.Once
	goBotPath string
	goBotErr  error
)

// goBot builds examples/acb-go once per test binary and returns a manifest
// that runs the binary.
func goBot(t testing.TB) *bots.Manifest {
	t.Helper()
	goBotOnce.Do(func() {
		dir, err := os.MkdirTemp("", "acb-go-")
		if err != nil {
			goBotErr = err
			return
		}
		goBotPath = filepath.Join(dir, "acb-go")
		cmd := exec.Command("go", "build", "-o", goBotPath, "./examples/acb-go")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			goBotErr = &buildError{err: err, out: string(out)}
		}
	})
	if goBotErr != nil {
		t.Fatalf("building examples/acb-go: %v", goBotErr)
	}
	m := loadExample(t, "acb-go")
	m.Command = []string{goBotPath}
	return m
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// loadExample reads examples/NAME/bot.json.
func loadExample(t testing.TB, name string) *bots.Manifest {
	t.Helper()
	m, err := bots.Load(filepath.Join(repoRoot(t), "examples", name, "bot.json"), lab.Table().Names())
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// builtin returns the entrant of a built-in AI Code Battle strategy at its
// defaults.
func builtin(t testing.TB, name string) arena.Entrant {
	t.Helper()
	reg, err := lab.Table().Registry()
	if err != nil {
		t.Fatal(err)
	}
	s, err := reg.Lookup("acb", name)
	if err != nil {
		t.Fatal(err)
	}
	return arena.StrategyEntrant(s, name, "", s.Schema.Defaults())
}

// botEntrant makes the entrant of variant g of m (nil: its own values).
func botEntrant(t testing.TB, mgr *botproc.Manager, m *bots.Manifest, g strategies.Genome) arena.Entrant {
	t.Helper()
	v := m.Own()
	if g != nil {
		v = m.Variant(g)
	}
	e, err := acbbot.Entrant(mgr, v, v.Label())
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func newManager(t testing.TB) *botproc.Manager {
	t.Helper()
	m, err := botproc.New(botproc.Options{LogDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// shortConfig is the default configuration with fewer turns, so that the
// tests' matches are short.
func shortConfig(turns int) acb.Config {
	c := acb.DefaultConfig()
	c.MaxTurns = turns
	return c
}

// play runs jobs and returns their records.
func play(t testing.TB, es []arena.Entrant, jobs []arena.Job, opt arena.Options) []arena.Record {
	t.Helper()
	var recs []arena.Record
	err := arena.Run(context.Background(), acb.Game{}, es, jobs, opt, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return recs
}
