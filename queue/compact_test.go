package queue

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"crucible/arena"
)

// Records rebuilt from their compact form encode to the same result lines
// as the originals, for matches that finished, crashed or failed; a cut
// or corrupted encoding is an error, not wrong records. The adjudicated
// mark survives (it was once dropped: a zone match through the queue lost
// "adjudicated":true).
func TestCompactRecords(t *testing.T) {
	s := roundRobin("acb", 4, 2)
	var recs []arena.Record
	if err := arena.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Workers: 1}, func(r arena.Record) error {
		recs = append(recs, r)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// A crashed seat, a failed match (nil scores and ranks), a float
	// score and an empty reason.
	recs[0].Crashed = []bool{true, false}
	recs[1] = arena.Record{Job: recs[1].Job, Game: recs[1].Game, Config: recs[1].Config, Round: recs[1].Round, Seed: recs[1].Seed,
		Players: recs[1].Players, Error: "seed 1: player x failed: boom", DurationMS: 0.25}
	recs[2].Scores[0] = 2.0 / 3
	recs[3].Reason = ""
	recs[4].Crashed = []bool{}
	recs[5].Adjudicated = true
	packed, err := encodeRecords(recs, s.jobs)
	if err != nil {
		t.Fatal(err)
	}
	refs := make([]arena.PlayerRef, len(s.entrants))
	for i, e := range s.entrants {
		refs[i] = e.Ref()
	}
	back, err := decodeRecords(packed, s.jobs, recs[0].Game, recs[0].Config, refs)
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != len(recs) {
		t.Fatalf("%d records back, want %d", len(back), len(recs))
	}
	lineBytes := 0
	for i := range recs {
		want, _ := json.Marshal(recs[i])
		got, _ := json.Marshal(back[i])
		lineBytes += len(want) + 1
		if string(got) != string(want) {
			t.Errorf("record %d:\n got %s\nwant %s", i, got, want)
		}
	}
	t.Logf("%d records: %d bytes of lines, %d compact", len(recs), lineBytes, len(packed))
	for _, cut := range []int{1, len(packed) / 2, len(packed) - 1} {
		if _, err := decodeRecords(packed[:cut], s.jobs, "acb", "", refs); err == nil {
			t.Errorf("records cut to %d bytes decoded", cut)
		}
	}
	if _, err := decodeRecords(append(packed, 0), s.jobs, "acb", "", refs); err == nil || !strings.Contains(err.Error(), "left over") {
		t.Errorf("a trailing byte: %v", err)
	}
	// The flags of the first record (version, count, job index, flags)
	// with a bit no version knows.
	odd := append([]byte(nil), packed...)
	odd[3] |= 1 << 6
	if _, err := decodeRecords(odd, s.jobs, "acb", "", refs); err == nil || !strings.Contains(err.Error(), "unknown flags 0x40") {
		t.Errorf("an unknown flag: %v", err)
	}
	if _, err := decodeRecords(packed, s.jobs[:1], "acb", "", refs); err == nil {
		t.Error("records of jobs outside the batch decoded")
	}
	if _, err := encodeRecords(recs, s.jobs[:1]); err == nil || !strings.Contains(err.Error(), "not in the batch") {
		t.Errorf("encoding a record of another batch: %v", err)
	}
}

// Matches the engine adjudicates (AI Code Battle with the zone on) keep
// "adjudicated":true through a worker: the queue's lines are the local
// arena's with the same configuration.
func TestAdjudicatedThroughTheQueue(t *testing.T) {
	db, _ := openTestDB(t)
	s := roundRobin("acb", 3, 3)
	cfg, err := s.game.ParseConfig([]byte(`{"zone_enabled": true, "max_turns": 200}`))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	adjudicated := 0
	if err := arena.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Workers: 2, Config: cfg}, func(r arena.Record) error {
		data, err := json.Marshal(r)
		want = append(want, string(data))
		if r.Adjudicated {
			adjudicated++
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if adjudicated == 0 {
		t.Fatalf("none of the %d local matches was adjudicated: the test checks nothing", len(s.jobs))
	}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	ready := make(chan struct{})
	go Work(ctx, db, WorkerConfig{Games: testGames, Workers: 1, Ready: func(string) { close(ready) }})
	<-ready
	var got []string
	r := &Runner{Games: testGames, DB: db, BatchSize: 7}
	if err := r.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Config: cfg}, func(rec arena.Record) error {
		data, err := json.Marshal(rec)
		got = append(got, string(data))
		return err
	}); err != nil {
		t.Fatal(err)
	}
	got, want = normalize(got), normalize(want)
	sameLines(t, got, want)
	marked := 0
	for _, l := range got {
		if strings.Contains(l, `"adjudicated":true`) {
			marked++
		}
	}
	if marked != adjudicated {
		t.Errorf("%d lines through the queue say adjudicated, want %d", marked, adjudicated)
	}
}
