package kindling

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"crucible/engine"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// allOn bids every spark on one beacon.
type allOn struct{ beacon int }

func (a allOn) Bid(v *View, out *Bid) { out[a.beacon] = v.Budget() }

// evenSplit spreads its sparks over the beacons, the remainder on the
// most valuable ones first.
type evenSplit struct{}

func (evenSplit) Bid(v *View, out *Bid) {
	b := v.Budget()
	for i := range out {
		out[i] = b / Beacons
	}
	order := [Beacons]int{2, 3, 1, 4, 0}
	for k := 0; k < b%Beacons; k++ {
		out[order[k]]++
	}
}

// greedyTop puts its sparks on the most valuable beacon, one spark more than
// the best rival's embers there when it can afford it.
type greedyTop struct{}

func (greedyTop) Bid(v *View, out *Bid) {
	best := 0
	for i := 1; i < Beacons; i++ {
		if v.Values[i] > v.Values[best] {
			best = i
		}
	}
	rival := 0
	for p := 0; p < v.Seats; p++ {
		if p != v.You && v.Embers[p][best] > rival {
			rival = v.Embers[p][best]
		}
	}
	out[best] = min(v.Budget(), rival+3)
}

// randomBids spreads a random share of its sparks at random, from its own
// seeded generator.
type randomBids struct{ rng *rand.Rand }

func newRandomBids(seed uint64) randomBids { return randomBids{rand.New(rand.NewPCG(seed, 1))} }

func (r randomBids) Bid(v *View, out *Bid) {
	n := r.rng.IntN(v.Budget() + 1)
	for k := 0; k < n; k++ {
		out[r.rng.IntN(Beacons)]++
	}
}

type panicky struct{}

func (panicky) Bid(v *View, out *Bid) {
	if v.Turn == 3 {
		panic("out of ideas")
	}
}

type overspender struct{}

func (overspender) Bid(v *View, out *Bid) {
	if v.Turn == 2 {
		out[0] = v.Budget() + 1
	}
}

// recorder remembers every view it was shown.
type recorder struct {
	inner Bidder
	views []View
	bids  []Bid
}

func (r *recorder) Bid(v *View, out *Bid) {
	r.views = append(r.views, *v)
	r.inner.Bid(v, out)
	r.bids = append(r.bids, *out)
}

func seatsOf(players ...Bidder) []engine.Seat {
	out := make([]engine.Seat, len(players))
	for i, p := range players {
		out[i] = engine.Seat{Name: reflect.TypeOf(p).String(), Player: p}
	}
	return out
}

func TestGameContract(t *testing.T) {
	var g engine.Game = Game{}
	if g.Name() != "kindling" {
		t.Fatalf("Name() = %q", g.Name())
	}
	if lo, hi := g.SeatRange(); lo != 2 || hi != 4 {
		t.Fatalf("SeatRange() = %d, %d; want 2, 4", lo, hi)
	}
	for _, in := range []string{"", "null", "{}", " { } "} {
		if _, err := g.ParseConfig([]byte(in)); err != nil {
			t.Fatalf("ParseConfig(%q) = %v, want the defaults", in, err)
		}
	}
	_, err := g.ParseConfig([]byte(`{"turns":9}`))
	if err == nil || !strings.Contains(err.Error(), `"turns"`) {
		t.Fatalf("ParseConfig with an unknown field = %v, want an error naming it", err)
	}
	if _, err := g.ParseConfig([]byte(`[1]`)); err == nil {
		t.Fatal("ParseConfig([1]) should fail")
	}
}

