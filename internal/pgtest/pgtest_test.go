package pgtest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

func TestMain(m *testing.M) { os.Exit(Main(m)) }

// roundTrip writes and reads a row on the database at url.
func roundTrip(t *testing.T, url string) {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatalf("connecting to the test database: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE TABLE t (k int PRIMARY KEY, v text)"); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, "INSERT INTO t VALUES (1, 'one')"); err != nil {
		t.Fatal(err)
	}
	var v string
	if err := conn.QueryRow(ctx, "SELECT v FROM t WHERE k = 1").Scan(&v); err != nil || v != "one" {
		t.Fatalf("read back %q, %v; want one", v, err)
	}
}

// A database made by DB is empty, usable, distinct from another test's,
// and gone once its test ends.
func TestDBIsThrowaway(t *testing.T) {
	srv, err := Shared()
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for i := 0; i < 2; i++ {
		t.Run(fmt.Sprint("db", i), func(t *testing.T) {
			url := DB(t)
			urls = append(urls, url)
			roundTrip(t, url) // fails if the table exists: the database is new
		})
	}
	if urls[0] == urls[1] {
		t.Fatalf("two tests got the same database %s", urls[0])
	}
	// Only these tests' own databases: another make test beside this one
	// may hold live databases of the same test name on the same server.
	all, err := srv.Databases(context.Background(), "crucible_test_TestDBIsThrowaway")
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, name := range all {
		for _, url := range urls {
			if strings.Contains(url, "/"+name+"?") || strings.HasSuffix(url, "/"+name) {
				left = append(left, name)
			}
		}
	}
	if len(left) != 0 {
		t.Fatalf("databases left after their tests ended: %v", left)
	}
}

// Where no server answers, Start starts its own from the installed
// binaries, on another port, with its directory removed by Stop; the
// machine's own server is not touched.
func TestStartsItsOwnServerWhenNoneAnswers(t *testing.T) {
	ctx := context.Background()
	port, err := freePort() // nobody listens there
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	srv, err := Start(ctx, Options{NoEnv: true, LocalURL: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port), Log: &log})
	if err != nil {
		t.Fatalf("starting a server: %v\n%s", err, log.String())
	}
	stopped := false
	defer func() {
		if !stopped {
			srv.Stop()
		}
	}()
	if srv.Origin != Started && srv.Origin != Installed {
		t.Fatalf("origin %q, want %q", srv.Origin, Started)
	}
	if srv.Dir == "" || !strings.Contains(log.String(), "initdb") {
		t.Fatalf("no server directory or no initdb step; log:\n%s", log.String())
	}
	url, drop, err := srv.CreateDatabase(ctx, "own")
	if err != nil {
		t.Fatal(err)
	}
	roundTrip(t, url)
	if err := drop(); err != nil {
		t.Fatal(err)
	}
	dir, serverURL := srv.Dir, srv.URL
	if err := srv.Stop(); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("server directory %s still there after Stop: %v", dir, err)
	}
	if err := ping(ctx, serverURL); err == nil {
		t.Fatalf("server at %s still answers after Stop", serverURL)
	}
}

// An explicit $CRUCIBLE_TEST_DATABASE_URL that does not answer is an error
// naming it, not a silent fall-back elsewhere.
func TestEnvURLThatDoesNotAnswerIsAnError(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	bad := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable&connect_timeout=2", port)
	_, err = Start(context.Background(), Options{EnvURL: bad})
	if err == nil || !strings.Contains(err.Error(), "$"+EnvURL) || !strings.Contains(err.Error(), fmt.Sprint(port)) {
		t.Fatalf("error %v, want one naming $%s and port %d", err, EnvURL, port)
	}
}

// With no server, no binaries and installing forbidden, Start fails and
// says where it looked.
func TestNoServerNoBinariesIsAnError(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	empty := t.TempDir()
	_, err = Start(context.Background(), Options{NoEnv: true, NoInstall: true,
		LocalURL: fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres", port), BinGlob: empty + "/*/bin"})
	if err == nil || !strings.Contains(err.Error(), empty) || !strings.Contains(err.Error(), fmt.Sprint(port)) {
		t.Fatalf("error %v, want one naming the binaries' place %s and port %d", err, empty, port)
	}
}

// The highest installed major version is chosen.
func TestFindBinPicksHighestVersion(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"9", "15", "13"} {
		dir := root + "/" + v + "/bin"
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"initdb", "pg_ctl"} {
			if err := os.WriteFile(dir+"/"+f, nil, 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := findBin(root + "/*/bin")
	if err != nil || got != root+"/15/bin" {
		t.Fatalf("findBin = %s, %v; want %s/15/bin", got, err, root)
	}
}
