package engine_test

import (
	"context"
	"fmt"

	"crucible/engine"
	"crucible/engine/acb"
	"crucible/engine/kindling"
)

// Play a match of any game through the engine.Game contract: the caller
// knows only the game's name, its seat range and its players.
func Example() {
	play := func(game engine.Game, config string, players ...engine.Player) {
		cfg, err := game.ParseConfig([]byte(config))
		if err != nil {
			fmt.Println(err)
			return
		}
		spec := engine.MatchSpec{Seed: 7, Config: cfg}
		for i, p := range players {
			spec.Seats = append(spec.Seats, engine.Seat{Name: fmt.Sprintf("seat%d", i), Player: p})
		}
		lo, hi := game.SeatRange()
		res, err := game.Play(context.Background(), spec)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s (%d..%d seats): %d turns, reason %s, scores %v, ranks %v\n", game.Name(), lo, hi, res.Turns, res.Reason, res.Scores, res.Ranks)
	}
	play(acb.Game{}, `{"rows": 16, "cols": 16, "max_turns": 200, "spawn_cost": 1}`, acb.NewRandom(engine.SeatSeed(7, 0)), acb.Idle{})
	play(kindling.Game{}, `{}`, allIn{beacon: 2}, allIn{beacon: 3})
	_, err := acb.Game{}.ParseConfig([]byte(`{"ROWS": 30}`))
	fmt.Println(err)
	// Output:
	// acb (2..6 seats): 200 turns, reason turns, scores [2 2], ranks [1 2]
	// kindling (2..4 seats): 8 turns, reason turns, scores [32 24], ranks [1 2]
	// config: unknown field "ROWS" (did you mean "rows"? field names are case-sensitive)
}

// allIn is a Kindling bidder that spends all its sparks on one beacon.
type allIn struct{ beacon int }

func (a allIn) Bid(v *kindling.View, out *kindling.Bid) { out[a.beacon] = v.Budget() }

// RanksFromScores gives tied seats the same place.
func ExampleRanksFromScores() {
	fmt.Println(engine.RanksFromScores([]float64{3, 9, 3, 1}))
	// Output: [2 1 2 4]
}

// DecodeStrict refuses what encoding/json lets pass in hand-written files.
func ExampleDecodeStrict() {
	var c struct {
		Rows int    `json:"rows"`
		Wall [2]int `json:"wall"`
	}
	for _, in := range []string{`{"rows": 40}`, `{"Rows": 40}`, `{"rows": 40} {}`, `null`, `{"wall": [1]}`} {
		fmt.Println(engine.DecodeStrict([]byte(in), &c))
	}
	// Output:
	// <nil>
	// unknown field "Rows" (did you mean "rows"? field names are case-sensitive)
	// unexpected data after the JSON value: {
	// null is not allowed; want a JSON object
	// wall = [1] has 1 element(s); want exactly 2
}