func TestPlayRefusesBadSpecs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		spec    engine.MatchSpec
		wantErr string
	}{
		{"one seat", engine.MatchSpec{Seats: seatsOf(evenSplit{})}, "seats = 1 is outside its range 2..4"},
		{"five seats", engine.MatchSpec{Seats: seatsOf(evenSplit{}, evenSplit{}, evenSplit{}, evenSplit{}, evenSplit{})}, "seats = 5"},
		{"a player that is not a Bidder", engine.MatchSpec{Seats: []engine.Seat{{Name: "a", Player: evenSplit{}}, {Name: "rock", Player: 42}}},
			"seat 1 (rock): player of type int is not a kindling.Bidder"},
		{"a foreign config", engine.MatchSpec{Config: "fast", Seats: seatsOf(evenSplit{}, evenSplit{})}, "config of type string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game{}.Play(ctx, tt.spec)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("Play error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestPlayPlayerFailures(t *testing.T) {
	ctx := context.Background()
	_, err := Game{}.Play(ctx, engine.MatchSpec{Seats: []engine.Seat{
		{Name: "calm", Player: evenSplit{}}, {Name: "bomb", Player: panicky{}}}})
	var pe *engine.PlayerError
	if !errors.As(err, &pe) || pe.Seat != 1 || pe.Name != "bomb" || !errors.Is(err, engine.ErrPanic) {
		t.Fatalf("a panicking bidder gave %v, want a PlayerError for seat 1 (bomb) wrapping ErrPanic", err)
	}

	_, err = Game{}.Play(ctx, engine.MatchSpec{Seats: []engine.Seat{
		{Name: "greedy", Player: overspender{}}, {Name: "calm", Player: evenSplit{}}}})
	if !errors.As(err, &pe) || pe.Seat != 0 {
		t.Fatalf("an illegal bid gave %v, want a PlayerError for seat 0", err)
	}
	// Turn 1: bid nothing from 5, turn 2 holds 10 and bids 11 on Fen.
	for _, want := range []string{"seat 0 (greedy)", "turn 2", "[11 0 0 0 0]", "more than the 10 sparks"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("illegal-bid error %q should contain %q", err, want)
		}
	}
}

type canceller struct {
	cancel context.CancelFunc
	turns  *int
}

func (c canceller) Bid(v *View, out *Bid) {
	*c.turns = v.Turn
	if v.Turn == 3 {
		c.cancel()
	}
}

func TestPlayStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var last int
	_, err := Game{}.Play(ctx, engine.MatchSpec{Seats: seatsOf(canceller{cancel, &last}, evenSplit{})})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Play after cancel = %v, want context.Canceled", err)
	}
	if last != 3 {
		t.Fatalf("the bidder was last asked on turn %d, want 3 (cancellation checked between turns)", last)
	}
}

// TestPlayViews checks what bidders see: their own seat, the state at the
// start of the turn with income added, and the previous turn as revealed,
// never the current bids of others.
func TestPlayViews(t *testing.T) {
	a := &recorder{inner: allOn{2}}
	b := &recorder{inner: evenSplit{}}
	c := &recorder{inner: greedyTop{}}
	var buf bytes.Buffer
	res, err := Game{}.Play(context.Background(), engine.MatchSpec{Seed: 3, Seats: seatsOf(a, b, c), Replay: &buf})
	if err != nil {
		t.Fatal(err)
	}
	var lg Log
	if err := json.Unmarshal(buf.Bytes(), &lg); err != nil {
		t.Fatal(err)
	}
	if len(lg.Turns) != Turns || len(a.views) != Turns {
		t.Fatalf("log has %d turns and seat 0 was asked %d times, want %d", len(lg.Turns), len(a.views), Turns)
	}
	for seat, r := range []*recorder{a, b, c} {
		for k, v := range r.views {
			if v.You != seat || v.Turn != k+1 || v.Turns != Turns || v.Seats != 3 {
				t.Fatalf("seat %d turn %d: view says you %d turn %d/%d seats %d", seat, k+1, v.You, v.Turn, v.Turns, v.Seats)
			}
			if k == 0 {
				if v.Last.Turn != 0 || v.Sparks != [MaxSeats]int{5, 5, 5, 0} {
					t.Fatalf("turn 1 view: last turn %d sparks %v", v.Last.Turn, v.Sparks)
				}
				continue
			}
			prev := lg.Turns[k-1]
			if v.Last != prev {
				t.Fatalf("seat %d turn %d: Last differs from the log's turn %d", seat, k+1, k)
			}
			if v.Values != lg.Turns[k].Values || v.Scores != prev.Scores || v.Embers != prev.Embers {
				t.Fatalf("seat %d turn %d: values/scores/embers do not match the log", seat, k+1)
			}
			for p := 0; p < 3; p++ {
				spent := 0
				for _, x := range prev.Bids[p] {
					spent += x
				}
				want := min(SparkCap, []*recorder{a, b, c}[p].views[k-1].Sparks[p]-spent+Income)
				if v.Sparks[p] != want {
					t.Fatalf("seat %d turn %d sees seat %d with %d sparks, want %d", seat, k+1, p, v.Sparks[p], want)
				}
			}
		}
		for k, bid := range r.bids {
			if lg.Turns[k].Bids[seat] != bid {
				t.Fatalf("seat %d turn %d: log bid %v, bidder bid %v", seat, k+1, lg.Turns[k].Bids[seat], bid)
			}
		}
	}
	// Within a turn every seat sees the same view but for You: a seat asked
	// later learns nothing of the bids made before it.
	for k := 0; k < Turns; k++ {
		for seat, r := range []*recorder{b, c} {
			v := r.views[k]
			v.You = 0
			if v != a.views[k] {
				t.Fatalf("turn %d: seat %d saw a different view from seat 0", k+1, seat+1)
			}
		}
	}
	d := res.Detail.(*Detail)
	if !reflect.DeepEqual(*d, *lg.Final) {
		t.Fatalf("result detail %+v differs from the log's final %+v", *d, *lg.Final)
	}
	for p := 0; p < 3; p++ {
		if res.Scores[p] != float64(lg.Turns[Turns-1].Scores[p]) {
			t.Fatalf("seat %d score %v, log says %d", p, res.Scores[p], lg.Turns[Turns-1].Scores[p])
		}
	}
	if res.Turns != Turns || res.Reason != "turns" || res.Ranks[d.Winners[0]] != 1 {
		t.Fatalf("result turns %d reason %q ranks %v winners %v", res.Turns, res.Reason, res.Ranks, d.Winners)
	}
}

