package botproc_test

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"crucible/bots/botproc"
)

// The test binary plays the bots and the lab itself when BOTPROC_ROLE is
// set: real processes, started and stopped as the lab's would be.
func TestMain(m *testing.M) {
	switch os.Getenv("BOTPROC_ROLE") {
	case "":
		os.Exit(m.Run())
	case "bot":
		fakeBot()
	case "sleeper":
		time.Sleep(time.Hour)
	case "lab":
		fakeLab()
	case "oneshot":
		fmt.Println("oneshot args", os.Args[1:])
		fmt.Fprintln(os.Stderr, "oneshot says goodbye")
		code, _ := strconv.Atoi(os.Getenv("BOTPROC_EXIT"))
		if os.Getenv("BOTPROC_MODE") == "sleep" {
			time.Sleep(time.Hour)
		}
		os.Exit(code)
	}
	os.Exit(2)
}

// botEnv is what GET /env of a fake bot answers.
type botEnv struct {
	PID                                   int
	Port, Secret, BotPort, BotSecret, Dir string
	Params, Marker                        string
}

// fakeBot is a bot server in the mode BOTPROC_MODE: "" serves /health and
// /env; "fail" writes to stderr and exits 7 at once; "unhealthy" answers
// 503; "ignore-term" ignores SIGTERM; "child" also starts a grandchild
// that sleeps.
func fakeBot() {
	mode := os.Getenv("BOTPROC_MODE")
	fmt.Println("fake bot on stdout, mode", mode)
	fmt.Fprintln(os.Stderr, "fake bot on stderr")
	if mode == "fail" {
		fmt.Fprintln(os.Stderr, "loading the model...")
		fmt.Fprintln(os.Stderr, "error: model.bin not found")
		os.Exit(7)
	}
	if mode == "ignore-term" {
		signal.Ignore(syscall.SIGTERM)
	}
	if mode == "child" {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), "BOTPROC_ROLE=sleeper")
		if err := c.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
	}
	port := os.Getenv("PORT")
	if port == "" || port != os.Getenv("BOT_PORT") || os.Getenv("SHARED_SECRET") != os.Getenv("BOT_SECRET") {
		fmt.Fprintln(os.Stderr, "PORT/BOT_PORT or SHARED_SECRET/BOT_SECRET differ")
		os.Exit(3)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(5)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, r *http.Request) {
		if mode == "unhealthy" {
			w.WriteHeader(503)
		}
	})
	mux.HandleFunc("GET /env", func(w http.ResponseWriter, r *http.Request) {
		dir, _ := os.Getwd()
		json.NewEncoder(w).Encode(botEnv{PID: os.Getpid(), Port: port, Secret: os.Getenv("SHARED_SECRET"), BotPort: os.Getenv("BOT_PORT"),
			BotSecret: os.Getenv("BOT_SECRET"), Dir: dir, Params: os.Getenv("CRUCIBLE_PARAMS"), Marker: os.Getenv("BOTPROC_MARKER")})
	})
	http.Serve(ln, mux)
	os.Exit(6)
}

// fakeLab is a lab: it leases BOTPROC_LAB_BOTS processes of a fake bot
// (concurrency 1) carrying BOTPROC_CHILD_MARKER, prints "ready" and their
// pids, then ends as BOTPROC_LAB_END says: "normal" (on a line on stdin:
// release, close, exit 0), "sigint" (close on SIGINT, exit 0) or "wait" (until killed;
// SIGINT then kills it by default).
func fakeLab() {
	m, err := botproc.New(botproc.Options{LogDir: os.Getenv("BOTPROC_LOGDIR"), Grace: 2 * time.Second})
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	ctx := context.Background()
	end := os.Getenv("BOTPROC_LAB_END")
	if end == "sigint" {
		var stop context.CancelFunc
		ctx, stop = signal.NotifyContext(ctx, os.Interrupt)
		defer stop()
	}
	n, _ := strconv.Atoi(os.Getenv("BOTPROC_LAB_BOTS"))
	spec := fakeSpec(os.Getenv("BOTPROC_CHILD_MARKER"), "")
	var leases []*botproc.Lease
	pids := []string{}
	for i := 0; i < n; i++ {
		l, err := m.Lease(ctx, spec)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		leases = append(leases, l)
		url, _ := l.Endpoint()
		e, err := getEnv(url)
		if err != nil {
			fmt.Println("error", err)
			os.Exit(1)
		}
		pids = append(pids, strconv.Itoa(e.PID))
	}
	fmt.Println("ready", strings.Join(pids, " "))
	switch end {
	case "normal":
		bufio.NewReader(os.Stdin).ReadString('\n') // the test has counted the bots
		for _, l := range leases {
			l.Release()
		}
	case "sigint":
		<-ctx.Done()
	default:
		select {}
	}
	m.Close()
	os.Exit(0)
}

