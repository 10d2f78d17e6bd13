package ladder

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine/kindling"
	"crucible/internal/pgtest"
)

// benchNames are the six Kindling bidders of the benchmark ladders.
var benchNames = []string{"normal", "sniper", "greedy", "contrarian", "easy", "even"}

// benchLadder makes a ladder of the six bidders that has played one short
// night, so that the night measured is a ladder's usual night: every
// entrant rated, the chunk size taken from the last night's match time.
func benchLadder(b *testing.B, dsn string) *Store {
	ctx := context.Background()
	s, err := Open(ctx, dsn)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := s.Init(ctx, "kindling", 1); err != nil {
		b.Fatal(err)
	}
	for _, n := range benchNames {
		if _, err := s.Add(ctx, n, Source{Kind: KindStrategy, Strategy: n}); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.RunNight(ctx, kindling.Game{}, kindlingBuilder(&testing.T{}), NightOptions{Label: "warm-up", SeedsPerNight: 50, Workers: 2}); err != nil {
		b.Fatal(err)
	}
	return s
}

// benchSeeds is the seeds per pair of a benchmark night: 6 rated entrants
// give 15 pairs x 4000 seeds x 2 seat orders = 120,000 matches.
const benchSeeds = 4000

// BenchmarkNight measures what recording costs a Kindling night against
// the arena's own rate as a user sees it: crucible arena writing every
// result as a JSON line to its results file. Each iteration plays the same
// 120,000-match schedule three times back to back, in an order that
// rotates from one iteration to the next (so that the load of a shared
// machine hits all three alike), each doing what its command does besides
// printing: crucible arena's work (arena.Run writing the results file
// through arena.ResultsWriter and collecting the outcomes, then the
// leaderboard of one rating period per round); crucible ladder run's on
// SQLite (opening the night, playing, recording every chunk, closing it as
// one rating period with its regression tests, then the standings); the
// same on PostgreSQL. The garbage collector runs at crucible's GOGC=400.
// Reported per store: matches per second over all iterations, the median
// over the iterations of the night's slowdown against the arena's run of
// the same iteration in percent, by wall clock and by CPU, the CPU per
// match (this process; for PostgreSQL also the server processes serving
// the store's connections), and the bytes on disk per match (MB per
// million matches).
func BenchmarkNight(b *testing.B) {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	ctx := context.Background()
	names := []string{"arena", "sqlite", "postgres"}
	wall, cpu := map[string]time.Duration{}, map[string]time.Duration{}
	slow, cpuSlow := map[string][]float64{}, map[string][]float64{}
	size := map[string]int64{}
	matches := 0
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		plan := benchLadder(b, filepath.Join(b.TempDir(), "plan.db"))
		jobs, entrants := benchSchedule(b, plan)
		plan.Close()
		dsns := map[string]string{"sqlite": filepath.Join(b.TempDir(), "l.db"), "postgres": pgtest.DB(b)}
		stores := map[string]*Store{}
		for name, dsn := range dsns {
			stores[name] = benchLadder(b, dsn)
		}
		out := filepath.Join(b.TempDir(), "results.jsonl")
		matches += len(jobs)
		w1, c1 := map[string]time.Duration{}, map[string]time.Duration{}
		for k := range names {
			name := names[(i+k)%len(names)]
			b.StartTimer()
			t0, cpu0 := time.Now(), cpuTime()
			var pids []int
			var server0 time.Duration
			if name == "postgres" {
				pids = stores[name].backendPIDs(b)
				server0 = serverCPU(pids)
			}
			if name == "arena" {
				benchArena(b, entrants, jobs, out)
			} else {
				s := stores[name]
				res, err := s.RunNight(ctx, kindling.Game{}, kindlingBuilder(&testing.T{}), NightOptions{Label: "n", SeedsPerNight: benchSeeds, Workers: 2})
				if err != nil {
					b.Fatal(err)
				}
				if st, err := s.Standings(ctx); err != nil || len(st.Summary.Standings) != len(entrants) {
					b.Fatalf("standings: %v", err)
				}
				if res.Recorded != len(jobs) {
					b.Fatalf("%s recorded %d of %d", name, res.Recorded, len(jobs))
				}
			}
			w1[name], c1[name] = time.Since(t0), cpuTime()-cpu0
			if name == "postgres" {
				c1[name] += serverCPU(stores[name].backendPIDs(b)) - server0
			}
			b.StopTimer()
			wall[name] += w1[name]
			cpu[name] += c1[name]
		}
		for _, name := range names[1:] {
			s := stores[name]
			slow[name] = append(slow[name], 100*(w1[name].Seconds()/w1["arena"].Seconds()-1))
			cpuSlow[name] = append(cpuSlow[name], 100*(c1[name].Seconds()/c1["arena"].Seconds()-1))
			n, err := s.chunkBytes(ctx, dsns[name], 0)
			if err != nil {
				b.Fatal(err)
			}
			total, err := s.MatchCount(ctx, 0)
			if err != nil {
				b.Fatal(err)
			}
			size[name] += n * int64(len(jobs)) / int64(total)
			s.Close()
		}
		b.StartTimer()
	}
	rate := func(d time.Duration) float64 { return float64(matches) / d.Seconds() }
	perMatch := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 / float64(matches) }
	b.ReportMetric(rate(wall["arena"]), "arena-matches/s")
	b.ReportMetric(perMatch(cpu["arena"]), "arena-cpu-µs/match")
	for _, name := range names[1:] {
		b.ReportMetric(rate(wall[name]), name+"-matches/s")
		b.ReportMetric(median(slow[name]), name+"-slowdown-%")
		b.ReportMetric(perMatch(cpu[name]), name+"-cpu-µs/match")
		b.ReportMetric(median(cpuSlow[name]), name+"-cpu-slowdown-%")
		b.ReportMetric(float64(size[name])/float64(matches), name+"-MB/1M-matches")
	}
}

