package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"sort"
	"sync/atomic"
	"time"

	"crucible/arena"
	"crucible/engine"
)

// writerQueue is the number of finished chunks that may wait for the
// writer before the arena is held back, and writerBatch the most chunks
// one transaction writes.
const (
	writerQueue = 4
	writerBatch = 64
)

// chunkBuf gathers a chunk's records as its matches finish.
type chunkBuf struct {
	index   int
	entries []entry
	have    int
}

// play runs todo (the jobs of the chunks of night still to record) with the
// arena and records each chunk when its last match finishes, in one
// transaction with the night's spent time; chunks that finish while one is
// being written are written together. The arena's emitter only files
// records into their chunks; one writer goroutine encodes and writes, so
// the database works while the workers play. When the night's budget runs
// out (budgetCut reports it after the arena stopped), the chunks begun are
// written with the matches they have, as the night closes; when ctx is
// cancelled otherwise they are dropped. It returns the number of matches
// recorded.
//
// sched's positions start at chunk base of the night (0 for its planned
// schedule, later chunks for the stages chosen as it goes, see stages.go).
func (s *Store) play(ctx context.Context, g engine.Game, night Night, entrants []arena.Entrant, todo []arena.Job,
	sched schedule, base int, replayDir string, opt NightOptions, budgetCut func() bool) (int, error) {
	size := night.Config.ChunkSize
	if size < minChunk || size%2 != 0 {
		return 0, fmt.Errorf("night %s: chunk size %d is not an even number of at least %d jobs", night.Label, size, minChunk)
	}
	if replayDir != "" {
		if err := os.MkdirAll(replayDir, 0o755); err != nil {
			return 0, fmt.Errorf("replays: %w", err)
		}
	}
	ready := make(chan []*chunkBuf, writerQueue)
	var writeErr atomic.Pointer[error]
	finished := make(chan int)
	mark := time.Now()
	write := func(bufs []*chunkBuf, final bool) (int, error) {
		rows := make([]chunkRow, len(bufs))
		n := 0
		for i, c := range bufs {
			var err error
			if rows[i], err = encodeChunk(c.index, c.index*size, c.entries, replayDir); err != nil {
				return 0, fmt.Errorf("night %s: %w", night.Label, err)
			}
			n += rows[i].matches
		}
		spent := time.Since(mark).Milliseconds()
		mark = mark.Add(time.Duration(spent) * time.Millisecond)
		return n, s.writeChunks(night.ID, rows, spent, final)
	}
	go func() {
		recorded := 0
		for bufs := range ready {
			if writeErr.Load() != nil {
				continue // drain: the arena is being stopped
			}
		more:
			for len(bufs) < writerBatch {
				select {
				case next, ok := <-ready:
					if !ok {
						break more
					}
					bufs = append(bufs, next...)
				default:
					break more
				}
			}
			n, err := write(bufs, false)
			if err != nil {
				writeErr.Store(&err)
				continue
			}
			recorded += n
		}
		finished <- recorded
	}()

	pending := map[int]*chunkBuf{}
	aopt := arena.Options{Workers: opt.Workers, Config: opt.GameConfig, ReplayDir: replayDir, Progress: opt.Progress}
	play := opt.Play
	if play == nil {
		play = arena.Run
	}
	runErr := play(ctx, g, entrants, todo, aopt, func(r arena.Record) error {
		if err := writeErr.Load(); err != nil {
			return *err
		}
		pos, ok := sched.position[r.Job]
		if !ok {
			return fmt.Errorf("night %s: match %s is not in its schedule", night.Label, r.Job)
		}
		k := base + pos/size
		c := pending[k]
		if c == nil {
			first := (k - base) * size
			c = &chunkBuf{index: k, entries: make([]entry, min(size, len(sched.slots)-first))}
			for i := range c.entries {
				sl := sched.slots[first+i]
				c.entries[i] = entry{versions: sl.versions, test: sl.test, pair: sl.pair, newSeat: sl.newSeat}
			}
			pending[k] = c
		}
		e := &c.entries[pos-(k-base)*size]
		if e.played {
			return fmt.Errorf("night %s: match %s finished twice", night.Label, r.Job)
		}
		e.rec, e.played = r, true
		c.have++
		if c.have == len(c.entries) {
			delete(pending, k)
			ready <- []*chunkBuf{c}
		}
		return nil
	})
	close(ready)
	recorded := <-finished
	if err := writeErr.Load(); err != nil {
		return recorded, *err
	}
	if runErr != nil && budgetCut() && len(pending) > 0 {
		// The night closes with what was played: its last chunks are
		// recorded as they are, and the budget counts as spent.
		var bufs []*chunkBuf
		for _, c := range pending {
			bufs = append(bufs, c)
		}
		sort.Slice(bufs, func(i, j int) bool { return bufs[i].index < bufs[j].index })
		n, err := write(bufs, true)
		if err != nil {
			return recorded, err
		}
		recorded += n
	}
	return recorded, runErr
}

// writeChunks writes chunk rows of a night and adds spentMS to its playing
// time, in one transaction; final also counts the night's budget as
// spent. The context of the write is not the run's: chunks that finished
// playing are written even while the run is being cancelled.
func (s *Store) writeChunks(night int64, rows []chunkRow, spentMS int64, final bool) error {
	ctx := context.Background()
	return s.tx(ctx, func(tx *sql.Tx) error {
		if s.dialect == Postgres {
			// The commit need not wait for the server's disk: a chunk a
			// crash of the server takes back is played again, the same,
			// when the night is continued. A kill of crucible loses
			// nothing committed.
			if _, err := tx.ExecContext(ctx, "SET LOCAL synchronous_commit TO OFF"); err != nil {
				return err
			}
		}
		if err := s.insertChunks(ctx, tx, night, rows); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.rebind("UPDATE nights SET spent_ms = spent_ms + ? WHERE id = ?"), spentMS, night); err != nil {
			return err
		}
		if final {
			_, err := tx.ExecContext(ctx, s.rebind("UPDATE nights SET spent_ms = budget_ms WHERE id = ? AND spent_ms < budget_ms"), night)
			return err
		}
		return nil
	})
}
