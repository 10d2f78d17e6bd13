// Package pgtest gives tests a real PostgreSQL server and a throwaway
// database on it, dropped when the test ends. It is an ordinary package (not
// a _test file) so that the tests of several packages (the ladder, the work
// queue) share it.
//
// The server is found, in this order:
//
//  1. $CRUCIBLE_TEST_DATABASE_URL, when set: the server it names (its
//     database is only used to create and drop the test databases). If it
//     does not answer, that is an error: it was asked for explicitly.
//  2. The server of the project's machines: 127.0.0.1:5432, user postgres,
//     trust authentication.
//  3. A server of its own, started from the installed binaries
//     (/usr/lib/postgresql/*/bin): initdb into a temporary directory (as the
//     postgres user when running as root, since initdb refuses root), then
//     pg_ctl on a free port of 127.0.0.1 with its socket in the same
//     directory. It is stopped and removed by Server.Stop (pgtest.Main does
//     it at the end of a test binary).
//  4. When no binaries are installed: apt-get install -y postgresql, then as 3.
//
// A test never skips for want of a server: every failure is an error that
// says what was tried.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvURL is the environment variable that names the server to test on.
const EnvURL = "CRUCIBLE_TEST_DATABASE_URL"

// DefaultLocalURL is the server the project's machines run.
const DefaultLocalURL = "postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable"

// DefaultBinGlob is where Debian installs the server's binaries.
const DefaultBinGlob = "/usr/lib/postgresql/*/bin"

// Origins of a Server (Server.Origin).
const (
	// FromEnv is a server named by $CRUCIBLE_TEST_DATABASE_URL.
	FromEnv = "env"
	// FromLocal is the machine's server at Options.LocalURL.
	FromLocal = "local"
	// Started is a server this package started from installed binaries.
	Started = "started"
	// Installed is a server this package started after installing
	// PostgreSQL with apt-get.
	Installed = "installed"
)

// Options choose where Start looks for a server. The zero value looks where
// the package comment says.
type Options struct {
	// EnvURL is the URL of the server asked for; "" means the value of
	// $CRUCIBLE_TEST_DATABASE_URL.
	EnvURL string
	// NoEnv ignores $CRUCIBLE_TEST_DATABASE_URL (EnvURL still applies).
	NoEnv bool
	// LocalURL is the machine's server; "" means DefaultLocalURL.
	LocalURL string
	// BinGlob finds the installed server binaries; "" means
	// DefaultBinGlob. The highest version found is used.
	BinGlob string
	// NoInstall forbids installing PostgreSQL when no binaries are found
	// (Start then fails).
	NoInstall bool
	// Log receives one line per step (probing, starting, installing);
	// nil means nowhere.
	Log io.Writer
}

// Server is a PostgreSQL server that tests create databases on.
type Server struct {
	// URL connects to the server's maintenance database as a superuser.
	URL string
	// Origin says how the server was found: FromEnv, FromLocal, Started or
	// Installed.
	Origin string
	// Dir is the directory of a started server (data, socket and log),
	// "" for a server found running.
	Dir string

	pgctl string   // pg_ctl of a started server
	runAs []string // command prefix that runs as the postgres user
}

