package queue

import (
	"context"
	"testing"
	"time"

	"crucible/arena"
	"crucible/internal/cpuclock"
)

// The queue's own work a match, beside the match itself: the submitter
// encodes the jobs as text, the worker decodes a batch's jobs and encodes
// and gzips its records, the follower gunzips, decodes the jobs and
// rebuilds the records. Kindling matches take some 100 µs of CPU, so
// these must stay near a microsecond.
//
//	go test ./queue -run '^$' -bench Codec -benchmem
func BenchmarkCodec(b *testing.B) {
	s := roundRobin("kindling", 16, 5) // 1,200 two-seat matches
	var recs []arena.Record
	if err := arena.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Workers: 1}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	text, err := encodeJobs(s.jobs)
	if err != nil {
		b.Fatal(err)
	}
	refs := make([]arena.PlayerRef, len(s.entrants))
	for i, e := range s.entrants {
		refs[i] = e.Ref()
	}
	run := RunInfo{Game: "kindling"}
	// CPU time a match (process user+sys): what a loaded machine does
	// not distort, unlike ns/op.
	var cpu0 time.Duration
	perMatch := func(b *testing.B) {
		b.ReportMetric(float64((cpuclock.Process()-cpu0).Nanoseconds())/float64(b.N*len(s.jobs)), "cpu-ns/match")
	}
	b.Run("submitter", func(b *testing.B) {
		cpu0 = cpuclock.Process()
		for b.Loop() {
			if _, err := encodeJobs(s.jobs); err != nil {
				b.Fatal(err)
			}
		}
		perMatch(b)
	})
	b.Run("worker", func(b *testing.B) {
		cpu0 = cpuclock.Process()
		for b.Loop() {
			jobs, err := decodeJobs(text)
			if err != nil {
				b.Fatal(err)
			}
			packed, err := encodeRecords(recs, jobs)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := compress(packed); err != nil {
				b.Fatal(err)
			}
		}
		perMatch(b)
	})
	packed, _ := encodeRecords(recs, s.jobs)
	gz, _ := compress(packed)
	b.Run("follower", func(b *testing.B) {
		cpu0 = cpuclock.Process()
		for b.Loop() {
			if _, err := decodeBatch(gz, text, run, refs); err != nil {
				b.Fatal(err)
			}
		}
		perMatch(b)
	})
}
