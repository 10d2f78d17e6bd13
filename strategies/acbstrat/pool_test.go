package acbstrat

import (
	"bytes"
	"context"
	"testing"

	"crucible/engine"
	"crucible/engine/acb"
)

// TestBufsClearedOnReuse: buffers handed back and taken again read as new
// ones (zero), except distance fields, whose content is left as it was.
func TestBufsClearedOnReuse(t *testing.T) {
	p := &bufs{rows: 3, cols: 4}
	a, b, c, d, e := p.int16s(12), p.int32s(12), p.uint16s(12), p.uint64s(2), p.bools(12)
	f := p.field(12)
	for i := range a {
		a[i], b[i], c[i], e[i], f[i] = 7, 7, 7, true, 9
	}
	d[1] = 7
	p.release()
	a2, b2, c2, d2, e2 := p.int16s(12), p.int32s(12), p.uint16s(12), p.uint64s(2), p.bools(12)
	for i := range a2 {
		if a2[i] != 0 || b2[i] != 0 || c2[i] != 0 || e2[i] {
			t.Fatalf("a buffer taken again holds its old content at %d", i)
		}
	}
	if d2[1] != 0 {
		t.Fatal("a bitset taken again holds its old content")
	}
	if &a2[0] != &a[0] && &a2[0] != &f[0] {
		t.Fatal("a released int16 buffer was not reused")
	}
	if p.i16.get(5, false) == nil || len(p.i16.held) != 2 {
		t.Fatalf("held %d int16 buffers, want 2 (a buffer of another length is new)", len(p.i16.held))
	}
}

// TestPooledBuffersPlayTheSame: matches played through Game.Play one after
// the other, each taking the buffers the last one handed back (dirty with
// its state), give the same results and replays as the first match played
// again, so a bot on reused buffers decides as a fresh one.
func TestPooledBuffersPlayTheSame(t *testing.T) {
	cfg := acb.DefaultConfig()
	cfg.MaxTurns = 120
	play := func(names [2]string, seed uint64) (engine.Result, []byte) {
		var seats []engine.Seat
		for i, n := range names {
			s := byName(t, n)
			seats = append(seats, engine.Seat{Name: n, Strategy: n, Player: s.New(s.Schema.Defaults(), engine.SeatSeed(seed, i), i)})
		}
		var rep bytes.Buffer
		res, err := acb.Game{}.Play(context.Background(), engine.MatchSpec{Seed: seed, Config: cfg, Seats: seats, Replay: &rep})
		if err != nil {
			t.Fatal(err)
		}
		return res, rep.Bytes()
	}
	pairs := [][2]string{{"gatherer", "rusher"}, {"phalanx", "hunter"}, {"farmer", "swarm"}, {"gatherer", "rusher"}}
	r0, rep0 := play(pairs[0], 5)
	for _, pr := range pairs[1:] {
		play(pr, 6)
	}
	r1, rep1 := play(pairs[0], 5)
	if !bytes.Equal(rep0, rep1) || r0.Scores[0] != r1.Scores[0] || r0.Scores[1] != r1.Scores[1] {
		t.Fatalf("gatherer-rusher on seed 5 played on reused buffers differs: scores %v then %v", r0.Scores, r1.Scores)
	}
}