// Start finds or starts a server (see the package comment for the order).
func Start(ctx context.Context, opt Options) (*Server, error) {
	logf := func(format string, args ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, "pgtest: "+format+"\n", args...)
		}
	}
	envURL := opt.EnvURL
	if envURL == "" && !opt.NoEnv {
		envURL = os.Getenv(EnvURL)
	}
	if envURL != "" {
		if err := ping(ctx, envURL); err != nil {
			return nil, fmt.Errorf("$%s=%s: %w", EnvURL, redact(envURL), err)
		}
		logf("using $%s", EnvURL)
		return &Server{URL: envURL, Origin: FromEnv}, nil
	}
	local := opt.LocalURL
	if local == "" {
		local = DefaultLocalURL
	}
	localErr := ping(ctx, local)
	if localErr == nil {
		logf("using the server at %s", redact(local))
		return &Server{URL: local, Origin: FromLocal}, nil
	}
	logf("no server at %s (%v); starting one", redact(local), localErr)
	glob := opt.BinGlob
	if glob == "" {
		glob = DefaultBinGlob
	}
	origin := Started
	bin, err := findBin(glob)
	if err != nil && !opt.NoInstall {
		logf("%v; installing postgresql with apt-get", err)
		if ierr := install(ctx, opt.Log); ierr != nil {
			return nil, fmt.Errorf("no server at %s (%v), %v, and installing it failed: %w", redact(local), localErr, err, ierr)
		}
		origin = Installed
		bin, err = findBin(glob)
	}
	if err != nil {
		return nil, fmt.Errorf("no server at %s (%v) and none to start: %w", redact(local), localErr, err)
	}
	s, err := startServer(ctx, bin, logf)
	if err != nil {
		return nil, fmt.Errorf("no server at %s (%v), and starting one from %s failed: %w", redact(local), localErr, bin, err)
	}
	s.Origin = origin
	return s, nil
}

// ping connects to url and runs a query, within 5 seconds.
func ping(ctx context.Context, url string) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	var one int
	return conn.QueryRow(ctx, "SELECT 1").Scan(&one)
}

// findBin returns the bin directory of the highest installed version that
// has initdb and pg_ctl.
func findBin(glob string) (string, error) {
	dirs, err := filepath.Glob(glob)
	if err != nil {
		return "", fmt.Errorf("binaries %q: %w", glob, err)
	}
	var ok []string
	for _, d := range dirs {
		if isFile(filepath.Join(d, "initdb")) && isFile(filepath.Join(d, "pg_ctl")) {
			ok = append(ok, d)
		}
	}
	if len(ok) == 0 {
		return "", fmt.Errorf("no PostgreSQL binaries (initdb, pg_ctl) in %s", glob)
	}
	// /usr/lib/postgresql/<major>/bin: the highest major version wins.
	sort.Slice(ok, func(i, j int) bool { return versionOf(ok[i]) < versionOf(ok[j]) })
	return ok[len(ok)-1], nil
}

// versionOf reads the major version from .../<major>/bin; 0 if none.
func versionOf(binDir string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return v
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir()
}

// install installs Debian's postgresql package, updating the package lists
// first when the plain install fails.
func install(ctx context.Context, log io.Writer) error {
	if os.Geteuid() != 0 {
		return errors.New("installing postgresql needs root")
	}
	run := func(args ...string) error {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		out, err := cmd.CombinedOutput()
		if log != nil {
			log.Write(out)
		}
		if err != nil {
			return fmt.Errorf("%s: %w: %s", strings.Join(args, " "), err, lastLines(out, 5))
		}
		return nil
	}
	if err := run("apt-get", "install", "-y", "postgresql"); err == nil {
		return nil
	}
	if err := run("apt-get", "update"); err != nil {
		return err
	}
	return run("apt-get", "install", "-y", "postgresql")
}

// startServer runs initdb and pg_ctl start from bin in a new temporary
// directory, on a free port.
func startServer(ctx context.Context, bin string, logf func(string, ...any)) (*Server, error) {
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, pgctl: filepath.Join(bin, "pg_ctl")}
	fail := func(err error) (*Server, error) {
		os.RemoveAll(dir)
		return nil, err
	}
	if os.Geteuid() == 0 {
		// initdb and postgres refuse to run as root: the directory goes to
		// the postgres user, and the commands run as it.
		u, err := user.Lookup("postgres")
		if err != nil {
			return fail(fmt.Errorf("running as root needs the postgres user to run initdb: %w", err))
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return fail(err)
		}
		s.runAs = []string{"runuser", "-u", "postgres", "--"}
	}
	data := filepath.Join(dir, "data")
	logf("initdb -D %s", data)
	if out, err := s.command(ctx, filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		return fail(fmt.Errorf("initdb: %w: %s", err, lastLines(out, 5)))
	}
	// A port found free may be taken before the server binds it: try a
	// few.
	var lastErr error
	for attempt := 0; attempt < 5; attempt++ {
		port, err := freePort()
		if err != nil {
			return fail(err)
		}
		opts := fmt.Sprintf("-p %d -k %s -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200", port, dir)
		logf("pg_ctl start on 127.0.0.1:%d", port)
		out, err := s.command(ctx, s.pgctl, "-D", data, "-l", filepath.Join(dir, "server.log"), "-w", "-t", "60", "-o", opts, "start").CombinedOutput()
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			lastErr = fmt.Errorf("pg_ctl start on port %d: %w: %s %s", port, err, lastLines(out, 3), lastLines(log, 5))
			continue
		}
		s.URL = fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
		if err := ping(ctx, s.URL); err != nil {
			s.Stop()
			return nil, fmt.Errorf("started server on port %d does not answer: %w", port, err)
		}
		return s, nil
	}
	return fail(lastErr)
}