// TestLogGolden pins the log's bytes for a fixed match: the same seed and
// players give the same bytes, in the shape of GET /api/matches/{code}/log.
func TestLogGolden(t *testing.T) {
	play := func() []byte {
		var buf bytes.Buffer
		_, err := Game{}.Play(context.Background(), engine.MatchSpec{
			Seed: 7, Replay: &buf,
			Seats: []engine.Seat{
				{Name: "even", Player: evenSplit{}},
				{Strategy: "greedy", Player: greedyTop{}},
				{Player: newRandomBids(engine.SeatSeed(7, 2))},
				{Name: "random", Player: newRandomBids(engine.SeatSeed(7, 3))},
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	got := play()
	if again := play(); !bytes.Equal(got, again) {
		t.Fatal("two plays of the same match wrote different logs")
	}
	path := filepath.Join("testdata", "log_seed7.json")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestLogGolden -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("log differs from %s:\n got %s\nwant %s", path, got, want)
	}
	var lg Log
	if err := json.Unmarshal(got, &lg); err != nil {
		t.Fatal(err)
	}
	// json.Marshal of the decoded log gives the same bytes back.
	if again, err := json.Marshal(lg); err != nil || !bytes.Equal(append(again, '\n'), got) {
		t.Fatalf("json.Marshal of the decoded log differs (%v):\n%s", err, again)
	}
	if lg.Code != MatchCode(7) || lg.Players[2].Name != "seat 2" || lg.Players[1].Name != "greedy" || lg.Players[0].Kind != "bot" {
		t.Fatalf("log header %q %+v", lg.Code, lg.Players)
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(got, &keys); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"code", "players", "turns", "final"} {
		if _, ok := keys[k]; !ok {
			t.Fatalf("log lacks %q", k)
		}
	}
}

func TestPlayUsesMatchID(t *testing.T) {
	var buf bytes.Buffer
	if _, err := (Game{}).Play(context.Background(), engine.MatchSpec{MatchID: "K7QF2", Replay: &buf, Seats: seatsOf(evenSplit{}, greedyTop{})}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(buf.String(), `{"code":"K7QF2",`) {
		t.Fatalf("log should start with the match id: %.40s", buf.String())
	}
}

func TestPlayNoAllocationPerTurn(t *testing.T) {
	spec := engine.MatchSpec{Seats: seatsOf(evenSplit{}, greedyTop{}, allOn{2}, evenSplit{})}
	allocs := testing.AllocsPerRun(50, func() {
		if _, err := (Game{}).Play(context.Background(), spec); err != nil {
			t.Fatal(err)
		}
	})
	// The Result's slices and detail only: far fewer than one per turn.
	if allocs > 3 {
		t.Fatalf("Play allocates %.0f times per match, want at most 3", allocs)
	}
}
