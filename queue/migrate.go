package queue

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"
)

//go:embed migrations/*.sql
var migrations embed.FS

// versionTable is the goose version table of the queue's own migrations;
// it is not goose's default, which the ladder uses in the same database.
const versionTable = "queue_goose_version"

// migrateLockKey is the advisory lock that serializes River's migrations
// between processes starting at once (rivermigrate takes none itself).
const migrateLockKey = 0x63727563_71756575 // "crucqueu"

// DB is an open queue database: a pgx pool and an insert-only River
// client (submitting, listing and cancelling need no workers).
type DB struct {
	Pool  *pgxpool.Pool
	river *river.Client[pgx.Tx]
	where string
}

// IsURL tells whether s names a PostgreSQL database (postgres:// or
// postgresql://), the only kind the queue lives in.
func IsURL(s string) bool {
	return strings.HasPrefix(s, "postgres://") || strings.HasPrefix(s, "postgresql://")
}

// Redact returns the URL without its password, for messages.
func Redact(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil {
		return s
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}

// Open connects to the database at dbURL with at most maxConns
// connections (0: pgx's default) and brings its schema up to date:
// River's migrations, then the queue's own (goose, embedded).
func Open(ctx context.Context, dbURL string, maxConns int) (*DB, error) {
	if !IsURL(dbURL) {
		return nil, fmt.Errorf("database %q: the queue lives in PostgreSQL; give a postgres:// URL", dbURL)
	}
	where := Redact(dbURL)
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", where, err)
	}
	if maxConns > 0 {
		cfg.MaxConns = int32(maxConns)
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("database %s: %w", where, err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("database %s: %w", where, err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("database %s: upgrading the schema: %w", where, err)
	}
	client, err := river.NewClient(riverpgxv5.New(pool), &river.Config{})
	if err != nil {
		pool.Close()
		return nil, err
	}
	return &DB{Pool: pool, river: client, where: where}, nil
}

// Where names the database for messages (without its password).
func (d *DB) Where() string { return d.where }

// Close closes the pool.
func (d *DB) Close() { d.Pool.Close() }

// migrate runs River's migrations under a session advisory lock (River
// adds enum values, so its migrations cannot share one transaction, and
// rivermigrate takes no lock of its own), then the queue's goose
// migrations (which lock themselves).
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", int64(migrateLockKey)); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", int64(migrateLockKey))
	m, err := rivermigrate.New(riverpgxv5.New(pool), nil)
	if err != nil {
		return err
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river: %w", err)
	}
	fsys, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return err
	}
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close()
	p, err := goose.NewProvider(goose.DialectPostgres, db, fsys,
		goose.WithTableName(versionTable), goose.WithSessionLocker(locker), goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return err
	}
	if _, err := p.Up(ctx); err != nil && !errors.Is(err, goose.ErrNoNextVersion) {
		return err
	}
	return nil
}