// command runs name as the postgres user when needed.
func (s *Server) command(ctx context.Context, name string, args ...string) *exec.Cmd {
	full := append(append(append([]string(nil), s.runAs...), name), args...)
	return exec.CommandContext(ctx, full[0], full[1:]...)
}

// freePort asks the kernel for a free TCP port of 127.0.0.1.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Stop stops a started server and removes its directory; a server found
// running is left alone.
func (s *Server) Stop() error {
	if s == nil || s.Dir == "" {
		return nil
	}
	out, err := s.command(context.Background(), s.pgctl, "-D", filepath.Join(s.Dir, "data"), "-m", "fast", "-w", "stop").CombinedOutput()
	if err != nil {
		err = fmt.Errorf("pg_ctl stop: %w: %s", err, lastLines(out, 3))
	}
	return errors.Join(err, os.RemoveAll(s.Dir))
}

// CreateDatabase creates a new, empty database whose name starts with
// prefix (letters, digits and _ are kept, the rest become _) and returns its
// URL and a function that drops it (closing any connection left open).
func (s *Server) CreateDatabase(ctx context.Context, prefix string) (dbURL string, drop func() error, err error) {
	name := dbName(prefix)
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		return "", nil, fmt.Errorf("connecting to %s: %w", redact(s.URL), err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+pgx.Identifier{name}.Sanitize()); err != nil {
		return "", nil, fmt.Errorf("creating database %s: %w", name, err)
	}
	u, err := url.Parse(s.URL)
	if err != nil {
		return "", nil, fmt.Errorf("server URL %s: %w", redact(s.URL), err)
	}
	u.Path = "/" + name
	drop = func() error {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, s.URL)
		if err != nil {
			return fmt.Errorf("dropping database %s: %w", name, err)
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
			return fmt.Errorf("dropping database %s: %w", name, err)
		}
		return nil
	}
	return u.String(), drop, nil
}

// Databases lists the databases of the server whose names start with
// prefix as CreateDatabase spells it.
func (s *Server) Databases(ctx context.Context, prefix string) ([]string, error) {
	conn, err := pgx.Connect(ctx, s.URL)
	if err != nil {
		return nil, err
	}
	defer conn.Close(context.Background())
	rows, err := conn.Query(ctx, "SELECT datname FROM pg_database WHERE starts_with(datname, $1) ORDER BY datname", sanitize(prefix))
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[string])
}

// dbName is prefix sanitized, cut to leave room for a random suffix within
// PostgreSQL's 63 bytes.
func dbName(prefix string) string {
	var b [4]byte
	rand.Read(b[:])
	return sanitize(prefix) + "_" + hex.EncodeToString(b[:])
}

func sanitize(prefix string) string {
	p := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '_'
	}, prefix)
	if len(p) > 50 {
		p = p[:50]
	}
	return p
}

// redact hides a password in a URL for messages.
func redact(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(an unparsable URL)"
	}
	return u.Redacted()
}

// lastLines returns the last n lines of out, trimmed, for error messages.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
