package cpuclock

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// spin burns the calling thread's CPU until it has used d more. Every
// bound the tests check is CPU time the kernel counted, so a loaded machine
// makes them slower, never wrong.
func spin(d time.Duration) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	until := Thread() + d
	x := 1
	for Thread() < until {
		for i := 0; i < 10000; i++ {
			x = x*31 + i
		}
	}
	sink = x
}

var sink int

// The child role: burn the CPU time in $CPUCLOCK_SPIN, say so, and wait
// for stdin to close when $CPUCLOCK_HOLD is set.
func TestMain(m *testing.M) {
	if d, err := time.ParseDuration(os.Getenv("CPUCLOCK_SPIN")); err == nil {
		spin(d)
		fmt.Println("spun")
		if os.Getenv("CPUCLOCK_HOLD") != "" {
			bufio.NewReader(os.Stdin).ReadString('\n')
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// A meter counts the CPU time of every goroutine of the process, not only
// its caller's: two busy loops of 150 ms on other threads, while the
// caller waits, are at least 300 ms of the process's.
func TestMeterCountsOtherThreads(t *testing.T) {
	m := Start()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() { defer wg.Done(); spin(150 * time.Millisecond) }()
	}
	wg.Wait()
	s := m.Stop()
	if s.CPU < 300*time.Millisecond {
		t.Errorf("two busy loops of 150ms: the meter counted %s of CPU", s.CPU)
	}
	if s.Wall <= 0 {
		t.Errorf("wall time %s", s.Wall)
	}
}

// Children counts a child process's CPU time once it has been waited
// for, and OfPID reads it while it runs.
func TestChildrenAndOfPID(t *testing.T) {
	before := Children()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CPUCLOCK_SPIN=250ms", "CPUCLOCK_HOLD=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if strings.TrimSpace(line) != "spun" {
		t.Fatalf("child said %q", line)
	}
	running, err := OfPID(cmd.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	// /proc counts in 10 ms ticks.
	if running < 240*time.Millisecond {
		t.Errorf("OfPID of a child that burnt 250ms: %s", running)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := Children() - before; got < 250*time.Millisecond {
		t.Errorf("Children grew by %s after a child that burnt 250ms", got)
	}
	if _, err := OfPID(cmd.Process.Pid); err == nil {
		t.Error("OfPID of an ended process gave no error")
	}
}

// OfPID of this process agrees with Process, to /proc's 10 ms ticks.
func TestOfPIDOfSelf(t *testing.T) {
	spin(100 * time.Millisecond)
	a := Process()
	p, err := OfPID(os.Getpid())
	b := Process()
	if err != nil {
		t.Fatal(err)
	}
	if p < a-20*time.Millisecond || p > b+20*time.Millisecond {
		t.Errorf("OfPID(self) %s, Process %s to %s", p, a, b)
	}
}

func TestParseStat(t *testing.T) {
	tests := []struct {
		name, line string
		want       time.Duration
		err        string
	}{
		{"plain", "42 (postgres) S 1 42 42 0 -1 4194560 100 0 0 0 250 30 0 0 20 0 1 0 100 0 0", 2800 * time.Millisecond, ""},
		{"spaces and parentheses in the name", "7 (a (b) c) R 1 7 7 0 -1 0 0 0 0 0 3 4 0 0", 70 * time.Millisecond, ""},
		{"no name", "7 R 1", 0, "no command name"},
		{"cut short", "7 (x) R 1 7 7", 0, "fields after the command name"},
		{"not a number", "7 (x) R 1 7 7 0 -1 0 0 0 0 0 x 4", 0, `CPU time "x"`},
	}
	for _, tt := range tests {
		got, err := parseStat(tt.line)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: error %v, want one saying %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: %s, %v; want %s", tt.name, got, err, tt.want)
		}
	}
}
