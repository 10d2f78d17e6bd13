package acbgame_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"testing"
	"time"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/games/lab"
	"crucible/protocol/acbhttp"
	"crucible/strategies"
)

// replayOf plays seat 0 against gatherer on seed with the default
// configuration and returns the replay's bytes. Both seats are named alike
// whoever plays them, so that the replays of two players compare whole.
func replayOf(t *testing.T, reg *strategies.Registry, seed uint64, p0 engine.Player) []byte {
	t.Helper()
	g, err := reg.Lookup("acb", "gatherer")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	_, err = acb.Game{}.Play(t.Context(), engine.MatchSpec{Seed: seed, Replay: &buf, Seats: []engine.Seat{
		{Name: "player", Player: p0},
		{Name: "gatherer", Player: g.New(g.Schema.Defaults(), engine.SeatSeed(seed, 1), 1)},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// The export's HTTP bot plays exactly as the in-process player: a program
// variant and a parametric one, served by the exported bot's server over
// HTTP with HMAC, write the replay the in-process player writes on the
// same seed, turn for turn. (The bot once seeded its tie-breaking from a
// hash of the match id and the in-process player from the match seed: an
// exported program scored 30 where the in-process one scored 33.)
func TestExportedACBBotPlaysAsInProcess(t *testing.T) {
	reg, err := lab.Table().Registry()
	if err != nil {
		t.Fatal(err)
	}
	hunter, err := reg.Lookup("acb", "hunter")
	if err != nil {
		t.Fatal(err)
	}
	params := hunter.Schema.Defaults()
	params[hunter.Schema.Index("pack")] = 3
	params[hunter.Schema.Index("hunt_range")] = 25
	program, err := strategies.LoadVariant(filepath.Join("..", "..", "examples", "programs", "hunter.variant.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []strategies.Variant{program, strategies.NewVariant(hunter, params)} {
		r, err := reg.Check(v)
		if err != nil {
			t.Fatal(err)
		}
		srv, err := acbhttp.NewServer(acbhttp.ServerConfig{Secret: "s3cret", New: acbhttp.StrategyFactory(r.Strategy, r.Genome)})
		if err != nil {
			t.Fatal(err)
		}
		ts := httptest.NewServer(srv)
		bot, err := acbhttp.NewRemoteBot(ts.URL, "s3cret", 20*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		for _, seed := range []uint64{5, 6} {
			want := replayOf(t, reg, seed, r.Strategy.New(r.Genome, engine.SeatSeed(seed, 0), 0))
			pl, err := bot.NewPlayer(context.Background(), 0)
			if err != nil {
				t.Fatal(err)
			}
			got := replayOf(t, reg, seed, pl)
			if !bytes.Equal(got, want) {
				t.Errorf("%s on seed %d: the HTTP bot's replay differs from the in-process player's from turn %s", r.Variant.Label(), seed, firstDiff(got, want))
			}
		}
		ts.Close()
	}
}

// firstDiff returns the turn of the replays' first differing turn record.
func firstDiff(a, b []byte) string {
	ra, err1 := acb.ParseReplay(a)
	rb, err2 := acb.ParseReplay(b)
	if err1 != nil || err2 != nil {
		return fmt.Sprintf("? (%v, %v)", err1, err2)
	}
	for i := range min(len(ra.Turns), len(rb.Turns)) {
		if fmt.Sprint(ra.Turns[i]) != fmt.Sprint(rb.Turns[i]) {
			return fmt.Sprint(i)
		}
	}
	return fmt.Sprintf("%d (one is %d turns, the other %d)", min(len(ra.Turns), len(rb.Turns)), len(ra.Turns), len(rb.Turns))
}
