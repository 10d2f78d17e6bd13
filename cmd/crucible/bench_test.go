package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"crucible/cmd/crucible/testdata/toygame"
	"crucible/games"
	"crucible/games/lab"
)

// openPTY opens a pseudo-terminal (Linux's /dev/ptmx): what the command
// writes to term shows up on master, and term is a terminal to
// term.IsTerminal.
func openPTY(t *testing.T) (master, term *os.File) {
	t.Helper()
	m, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { m.Close() })
	if err := unix.IoctlSetPointerInt(int(m.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlocking the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(int(m.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("naming the pseudo-terminal: %v", err)
	}
	s, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return m, s
}

// crucible bench says on a terminal which step it measures (issue 20: six
// minutes with no output), and writes nothing to a stderr that is not one.
func TestBenchShowsProgressOnATerminalOnly(t *testing.T) {
	useGames(t, games.MustNew(append(lab.Games(), toygame.Game())...))
	args := []string{"bench", "--game", "toy", "--workers", "1", "--repeat", "2", "--toy-matches", "20"}

	out, stderr, err := execRoot(t, args...)
	if err != nil {
		t.Fatal(err)
	}
	if stderr != "" {
		t.Errorf("bench wrote %q to a stderr that is not a terminal", stderr)
	}
	if !strings.Contains(out, "arena, 1 worker(s)") {
		t.Fatalf("bench output:\n%s", out)
	}

	master, term := openPTY(t)
	var shown bytes.Buffer
	read := make(chan struct{})
	go func() { io.Copy(&shown, master); close(read) }()
	root := newRootCmd()
	var stdout bytes.Buffer
	root.SetOut(&stdout)
	root.SetErr(term)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	term.Close() // the master then reads what is left, and EIO
	<-read
	for _, step := range []string{"toy: engine", "toy: bare match loop, run 1/2", "toy: arena, 1 worker(s), run 2/2"} {
		if !strings.Contains(shown.String(), step) {
			t.Errorf("the terminal never showed the step %q:\n%q", step, shown.String())
		}
	}
	if strings.Contains(stdout.String(), "toy: engine") {
		t.Error("the progress went to stdout, with the figures")
	}
}
