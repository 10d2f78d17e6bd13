package kindlinggame_test

import (
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/games/lab"
	"crucible/protocol/kindlingapi"
	"crucible/strategies"
)

// turnLog records what a bidder was shown and what it bid, turn by turn.
type turnLog struct {
	inner kindling.Bidder
	mu    sync.Mutex
	views []kindling.View
	bids  []kindling.Bid
}

func (l *turnLog) Bid(v *kindling.View, out *kindling.Bid) {
	l.inner.Bid(v, out)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.views = append(l.views, *v)
	l.bids = append(l.bids, *out)
}

// testProgram is a Kindling program whose jitter draws from the seat's
// generator every turn, so that a bidder seeded otherwise bids otherwise.
const testProgram = `{"game":"kindling","base":"program","program":{"jitter":20,"spend":60,"targets":3,"rules":[
	{"when":"rival_bid >= 3","then":"favour embers 0.5"},
	{"when":"turn >= 10 and sparks < 8","then":"save 2"},
	{"when":"value < 2","then":"skip"}]}}`

// The export's Kindling agent bids exactly as the in-process bidder: a
// program variant and a parametric one play a whole match through the
// agent loop against a house bot on our server (HTTP, JSON), then the same
// two bidders, with the same seeds, play the match in-process; every turn's
// view and bids, and the final scores, must agree.
func TestExportedKindlingAgentBidsAsInProcess(t *testing.T) {
	reg, err := lab.Table().Registry()
	if err != nil {
		t.Fatal(err)
	}
	program, err := strategies.ParseVariant([]byte(testProgram), "test program")
	if err != nil {
		t.Fatal(err)
	}
	sniper, err := reg.Lookup("kindling", "sniper")
	if err != nil {
		t.Fatal(err)
	}
	params := sniper.Schema.Defaults()
	params[0] = sniper.Schema[0].Max
	house, err := kindlingapi.HouseBots(reg)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []strategies.Variant{program, strategies.NewVariant(sniper, params)} {
		r, err := reg.Check(v)
		if err != nil {
			t.Fatal(err)
		}
		var houseSeed atomic.Uint64
		srv, err := kindlingapi.NewServer(kindlingapi.ServerConfig{HouseBot: func(level string, seed uint64, seat int) (kindling.Bidder, error) {
			houseSeed.Store(seed)
			return house(level, seed, seat)
		}})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		client, err := kindlingapi.NewClient(ts.URL)
		if err != nil {
			t.Fatal(err)
		}
		newBidder := kindlingapi.BidderFactory(r.Strategy, r.Genome)
		var code string
		served := &turnLog{}
		final, err := kindlingapi.PlayMatch(t.Context(), kindlingapi.PlayOptions{
			Client: client, Name: "agent", Poll: 10 * time.Millisecond,
			Create: kindlingapi.CreateRequest{Seats: 2, Bots: 1, TurnSeconds: kindlingapi.DefaultTurnSeconds, BotLevel: "normal"},
			NewBidder: func(c string, seat int) (kindling.Bidder, error) {
				code = c
				b, err := newBidder(c, seat)
				served.inner = b
				return served, err
			},
		})
		ts.Close()
		if err != nil {
			t.Fatal(err)
		}

		mine, err := newBidder(code, 0)
		if err != nil {
			t.Fatal(err)
		}
		theirs, err := house("normal", houseSeed.Load(), 1)
		if err != nil {
			t.Fatal(err)
		}
		local := &turnLog{inner: mine}
		res, err := kindling.Game{}.Play(t.Context(), engine.MatchSpec{Seats: []engine.Seat{{Name: "agent", Player: local}, {Name: "house", Player: theirs}}})
		if err != nil {
			t.Fatal(err)
		}
		label := r.Variant.Label()
		if len(served.bids) != len(local.bids) || len(local.bids) == 0 {
			t.Fatalf("%s: the agent bid on %d turns, in-process %d", label, len(served.bids), len(local.bids))
		}
		for i := range local.bids {
			if served.views[i] != local.views[i] {
				t.Fatalf("%s: turn %d: the agent was shown\n%+v\nthe in-process bidder\n%+v", label, i+1, served.views[i], local.views[i])
			}
			if served.bids[i] != local.bids[i] {
				t.Fatalf("%s: turn %d: the agent bid %v, in-process %v", label, i+1, served.bids[i], local.bids[i])
			}
		}
		for s, p := range final.Players {
			if float64(p.Score) != res.Scores[s] {
				t.Errorf("%s: seat %d scored %d on the server, %v in-process", label, s, p.Score, res.Scores[s])
			}
		}
	}
}
