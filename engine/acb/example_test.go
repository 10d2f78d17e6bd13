package acb_test

import (
	"bytes"
	"context"
	"fmt"

	"crucible/engine"
	"crucible/engine/acb"
)

// Play a match through the engine.Game contract and read its replay back.
func ExampleGame_Play() {
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.MaxTurns, cfg.SpawnCost = 16, 16, 150, 1
	var replay bytes.Buffer
	res, err := acb.Game{}.Play(context.Background(), engine.MatchSpec{
		Seed:   3,
		Config: cfg,
		Seats: []engine.Seat{
			{Name: "random", Strategy: "random", Player: acb.NewRandom(engine.SeatSeed(3, 0))},
			{Name: "idle", Strategy: "idle", Player: acb.Idle{}},
		},
		Replay: &replay,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	det := res.Detail.(acb.Detail)
	fmt.Printf("%s after %d turns: ranks %v, winner seat %d\n", res.Reason, res.Turns, res.Ranks, det.Winner)
	fmt.Printf("random: score %d, energy collected %d, units spawned %d\n", det.Players[0].Score, det.Players[0].EnergyCollected, det.Players[0].UnitsSpawned)

	r, err := acb.ParseReplay(replay.Bytes())
	if err != nil {
		fmt.Println(err)
		return
	}
	last := r.Turns[len(r.Turns)-1]
	fmt.Printf("replay %s of %s: %d turns, %d units at the end\n", r.Format, r.MatchID, len(r.Turns), len(last.Units))
	// Output:
	// turns after 150 turns: ranks [1 2], winner seat 0
	// random: score 2, energy collected 2, units spawned 2
	// replay crucible-acb-replay/1 of m_0000000000000003: 150 turns, 2 units at the end
}

// Build a match and play it turn by turn, reading the state between turns.
func ExampleNewMatch() {
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols, cfg.MaxTurns, cfg.SpawnCost, cfg.EnergyInterval = 16, 16, 60, 1, 3
	m, err := acb.NewMatch(cfg, nil, 5, []acb.Controller{acb.NewRandom(engine.SeatSeed(5, 0)), acb.NewRandom(engine.SeatSeed(5, 1))})
	if err != nil {
		fmt.Println(err)
		return
	}
	for done := false; !done; {
		if done, err = m.Step(); err != nil {
			fmt.Println(err)
			return
		}
		if m.Turn()%10 == 0 {
			fmt.Printf("turn %d: %d units, scores %d and %d, %d events\n", m.Turn(), len(m.Units()), m.Score(0), m.Score(1), len(m.Events()))
		}
	}
	fmt.Println(m.Result().Reason, m.Result().Ranks)
	// Output:
	// turn 10: 4 units, scores 0 and 0, 0 events
	// turn 20: 2 units, scores 1 and 1, 0 events
	// turn 30: 2 units, scores 1 and 1, 0 events
	// turn 40: 3 units, scores 2 and 2, 0 events
	// turn 50: 5 units, scores 2 and 2, 0 events
	// turn 60: 6 units, scores 2 and 4, 1 events
	// turns [2 1]
}

// A generated map, its symmetries and its fairness.
func ExampleGenerateMap() {
	cfg := acb.DefaultConfig()
	cfg.Rows, cfg.Cols = 16, 16
	m, err := acb.GenerateMap(cfg, 2, 9)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(m.ASCII(), m.Legend())
	fmt.Println("symmetries:", len(m.Symmetries()), "fair:", m.CheckFair() == nil)
	// Output:
	// .#*...........*#
	// *#.......*.....#
	// .#.............#
	// ................
	// C..........C....
	// ..#......*......
	// ###.............
	// ###.............
	// ##.###.....###.#
	// #.............##
	// #.............##
	// .......*......#.
	// C....C..........
	// ................
	// .#.............#
	// *#.....*.......#
	// player 0: core 0 (12,0), core 1 (12,5)
	// player 1: core 2 (4,0), core 3 (4,11)
	// symmetries: 2 fair: true
}

// A hand-made map with energy on one side only is refused as unfair.
func ExampleMap_CheckFair() {
	m := &acb.Map{Rows: 16, Cols: 16, Energy: []acb.Pos{{Row: 4, Col: 4}}, Cores: []acb.Core{
		{ID: 0, Owner: 0, Row: 2, Col: 2}, {ID: 1, Owner: 1, Row: 14, Col: 14}}}
	fmt.Println(m.CheckFair())
	m.Energy = append(m.Energy, acb.Pos{Row: 12, Col: 12})
	fmt.Println(m.CheckFair())
	// Output:
	// map: seat(s) 1 not equivalent to seat 0: no symmetry of the grid (a rotation by 90 or 180 degrees followed by a translation, or a translation alone) carries seat 0's cores onto theirs while mapping the walls, the energy tiles and the other cores onto their own kind
	// <nil>
}
