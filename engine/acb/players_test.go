package acb

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"crucible/engine"
)

func TestRemoteFailuresAreNoOpsUntilInactive(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 30
	bot := &remoteCtrl{fail: func(turn int) bool { return turn != 3 }} // one success at turn 3
	m := newTestMatch(t, cfg, testMap(2, 1, nil, nil), bot, nil)
	inactiveAt := 0
	for turn := 1; turn <= 30; turn++ {
		step(t, m)
		for _, e := range m.Events() {
			if e.Type == EventBotInactive {
				if e.Player != 0 {
					t.Fatalf("bot_inactive for player %d", e.Player)
				}
				inactiveAt = turn
			}
		}
	}
	// Failures in turns 1-3 (views 0-2... view 3 succeeds), then 10 in a row: views 4..13.
	if inactiveAt != 14 {
		t.Fatalf("bot inactive in turn %d, want 14 (10 consecutive failures after the success)", inactiveAt)
	}
	if bot.calls != 14 {
		t.Fatalf("bot called %d times, want 14 (no calls once inactive)", bot.calls)
	}
	res := m.Result()
	if res.Crashed == nil || !res.Crashed[0] || res.Crashed[1] {
		t.Fatalf("crashed %v, want [true false]", res.Crashed)
	}
	if m.Eliminated(0) || m.UnitCount(0) != 1 {
		t.Fatal("an inactive bot must keep its units and not be eliminated for it")
	}
}

func TestLocalControllerErrorsAbortTheMatch(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name  string
		ctrl  Controller
		panic bool
	}{
		{"an error", funcCtrl(func(v *View, buf []Move) ([]Move, error) { return buf, boom }), false},
		{"a panic", funcCtrl(func(v *View, buf []Move) ([]Move, error) { panic("kaboom") }), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game{}.Play(context.Background(), engine.MatchSpec{Seed: 1, Seats: []engine.Seat{
				{Name: "ok", Player: Idle{}}, {Name: "bad", Player: tt.ctrl},
			}})
			var pe *engine.PlayerError
			if !errors.As(err, &pe) || pe.Seat != 1 || pe.Name != "bad" {
				t.Fatalf("err = %v, want a PlayerError for seat 1 (bad)", err)
			}
			if tt.panic != errors.Is(err, engine.ErrPanic) {
				t.Fatalf("err = %v, panic wrapped = %v, want %v", err, errors.Is(err, engine.ErrPanic), tt.panic)
			}
			if !tt.panic && !errors.Is(err, boom) {
				t.Fatalf("err = %v does not wrap the controller's error", err)
			}
		})
	}
}

func TestRandomPlaysValidMoves(t *testing.T) {
	cfg := DefaultConfig()
	mp, err := GenerateMap(cfg, 2, 5)
	if err != nil {
		t.Fatal(err)
	}
	m := newTestMatch(t, cfg, mp, NewRandom(1), NewRandom(2))
	moved := 0
	for range 100 {
		v := m.View(0)
		var own []Pos
		for _, b := range v.Bots {
			if b.Owner == 0 {
				own = append(own, b.Position)
			}
		}
		r := NewRandom(uint64(m.Turn()))
		moves, _ := r.Turn(context.Background(), v, nil)
		if len(moves) != len(own) {
			t.Fatalf("random ordered %d moves for %d own units", len(moves), len(own))
		}
		for i, mv := range moves {
			if mv.Position != own[i] || mv.Direction > West {
				t.Fatalf("move %+v is not for an own unit or not a direction", mv)
			}
			if mv.Direction != Stay {
				moved++
				q := Step(mv.Position, mv.Direction, mp.Rows, mp.Cols)
				if m.wall[q.Row*mp.Cols+q.Col] {
					t.Fatalf("random moved into the visible wall at %v", q)
				}
			}
		}
		if done := step(t, m); done {
			break
		}
	}
	if moved == 0 {
		t.Fatal("random never moved")
	}
}

