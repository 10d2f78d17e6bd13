package acb

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"crucible/engine"
)

// playRandom plays a match of n random players and returns its replay.
func playRandom(t testing.TB, seed uint64, n int, cfg Config) []byte {
	t.Helper()
	return playRandomWith(t, seed, n, cfg)
}

// playRandomWith is playRandom with any config Game.Play accepts (a
// MatchConfig to turn adjudication off).
func playRandomWith(t testing.TB, seed uint64, n int, cfg any) []byte {
	t.Helper()
	seats := make([]engine.Seat, n)
	for i := range seats {
		seats[i] = engine.Seat{Name: fmt.Sprintf("random-%d", i), Strategy: "random", Params: map[string]float64{"b": 1, "a": 0.5}, Player: NewRandom(engine.SeatSeed(seed, i))}
	}
	var buf bytes.Buffer
	if _, err := (Game{}).Play(context.Background(), engine.MatchSpec{Seed: seed, Config: cfg, Seats: seats, Replay: &buf}); err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	return buf.Bytes()
}

func TestReplayIsDeterministic(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 150
	seen := map[string]uint64{}
	for seed := uint64(1); seed <= 30; seed++ {
		n := []int{2, 3, 4, 6}[seed%4]
		a, b := playRandom(t, seed, n, cfg), playRandom(t, seed, n, cfg)
		if !bytes.Equal(a, b) {
			t.Fatalf("seed %d: two runs gave different replays", seed)
		}
		if other, dup := seen[string(a)]; dup {
			t.Fatalf("seeds %d and %d gave the same replay", other, seed)
		}
		seen[string(a)] = seed
	}
}

func TestReplayFormat(t *testing.T) {
	cfg := DefaultConfig()
	cfg.ZoneEnabled = true
	cfg.MaxTurns = 80
	data := playRandom(t, 4, 3, cfg)
	doc, err := ParseReplay(data)
	if err != nil {
		t.Fatalf("replay does not parse: %v", err)
	}
	if doc.Format != ReplayFormat || doc.RulesVersion != RulesVersion || doc.MatchID != "m_0000000000000004" || doc.Seed != 4 {
		t.Fatalf("header %q %q %q %d", doc.Format, doc.RulesVersion, doc.MatchID, doc.Seed)
	}
	if doc.Config != (Config{Rows: 39, Cols: 39, MaxTurns: 80, VisionRadius2: 49, AttackRadius2: 25, SpawnCost: 3, EnergyInterval: 10,
		CoresPerPlayer: 2, ZoneEnabled: true, ZoneStartTurn: 10, ZoneShrinkInterval: 1, ZoneShrinkStep: 1, ZoneMinRadius: 2, KillScore: 1,
		TurnTimeout: DefaultTurnTimeout, RulesVersion: RulesVersion}) {
		t.Fatalf("config %+v (3 players: 39x39)", doc.Config)
	}
	if len(doc.Players) != 3 || doc.Players[2].ID != 2 || doc.Players[2].Name != "random-2" || doc.Players[2].Params["a"] != 0.5 {
		t.Fatalf("players %+v", doc.Players)
	}
	// Initial units: ids 0.. in core-id order, on their cores.
	for i, c := range doc.Map.Cores {
		if doc.Initial.Units[i] != (ReplayUnit{ID: i, Owner: c.Owner, Row: c.Row, Col: c.Col}) {
			t.Fatalf("initial unit %d = %v, want on core %+v", i, doc.Initial.Units[i], c)
		}
	}
	if len(doc.Turns) != doc.Result.Turns && !(doc.Result.Adjudicated && doc.Result.Turns == cfg.MaxTurns && len(doc.Turns) < cfg.MaxTurns) {
		t.Fatalf("%d turns recorded, result says %d (adjudicated %v)", len(doc.Turns), doc.Result.Turns, doc.Result.Adjudicated)
	}
	nextID := len(doc.Map.Cores)
	storms := 0
	for i, tr := range doc.Turns {
		if tr.Turn != i+1 {
			t.Fatalf("turn %d numbered %d", i+1, tr.Turn)
		}
		for k := 1; k < len(tr.Units); k++ {
			if tr.Units[k].ID <= tr.Units[k-1].ID {
				t.Fatalf("turn %d: units not sorted by id: %v", tr.Turn, tr.Units)
			}
		}
		for k := 1; k < len(tr.Orders); k++ {
			if tr.Orders[k].Unit <= tr.Orders[k-1].Unit {
				t.Fatalf("turn %d: orders not sorted by id: %v", tr.Turn, tr.Orders)
			}
		}
		for _, o := range tr.Orders {
			if o.Direction == Stay {
				t.Fatalf("turn %d lists a stay order", tr.Turn)
			}
		}
		for k := 1; k < len(tr.Energy); k++ {
			if !lessPos(tr.Energy[k-1], tr.Energy[k]) {
				t.Fatalf("turn %d: energy not sorted: %v", tr.Turn, tr.Energy)
			}
		}
		for _, e := range tr.Events {
			switch e.Type {
			case EventSpawned:
				if e.Unit != nextID {
					t.Fatalf("turn %d: spawned id %d, want the next unused id %d", tr.Turn, e.Unit, nextID)
				}
				nextID++
			case EventDied:
				if e.Cause == CauseStorm {
					storms++
				}
			}
		}
		if len(tr.Players) != 3 {
			t.Fatalf("turn %d: %d player entries", tr.Turn, len(tr.Players))
		}
	}
	if storms == 0 {
		t.Fatal("no storm deaths with the zone enabled in 80 turns of random play")
	}
}

