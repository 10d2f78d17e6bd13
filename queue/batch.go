package queue

import (
	"context"
	"errors"
	"math"
	"time"

	"crucible/arena"
	"crucible/engine"
	"crucible/internal/cpuclock"
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
	// calibration is the CPU time Calibrate plays at most, and
	// 1/calibrationShare the share of the run's matches.
	calibration      = 300 * time.Millisecond
	calibrationShare = 100
)

// Calibrate measures the CPU time one core takes per match of the run by
// playing a sample of its jobs (spread over the schedule) in this process;
// the results are thrown away. It plays at least one match, and stops
// once it has spent 1% of what the whole run would take at the rate
// measured so far (the sizing needs the rate within a factor of two, and
// a small run should not pay a large share for it) or 300 ms of CPU time.
// CPU time, not wall time, because batches are sized to a core's work: on
// a loaded machine a match takes many times its CPU time in wall time.
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
	n := 0
	meter := cpuclock.Start()
	spent := func() time.Duration {
		s := meter.Stop()
		if s.CPU > 0 {
			return s.CPU
		}
		return s.Wall // a system without a CPU clock
	}
	// One match at a time: the arena hands records on in groups, and the
	// stop is counted in matches.
	for _, j := range sample {
		if err := arena.Run(ctx, g, entrants, []arena.Job{j}, arena.Options{Workers: 1, Config: cfg}, func(arena.Record) error { return nil }); err != nil {
			return 0, err
		}
		n++
		// At d/n a match, the run takes d·len(jobs)/n: 1% of it is
		// spent once n reaches len(jobs)/calibrationShare.
		if n*calibrationShare >= len(jobs) || spent() >= calibration {
			break
		}
	}
	if n == 0 {
		return 0, errors.New("no match finished while measuring the match rate")
	}
	return spent() / time.Duration(n), nil
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