func TestGamePlayChecksItsInput(t *testing.T) {
	seats := func(n int) []engine.Seat {
		s := make([]engine.Seat, n)
		for i := range s {
			s[i] = engine.Seat{Name: "idle", Player: Idle{}}
		}
		return s
	}
	tests := []struct {
		name string
		spec engine.MatchSpec
		want string
	}{
		{"five players without a map", engine.MatchSpec{Seats: seats(5)}, "5 players is not supported"},
		{"one player", engine.MatchSpec{Seats: seats(1)}, "needs 2..6 players"},
		{"a non-controller", engine.MatchSpec{Seats: []engine.Seat{{Name: "x", Player: 3}, {Name: "y", Player: Idle{}}}}, "seat 0 (x): player of type int is not an acb.Controller"},
		{"a foreign config", engine.MatchSpec{Config: "nope", Seats: seats(2)}, "config of type string"},
		{"a bad config", engine.MatchSpec{Config: Config{Rows: 8, Cols: 40}, Seats: seats(2)}, "rows = 8 is outside its allowed range 16..200"},
		{"a map for other players", engine.MatchSpec{Config: MatchConfig{Config: DefaultConfig(), Map: testMap(3, 1, nil, nil)}, Seats: seats(2)}, "cores for 3 players but the match has 2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Game{}.Play(context.Background(), tt.spec)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

func TestGamePlayOutcome(t *testing.T) {
	g := Game{}
	if g.Name() != "acb" {
		t.Fatalf("name %q", g.Name())
	}
	if lo, hi := g.SeatRange(); lo != 2 || hi != 6 {
		t.Fatalf("seat range %d..%d", lo, hi)
	}
	for _, n := range []int{2, 3, 4, 6} {
		seats := make([]engine.Seat, n)
		for i := range seats {
			seats[i] = engine.Seat{Name: "random", Player: NewRandom(engine.SeatSeed(9, i))}
		}
		cfg := DefaultConfig()
		cfg.MaxTurns = 60
		var buf bytes.Buffer
		res, err := g.Play(context.Background(), engine.MatchSpec{Seed: 9, Config: &cfg, Seats: seats, Replay: &buf})
		if err != nil {
			t.Fatalf("%d players: %v", n, err)
		}
		if len(res.Scores) != n || len(res.Ranks) != n || res.Turns < 1 || res.Turns > 60 || res.Reason == "" {
			t.Fatalf("%d players: result %+v", n, res)
		}
		if det, ok := res.Detail.(Detail); !ok || len(det.Players) != n {
			t.Fatalf("%d players: detail %+v", n, res.Detail)
		}
		if !bytes.HasPrefix(buf.Bytes(), []byte(`{"format":"crucible-acb-replay/1"`)) {
			t.Fatalf("%d players: replay starts %q", n, buf.Bytes()[:40])
		}
	}
}

func TestGamePlayStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Game{}.Play(ctx, engine.MatchSpec{Seats: []engine.Seat{{Player: Idle{}}, {Player: Idle{}}}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

func TestGameParseConfigReturnsConfig(t *testing.T) {
	v, err := Game{}.ParseConfig([]byte(`{"max_turns": 77}`))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := v.(Config)
	if !ok || c.MaxTurns != 77 || c.Rows != 40 {
		t.Fatalf("ParseConfig = %#v, want a Config with max_turns 77 and defaults elsewhere", v)
	}
}

func TestStepDoesNotAllocate(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 100000
	m := newTestMatch(t, cfg, nil, NewRandom(3), NewRandom(4))
	for range 50 { // let the reused slices reach their size
		step(t, m)
	}
	allocs := testing.AllocsPerRun(300, func() {
		if _, err := m.Step(); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("a turn of random vs random allocates %.2f times, want 0", allocs)
	}
}

// remoteRandom is a Random player that presents itself as a network bot.
type remoteRandom struct{ *Random }

func (remoteRandom) Remote() bool { return true }

func TestRemotePlayersPlayLikeLocalOnes(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 120
	play := func(remote bool) []byte {
		players := make([]MatchPlayer, 4)
		for i := range players {
			var c Controller = NewRandom(engine.SeatSeed(5, i))
			if remote && i != 2 { // three remote, asked concurrently, one local
				c = remoteRandom{NewRandom(engine.SeatSeed(5, i))}
			}
			players[i] = MatchPlayer{Name: "r", Controller: c}
		}
		m, err := NewMatchWith(MatchOptions{Config: cfg, Seed: 5, Players: players, Record: true})
		if err != nil {
			t.Fatal(err)
		}
		for done := false; !done; {
			done = step(t, m)
		}
		return m.Replay()
	}
	if !bytes.Equal(play(true), play(false)) {
		t.Fatal("a match with remote controllers differs from the same match played locally")
	}
}

// Run plays to the end (reason and turn count of a finished match) and
// stops with the context's error when it is cancelled before the end.
func TestRunPlaysToTheEndOrStopsWhenCancelled(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 100
	newMatch := func() *Match {
		m, err := NewMatch(cfg, nil, 3, []Controller{Idle{}, Idle{}})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := newMatch()
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !m.Done() || m.Turn() != 100 || m.Reason() != ReasonTurns {
		t.Fatalf("after Run: done %v, turn %d, reason %q; want done at turn 100 by turns", m.Done(), m.Turn(), m.Reason())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m = newMatch()
	if err := m.Run(ctx); !errors.Is(err, context.Canceled) || m.Done() {
		t.Fatalf("Run on a cancelled context = %v with done %v; want context.Canceled and an unfinished match", err, m.Done())
	}
}
