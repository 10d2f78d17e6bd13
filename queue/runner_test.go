package queue

import (
	"context"
	"encoding/json"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"crucible/arena"
)

// Runner.Run has arena.Run's contract: the same records for the same
// jobs, here played by a worker in this process, whose metrics count them.
func TestRunnerPlaysLikeArenaRun(t *testing.T) {
	db, _ := openTestDB(t)
	s := schedules["kindling"]()
	want := localLines(t, s)
	m := NewMetrics(db, []string{DefaultQueue})
	ctx, stop := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- Work(ctx, db, WorkerConfig{Games: testGames, Workers: 2, Metrics: m, Ready: func(string) { close(ready) }})
	}()
	<-ready
	var lines []string
	progressed := 0
	r := &Runner{Games: testGames, DB: db, BatchSize: 50}
	err := r.Run(context.Background(), s.game, s.entrants, s.jobs, arena.Options{Progress: func(done, total int) {
		if total != len(s.jobs) || done < progressed {
			t.Errorf("progress %d of %d after %d", done, total, progressed)
		}
		progressed = done
	}}, func(rec arena.Record) error {
		data, err := json.Marshal(rec)
		lines = append(lines, string(data))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sameLines(t, normalize(lines), want)
	if progressed != len(s.jobs) {
		t.Errorf("progress reached %d of %d", progressed, len(s.jobs))
	}
	// The worker counts a batch in its metrics just after committing it,
	// so the run can end before the last count: stop the worker (it
	// returns once its batches are done) before reading them.
	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("worker stopped with %v", err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("worker did not stop")
	}
	if got := testutil.ToFloat64(m.Matches.WithLabelValues("kindling")); got != float64(len(s.jobs)) {
		t.Errorf("matches played metric %v, want %d", got, len(s.jobs))
	}
	if got := testutil.CollectAndCount(m.BatchSeconds); got != 1 {
		t.Errorf("%d batch latency series, want 1 (kindling)", got)
	}
	srv := httptest.NewServer(m.Handler())
	defer srv.Close()
	resp, err := srv.Client().Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`crucible_queue_depth{queue="matches",state="available"} 0`,
		`crucible_queue_batch_seconds_count{game="kindling"} 10`,
		`crucible_queue_match_failures_total{game="kindling"} 0`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}
