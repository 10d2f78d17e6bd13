package bidders

import (
	"context"
	"fmt"
	"os"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
)

type spy struct {
	m *modellerBidder
}

func (s *spy) Bid(v *kindling.View, out *kindling.Bid) {
	s.m.Bid(v, out)
	lg := &s.m.log[1-v.You]
	var f = featuresOf(v, 1-v.You)
	var pred kindling.Bid
	if len(lg.moves) > 0 {
		lg.fromModel(nil, &f, v.Sparks[1-v.You], &pred)
	}
	fmt.Printf("turn %d my %v  err %.1f  model-pred %v beta %.2f\n", v.Turn, *out, lg.err, pred, lg.beta)
}

func TestExpSpy(t *testing.T) {
	if os.Getenv("EXP3") == "" {
		t.Skip()
	}
	c := mustLookup(t, "contrarian")
	g := c.Schema.Defaults()
	g[c.Schema.Index("avoid")] = 0.1226
	g[c.Schema.Index("jitter")] = 0
	g[c.Schema.Index("spend")] = 0.7331
	g[c.Schema.Index("width")] = 3
	mo := mustLookup(t, "modeller")
	for seed := uint64(1); seed <= 2; seed++ {
		sp := &spy{m: mo.New(mo.Schema.Defaults(), engine.SeatSeed(seed, 0), 0).(*modellerBidder)}
		var rec bytesBuf
		seats := []engine.Seat{{Name: "m", Player: sp}, {Name: "c", Player: c.New(g, 5, 1)}}
		res, _ := (kindling.Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats, Replay: &rec})
		fmt.Println(res.Scores)
		_ = rec
	}
}

type bytesBuf struct{ b []byte }

func (w *bytesBuf) Write(p []byte) (int, error) { w.b = append(w.b, p...); return len(p), nil }
