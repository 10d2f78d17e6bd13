package queue

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sort"
	"sync"
	"testing"
	"time"

	"crucible/arena"
	"crucible/protocol/acbhttp"
)

// matchSpans records, per match id, the first and last turn a served bot
// answered. With holdAlone set, a turn of the only match seen so far waits
// up to holdAlone (within the turn's budget) for a second match to begin,
// so that slots which can play at once do so even on a loaded machine
// whose first match would otherwise finish before the next one starts.
type matchSpans struct {
	mu        sync.Mutex
	spans     map[string][2]time.Time
	holdAlone time.Duration
}

// alone tells whether at most one match has been seen.
func (m *matchSpans) alone() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.spans) < 2
}

func (m *matchSpans) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get(acbhttp.HeaderMatchID); id != "" {
			now := time.Now()
			m.mu.Lock()
			s, ok := m.spans[id]
			if !ok {
				s[0] = now
			}
			s[1] = now
			m.spans[id] = s
			m.mu.Unlock()
			for end := now.Add(m.holdAlone); m.alone() && time.Now().Before(end); {
				time.Sleep(10 * time.Millisecond)
			}
		}
		h.ServeHTTP(w, r)
	})
}

// overlaps counts the pairs of matches whose spans overlap.
func (m *matchSpans) overlaps() (int, int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var all [][2]time.Time
	for _, s := range m.spans {
		all = append(all, s)
	}
	sort.Slice(all, func(i, j int) bool { return all[i][0].Before(all[j][0]) })
	n := 0
	for i := range all {
		for j := i + 1; j < len(all); j++ {
			if all[j][0].Before(all[i][1]) {
				n++
			}
		}
	}
	return n, len(all)
}

// A served bot plays one match at a time under --bot-concurrency 1,
// however many slots the workers have; without the limit the same run
// plays its matches at once.
func TestBotConcurrencyOnServedBot(t *testing.T) {
	const secret = "s3cret"
	reg, err := testGames.Registry()
	if err != nil {
		t.Fatal(err)
	}
	acb, _ := testGames.Lookup("acb")
	gatherer, err := reg.Lookup("acb", "gatherer")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := acb.Rules.ParseConfig([]byte(`{"max_turns": 60}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 0} {
		srv, err := acbhttp.NewServer(acbhttp.ServerConfig{Secret: secret, New: acbhttp.StrategyFactory(gatherer, gatherer.Schema.Defaults())})
		if err != nil {
			t.Fatal(err)
		}
		spans := &matchSpans{spans: map[string][2]time.Time{}}
		if limit == 0 {
			// Each held turn stays within the 3 s turn budget, and the
			// first match's 60 turns leave the other slots minutes to begin.
			spans.holdAlone = 2 * time.Second
		}
		hs := httptest.NewServer(spans.wrap(srv))
		bot, err := acb.Remote(hs.URL, secret)
		if err != nil {
			t.Fatal(err)
		}
		rusher, _ := reg.Lookup("acb", "rusher")
		entrants := []arena.Entrant{bot, arena.StrategyEntrant(rusher, "rusher", "", rusher.Schema.Defaults())}
		jobs := arena.RoundRobin(2, arena.Seeds(5, 3)) // 6 matches, each with the bot
		db, _ := openTestDB(t)
		ctx, stop := context.WithCancel(context.Background())
		ready := make(chan struct{})
		done := make(chan error, 1)
		go func() {
			done <- Work(ctx, db, WorkerConfig{Games: testGames, Workers: 3, BotConcurrency: limit, Secret: secret, Ready: func(string) { close(ready) }})
		}()
		<-ready
		r := &Runner{Games: testGames, DB: db, BatchSize: 2} // 3 batches, one per slot
		n := 0
		err = r.Run(context.Background(), acb.Rules, entrants, jobs, arena.Options{Config: cfg}, func(rec arena.Record) error {
			if rec.Error != "" {
				t.Errorf("match %s failed: %s", rec.Job, rec.Error)
			}
			n++
			return nil
		})
		stop()
		<-done
		hs.Close()
		if err != nil {
			t.Fatal(err)
		}
		overlaps, matches := spans.overlaps()
		t.Logf("bot concurrency %d: %d matches played, %d overlapping pairs", limit, matches, overlaps)
		if n != len(jobs) || matches != len(jobs) {
			t.Errorf("limit %d: %d records, the bot saw %d matches; want %d", limit, n, matches, len(jobs))
		}
		if limit == 1 && overlaps != 0 {
			t.Errorf("with one slot per bot, %d pairs of matches overlapped at the bot", overlaps)
		}
		if limit == 0 && overlaps == 0 {
			t.Errorf("without a limit, 3 slots never played two matches of the bot at once: the test cannot tell")
		}
	}
}
