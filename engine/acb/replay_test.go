package acb

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"crucible/engine"
)

// replayDoc is the replay format read back with encoding/json.
type replayDoc struct {
	Format       string `json:"format"`
	RulesVersion string `json:"rules_version"`
	MatchID      string `json:"match_id"`
	Seed         uint64 `json:"seed"`
	Config       Config `json:"config"`
	Players      []struct {
		ID       int                `json:"id"`
		Name     string             `json:"name"`
		Strategy string             `json:"strategy"`
		Params   map[string]float64 `json:"params"`
	} `json:"players"`
	Map     Map `json:"map"`
	Initial struct {
		Units [][4]int `json:"units"`
	} `json:"initial"`
	Turns []struct {
		Turn       int      `json:"turn"`
		Orders     [][2]any `json:"orders"`
		Units      [][4]int `json:"units"`
		CoresRazed []int    `json:"cores_razed"`
		Energy     [][2]int `json:"energy"`
		Players    []struct {
			Score  int `json:"score"`
			Energy int `json:"energy"`
		} `json:"players"`
		Events []map[string]any `json:"events"`
	} `json:"turns"`
	Result struct {
		Winner  *int   `json:"winner"`
		Reason  string `json:"reason"`
		Turns   int    `json:"turns"`
		Players []struct {
			Score   int  `json:"score"`
			Energy  int  `json:"energy"`
			Units   int  `json:"units"`
			Cores   int  `json:"cores"`
			Crashed bool `json:"crashed"`
		} `json:"players"`
	} `json:"result"`
}

// playRandom plays a match of n random players and returns its replay.
func playRandom(t testing.TB, seed uint64, n int, cfg Config) []byte {
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
	var doc replayDoc
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&doc); err != nil {
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
		if doc.Initial.Units[i] != [4]int{i, c.Owner, c.Row, c.Col} {
			t.Fatalf("initial unit %d = %v, want on core %+v", i, doc.Initial.Units[i], c)
		}
	}
	if len(doc.Turns) != doc.Result.Turns {
		t.Fatalf("%d turns recorded, result says %d", len(doc.Turns), doc.Result.Turns)
	}
	nextID := len(doc.Map.Cores)
	storms := 0
	for i, tr := range doc.Turns {
		if tr.Turn != i+1 {
			t.Fatalf("turn %d numbered %d", i+1, tr.Turn)
		}
		for k := 1; k < len(tr.Units); k++ {
			if tr.Units[k][0] <= tr.Units[k-1][0] {
				t.Fatalf("turn %d: units not sorted by id: %v", tr.Turn, tr.Units)
			}
		}
		for k := 1; k < len(tr.Orders); k++ {
			if tr.Orders[k][0].(float64) <= tr.Orders[k-1][0].(float64) {
				t.Fatalf("turn %d: orders not sorted by id: %v", tr.Turn, tr.Orders)
			}
		}
		for _, o := range tr.Orders {
			if o[1] == "stay" {
				t.Fatalf("turn %d lists a stay order", tr.Turn)
			}
		}
		for k := 1; k < len(tr.Energy); k++ {
			if !lessPos(Pos{tr.Energy[k-1][0], tr.Energy[k-1][1]}, Pos{tr.Energy[k][0], tr.Energy[k][1]}) {
				t.Fatalf("turn %d: energy not sorted: %v", tr.Turn, tr.Energy)
			}
		}
		for _, e := range tr.Events {
			switch e["type"] {
			case EventSpawned:
				if int(e["unit"].(float64)) != nextID {
					t.Fatalf("turn %d: spawned id %v, want the next unused id %d", tr.Turn, e["unit"], nextID)
				}
				nextID++
			case EventDied:
				if e["cause"] == CauseStorm {
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
func TestReplayResimulates(t *testing.T) {
	for _, tc := range []struct {
		seed uint64
		n    int
		zone bool
	}{{11, 2, false}, {12, 3, true}, {13, 4, false}, {14, 6, true}} {
		t.Run(fmt.Sprintf("%d players seed %d", tc.n, tc.seed), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.MaxTurns = 200
			cfg.ZoneEnabled = tc.zone
			cfg.ZoneStartTurn = 100
			orig := playRandom(t, tc.seed, tc.n, cfg)
			var doc replayDoc
			if err := json.Unmarshal(orig, &doc); err != nil {
				t.Fatal(err)
			}
			// Moves per player per view turn, from the orders and the
			// positions at the start of each turn.
			moves := make([]map[int][]Move, len(doc.Players))
			for p := range moves {
				moves[p] = map[int][]Move{}
			}
			units := doc.Initial.Units
			for _, tr := range doc.Turns {
				at := map[int][4]int{}
				for _, u := range units {
					at[u[0]] = u
				}
				for _, o := range tr.Orders {
					u := at[int(o[0].(float64))]
					d, err := ParseDir(o[1].(string))
					if err != nil {
						t.Fatal(err)
					}
					moves[u[1]][tr.Turn-1] = append(moves[u[1]][tr.Turn-1], Move{Position: Pos{u[2], u[3]}, Direction: d})
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
}
