package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"

	"crucible/arena"
	"crucible/engine"
)

// Recording defaults (NightOptions.BatchSize, BatchWindow).
const (
	defaultBatchSize   = 4096
	defaultBatchWindow = 200 * time.Millisecond
)

// play runs todo with the arena and records the finished matches of night
// in batched transactions, each also adding its share of playing time to
// the night. The arena's emitter only hands records over; one writer
// goroutine converts and writes them, so the database works while the
// workers play. It returns the number of matches recorded.
func (s *Store) play(ctx context.Context, g engine.Game, night Night, entrants []arena.Entrant, todo []arena.Job,
	slots map[string]slot, replayDir string, opt NightOptions) (int, error) {
	size, window := opt.BatchSize, opt.BatchWindow
	if size <= 0 {
		size = defaultBatchSize
	}
	if window <= 0 {
		window = defaultBatchWindow
	}
	if replayDir != "" {
		if err := os.MkdirAll(replayDir, 0o755); err != nil {
			return 0, fmt.Errorf("replays: %w", err)
		}
	}
	batches := make(chan []arena.Record, 2)
	var writeErr atomic.Pointer[error]
	finished := make(chan int)
	go func() {
		mark := time.Now()
		recorded := 0
		for batch := range batches {
			if writeErr.Load() != nil {
				continue // drain: the arena is being stopped
			}
			spent := time.Since(mark).Milliseconds()
			mark = mark.Add(time.Duration(spent) * time.Millisecond)
			if err := s.recordBatch(night.ID, batch, slots, replayDir, spent); err != nil {
				writeErr.Store(&err)
				continue
			}
			recorded += len(batch)
		}
		finished <- recorded
	}()

	var pending []arena.Record
	var first time.Time
	flush := func() {
		if len(pending) > 0 {
			batches <- pending
			pending = make([]arena.Record, 0, size)
		}
	}
	aopt := arena.Options{Workers: opt.Workers, Config: opt.GameConfig, ReplayDir: replayDir, Progress: opt.Progress}
	runErr := arena.Run(ctx, g, entrants, todo, aopt, func(r arena.Record) error {
		if err := writeErr.Load(); err != nil {
			return *err
		}
		if len(pending) == 0 {
			first = time.Now()
		}
		pending = append(pending, r)
		if len(pending) >= size || time.Since(first) >= window {
			flush()
		}
		return nil
	})
	flush()
	close(batches)
	recorded := <-finished
	if err := writeErr.Load(); err != nil {
		return recorded, *err
	}
	return recorded, runErr
}

// recordBatch writes one batch of a night's matches and its playing time
// in one transaction. The context of the write is not the run's: a batch
// that finished playing is written even while the run is being cancelled.
func (s *Store) recordBatch(night int64, batch []arena.Record, slots map[string]slot, replayDir string, spentMS int64) error {
	ctx := context.Background()
	rows := make([]matchRow, len(batch))
	for i, r := range batch {
		sl, ok := slots[r.Job]
		if !ok {
			return fmt.Errorf("night %d: match %s is not in its schedule", night, r.Job)
		}
		replay := ""
		if replayDir != "" && r.Error == "" {
			replay = filepath.Join(replayDir, r.Job+".json")
		}
		var err error
		if rows[i], err = toRow(r, sl.position, sl.versions, replay); err != nil {
			return err
		}
	}
	if s.dialect == Postgres && !s.insertNotCopy {
		return s.copyBatch(ctx, night, rows, spentMS)
	}
	return s.tx(ctx, func(tx *sql.Tx) error {
		if err := s.insertMatches(ctx, tx, night, rows); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, s.rebind("UPDATE nights SET spent_ms = spent_ms + ? WHERE id = ?"), spentMS, night)
		return err
	})
}

// copyBatch writes a batch into PostgreSQL with COPY (several times the
// rate of multi-row INSERTs), through the pgx connection under
// database/sql, in one transaction with the night's spent time. A job
// already recorded violates the primary key and the whole batch is
// rolled back.
func (s *Store) copyBatch(ctx context.Context, night int64, rows []matchRow, spentMS int64) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("database %s: %w", s.where, err)
	}
	defer conn.Close()
	return conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		tx, err := pc.Begin(ctx)
		if err != nil {
			return err
		}
		defer tx.Rollback(ctx)
		src := pgx.CopyFromSlice(len(rows), func(i int) ([]any, error) {
			r := &rows[i]
			return []any{night, r.job, int32(r.position), int32(r.round), r.seed, r.config, r.seats, r.scores, r.ranks,
				int32(r.turns), r.reason, nullable(r.crashed), nullable(r.errText), r.durationMS, nullable(r.replay)}, nil
		})
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"matches"}, splitComma(matchCols), src); err != nil {
			return fmt.Errorf("recording matches %s..%s: %w", rows[0].job, rows[len(rows)-1].job, err)
		}
		if _, err := tx.Exec(ctx, "UPDATE nights SET spent_ms = spent_ms + $1 WHERE id = $2", spentMS, night); err != nil {
			return err
		}
		return tx.Commit(ctx)
	})
}

// nullable is a NullString as pgx encodes it fastest: nil or the string.
func nullable(v sql.NullString) any {
	if !v.Valid {
		return nil
	}
	return v.String
}
