package queue

import (
	"context"
	"errors"
	"math"
	"time"

	"crucible/arena"
	"crucible/engine"
)

// Batch sizing. A batch is one River job: the queue's fixed cost (fetching
// the job, the completing transaction: some 15 to 40 ms, see README.md) is
// paid once per batch, so a batch holds about BatchTarget of one core's
// work, and at most MaxBatchMatches matches (a worker holds a batch's
// result lines in memory: 100,000 Kindling lines are 27 MB, 15 s of
// work). A run too small to keep many workers busy at that size is cut
// into at least MinBatches batches, but none shorter than MinBatchWork
// (the fixed cost stays under 2%).
const (
	BatchTarget     = time.Minute
	MaxBatchMatches = 100_000
	MinBatches      = 16
	MinBatchWork    = 2 * time.Second
	// calibration is how long Calibrate plays at most.
	calibration = 300 * time.Millisecond
)

// Calibrate measures the time one core takes per match of the run by
// playing a sample of its jobs (spread over the schedule) in this process
// for up to about 300 ms; the results are thrown away. It plays at least
// one match, however long it takes.
func Calibrate(ctx context.Context, g engine.Game, cfg any, entrants []arena.Entrant, jobs []arena.Job) (time.Duration, error) {
	if len(jobs) == 0 {
		return 0, errors.New("no jobs to measure")
	}
	const maxSample = 256
	step := max(1, len(jobs)/maxSample)
	var sample []arena.Job
	for i := 0; i < len(jobs) && len(sample) < maxSample; i += step {
		sample = append(sample, jobs[i])
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := 0
	start := time.Now()
	err := arena.Run(runCtx, g, entrants, sample, arena.Options{Workers: 1, Config: cfg}, func(arena.Record) error {
		n++
		if time.Since(start) >= calibration {
			cancel()
		}
		return nil
	})
	if ctx.Err() != nil {
		return 0, ctx.Err()
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		return 0, err
	}
	if n == 0 {
		return 0, errors.New("no match finished while measuring the match rate")
	}
	return time.Since(start) / time.Duration(n), nil
}

// BatchSize is the number of matches per batch for a run of total matches
// that take perMatch each on one core (see the constants above).
func BatchSize(total int, perMatch time.Duration) int {
	if total <= 0 {
		return 1
	}
	perMatch = max(perMatch, time.Microsecond)
	size := min(MaxBatchMatches, int(math.Ceil(float64(BatchTarget)/float64(perMatch))))
	if total/max(1, size) < MinBatches {
		spread := (total + MinBatches - 1) / MinBatches
		floor := int(math.Ceil(float64(MinBatchWork) / float64(perMatch)))
		size = min(size, max(spread, floor))
	}
	return max(1, min(size, total))
}
