package acbhttp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"crucible/engine/acb"
)

const testSecret = "test-secret"

// northBot orders each of its own units north and records every call, so
// tests can tell whether moves were computed and by which instance.
type northBot struct {
	mu    *sync.Mutex
	calls *[]string // "matchID/seat/instance/turn"
	id    int
	seat  int
}

func (b *northBot) Turn(ctx context.Context, v *acb.View, buf []acb.Move) ([]acb.Move, error) {
	b.mu.Lock()
	*b.calls = append(*b.calls, v.MatchID+"/"+strconv.Itoa(b.seat)+"/"+strconv.Itoa(b.id)+"/"+strconv.Itoa(v.Turn))
	b.mu.Unlock()
	for _, u := range v.Bots {
		if u.Owner == v.You.ID {
			buf = append(buf, acb.Move{Position: u.Position, Direction: acb.North})
		}
	}
	return buf, nil
}

// recorder builds northBots and remembers what they did.
type recorder struct {
	mu      sync.Mutex
	calls   []string
	created int
}

func (r *recorder) factory(_ string, seat int) (acb.Controller, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.created++
	return &northBot{mu: &r.mu, calls: &r.calls, id: r.created, seat: seat}, nil
}

func (r *recorder) snapshot() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.created, append([]string(nil), r.calls...)
}

// sampleView is a legal state of a 40x40 match with n own units in a
// diagonal band and n/4 enemies, a few walls, energy and cores.
func sampleView(matchID string, turn, n int) *acb.View {
	v := &acb.View{MatchID: matchID, Turn: turn, Config: acb.DefaultConfig()}
	v.You = acb.PlayerInfo{ID: 0, Energy: 7, Score: 3}
	for i := 0; i < n; i++ {
		v.Bots = append(v.Bots, acb.Unit{Position: acb.Pos{Row: i % 40, Col: (i * 7) % 40}, Owner: 0})
	}
	for i := 0; i < n/4; i++ {
		v.Bots = append(v.Bots, acb.Unit{Position: acb.Pos{Row: (i * 3) % 40, Col: (i*11 + 5) % 40}, Owner: 1})
	}
	for i := 0; i < 20; i++ {
		v.Walls = append(v.Walls, acb.Pos{Row: 10 + i%5, Col: 20 + i/5})
		v.Energy = append(v.Energy, acb.Pos{Row: (i * 13) % 40, Col: (i * 17) % 40})
	}
	v.Cores = []acb.CoreView{{Position: acb.Pos{Row: 5, Col: 5}, Owner: 0, Active: true}, {Position: acb.Pos{Row: 35, Col: 35}, Owner: 1, Active: true}}
	v.Dead = []acb.Unit{}
	return v
}

func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// signedRequest builds a /turn request with all five headers, signed with
// secret over body.
func signedRequest(t testing.TB, base, secret, matchID, turn string, ts time.Time, body []byte) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"/turn", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	tss := strconv.FormatInt(ts.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(HeaderMatchID, matchID)
	req.Header.Set(HeaderTurn, turn)
	req.Header.Set(HeaderTimestamp, tss)
	req.Header.Set(HeaderBotID, "bot-0")
	req.Header.Set(HeaderSignature, SignRequest(secret, matchID, turn, tss, body))
	return req
}

// syncBuffer is a bytes.Buffer safe for a logger and a test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
