package queue

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// The match slots of a remote bot are shared by every worker of the
// database: two limiters on separate pools (two worker processes, as far
// as PostgreSQL can tell) never let more than perBot matches hold one bot,
// and a match of two bots holds a slot of each.
func TestBotLimiterAcrossProcesses(t *testing.T) {
	_, url := openTestDB(t)
	for _, perBot := range []int{1, 2} {
		var limiters []*botLimiter
		for range 2 {
			pool, err := pgxpool.New(context.Background(), url)
			if err != nil {
				t.Fatal(err)
			}
			defer pool.Close()
			limiters = append(limiters, newBotLimiter(perBot, pool))
		}
		var holding [2]atomic.Int32
		var most [2]atomic.Int32
		var wg sync.WaitGroup
		for g := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				l := limiters[g%2]
				for i := range 4 {
					urls := []string{"http://a:1"}
					if (g+i)%3 == 0 {
						urls = []string{"http://b:1", "http://a:1", "http://a:1"}
					}
					release, err := l.acquire(context.Background(), urls)
					if err != nil {
						t.Error(err)
						return
					}
					var held []int
					for _, u := range urls {
						k := 0
						if u == "http://b:1" {
							k = 1
						}
						if len(held) > 0 && held[len(held)-1] == k {
							continue
						}
						held = append(held, k)
					}
					for _, k := range held {
						n := holding[k].Add(1)
						for {
							m := most[k].Load()
							if n <= m || most[k].CompareAndSwap(m, n) {
								break
							}
						}
					}
					time.Sleep(5 * time.Millisecond)
					for _, k := range held {
						holding[k].Add(-1)
					}
					release()
				}
			}()
		}
		wg.Wait()
		if got := most[0].Load(); got != int32(perBot) {
			t.Errorf("perBot %d: at most %d matches held bot a at once, want %d", perBot, got, perBot)
		}
		if got := most[1].Load(); got > int32(perBot) {
			t.Errorf("perBot %d: %d matches held bot b at once", perBot, got)
		}
	}
}

// A wait for a slot ends with its context.
func TestBotLimiterWaitEndsWithContext(t *testing.T) {
	l := newBotLimiter(1, nil)
	release, err := l.acquire(context.Background(), []string{"http://a:1"})
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := l.acquire(ctx, []string{"http://a:1"}); err != context.DeadlineExceeded {
		t.Errorf("waiting for a taken slot: %v, want the context's deadline", err)
	}
}
