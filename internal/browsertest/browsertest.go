// Package browsertest starts a headless Chromium for tests that drive a
// real browser through chromedp. It finds Debian's chromium, installs it
// with apt-get when it is missing, and never skips: a test that needs a
// browser fails when none can be had.
package browsertest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// candidates are the executables looked for, in order, after $CHROMIUM.
var candidates = []string{"/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// lockPath serialises installs between test binaries run in parallel.
const lockPath = "/tmp/crucible-browsertest-install.lock"

var (
	installOnce sync.Once
	installErr  error
)

// find returns the first Chromium found: $CHROMIUM when set, else the
// candidates on $PATH.
func find() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		if _, err := exec.LookPath(p); err != nil {
			return "", fmt.Errorf("$CHROMIUM = %q is not an executable: %w", p, err)
		}
		return p, nil
	}
	for _, c := range candidates {
		if p, err := exec.LookPath(c); err == nil {
			return p, nil
		}
	}
	return "", errors.New("no chromium on $PATH")
}

// Chromium returns the path of a Chromium executable. When none is found
// it runs `apt-get install -y chromium` (after `apt-get update` if the
// first attempt fails), once per process and under a file lock shared by
// all test binaries; it returns an error saying what failed when that
// does not give one either.
func Chromium() (string, error) {
	if p, err := find(); err == nil {
		return p, nil
	}
	installOnce.Do(func() { installErr = install() })
	if installErr != nil {
		return "", installErr
	}
	p, err := find()
	if err != nil {
		return "", fmt.Errorf("apt-get installed chromium but %v", err)
	}
	return p, nil
}

// install runs apt-get under the lock; a binary found once the lock is
// held (another process installed it) ends it early.
func install() error {
	lock, err := os.OpenFile(lockPath, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return fmt.Errorf("chromium install lock %s: %w", lockPath, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("chromium install lock %s: %w", lockPath, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := find(); err == nil {
		return nil
	}
	apt := func(args ...string) error {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		out, err := cmd.CombinedOutput()
		if err != nil {
			tail := out
			if len(tail) > 2000 {
				tail = tail[len(tail)-2000:]
			}
			return fmt.Errorf("apt-get %v: %w\n%s", args, err, tail)
		}
		return nil
	}
	if err := apt("install", "-y", "chromium"); err == nil {
		return nil
	}
	if err := apt("update"); err != nil {
		return fmt.Errorf("chromium is missing and could not be installed: %w", err)
	}
	if err := apt("install", "-y", "chromium"); err != nil {
		return fmt.Errorf("chromium is missing and could not be installed: %w", err)
	}
	return nil
}

// Options are the allocator options of New for the Chromium at path:
// headless, --no-sandbox, --disable-background-networking, --disable-gpu,
// a fixed window size and userDataDir as the profile.
func Options(path, userDataDir string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-background-networking", true),
		chromedp.WindowSize(1280, 900),
		chromedp.UserDataDir(userDataDir),
	)
}

// New starts a headless Chromium with a temporary profile for t and
// returns a chromedp context of one tab, cancelled (and the browser
// stopped) when t ends, and bounded by timeout. It fails t when no
// Chromium can be found or installed.
func New(t testing.TB, timeout time.Duration) context.Context {
	t.Helper()
	path, err := Chromium()
	if err != nil {
		t.Fatalf("browser test needs Chromium: %v", err)
	}
	profile := filepath.Join(t.TempDir(), "profile")
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), Options(path, profile)...)
	ctx, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	// The first action binds the browser's life to its context: start it
	// on one without the timeout, so that only the test's actions are
	// bounded and a failure to start is reported here.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting Chromium %s: %v", path, err)
	}
	ctx, cancelTimeout := context.WithTimeout(ctx, timeout)
	t.Cleanup(cancelTimeout)
	return ctx
}

// FailOnExceptions fails t, when t ends, for every uncaught exception a
// page in ctx (a context from New) threw.
func FailOnExceptions(t testing.TB, ctx context.Context) {
	var mu sync.Mutex
	var thrown []string
	events := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			msg := ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				msg += " " + ex.Description
			}
			mu.Lock()
			thrown = append(thrown, msg)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		mu.Lock()
		defer mu.Unlock()
		for _, e := range thrown {
			t.Errorf("the page threw: %s", e)
		}
	})
}