// TestReplayResimulates re-plays a replay from its own content (config,
// map, seed and the recorded orders) and gets the same bytes back.
// An adjudicated replay (the zone from turn 10 empties the board) ends
// at the same turn when re-simulated.
func TestReplayResimulates(t *testing.T) {
	adjudicated := 0
	for _, tc := range []struct {
		seed  uint64
		n     int
		zone  bool
		start int
	}{{11, 2, false, 100}, {12, 3, true, 100}, {13, 4, false, 100}, {14, 6, true, 100}, {15, 2, true, 10}, {16, 4, true, 10}} {
		t.Run(fmt.Sprintf("%d players seed %d", tc.n, tc.seed), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.MaxTurns = 200
			cfg.ZoneEnabled = tc.zone
			cfg.ZoneStartTurn = tc.start
			orig := playRandom(t, tc.seed, tc.n, cfg)
			doc, err := ParseReplay(orig)
			if err != nil {
				t.Fatal(err)
			}
			if doc.Result.Adjudicated {
				adjudicated++
			}
			// Moves per player per view turn, from the orders and the
			// positions at the start of each turn.
			moves := make([]map[int][]Move, len(doc.Players))
			for p := range moves {
				moves[p] = map[int][]Move{}
			}
			units := doc.Initial.Units
			for _, tr := range doc.Turns {
				at := map[int]ReplayUnit{}
				for _, u := range units {
					at[u.ID] = u
				}
				for _, o := range tr.Orders {
					u := at[o.Unit]
					moves[u.Owner][tr.Turn-1] = append(moves[u.Owner][tr.Turn-1], Move{Position: u.Pos(), Direction: o.Direction})
				}
				units = tr.Units
			}
			players := make([]MatchPlayer, len(doc.Players))
			for p, dp := range doc.Players {
				players[p] = MatchPlayer{Name: dp.Name, Strategy: dp.Strategy, Params: dp.Params, Controller: scripted{moves[p]}}
			}
			m, err := NewMatchWith(MatchOptions{Config: doc.Config, Map: &doc.Map, Seed: doc.Seed, MatchID: doc.MatchID, Players: players, Record: true})
			if err != nil {
				t.Fatal(err)
			}
			for done := false; !done; {
				done = step(t, m)
			}
			if got := m.Replay(); !bytes.Equal(got, orig) {
				t.Fatalf("re-simulated replay differs (%d vs %d bytes)", len(got), len(orig))
			}
		})
	}
	if adjudicated == 0 {
		t.Error("no adjudicated replay among the cases")
	}
}

