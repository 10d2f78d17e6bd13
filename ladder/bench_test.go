package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine/kindling"
	"crucible/internal/pgtest"
)

// benchLadder makes a ladder of six Kindling bidders.
func benchLadder(b *testing.B, dsn string) *Store {
	ctx := context.Background()
	s, err := Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Init(ctx, "kindling", 1); err != nil {
		b.Fatal(err)
	}
	for _, n := range []string{"normal", "sniper", "greedy", "contrarian", "easy", "even"} {
		if _, err := s.Add(ctx, n, Source{Kind: KindStrategy, Strategy: n}); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// benchSeeds is the seeds per pair of a benchmark night: 6 entrants, all
// new, give 15 pairs x 2x2000 seeds x 2 orders = 120,000 matches.
const benchSeeds = 2000

// BenchmarkNight plays one whole Kindling night per iteration, recording
// into each store, against the arena playing the same schedule with
// nothing recorded (the arena's own rate). Reported: matches/s.
func BenchmarkNight(b *testing.B) {
	stores := map[string]func(b *testing.B) string{
		"sqlite":   func(b *testing.B) string { return filepath.Join(b.TempDir(), "l.db") },
		"postgres": func(b *testing.B) string { return pgtest.DB(b) },
	}
	b.Run("arena-only", func(b *testing.B) {
		s := benchLadder(b, filepath.Join(b.TempDir(), "plan.db"))
		defer s.Close()
		_, jobs, entrants, _ := benchSchedule(b, s)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			n := 0
			if err := arena.Run(context.Background(), kindling.Game{}, entrants, jobs, arena.Options{Workers: 2}, func(arena.Record) error { n++; return nil }); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(jobs)*b.N)/b.Elapsed().Seconds(), "matches/s")
	})
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			matches := 0
			var play time.Duration
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				s := benchLadder(b, stores[name](b))
				b.StartTimer()
				var t0 time.Time
				res, err := s.RunNight(context.Background(), kindling.Game{}, kindlingBuilder(&testing.T{}), NightOptions{
					Label: "n", SeedsPerNight: benchSeeds, Workers: 2,
					Started: func(Night, bool, int) { t0 = time.Now() },
					Progress: func(done, total int) {
						if done == total {
							play += time.Since(t0)
						}
					}})
				if err != nil {
					b.Fatal(err)
				}
				matches += res.Recorded
				b.StopTimer()
				s.Close()
				b.StartTimer()
			}
			b.ReportMetric(float64(matches)/b.Elapsed().Seconds(), "matches/s")
			b.ReportMetric(float64(matches)/play.Seconds(), "played+recorded/s")
		})
	}
}

// benchSchedule plans the benchmark night without playing it and returns
// its night, jobs, entrants and slots.
func benchSchedule(b *testing.B, s *Store) (Night, []arena.Job, []arena.Entrant, map[string]slot) {
	ctx := context.Background()
	info, err := s.Info(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var n Night
	if err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = s.startNight(ctx, tx, info, "plan", "", rating.Default(), NightOptions{SeedsPerNight: benchSeeds, NewVersionFactor: 2})
		return err
	}); err != nil {
		b.Fatal(err)
	}
	jobs, entrants, slots, err := s.nightSchedule(ctx, n, kindlingBuilder(&testing.T{}))
	if err != nil {
		b.Fatal(err)
	}
	return n, jobs, entrants, slots
}

// BenchmarkRecord measures recording alone: batches of 4096 Kindling
// result records written into each store (the records of one played
// night, written again under fresh job ids), and the size on disk per
// million matches. Reported: matches/s and MB per million matches.
func BenchmarkRecord(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres", "postgres-insert"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			dir := b.TempDir()
			dsn := filepath.Join(dir, "l.db")
			if name != "sqlite" {
				dsn = pgtest.DB(b)
			}
			s := benchLadder(b, dsn)
			s.insertNotCopy = name == "postgres-insert"
			defer s.Close()
			night, jobs, entrants, _ := benchSchedule(b, s)
			var recs []arena.Record
			if err := arena.Run(ctx, kindling.Game{}, entrants, jobs[:4096], arena.Options{Workers: 2}, func(r arena.Record) error {
				recs = append(recs, r)
				return nil
			}); err != nil {
				b.Fatal(err)
			}
			slots := map[string]slot{}
			b.ResetTimer()
			written := 0
			for i := 0; i < b.N; i++ {
				batch := make([]arena.Record, len(recs))
				for k, r := range recs {
					r.Job = fmt.Sprintf("b%d-%d", i, k)
					slots[r.Job] = slot{position: written + k, versions: []int64{1, 2}}
					batch[k] = r
				}
				if err := s.recordBatch(night.ID, batch, slots, "", 1); err != nil {
					b.Fatal(err)
				}
				written += len(batch)
			}
			b.StopTimer()
			b.ReportMetric(float64(written)/b.Elapsed().Seconds(), "matches/s")
			if written < 100000 {
				return
			}
			size, err := s.sizeOnDisk(ctx, dsn)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(size)/float64(written)*1e6/1e6, "MB/1M-matches")
		})
	}
}

// sizeOnDisk is the bytes the ladder's tables take: the SQLite file and
// its write-ahead log after a checkpoint, or PostgreSQL's total relation
// size of every table (with indexes and TOAST).
func (s *Store) sizeOnDisk(ctx context.Context, dsn string) (int64, error) {
	if s.dialect == Postgres {
		var n int64
		err := s.db.QueryRowContext(ctx, `SELECT SUM(pg_total_relation_size(c.oid)) FROM pg_class c
			JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE ns.nspname = 'public' AND c.relkind = 'r'`).Scan(&n)
		return n, err
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return 0, err
	}
	var total int64
	for _, suffix := range []string{"", "-wal"} {
		if st, err := os.Stat(dsn + suffix); err == nil {
			total += st.Size()
		}
	}
	return total, nil
}