// fakeSpec runs this test binary as a fake bot in mode, marked with
// marker in its environment.
func fakeSpec(marker, mode string) botproc.Spec {
	dir, _ := os.Getwd()
	return botproc.Spec{
		ID: "fake-" + mode + marker, Label: "fake#" + marker,
		Command: []string{os.Args[0], "-test.run=^$"},
		Dir:     dir,
		Env:     []string{"BOTPROC_ROLE=bot", "BOTPROC_MODE=" + mode, "BOTPROC_MARKER=" + marker, `CRUCIBLE_PARAMS={"a":1}`},
	}
}

// newMarker returns a fresh token to find a test's processes by.
func newMarker(t *testing.T) string {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}

// markedPIDs scans /proc for live processes whose environment holds
// BOTPROC_MARKER=marker (zombies have an empty environment and do not
// count).
func markedPIDs(t *testing.T, marker string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatalf("scanning /proc: %v", err)
	}
	want := []byte("BOTPROC_MARKER=" + marker)
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		data, err := os.ReadFile(filepath.Join("/proc", e.Name(), "environ"))
		if err != nil {
			continue // gone, or not ours
		}
		for _, kv := range bytes.Split(data, []byte{0}) {
			if bytes.Equal(kv, want) {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// waitNoneLeft polls /proc until no process carries marker, failing after
// a bound that holds on a loaded machine.
func waitNoneLeft(t *testing.T, marker string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		left := markedPIDs(t, marker)
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d bot processes left running: %v", len(left), left)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitFor polls cond until it holds, failing with what after a generous
// bound.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func getEnv(url string) (botEnv, error) {
	resp, err := http.Get(url + "/env")
	if err != nil {
		return botEnv{}, err
	}
	defer resp.Body.Close()
	var e botEnv
	err = json.NewDecoder(resp.Body).Decode(&e)
	return e, err
}

func newManager(t *testing.T, opt botproc.Options) *botproc.Manager {
	t.Helper()
	if opt.LogDir == "" {
		opt.LogDir = t.TempDir()
	}
	m, err := botproc.New(opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	return m
}

// startLab runs the fake lab and returns it with the bot pids it printed.
func startLab(t *testing.T, marker, end string, bots int, pgid bool) (*exec.Cmd, []int, io.WriteCloser) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "BOTPROC_ROLE=lab", "BOTPROC_LAB_END="+end, "BOTPROC_LAB_BOTS="+strconv.Itoa(bots),
		"BOTPROC_CHILD_MARKER="+marker, "BOTPROC_LOGDIR="+t.TempDir())
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: pgid}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "ready") {
		t.Fatalf("the lab said %q (%v)", line, err)
	}
	go io.Copy(io.Discard, out)
	var pids []int
	for _, f := range strings.Fields(line)[1:] {
		pid, _ := strconv.Atoi(f)
		pids = append(pids, pid)
	}
	return cmd, pids, in
}

// leaseBot leases a process of spec, released when the test ends, and
// returns what the bot says of its environment.
func leaseBot(t *testing.T, m *botproc.Manager, spec botproc.Spec) (*botproc.Lease, botEnv) {
	t.Helper()
	l, err := m.Lease(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Release)
	url, _ := l.Endpoint()
	e, err := getEnv(url)
	if err != nil {
		t.Fatal(err)
	}
	return l, e
}
