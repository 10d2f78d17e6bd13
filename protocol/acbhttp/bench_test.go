package acbhttp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"crucible/engine/acb"
	"crucible/strategies"
	"crucible/strategies/acbstrat"
)

// BenchmarkServerTurnLatency measures POST /turn on loopback: 50 matches
// at once, each sending its turns one after the other (as the engine
// does), every state with 100 visible units (80 own). It reports the p50
// and p99 latency of a turn (sign, send, verify, parse, compute, sign the
// reply, receive, verify) and the turns answered per second. The
// sub-benchmarks use a trivial controller (the protocol's own cost) and
// the gatherer strategy (a real one), each closed-loop (every match sends
// its next turn as soon as the reply arrives: the server's capacity, where
// latency is mostly queueing on the shared cores) and paced (every match
// sends a turn every 20 ms, 2500 turns/s in all: latency under a steady
// load). The load generator shares the machine's cores with the server.
//
//	go test -run '^$' -bench ServerTurnLatency -benchtime 5000x ./protocol/acbhttp
func BenchmarkServerTurnLatency(b *testing.B) {
	reg, err := strategies.NewRegistry(acbstrat.All()...)
	if err != nil {
		b.Fatal(err)
	}
	gatherer, err := reg.Lookup("acb", "gatherer")
	if err != nil {
		b.Fatal(err)
	}
	factories := []struct {
		name string
		new  Factory
	}{
		{"north", func(string, int) (acb.Controller, error) { return northOnly{}, nil }},
		{"gatherer", StrategyFactory(gatherer, gatherer.Schema.Defaults())},
	}
	for _, f := range factories {
		b.Run(f.name+"/closed-loop", func(b *testing.B) { benchTurns(b, f.new, 50, 80, 0) })
		b.Run(f.name+"/every-20ms", func(b *testing.B) { benchTurns(b, f.new, 50, 80, 20*time.Millisecond) })
	}
}

// northOnly orders every own unit north, allocation-free.
type northOnly struct{}

func (northOnly) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	for _, u := range v.Bots {
		if u.Owner == v.You.ID {
			buf = append(buf, acb.Move{Position: u.Position, Direction: acb.North})
		}
	}
	return buf, nil
}

// benchTurns plays matches concurrent matches against one server; with
// pace > 0 each match sends a turn every pace (phases spread evenly),
// otherwise as fast as replies come.
func benchTurns(b *testing.B, factory Factory, matches, ownUnits int, pace time.Duration) {
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: factory})
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConns: 2 * matches, MaxIdleConnsPerHost: 2 * matches}}
	// Bodies are built before timing (the client's JSON is not the
	// server's cost): per match, the state with "turn":0 split around its
	// turn number, so a match counts its turns up without restarting.
	type template struct{ head, tail []byte }
	tpl := make([]template, matches)
	for m := range tpl {
		body := mustJSON(b, sampleView(fmt.Sprintf("bench-%d", m), 0, ownUnits))
		head, tail, ok := bytes.Cut(body, []byte(`"turn":0,`))
		if !ok {
			b.Fatal("no turn field in the body")
		}
		tpl[m] = template{append(head, `"turn":`...), append([]byte(","), tail...)}
	}
	per := (b.N + matches - 1) / matches
	lat := make([][]time.Duration, matches)
	var wg sync.WaitGroup
	errs := make(chan error, matches)
	b.ResetTimer()
	start := time.Now()
	for m := 0; m < matches; m++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("bench-%d", m)
			lat[m] = make([]time.Duration, 0, per)
			next := start.Add(pace * time.Duration(m) / time.Duration(matches))
			for i := 0; i < per; i++ {
				if pace > 0 {
					time.Sleep(time.Until(next))
					next = next.Add(pace)
				}
				turn := strconv.Itoa(i)
				body := make([]byte, 0, len(tpl[m].head)+len(turn)+len(tpl[m].tail))
				body = append(append(append(body, tpl[m].head...), turn...), tpl[m].tail...)
				ts0 := time.Now()
				tss := strconv.FormatInt(ts0.Unix(), 10)
				req, _ := http.NewRequest(http.MethodPost, ts.URL+"/turn", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set(HeaderMatchID, id)
				req.Header.Set(HeaderTurn, turn)
				req.Header.Set(HeaderTimestamp, tss)
				req.Header.Set(HeaderBotID, "bench")
				req.Header.Set(HeaderSignature, SignRequest(testSecret, id, turn, tss, body))
				resp, err := client.Do(req)
				if err != nil {
					errs <- err
					return
				}
				reply, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != 200 {
					errs <- fmt.Errorf("status %d: %s", resp.StatusCode, reply)
					return
				}
				if err := VerifySignature(testSecret, ResponsePayload(id, turn, reply), resp.Header.Get(HeaderSignature)); err != nil {
					errs <- err
					return
				}
				lat[m] = append(lat[m], time.Since(ts0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	q := func(p float64) float64 { return float64(all[int(p*float64(len(all)-1))].Microseconds()) / 1000 }
	b.ReportMetric(q(0.50), "p50_ms")
	b.ReportMetric(q(0.99), "p99_ms")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "turns/s")
}

// BenchmarkParseTurnRequest decodes a /turn body with 100 visible units.
func BenchmarkParseTurnRequest(b *testing.B) {
	body := mustJSON(b, sampleView("m_bench", 7, 80))
	a := RequestAuth{MatchID: "m_bench", Turn: "7"}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ParseTurnRequest(body, a); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandler measures the server's handler alone (no network): one
// verified, parsed, computed and signed turn with 100 visible units.
func BenchmarkHandler(b *testing.B) {
	srv, err := NewServer(ServerConfig{Secret: testSecret, New: func(string, int) (acb.Controller, error) { return northOnly{}, nil }})
	if err != nil {
		b.Fatal(err)
	}
	body := mustJSON(b, sampleView("m_bench", 7, 80))
	b.ReportAllocs()
	for b.Loop() {
		req := signedRequest(b, "http://bot", testSecret, "m_bench", "7", time.Now(), body)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatal(w.Code, w.Body.String())
		}
	}
}
