package arena_test

import (
	"os"
	"path/filepath"
	"testing"

	"crucible/arena"
	"crucible/arena/rating"
)

// BenchmarkStreamRate is crucible rate's path over a results file of the
// 100,380 records of benchRecords, as the writer writes them: the file
// read line by line (StreamTally), the finished matches collected, and the
// Bradley–Terry leaderboard. It reports the records per second; memory
// (-benchmem) is the collector's and the leaderboard's, not the file's.
// For 1M lines, the figure the issue asks for:
//
//	go test ./arena -run '^$' -bench StreamRate -benchtime 3x
func BenchmarkStreamRate(b *testing.B) {
	_, recs := benchRecords()
	path := filepath.Join(b.TempDir(), "results.jsonl")
	w, _, err := arena.OpenResults(path, false)
	if err != nil {
		b.Fatal(err)
	}
	for _, r := range recs {
		if err := w.Write(r); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		var c arena.Collector
		if _, _, err := arena.StreamTally(path, func(r arena.Record) error {
			c.Add(r)
			return nil
		}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Leaderboard(nil, rating.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	os.Remove(path)
}