// TestReplayEncodeRoundTrip reads replays of every shape (2 to 6 players,
// the zone on, a remote bot going inactive, a draw) with ParseReplay and
// writes them back with Replay.Encode (encoding/json over the Replay
// types): the bytes must be those the match recorded, so the types hold
// the format exactly, field order included.
func TestReplayEncodeRoundTrip(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 120
	cfg.ZoneEnabled = true
	cfg.ZoneStartTurn = 60
	var docs [][]byte
	for seed := uint64(1); seed <= 8; seed++ {
		docs = append(docs, playRandom(t, seed, []int{2, 3, 4, 6}[seed%4], cfg))
	}
	// A remote bot that always fails goes inactive; an idle pair draws.
	m, err := NewMatchWith(MatchOptions{Config: cfg, Seed: 9, Record: true, Players: []MatchPlayer{
		{Name: "down", Strategy: "remote", Controller: &remoteCtrl{fail: func(int) bool { return true }}},
		{Name: "idle", Strategy: "idle", Controller: Idle{}}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	docs = append(docs, m.Replay())
	inactive, draws := 0, 0
	for i, data := range docs {
		r, err := ParseReplay(data)
		if err != nil {
			t.Fatalf("replay %d: %v", i, err)
		}
		back, err := r.Encode()
		if err != nil {
			t.Fatalf("replay %d: %v", i, err)
		}
		if !bytes.Equal(back, data) {
			at := 0
			for at < min(len(back), len(data)) && back[at] == data[at] {
				at++
			}
			t.Fatalf("replay %d: encoded again it differs at byte %d:\n got %.80s\nwant %.80s", i, at, back[at:], data[at:])
		}
		for _, tr := range r.Turns {
			for _, e := range tr.Events {
				if e.Type == EventBotInactive {
					inactive++
				}
			}
		}
		if r.Result.Winner == nil {
			draws++
		}
	}
	if inactive == 0 || draws == 0 {
		t.Fatalf("%d bot_inactive events and %d draws: the cases do not cover the format", inactive, draws)
	}
}

func TestParseReplayErrors(t *testing.T) {
	cfg := DefaultConfig()
	cfg.MaxTurns = 3
	good := string(playRandom(t, 5, 2, cfg))
	tests := []struct {
		name, from, to, want string
	}{
		{"another format", `"format":"crucible-acb-replay/1"`, `"format":"crucible-acb-replay/2"`, `replay: format "crucible-acb-replay/2" is not "crucible-acb-replay/1"`},
		{"an unknown field", `"seed":5,`, `"seed":5,"lava":1,`, `replay: unknown field "lava"`},
		{"a field in another case", `"match_id"`, `"Match_ID"`, `unknown field "Match_ID"`},
		{"a unit of three numbers", `"initial":{"units":[[0,0,`, `"initial":{"units":[[0,`, "a unit is [id, owner, row, col]"},
		{"an unknown direction", `"orders":[[`, `"orders":[[99,"X"],[`, `the order of unit 99: direction "X" is not one of`},
		{"an event field in another case", `"events":[]`, `"events":[{"type":"died","Unit":1,"cause":"storm"}]`, `event: unknown field "Unit"`},
		{"an unknown event type", `"events":[]`, `"events":[{"type":"exploded","unit":1}]`, `event type "exploded" is not one of`},
		{"an event without its fields", `"events":[]`, `"events":[{"type":"spawned","unit":1,"owner":0}]`, `event spawned lacks its field "core"`},
		{"an event with another type's field", `"events":[]`, `"events":[{"type":"died","unit":1,"cause":"storm","row":3}]`, `event died has no field "row"`},
		{"data after the document", "]}}\n", "]}} {}\n", "replay: unexpected data after the JSON value"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(good, tt.from, tt.to, 1)
			if bad == good {
				t.Fatalf("the case changes nothing: %q not in the replay", tt.from)
			}
			if _, err := ParseReplay([]byte(bad)); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("ParseReplay = %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// FuzzParseReplay: a replay ParseReplay accepts encodes, and the encoded
// document reads back and encodes to the same bytes.
func FuzzParseReplay(f *testing.F) {
	cfg := DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.MaxTurns, cfg.SpawnCost = 16, 16, 12, 0
	f.Add(playRandom(f, 3, 2, cfg))
	f.Add([]byte(`{"format":"crucible-acb-replay/1","turns":[{"turn":1,"events":[{"type":"captured","core":1,"owner":1,"player":0}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ParseReplay(data)
		if err != nil {
			return
		}
		enc, err := r.Encode()
		if err != nil {
			return // values JSON cannot hold (none that parse) or a map that does not marshal
		}
		back, err := ParseReplay(enc)
		if err != nil {
			t.Fatalf("an encoded replay does not parse: %v\n%s", err, enc)
		}
		again, err := back.Encode()
		if err != nil || !bytes.Equal(again, enc) {
			t.Fatalf("a replay changed through Encode and ParseReplay (%v):\n%s\n%s", err, enc, again)
		}
	})
}
