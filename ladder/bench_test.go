package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
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

// BenchmarkNight measures what recording costs a Kindling night. Each
// iteration plays the same 120,000-match schedule three times back to back
// (so that the load of a shared machine hits all three alike): the arena
// alone with nothing recorded (its own rate), then a whole night into
// SQLite, then into PostgreSQL (opening the night, playing, recording
// every match, closing it as a rating period). Reported: matches per
// second of each, and each store's slowdown of the night against the
// arena, in percent.
func BenchmarkNight(b *testing.B) {
	ctx := context.Background()
	var arenaT, arenaCPU time.Duration
	playT := map[string]time.Duration{}
	cpuT := map[string]time.Duration{}
	matches := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		plan := benchLadder(b, filepath.Join(b.TempDir(), "plan.db"))
		_, jobs, entrants, _ := benchSchedule(b, plan)
		plan.Close()
		stores := map[string]*Store{
			"sqlite":   benchLadder(b, filepath.Join(b.TempDir(), "l.db")),
			"postgres": benchLadder(b, pgtest.DB(b)),
		}
		b.StartTimer()
		t0, c0 := time.Now(), cpuTime()
		if err := arena.Run(ctx, kindling.Game{}, entrants, jobs, arena.Options{Workers: 2}, func(arena.Record) error { return nil }); err != nil {
			b.Fatal(err)
		}
		arenaT += time.Since(t0)
		arenaCPU += cpuTime() - c0
		matches += len(jobs)
		for _, name := range []string{"sqlite", "postgres"} {
			s := stores[name]
			t1, c1 := time.Now(), cpuTime()
			res, err := s.RunNight(ctx, kindling.Game{}, kindlingBuilder(&testing.T{}), NightOptions{Label: "n", SeedsPerNight: benchSeeds, Workers: 2})
			if err != nil {
				b.Fatal(err)
			}
			playT[name] += time.Since(t1)
			cpuT[name] += cpuTime() - c1
			if res.Recorded != len(jobs) {
				b.Fatalf("%s recorded %d of %d", name, res.Recorded, len(jobs))
			}
			s.Close()
		}
	}
	rate := func(d time.Duration) float64 { return float64(matches) / d.Seconds() }
	perMatch := func(d time.Duration) float64 { return float64(d.Microseconds()) / float64(matches) }
	b.ReportMetric(rate(arenaT), "arena-matches/s")
	b.ReportMetric(perMatch(arenaCPU), "arena-cpu-µs/match")
	for _, name := range []string{"sqlite", "postgres"} {
		b.ReportMetric(rate(playT[name]), name+"-matches/s")
		b.ReportMetric(100*(playT[name].Seconds()/arenaT.Seconds()-1), name+"-slowdown-%")
		// This process's CPU: for PostgreSQL the server's own is not
		// counted.
		b.ReportMetric(perMatch(cpuT[name]), name+"-cpu-µs/match")
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

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
