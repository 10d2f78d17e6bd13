// Package ladder is the lab's persistent ladder: entrants with a history of
// versions, nights of matches chosen by information and played by the
// arena, each night closed as one Glicko-2 rating period, the rating
// history that follows, and regression tests: a new version of an entrant
// plays a pentanomial SPRT against its previous version, continued night
// after night until it decides.
//
// Everything lives in one database with one schema, kept in SQLite (a file,
// through the pure-Go modernc.org/sqlite, so the binary stays static) or in
// PostgreSQL when the ladder is shared (through pgx's database/sql driver).
// The schema is created and upgraded by the goose migrations embedded in
// the package. Writes are transactions: a night's matches are recorded in
// chunks of its schedule (one row per chunk holding the arena's result
// lines, see chunks.go), each write with the night's spent time, and a
// night is closed in one transaction that writes all its ratings and the
// states of its regression tests, so a process killed at any moment loses
// at most the chunks in flight and never leaves half a night.
package ladder

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

//go:embed migrations/*.sql
var migrations embed.FS

// Dialect names a store's database.
type Dialect string

// The two databases a ladder lives in.
const (
	// SQLite is a database file, the default.
	SQLite Dialect = "sqlite"
	// Postgres is a PostgreSQL server, for a shared ladder.
	Postgres Dialect = "postgres"
)

// Store is an open ladder database. It is safe for concurrent use.
type Store struct {
	db      *sql.DB
	dialect Dialect
	// Where is the database for messages: the file, or the URL without its
	// password.
	where string
}

// IsPostgres reports whether dsn names a PostgreSQL server
// (postgres://... or postgresql://...) rather than an SQLite file.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Open opens the ladder database dsn, a PostgreSQL URL or an SQLite file
// path (created if missing), and brings its schema up to date.
func Open(ctx context.Context, dsn string) (*Store, error) { return openAt(ctx, dsn, 0) }

// openAt is Open with the schema brought up to migration upTo (0: the
// newest).
func openAt(ctx context.Context, dsn string, upTo int64) (*Store, error) {
	if dsn == "" {
		return nil, errors.New("database: empty name (give a file or a postgres:// URL)")
	}
	s := &Store{}
	var err error
	if IsPostgres(dsn) {
		u, perr := url.Parse(dsn)
		if perr != nil {
			return nil, fmt.Errorf("database URL: %w", perr)
		}
		s.dialect, s.where = Postgres, u.Redacted()
		s.db, err = sql.Open("pgx", dsn)
		if err != nil {
			return nil, fmt.Errorf("database %s: %w", s.where, err)
		}
		s.db.SetMaxOpenConns(4)
	} else {
		path := strings.TrimPrefix(dsn, "sqlite:")
		if strings.ContainsAny(path, "?#") {
			return nil, fmt.Errorf("database file %q: the name may not contain ? or #", path)
		}
		s.dialect, s.where = SQLite, path
		// WAL lets readers read while a night writes; synchronous=NORMAL
		// in WAL mode loses no committed transaction when the process is
		// killed (only on a power cut); foreign keys are checked; write
		// transactions take the write lock at BEGIN, so two processes queue
		// instead of failing half-way. A 64 MB page cache and a checkpoint
		// every 16384 pages (64 MB of log) rather than 1000 keep the
		// recording of a fast night from waiting on the disk.
		q := "?_pragma=busy_timeout(30000)&_pragma=synchronous(NORMAL)&_pragma=foreign_keys(1)&_pragma=cache_size(-65536)&_pragma=wal_autocheckpoint(1024)&_txlock=immediate"
		s.db, err = sql.Open("sqlite", "file:"+path+q)
		if err != nil {
			return nil, fmt.Errorf("database %s: %w", s.where, err)
		}
		// One connection: SQLite writes one transaction at a time anyway,
		// and a single connection never waits on itself.
		s.db.SetMaxOpenConns(1)
	}
	if err := s.db.PingContext(ctx); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("database %s: %w", s.where, err)
	}
	if s.dialect == SQLite {
		// A new file gets pages of 64 KB (a chunk's lines are megabytes:
		// fewer, larger pages cost less to write), which must be set
		// before the file turns to WAL; an existing file keeps its own.
		for _, p := range []string{"PRAGMA page_size = 65536", "PRAGMA journal_mode = WAL"} {
			if _, err := s.db.ExecContext(ctx, p); err != nil {
				s.db.Close()
				return nil, fmt.Errorf("database %s: %s: %w", s.where, p, err)
			}
		}
	}
	if err := s.migrate(ctx, upTo); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("database %s: upgrading the schema: %w", s.where, err)
	}
	return s, nil
}

// migrate applies the embedded migrations that the database lacks, up to
// version upTo (0: all).
func (s *Store) migrate(ctx context.Context, upTo int64) error {
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	dialect := goose.DialectSQLite3
	var opts []goose.ProviderOption
	if s.dialect == Postgres {
		dialect = goose.DialectPostgres
		// Two processes opening a new shared ladder at once take turns.
		locker, err := lock.NewPostgresSessionLocker()
		if err != nil {
			return err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	opts = append(opts, goose.WithDisableGlobalRegistry(true), goose.WithGoMigrations(s.goMigrations()...))
	p, err := goose.NewProvider(dialect, s.db, fsys, opts...)
	if err != nil {
		return err
	}
	if upTo > 0 {
		_, err = p.UpTo(ctx, upTo)
	} else {
		_, err = p.Up(ctx)
	}
	return err
}

// SchemaVersion is the version of the newest migration applied.
func (s *Store) SchemaVersion(ctx context.Context) (int64, error) {
	var v int64
	err := s.db.QueryRowContext(ctx, "SELECT MAX(version_id) FROM goose_db_version").Scan(&v)
	return v, err
}

// Dialect is the store's database kind.
func (s *Store) Dialect() Dialect { return s.dialect }

// Where names the database for messages (a password is hidden).
func (s *Store) Where() string { return s.where }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// rebind turns the ? placeholders of a query into PostgreSQL's $n.
func (s *Store) rebind(q string) string {
	if s.dialect != Postgres {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// tx runs fn in a transaction, committed when fn returns nil.
func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("database %s: %w", s.where, err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("database %s: commit: %w", s.where, err)
	}
	return nil
}

// nextID returns one more than the largest id of table, inside tx.
func (s *Store) nextID(ctx context.Context, q querier, table string) (int64, error) {
	var id sql.NullInt64
	if err := q.QueryRowContext(ctx, "SELECT MAX(id) FROM "+table).Scan(&id); err != nil {
		return 0, err
	}
	return id.Int64 + 1, nil
}

// now is the time stamp the store writes: RFC 3339 in UTC, to the second.
func now() string { return time.Now().UTC().Format(time.RFC3339) }

// CodeVersion identifies the code that runs: the VCS revision the binary
// was built from (with "+dirty" for uncommitted changes), else the module
// version, else "unknown".
func CodeVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			dirty = kv.Value == "true"
		}
	}
	if rev != "" {
		if dirty {
			rev += "+dirty"
		}
		return rev
	}
	if v := info.Main.Version; v != "" {
		return v
	}
	return "unknown"
}