// benchArena does what crucible arena does with a schedule, but print:
// play it writing the results file, collect the outcomes, rate them.
func benchArena(b *testing.B, entrants []arena.Entrant, jobs []arena.Job, out string) {
	os.Remove(out)
	w, _, err := arena.OpenResults(out, false)
	if err != nil {
		b.Fatal(err)
	}
	var col arena.Collector
	if err := arena.Run(context.Background(), kindling.Game{}, entrants, jobs, arena.Options{Workers: 2}, func(r arena.Record) error {
		if err := w.Write(r); err != nil {
			return err
		}
		col.Add(r)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	if sum := col.Summary(rating.Default(), arena.Names(entrants), nil); len(sum.Standings) != len(entrants) {
		b.Fatalf("arena leaderboard of %d players", len(sum.Standings))
	}
}

// median is the middle value of xs (the mean of the two middle ones).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// benchSchedule plans the benchmark night without playing it and returns
// its jobs and entrants.
func benchSchedule(b *testing.B, s *Store) ([]arena.Job, []arena.Entrant) {
	ctx := context.Background()
	info, err := s.Info(ctx)
	if err != nil {
		b.Fatal(err)
	}
	var n Night
	build := kindlingBuilder(&testing.T{})
	if err := s.tx(ctx, func(tx *sql.Tx) error {
		var err error
		reg := DefaultRegression()
		n, _, err = s.startNight(ctx, tx, info, "plan", "", rating.Default(), NightOptions{SeedsPerNight: benchSeeds, NewVersionFactor: 2, Regression: &reg},
			kindling.Game{}, build)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	jobs, entrants, _, err := s.nightSchedule(ctx, s.db, n, build)
	if err != nil {
		b.Fatal(err)
	}
	return jobs, entrants
}

// BenchmarkRecord measures recording alone: the records of 16,384 Kindling
// matches, encoded (result lines and tally) and written as chunks of 4096
// into each store in one transaction, over and over under new chunk
// numbers. Reported: matches recorded per second of wall clock and per
// second of CPU (this process's, and for PostgreSQL the server processes'
// serving the store), and the bytes per match the chunk rows take.
func BenchmarkRecord(b *testing.B) {
	for _, name := range []string{"sqlite", "postgres"} {
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			dsn := filepath.Join(b.TempDir(), "l.db")
			if name != "sqlite" {
				dsn = pgtest.DB(b)
			}
			s := benchLadder(b, dsn)
			defer s.Close()
			nights, err := s.Nights(ctx)
			if err != nil {
				b.Fatal(err)
			}
			night := nights[0].ID
			var recs []arena.Record
			if err := s.Export(ctx, night, func(r arena.Record) error { recs = append(recs, r); return nil }); err != nil {
				b.Fatal(err)
			}
			const size = 4096
			for len(recs) < 4*size {
				recs = append(recs, recs...)
			}
			recs = recs[:4*size]
			entries := make([]entry, len(recs))
			for i, r := range recs {
				entries[i] = entry{rec: r, played: true, versions: []int64{1, 2}}
			}
			next := 1 << 16 // chunk numbers the warm-up night does not use
			pids := s.backendPIDs(b)
			server0, cpu0 := serverCPU(pids), cpuTime()
			b.ResetTimer()
			written := 0
			for i := 0; i < b.N; i++ {
				rows := make([]chunkRow, 0, 4)
				for k := 0; k < len(entries); k += size {
					row, err := encodeChunk(next, next*size, entries[k:k+size], "")
					if err != nil {
						b.Fatal(err)
					}
					rows = append(rows, row)
					next++
				}
				if err := s.writeChunks(night, rows, 1, false); err != nil {
					b.Fatal(err)
				}
				written += len(entries)
			}
			b.StopTimer()
			used := cpuTime() - cpu0 + serverCPU(s.backendPIDs(b)) - server0
			b.ReportMetric(float64(written)/b.Elapsed().Seconds(), "matches/s")
			b.ReportMetric(float64(written)/used.Seconds(), "matches/cpu-s")
			n, err := s.chunkBytes(ctx, dsn, 0)
			if err != nil {
				b.Fatal(err)
			}
			total, err := s.MatchCount(ctx, 0)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(n)/float64(total), "B/match")
		})
	}
}

// chunkBytes is the bytes on disk of the chunks of one night (night 0:
// of all): for SQLite the pages of the chunk table that hold them (after
// a checkpoint, through the dbstat table when the library has it, else
// the share of the file), for PostgreSQL the stored size of their values
// (after TOAST compression) plus the table's and its index's share.
func (s *Store) chunkBytes(ctx context.Context, dsn string, night int64) (int64, error) {
	where, args := "", []any{}
	if night != 0 {
		where, args = " WHERE night_id = ?", []any{night}
	}
	if s.dialect == Postgres {
		var n int64
		err := s.db.QueryRowContext(ctx, s.rebind(`SELECT COALESCE(SUM(pg_column_size(lines) + pg_column_size(tally) + 64), 0) FROM match_chunks`+where), args...).Scan(&n)
		return n, err
	}
	if _, err := s.db.ExecContext(ctx, "PRAGMA wal_checkpoint(TRUNCATE)"); err != nil {
		return 0, err
	}
	var part, all sql.NullInt64
	if err := s.db.QueryRowContext(ctx, s.rebind("SELECT SUM(LENGTH(lines) + LENGTH(tally)) FROM match_chunks"+where), args...).Scan(&part); err != nil {
		return 0, err
	}
	if err := s.db.QueryRowContext(ctx, "SELECT SUM(LENGTH(lines) + LENGTH(tally)) FROM match_chunks").Scan(&all); err != nil {
		return 0, err
	}
	st, err := os.Stat(dsn)
	if err != nil || all.Int64 == 0 {
		return 0, err
	}
	// The file's bytes, shared out by the chunks' lengths.
	return int64(float64(st.Size()) * float64(part.Int64) / float64(all.Int64)), nil
}

// backendPIDs are the process ids of the PostgreSQL server processes that
// serve the store's database (none for SQLite).
func (s *Store) backendPIDs(b *testing.B) []int {
	if s.dialect != Postgres {
		return nil
	}
	rows, err := s.db.Query("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out []int
	for rows.Next() {
		var pid int
		if err := rows.Scan(&pid); err != nil {
			b.Fatal(err)
		}
		out = append(out, pid)
	}
	return out
}

// serverCPU is the CPU time (user and system) the processes have used,
// from /proc/PID/stat (fields 14 and 15, in clock ticks of 10 ms).
func serverCPU(pids []int) time.Duration {
	var total time.Duration
	for _, pid := range pids {
		data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		if err != nil {
			continue
		}
		f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		sy, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+sy) * 10 * time.Millisecond
	}
	return total
}

// cpuTime is the CPU time (user and system) this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
