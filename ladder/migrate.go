package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pressly/goose/v3"

	"crucible/arena"
)

// chunksVersion is the migration that stores a night's matches as chunks
// of its schedule instead of one row per match. It is written in Go, not
// SQL, because it converts the rows a ladder already holds.
const chunksVersion = 2

// chunksSchema are the statements of the chunk table, one text for both
// databases. Besides the table, regression tests get the Elo model their
// bounds are stated in.
var chunksSchema = []string{
	`CREATE TABLE match_chunks (
    night_id    BIGINT  NOT NULL REFERENCES nights (id),
    chunk       INTEGER NOT NULL,
    first_job   INTEGER NOT NULL,
    matches     INTEGER NOT NULL,
    lines       TEXT    NOT NULL,
    tally       TEXT    NOT NULL,
    replay_dir  TEXT,
    recorded_at TEXT    NOT NULL,
    PRIMARY KEY (night_id, chunk)
)`,
	`ALTER TABLE sprt_tests ADD COLUMN model TEXT NOT NULL DEFAULT 'normalized'`,
}

// goMigrations are the store's migrations written in Go.
func (s *Store) goMigrations() []*goose.Migration {
	return []*goose.Migration{
		goose.NewGoMigration(chunksVersion,
			&goose.GoFunc{RunTx: s.migrateToChunks},
			&goose.GoFunc{RunTx: func(context.Context, *sql.Tx) error {
				return errors.New("the ladder cannot go back to one row per match")
			}}),
	}
}

// migrateToChunks creates the chunk table and moves every night's match
// rows into it, in chunks of importChunk jobs by their position in the
// night's schedule (or file), each night's chunk size written into its
// config; then it drops the match table. A night left open keeps only its
// whole chunks: the matches of a chunk it had only partly recorded are
// played again when the night is continued, and give the same results
// (only their duration can differ).
func (s *Store) migrateToChunks(ctx context.Context, tx *sql.Tx) error {
	for _, stmt := range chunksSchema {
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	if s.dialect == Postgres {
		// PostgreSQL compresses a chunk's lines (TOAST) about tenfold;
		// lz4, where the server has it, does so at a fraction of the CPU
		// of its default pglz.
		var lz4 bool
		if err := tx.QueryRowContext(ctx, `SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'`).Scan(&lz4); err != nil {
			return err
		}
		if lz4 {
			if _, err := tx.ExecContext(ctx, "ALTER TABLE match_chunks ALTER COLUMN lines SET COMPRESSION lz4"); err != nil {
				return err
			}
		}
	}
	var game string
	err := tx.QueryRowContext(ctx, "SELECT game FROM ladder WHERE id = 1").Scan(&game)
	if errors.Is(err, sql.ErrNoRows) {
		_, err = tx.ExecContext(ctx, "DROP TABLE matches")
		return err // a ladder not initialized holds no match
	}
	if err != nil {
		return err
	}
	versions, err := s.allVersions(ctx, tx)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, "SELECT "+nightCols+" FROM nights ORDER BY id")
	if err != nil {
		return err
	}
	var nights []Night
	for rows.Next() {
		n, err := scanNight(rows)
		if err != nil {
			rows.Close()
			return err
		}
		nights = append(nights, n)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, n := range nights {
		if err := s.migrateNight(ctx, tx, game, n, versions); err != nil {
			return fmt.Errorf("night %s: %w", n.Label, err)
		}
	}
	_, err = tx.ExecContext(ctx, "DROP TABLE matches")
	return err
}

// migrateNight moves one night's match rows into chunks.
func (s *Store) migrateNight(ctx context.Context, tx *sql.Tx, game string, n Night, versions map[int64]Version) error {
	rows, err := tx.QueryContext(ctx, s.rebind(`SELECT job, position, round, seed, config, seats, scores, ranks, turns, reason, crashed, error, duration_ms, replay
		FROM matches WHERE night_id = ? ORDER BY position`), n.ID)
	if err != nil {
		return err
	}
	type old struct {
		rec      arena.Record
		position int
		seats    []int64
		replay   string
	}
	var all []old
	for rows.Next() {
		var o old
		var seats, scores, ranks string
		var seed int64
		var crashed, errText, replay sql.NullString
		r := &o.rec
		if err := rows.Scan(&r.Job, &o.position, &r.Round, &seed, &r.Config, &seats, &scores, &ranks, &r.Turns, &r.Reason,
			&crashed, &errText, &r.DurationMS, &replay); err != nil {
			rows.Close()
			return err
		}
		r.Game, r.Seed, r.Error, o.replay = game, uint64(seed), errText.String, replay.String
		if o.seats, err = splitInts(seats); err != nil {
			rows.Close()
			return fmt.Errorf("match %s: seats %q: %w", r.Job, seats, err)
		}
		r.Players = make([]arena.PlayerRef, len(o.seats))
		for i, id := range o.seats {
			v, ok := versions[id]
			if !ok {
				rows.Close()
				return fmt.Errorf("match %s: seat %d holds unknown version %d", r.Job, i, id)
			}
			r.Players[i] = arena.PlayerRef{Name: v.Label, Strategy: v.Strategy, VariantID: v.VariantID}
		}
		if err := json.Unmarshal([]byte(scores), &r.Scores); err != nil {
			rows.Close()
			return fmt.Errorf("match %s: scores %q: %w", r.Job, scores, err)
		}
		if ranks != "-" {
			ks, err := splitInts(ranks)
			if err != nil {
				rows.Close()
				return fmt.Errorf("match %s: ranks %q: %w", r.Job, ranks, err)
			}
			r.Ranks = make([]int, len(ks))
			for i, k := range ks {
				r.Ranks[i] = int(k)
			}
		}
		if crashed.Valid {
			if err := json.Unmarshal([]byte(crashed.String), &r.Crashed); err != nil {
				rows.Close()
				return fmt.Errorf("match %s: crashed %q: %w", r.Job, crashed.String, err)
			}
		}
		all = append(all, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	size := importChunk
	byChunk := map[int][]old{}
	var order []int
	for _, o := range all {
		k := o.position / size
		if _, ok := byChunk[k]; !ok {
			order = append(order, k)
		}
		byChunk[k] = append(byChunk[k], o)
	}
	var out []chunkRow
	for _, k := range order {
		part := byChunk[k]
		whole := min(size, n.Planned-k*size)
		if n.ClosedAt == "" && len(part) != whole {
			continue // played again when the night is continued
		}
		entries := make([]entry, len(part))
		dir := ""
		for i, o := range part {
			entries[i] = entry{rec: o.rec, played: true, versions: o.seats}
			if o.replay != "" {
				dir = o.replay[:max(0, strings.LastIndexByte(o.replay, '/'))]
			}
		}
		row, err := encodeChunk(k, k*size, entries, dir)
		if err != nil {
			return err
		}
		out = append(out, row)
	}
	if err := s.insertChunks(ctx, tx, n.ID, out); err != nil {
		return err
	}
	n.Config.ChunkSize = size
	cfg, err := json.Marshal(n.Config)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, s.rebind("UPDATE nights SET config = ? WHERE id = ?"), string(cfg), n.ID)
	return err
}

func splitInts(s string) ([]int64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	out := make([]int64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}
