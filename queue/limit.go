package queue

import (
	"context"
	"fmt"
	"hash/fnv"
	"slices"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
)

// botLockClass is the first key of the advisory locks that stand for the
// match slots of one remote bot: pg_try_advisory_lock(botLockClass ^
// hash(url), slot) is held by the worker playing that slot.
const botLockClass = 0x626f7400 // "bot\0"

// botLimiter lets at most perBot matches at once play against one remote
// bot: within the process through a semaphore per URL, and across the
// processes sharing the database through PostgreSQL advisory locks, one
// per slot, held on a connection for the length of the match (a killed
// worker's session ends and frees its slots). perBot < 1 means no limit.
type botLimiter struct {
	perBot int
	pool   *pgxpool.Pool // nil: this process only

	mu   sync.Mutex
	sems map[string]chan struct{}
}

func newBotLimiter(perBot int, pool *pgxpool.Pool) *botLimiter {
	return &botLimiter{perBot: perBot, pool: pool, sems: map[string]chan struct{}{}}
}

func (l *botLimiter) sem(url string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	s, ok := l.sems[url]
	if !ok {
		s = make(chan struct{}, l.perBot)
		l.sems[url] = s
	}
	return s
}

// acquire takes one slot of every bot in urls (in sorted order, so two
// matches of the same bots never hold one slot each and wait for the
// other), waiting as long as ctx allows, and returns the function that
// gives them back.
func (l *botLimiter) acquire(ctx context.Context, urls []string) (func(), error) {
	if l.perBot < 1 || len(urls) == 0 {
		return func() {}, nil
	}
	urls = slices.Clone(urls)
	slices.Sort(urls)
	urls = slices.Compact(urls)
	var held []chan struct{}
	releaseLocal := func() {
		for _, s := range held {
			<-s
		}
	}
	for _, u := range urls {
		s := l.sem(u)
		select {
		case s <- struct{}{}:
			held = append(held, s)
		case <-ctx.Done():
			releaseLocal()
			return nil, ctx.Err()
		}
	}
	if l.pool == nil {
		return releaseLocal, nil
	}
	conn, err := l.pool.Acquire(ctx)
	if err != nil {
		releaseLocal()
		return nil, err
	}
	var locked [][2]int32
	unlock := func() {
		for _, k := range locked {
			conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1, $2)", k[0], k[1])
		}
		conn.Release()
		releaseLocal()
	}
	for _, u := range urls {
		k, err := l.lockSlot(ctx, conn, u)
		if err != nil {
			unlock()
			return nil, err
		}
		locked = append(locked, k)
	}
	return unlock, nil
}

// lockSlot waits for a free slot of the bot at url among the perBot
// slots shared by every worker, and locks it on conn.
func (l *botLimiter) lockSlot(ctx context.Context, conn *pgxpool.Conn, url string) ([2]int32, error) {
	h := fnv.New32a()
	h.Write([]byte(url))
	class := int32(botLockClass ^ h.Sum32())
	wait := 10 * time.Millisecond
	for {
		for slot := int32(0); slot < int32(l.perBot); slot++ {
			var ok bool
			if err := conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1, $2)", class, slot).Scan(&ok); err != nil {
				return [2]int32{}, fmt.Errorf("locking a match slot of bot %s: %w", url, err)
			}
			if ok {
				return [2]int32{class, slot}, nil
			}
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return [2]int32{}, ctx.Err()
		}
		wait = min(2*wait, 500*time.Millisecond)
	}
}
