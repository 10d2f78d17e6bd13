package queue

import (
	"context"
	"strings"
	"testing"
	"time"

	"crucible/arena"
)

// A batch River gave up on (discarded after its attempts) makes the run
// lost: the follower stops with an error naming the count and the last
// error instead of waiting for ever, and the list says so.
func TestLostBatchStopsTheFollower(t *testing.T) {
	db, _ := openTestDB(t)
	ctx := context.Background()
	s := schedules["kindling"]()
	id, err := submitSchedule(ctx, db, s, 100)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Pool.Exec(ctx, `UPDATE river_job SET state = 'discarded', finalized_at = now(), attempt = max_attempts,
		errors = ARRAY['{"at": "2026-01-01T00:00:00Z", "attempt": 25, "error": "run 1: entrant 3 (x): unknown strategy"}'::jsonb]
		WHERE id = (SELECT min(id) FROM river_job)`)
	if err != nil {
		t.Fatal(err)
	}
	fctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	err = Follow(fctx, db, id, nil, func(arena.Record) error { return nil }, nil)
	if err == nil || !strings.Contains(err.Error(), "1 batches were given up after 25 attempts each (last error: run 1: entrant 3 (x): unknown strategy)") {
		t.Errorf("following a run with a lost batch: %v", err)
	}
	runs, err := List(ctx, db, 0)
	if err != nil || len(runs) != 1 || runs[0].Status() != "lost" || runs[0].Lost != 1 {
		t.Errorf("list: %+v, %v", runs, err)
	}
	// Cancelling it drops the waiting batches.
	if err := Cancel(ctx, db, id); err != nil {
		t.Fatal(err)
	}
	var waiting int
	if err := db.Pool.QueryRow(ctx, "SELECT count(*) FROM river_job WHERE state = 'available'").Scan(&waiting); err != nil || waiting != 0 {
		t.Errorf("%d batches still waiting after the cancel (%v)", waiting, err)
	}
}
