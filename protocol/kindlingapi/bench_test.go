package kindlingapi

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"crucible/engine/kindling"
)

// BenchmarkServerLoad plays 100 matches at once on one server over
// loopback, each with 4 agents that poll the state and bid when they can
// move (the seed's loop), until every match is finished. It reports the
// requests served per second and the p50 and p99 latency of a request.
// Sub-benchmarks: agents that poll every second as the seed asks (the
// load the server really sees: about 400 requests/s), and agents that poll
// with no pause (the server's capacity; the load generator shares the
// cores). One iteration is the 100 matches.
//
//	go test -run '^$' -bench ServerLoad -benchtime 1x ./protocol/kindlingapi
func BenchmarkServerLoad(b *testing.B) {
	b.Run("poll-1s", func(b *testing.B) { benchLoad(b, 100, time.Second) })
	b.Run("no-pause", func(b *testing.B) { benchLoad(b, 100, 0) })
}

func benchLoad(b *testing.B, matches int, poll time.Duration) {
	srv, err := NewServer(ServerConfig{HouseBot: testHouse, CreateLimit: 1 << 30})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConns: 8 * matches, MaxIdleConnsPerHost: 8 * matches}}
	c := &Client{BaseURL: ts.URL, HTTP: hc}
	ctx := context.Background()
	var all []time.Duration
	var requests int
	var elapsed time.Duration
	for it := 0; it < b.N; it++ {
		b.StopTimer()
		type seatTok struct{ code, token string }
		var seats []seatTok
		for m := 0; m < matches; m++ {
			s, err := c.Create(ctx, CreateRequest{Name: "a0", Seats: 4, TurnSeconds: 30})
			if err != nil {
				b.Fatal(err)
			}
			seats = append(seats, seatTok{s.Code, s.Token})
			for j := 1; j < 4; j++ {
				js, err := c.Join(ctx, s.Code, JoinRequest{Name: fmt.Sprintf("a%d", j)})
				if err != nil {
					b.Fatal(err)
				}
				seats = append(seats, seatTok{js.Code, js.Token})
			}
		}
		b.StartTimer()
		lat := make([][]time.Duration, len(seats))
		errs := make(chan error, len(seats))
		var wg sync.WaitGroup
		start := time.Now()
		for i, st := range seats {
			wg.Add(1)
			go func() {
				defer wg.Done()
				// Spread the first polls over one poll interval.
				time.Sleep(poll * time.Duration(i) / time.Duration(len(seats)))
				moved := 0
				var view kindling.View
				for {
					t0 := time.Now()
					s, err := c.State(ctx, st.code, st.token)
					lat[i] = append(lat[i], time.Since(t0))
					if err != nil {
						errs <- err
						return
					}
					if s.Phase == PhaseFinished {
						return
					}
					if s.You.CanMove && moved != s.Turn {
						if err := s.View(&view); err != nil {
							errs <- err
							return
						}
						var bid kindling.Bid
						greedy{}.Bid(&view, &bid)
						t0 = time.Now()
						_, err := c.Bid(ctx, st.code, st.token, bid, s.Turn)
						lat[i] = append(lat[i], time.Since(t0))
						if err != nil {
							errs <- err
							return
						}
						moved = s.Turn
					}
					if poll > 0 {
						time.Sleep(poll)
					}
				}
			}()
		}
		wg.Wait()
		elapsed += time.Since(start)
		close(errs)
		for err := range errs {
			b.Fatal(err)
		}
		for _, l := range lat {
			all = append(all, l...)
			requests += len(l)
		}
	}
	slices.Sort(all)
	q := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000 }
	b.ReportMetric(float64(requests)/elapsed.Seconds(), "req/s")
	b.ReportMetric(q(0.50), "p50_ms")
	b.ReportMetric(q(0.99), "p99_ms")
}

// BenchmarkStateHandler is the server's own cost of one GET state (a seat
// of a 4-seat match in play, with a last turn), without the network.
func BenchmarkStateHandler(b *testing.B) {
	srv, err := NewServer(ServerConfig{HouseBot: testHouse})
	if err != nil {
		b.Fatal(err)
	}
	rec := httptest.NewRecorder()
	srv.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/api/matches", strings.NewReader(`{"name":"a","seats":4,"bots":3}`)))
	var s Seated
	if err := json.Unmarshal(rec.Body.Bytes(), &s); err != nil {
		b.Fatal(err)
	}
	bid := httptest.NewRequest(http.MethodPost, "/api/matches/"+s.Code+"/bids", strings.NewReader(`{"bids":[1,1,1,1,1],"turn":1}`))
	bid.Header.Set("Authorization", "Bearer "+s.Token)
	srv.ServeHTTP(httptest.NewRecorder(), bid)
	req := httptest.NewRequest(http.MethodGet, "/api/matches/"+s.Code, nil)
	req.Header.Set("Authorization", "Bearer "+s.Token)
	b.ReportAllocs()
	for b.Loop() {
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}
