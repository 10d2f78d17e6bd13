package queue

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"
)

// rescueLoop hands batches stuck in 'running' for longer than after back
// to the queue, checking every after/4 (at least every 30 s), until ctx
// ends. River's own rescuer does the same, but only on the elected leader
// and only every 30 s, and sends the batch to 'retryable', which the
// leader's scheduler makes available up to 5 s later: a batch of a killed
// worker would wait up to after + 35 s. This loop uses River's own queries
// (the driver's JobGetStuck and JobRescueMany, the latter re-checking
// under its UPDATE that the job is still running and stuck) and makes the
// batch available at once, so the wait is after + min(after/4, 30 s). Every worker
// runs it; two rescuing one batch at once do no harm. Batches at their
// last attempt are left to River's rescuer, which discards them.
func rescueLoop(ctx context.Context, driver *riverpgxv5.Driver, after time.Duration, log io.Writer) {
	every := min(max(after/4, 10*time.Millisecond), 30*time.Second)
	exec := driver.GetExecutor()
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
		n, err := rescueOnce(ctx, exec, after)
		if err != nil && ctx.Err() == nil {
			fmt.Fprintf(log, "rescuing stuck batches: %v\n", err)
		}
		if n > 0 {
			fmt.Fprintf(log, "rescued %d batches running for more than %s (their workers died or stalled)\n", n, after)
		}
	}
}

// rescueOnce makes the batches running since before now - after
// available again and returns how many it found.
func rescueOnce(ctx context.Context, exec riverdriver.Executor, after time.Duration) (int, error) {
	horizon := time.Now().Add(-after)
	stuck, err := exec.JobGetStuck(ctx, &riverdriver.JobGetStuckParams{Max: 1000, StuckHorizon: horizon})
	if err != nil {
		return 0, err
	}
	now := time.Now().UTC()
	p := &riverdriver.JobRescueManyParams{StuckHorizon: horizon}
	for _, j := range stuck {
		if j.Kind != BatchKind || j.AttemptedAt == nil || j.Attempt >= j.MaxAttempts || bytes.Contains(j.Metadata, []byte("cancel_attempted_at")) {
			continue
		}
		e, err := json.Marshal(rivertype.AttemptError{At: now, Attempt: j.Attempt,
			Error: fmt.Sprintf("batch running since %s, more than --rescue-after %s: rescued", j.AttemptedAt.Format(time.RFC3339), after)})
		if err != nil {
			return 0, err
		}
		p.ID = append(p.ID, j.ID)
		p.Error = append(p.Error, e)
		p.FinalizedAt = append(p.FinalizedAt, nil)
		p.ScheduledAt = append(p.ScheduledAt, now)
		p.State = append(p.State, string(rivertype.JobStateAvailable))
	}
	if len(p.ID) == 0 {
		return 0, nil
	}
	if _, err := exec.JobRescueMany(ctx, p); err != nil {
		return 0, err
	}
	return len(p.ID), nil
}
