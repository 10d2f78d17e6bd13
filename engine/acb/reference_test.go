package acb

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// TestEngineMatchesTheReference plays crowded random matches (small and
// non-square maps, 2 to 6 players, cheap spawns, fast energy, the zone on
// and off) and checks every recorded turn — living units, razed cores,
// full energy tiles, scores, energy held, events — and the result against
// refMatch fed the same orders.
func TestEngineMatchesTheReference(t *testing.T) {
	type tc struct {
		seed       uint64
		players    int
		rows, cols int
		zone       bool
		ar2, cost  int
		turns      int
		cores      int // cores per player; 0: the default
	}
	cases := []tc{
		{1, 2, 16, 16, false, 25, 1, 400, 0}, {2, 2, 16, 40, true, 5, 0, 150, 0}, {3, 3, 18, 24, false, 25, 0, 150, 0},
		{4, 4, 20, 20, true, 10, 1, 400, 0}, {5, 4, 20, 30, false, 50, 1, 400, 0}, {6, 6, 24, 24, true, 25, 0, 150, 0},
		{7, 6, 24, 36, false, 2, 1, 400, 0}, {8, 3, 30, 18, true, 130, 0, 150, 0}, {9, 2, 40, 70, false, 25, 0, 150, 0},
		{10, 2, 20, 20, true, 25, 0, 150, 0}, {11, 4, 70, 70, true, 25, 0, 150, 0},
		{12, 3, 24, 24, false, 25, 1, 400, 0}, {13, 4, 24, 24, false, 25, 1, 400, 0}, {14, 6, 30, 30, false, 25, 1, 400, 0},
		{28, 3, 24, 24, false, 25, 1, 400, 1}, {51, 6, 30, 30, false, 25, 1, 400, 1},
	}
	counts := map[string]int{}
	adjudicated := 0
	for _, c := range cases {
		t.Run(fmt.Sprintf("seed %d, %d players, %dx%d", c.seed, c.players, c.rows, c.cols), func(t *testing.T) {
			cfg := DefaultConfig()
			cfg.Rows, cfg.Cols = c.rows, c.cols
			cfg.MaxTurns = c.turns
			if c.cores > 0 {
				cfg.CoresPerPlayer = c.cores
			}
			cfg.SpawnCost = c.cost
			cfg.EnergyInterval = 2
			cfg.AttackRadius2 = c.ar2
			cfg.ZoneEnabled = c.zone
			cfg.ZoneStartTurn = 60
			cfg.ZoneShrinkInterval = 3
			data := playCrowd(t, c.seed, c.players, cfg)
			doc, err := ParseReplay(data)
			if err != nil {
				t.Fatal(err)
			}
			ref := newRefMatch(doc.Config, &doc.Map, len(doc.Players))
			var over bool
			var winner int
			var reason string
			for _, tr := range doc.Turns {
				if over {
					t.Fatalf("the reference ended the match before turn %d", tr.Turn)
				}
				orders := map[int]Dir{}
				for _, o := range tr.Orders {
					orders[o.Unit] = o.Direction
				}
				over, winner, reason = ref.turn(tr.Turn, orders)
				units := []ReplayUnit{}
				for _, u := range ref.units {
					units = append(units, ReplayUnit{ID: u.id, Owner: u.owner, Row: u.pos.Row, Col: u.pos.Col})
				}
				slices.SortFunc(units, func(a, b ReplayUnit) int { return a.ID - b.ID })
				if !reflect.DeepEqual(units, tr.Units) {
					t.Fatalf("turn %d: units\n got %v\nwant %v (reference)", tr.Turn, tr.Units, units)
				}
				razed := []int{}
				for _, rc := range ref.cores {
					if !rc.active {
						razed = append(razed, rc.id)
					}
				}
				if !reflect.DeepEqual(razed, tr.CoresRazed) {
					t.Fatalf("turn %d: cores razed %v, want %v", tr.Turn, tr.CoresRazed, razed)
				}
				energy := TileList{}
				for _, e := range ref.energy {
					if ref.full[e] {
						energy = append(energy, e)
					}
				}
				if !reflect.DeepEqual(energy, tr.Energy) {
					t.Fatalf("turn %d: full energy %v, want %v", tr.Turn, tr.Energy, energy)
				}
				for p, ps := range tr.Players {
					if ps.Score != ref.score[p] || ps.Energy != ref.stock[p] {
						t.Fatalf("turn %d: player %d score %d energy %d, want %d %d", tr.Turn, p, ps.Score, ps.Energy, ref.score[p], ref.stock[p])
					}
				}
				want := ref.events
				if want == nil {
					want = []ReplayEvent{}
				}
				if !reflect.DeepEqual(tr.Events, want) {
					t.Fatalf("turn %d: events\n got %+v\nwant %+v", tr.Turn, tr.Events, want)
				}
				for _, e := range want {
					counts[e.Type+e.Cause]++
				}
			}
			if doc.Result.Adjudicated {
				// The engine stopped early: the reference plays the rest
				// of the match (nobody has a unit to order) and must
				// reach the same result with nothing happening.
				adjudicated++
				score, stock := slices.Clone(ref.score), slices.Clone(ref.stock)
				for turn := len(doc.Turns) + 1; !over; turn++ {
					if turn > doc.Config.MaxTurns {
						t.Fatalf("the reference goes on past max_turns")
					}
					over, winner, reason = ref.turn(turn, nil)
					if len(ref.units) > 0 || len(ref.events) > 0 || !slices.Equal(score, ref.score) || !slices.Equal(stock, ref.stock) {
						t.Fatalf("turn %d after the adjudicated turn %d: the reference has units %v, events %v, scores %v (were %v), energy %v (was %v)",
							turn, len(doc.Turns), ref.units, ref.events, ref.score, score, ref.stock, stock)
					}
					if over && turn != doc.Result.Turns {
						t.Fatalf("the reference ends at turn %d, the adjudicated result says %d", turn, doc.Result.Turns)
					}
				}
			}
			if !over {
				t.Fatalf("the replay ends at turn %d but the reference match goes on", doc.Result.Turns)
			}
			gotWinner := -1
			if doc.Result.Winner != nil {
				gotWinner = *doc.Result.Winner
			}
			if gotWinner != winner || doc.Result.Reason != reason {
				t.Fatalf("result winner %d reason %s, want %d %s", gotWinner, doc.Result.Reason, winner, reason)
			}
			t.Logf("%d turns, %s", len(doc.Turns), reason)
		})
	}
	t.Logf("events checked: %v; %d matches adjudicated", counts, adjudicated)
	if adjudicated == 0 {
		t.Error("no match was adjudicated: the check of adjudication against the reference checks nothing")
	}
	for _, k := range []string{EventDied + CauseCollision, EventDied + CauseCombat, EventDied + CauseStorm, EventDied + CauseEliminated,
		EventCaptured, EventCollected, EventSpawned} {
		if counts[k] == 0 {
			t.Errorf("no %s event in any case: the test checks too little", k)
		}
	}
}
