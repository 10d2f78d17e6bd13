package ladder

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"crucible/arena"
)

// matchCols are the columns of a match row, in insert order.
const matchCols = "night_id, job, position, round, seed, config, seats, scores, ranks, turns, reason, crashed, error, duration_ms, replay"

// nMatchCols is the number of matchCols.
const nMatchCols = 15

// rowsPerInsert is how many matches one INSERT statement carries: a
// multi-row VALUES list costs one statement's overhead for many rows, and
// 15 x 200 = 3000 parameters stay far below both databases' limits.
const rowsPerInsert = 200

// matchRow is a Record as stored.
type matchRow struct {
	job                   string
	position, round       int
	seed                  int64
	config, seats, scores string
	ranks                 string
	turns                 int
	reason                string
	crashed, errText      sql.NullString
	durationMS            float64
	replay                sql.NullString
}

// toRow encodes r; seats are the version ids of its players in seat order.
func toRow(r arena.Record, position int, seats []int64, replay string) (matchRow, error) {
	row := matchRow{job: r.Job, position: position, round: r.Round, seed: int64(r.Seed), config: r.Config,
		turns: r.Turns, reason: r.Reason, durationMS: r.DurationMS}
	row.seats = joinInts(seats)
	scores, err := json.Marshal(r.Scores)
	if err != nil {
		return row, fmt.Errorf("job %s: scores: %w", r.Job, err)
	}
	row.scores = string(scores)
	if r.Ranks != nil {
		var b []byte
		for i, k := range r.Ranks {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(k), 10)
		}
		row.ranks = string(b)
	} else {
		row.ranks = "-"
	}
	if r.Crashed != nil {
		c, _ := json.Marshal(r.Crashed)
		row.crashed = sql.NullString{String: string(c), Valid: true}
	}
	if r.Error != "" {
		row.errText = sql.NullString{String: r.Error, Valid: true}
	}
	if replay != "" {
		row.replay = sql.NullString{String: replay, Valid: true}
	}
	return row, nil
}

// record decodes a row back into the Record the arena wrote, with its
// players from versions (by id) and game.
func (row matchRow) record(game string, versions map[int64]Version) (arena.Record, error) {
	r := arena.Record{Job: row.job, Game: game, Config: row.config, Round: row.round, Seed: uint64(row.seed),
		Turns: row.turns, Reason: row.reason, Error: row.errText.String, DurationMS: row.durationMS}
	ids, err := splitInts(row.seats)
	if err != nil {
		return r, fmt.Errorf("match %s: seats %q: %w", row.job, row.seats, err)
	}
	r.Players = make([]arena.PlayerRef, len(ids))
	for i, id := range ids {
		v, ok := versions[id]
		if !ok {
			return r, fmt.Errorf("match %s: seat %d holds unknown version %d", row.job, i, id)
		}
		r.Players[i] = arena.PlayerRef{Name: v.Label, Strategy: v.Strategy, VariantID: v.VariantID}
	}
	if err := json.Unmarshal([]byte(row.scores), &r.Scores); err != nil {
		return r, fmt.Errorf("match %s: scores %q: %w", row.job, row.scores, err)
	}
	if row.ranks != "-" {
		ranks, err := splitInts(row.ranks)
		if err != nil {
			return r, fmt.Errorf("match %s: ranks %q: %w", row.job, row.ranks, err)
		}
		r.Ranks = make([]int, len(ranks))
		for i, k := range ranks {
			r.Ranks[i] = int(k)
		}
	}
	if row.crashed.Valid {
		if err := json.Unmarshal([]byte(row.crashed.String), &r.Crashed); err != nil {
			return r, fmt.Errorf("match %s: crashed %q: %w", row.job, row.crashed.String, err)
		}
	}
	return r, nil
}

func joinInts(ids []int64) string {
	b := make([]byte, 0, 8*len(ids))
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(b)
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

// insertMatches writes rows of night in multi-row INSERTs inside tx. A
// job already recorded for the night violates the primary key: the whole
// transaction fails and nothing of it is kept.
func (s *Store) insertMatches(ctx context.Context, tx *sql.Tx, night int64, rows []matchRow) error {
	var full *sql.Stmt
	defer func() {
		if full != nil {
			full.Close()
		}
	}()
	args := make([]any, 0, nMatchCols*rowsPerInsert)
	for start := 0; start < len(rows); start += rowsPerInsert {
		chunk := rows[start:min(start+rowsPerInsert, len(rows))]
		args = args[:0]
		for _, r := range chunk {
			args = append(args, night, r.job, r.position, r.round, r.seed, r.config, r.seats, r.scores, r.ranks,
				r.turns, r.reason, r.crashed, r.errText, r.durationMS, r.replay)
		}
		var err error
		if len(chunk) == rowsPerInsert {
			if full == nil {
				if full, err = tx.PrepareContext(ctx, s.insertSQL(rowsPerInsert)); err != nil {
					return err
				}
			}
			_, err = full.ExecContext(ctx, args...)
		} else {
			_, err = tx.ExecContext(ctx, s.insertSQL(len(chunk)), args...)
		}
		if err != nil {
			return fmt.Errorf("recording matches %s..%s: %w", chunk[0].job, chunk[len(chunk)-1].job, err)
		}
	}
	return nil
}

// insertSQL is the INSERT of n match rows.
func (s *Store) insertSQL(n int) string {
	var b strings.Builder
	b.WriteString("INSERT INTO matches (" + matchCols + ") VALUES ")
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", nMatchCols), ",") + ")"
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(one)
	}
	return s.rebind(b.String())
}

// scanMatches reads match rows of a query that selects matchSelect.
const matchSelect = "job, position, round, seed, config, seats, scores, ranks, turns, reason, crashed, error, duration_ms, replay"

func scanMatch(rows *sql.Rows) (matchRow, error) {
	var m matchRow
	err := rows.Scan(&m.job, &m.position, &m.round, &m.seed, &m.config, &m.seats, &m.scores, &m.ranks, &m.turns, &m.reason,
		&m.crashed, &m.errText, &m.durationMS, &m.replay)
	return m, err
}

// Export calls emit with every recorded match, night by night in the order
// the nights started and, within a night, in schedule order (an imported
// file's own order), as the arena's result lines: arena.ResultsWriter
// writes them back byte for byte as the arena did. A night of 0 means
// every night.
func (s *Store) Export(ctx context.Context, night int64, emit func(arena.Record) error) error {
	info, err := s.Info(ctx)
	if err != nil {
		return err
	}
	versions, err := s.allVersions(ctx, s.db)
	if err != nil {
		return err
	}
	q := "SELECT " + matchSelect + " FROM matches"
	var args []any
	if night != 0 {
		q += " WHERE night_id = ?"
		args = append(args, night)
	}
	rows, err := s.db.QueryContext(ctx, s.rebind(q+" ORDER BY night_id, position"), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return err
		}
		r, err := m.record(info.Game, versions)
		if err != nil {
			return err
		}
		if err := emit(r); err != nil {
			return err
		}
	}
	return rows.Err()
}

// MatchCount is the number of recorded matches, of one night or (night 0)
// of all.
func (s *Store) MatchCount(ctx context.Context, night int64) (int, error) {
	var n int
	q, args := "SELECT COUNT(*) FROM matches", []any{}
	if night != 0 {
		q += " WHERE night_id = ?"
		args = append(args, night)
	}
	err := s.db.QueryRowContext(ctx, s.rebind(q), args...).Scan(&n)
	return n, err
}
