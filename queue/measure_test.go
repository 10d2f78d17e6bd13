package queue

import (
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"testing"
	"time"

	"crucible/arena"
)

// TestMeasure gives the figures of README.md: throughput of 1, 2 and 4
// worker processes against the in-process arena, and the queue's capacity
// with no-op batches. It runs only when asked:
//
//	CRUCIBLE_QUEUE_MEASURE=1 go test -count=1 -run TestMeasure -v -timeout 30m ./queue/
func TestMeasure(t *testing.T) {
	if os.Getenv("CRUCIBLE_QUEUE_MEASURE") == "" {
		t.Skip("set CRUCIBLE_QUEUE_MEASURE=1 to measure")
	}
	t.Run("throughput", measureThroughput)
	t.Run("capacity", measureCapacity)
}

// recordedLine is a worker's line for a recorded batch.
var recordedLine = regexp.MustCompile(`recorded (\d+) matches in (\S+) \(loading (\S+), playing (\S+), recording (\S+)\)`)

// stages sums, over the batches the workers recorded, the time spent
// loading a batch, playing it (the in-process arena's own work: building
// players, playing, encoding the result lines) and recording it.
type stages struct{ load, play, record time.Duration }

func playTime(t *testing.T, ws []*proc) stages {
	var s stages
	for _, w := range ws {
		for _, m := range recordedLine.FindAllStringSubmatch(w.log(), -1) {
			var d [3]time.Duration
			for i := range d {
				var err error
				if d[i], err = time.ParseDuration(m[3+i]); err != nil {
					t.Fatalf("parsing %q: %v", m[0], err)
				}
			}
			s.load += d[0]
			s.play += d[1]
			s.record += d[2]
		}
	}
	return s
}

func measureThroughput(t *testing.T) {
	loads := []struct {
		name  string
		s     schedule
		batch int
	}{
		{"acb", roundRobin("acb", 0, 2), 42},                     // 840 matches of ~5 ms: 20 batches
		{"kindling", roundRobin("kindling", 0, 150), 1800},       // 36,000 matches of ~100 µs: 20 batches
		{"kindling", roundRobin("kindling", 0, 150), 9000},       // the same in 4 batches
		{"kindling-long", roundRobin("kindling", 0, 500), 20000}, // 120,000 matches: 6 batches of ~2.5 s
	}
	const tries = 2                           // best of
	only := os.Getenv("CRUCIBLE_QUEUE_LOADS") // e.g. "kindling"
	for _, l := range loads {
		if only != "" && only != l.name {
			continue
		}
		local := map[int]time.Duration{}
		for _, w := range []int{1, 2} {
			for range tries {
				path := t.TempDir() + "/local.jsonl"
				out, _, err := arena.OpenResults(path, false)
				if err != nil {
					t.Fatal(err)
				}
				start := time.Now()
				if err := arena.Run(context.Background(), l.s.game, l.s.entrants, l.s.jobs, arena.Options{Workers: w}, out.Write); err != nil {
					t.Fatal(err)
				}
				if d := time.Since(start); local[w] == 0 || d < local[w] {
					local[w] = d
				}
				out.Close()
			}
			t.Logf("%s: in-process arena, %d workers: %d matches in %s, %.0f matches/s",
				l.name, w, len(l.s.jobs), local[w].Round(time.Millisecond), float64(len(l.s.jobs))/local[w].Seconds())
		}
		for _, procs := range []int{1, 2, 4} {
			var took, follow time.Duration
			var st stages
			for range tries {
				db, url := openTestDB(t)
				var ws []*proc
				for range procs {
					ws = append(ws, start(t, "worker", envDB+"="+url, envRescue+"=5m", envWorkers+"=1"))
				}
				for _, w := range ws {
					w.waitFor(t, "ready", 30*time.Second)
				}
				begin := time.Now()
				id, err := submitSchedule(context.Background(), db, l.s, l.batch)
				if err != nil {
					t.Fatal(err)
				}
				// The workers alone (the run's follower waits till they
				// are done), then the follower alone.
				waitComplete(t, db, id, 10*time.Minute)
				d := time.Since(begin)
				begin = time.Now()
				if _, err := FollowToFile(context.Background(), db, id, t.TempDir()+"/q.jsonl", nil, nil); err != nil {
					t.Fatal(err)
				}
				f := time.Since(begin)
				for _, w := range ws {
					w.cmd.Process.Kill()
					<-w.done
				}
				if took == 0 || d < took {
					took, follow = d, f
					st = playTime(t, ws)
				}
				db.Close()
			}
			batches := (len(l.s.jobs) + l.batch - 1) / l.batch
			cores := min(procs, 2)
			// The slots' time not spent playing, per batch: loading,
			// recording, and waiting for a batch.
			per := func(d time.Duration) time.Duration { return (d / time.Duration(batches)).Round(100 * time.Microsecond) }
			idle := took*time.Duration(procs) - st.play - st.load - st.record
			t.Logf("%s: %d worker processes (1 slot each), %d batches of %d: %s, %.0f matches/s (in-process arena on %d workers: %+.1f%%); "+
				"slots playing %.1f%% of the time; a batch spends %s loading, %s recording, and its slot waits %s for it; follower %s",
				l.name, procs, batches, l.batch, took.Round(time.Millisecond), float64(len(l.s.jobs))/took.Seconds(), cores,
				100*(took.Seconds()/local[cores].Seconds()-1), 100*st.play.Seconds()/(took.Seconds()*float64(procs)),
				per(st.load), per(st.record), per(idle), follow.Round(time.Millisecond))
		}
	}
}

func measureCapacity(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("CRUCIBLE_QUEUE_NOOPS"))
	if n == 0 {
		n = 2000
	}
	for _, c := range []struct{ procs, slots int }{{1, 2}, {1, 100}, {2, 50}} {
		db, url := openTestDB(t)
		var ws []*proc
		for range c.procs {
			ws = append(ws, start(t, "worker", envDB+"="+url, envRescue+"=5m", envWorkers+"="+strconv.Itoa(c.slots)))
		}
		for _, w := range ws {
			w.waitFor(t, "ready", 30*time.Second)
		}
		s := schedules["kindling"]()
		batches := make([][]arena.Job, n)
		begin := time.Now()
		id, err := submitBatches(context.Background(), db, Run{Label: "noop", Game: s.game, BatchSize: 1}, batches)
		if err != nil {
			t.Fatal(err)
		}
		enq := time.Since(begin)
		waitComplete(t, db, id, 10*time.Minute)
		took := time.Since(begin)
		t.Logf("capacity, %d processes x %d slots: %d no-op batches enqueued in %s (%.0f/s), all completed %s after the submission (%.0f/s)",
			c.procs, c.slots, n, enq.Round(time.Millisecond), float64(n)/enq.Seconds(), took.Round(time.Millisecond), float64(n)/took.Seconds())
		for _, w := range ws {
			w.cmd.Process.Kill()
			<-w.done
		}
		db.Close()
	}
	fmt.Fprintln(os.Stderr)
}
