package arena_test

import (
	"context"
	"fmt"
	"strings"

	"crucible/arena"
	"crucible/arena/rating"
	"crucible/engine/kindling"
	"crucible/strategies"
	"crucible/strategies/bidders"
)

// A round robin of three Kindling bidders on four seeds (both seat orders
// of every pair on each), played on two workers and rated as a tournament:
// one Glicko-2 rating period per round.
func Example() {
	reg, err := strategies.NewRegistry(bidders.All()...)
	if err != nil {
		fmt.Println(err)
		return
	}
	var entrants []arena.Entrant
	for _, name := range []string{"normal", "easy", "greedy"} {
		s, err := reg.Lookup("kindling", name)
		if err != nil {
			fmt.Println(err)
			return
		}
		entrants = append(entrants, arena.StrategyEntrant(s, s.Name, "", s.Schema.Defaults()))
	}
	jobs := arena.RoundRobin(len(entrants), arena.Seeds(1, 4))
	var col arena.Collector
	err = arena.Run(context.Background(), kindling.Game{}, entrants, jobs, arena.Options{Workers: 2}, func(r arena.Record) error {
		col.Add(r) // records arrive in completion order; the ratings do not depend on it
		return nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(col.Matches, "matches,", col.Failed, "failed")
	sum := col.Summary(rating.Default(), arena.Names(entrants), nil)
	for _, s := range sum.Standings {
		fmt.Printf("%d %-6s %4.0f ± %3.0f  %d-%d-%d\n", s.Rank, s.Name, s.Rating.Rating, s.RD, s.Wins, s.Draws, s.Losses)
	}
	// Output:
	// 24 matches, 0 failed
	// 1 normal 1947 ± 157  16-0-0
	// 2 greedy 1474 ± 127  7-0-9
	// 3 easy   1102 ± 134  1-0-15
}

// Reading a results file for rating: a failed match is skipped and
// counted, and a half-written last line (left by a killed run) is dropped
// with a warning.
func ExampleNewTally() {
	file := strings.Join([]string{
		`{"job":"r0-0v1","game":"kindling","round":0,"seed":7,"players":[{"name":"normal","strategy":"normal"},{"name":"easy","strategy":"easy"}],"scores":[21,9],"ranks":[1,2],"turns":8,"reason":"turns","duration_ms":0.01}`,
		`{"job":"r0-1v0","game":"kindling","round":0,"seed":7,"players":[{"name":"easy","strategy":"easy"},{"name":"normal","strategy":"normal"}],"scores":null,"ranks":null,"turns":0,"reason":"","error":"seed 7: player easy failed","duration_ms":0.01}`,
		`{"job":"r1-0v1","game":"kind`,
	}, "\n")
	res, err := arena.ParseResults([]byte(file), "results.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Warnings[0])
	tally, err := arena.NewTally(res.Records)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(tally.Finished), "finished,", len(tally.Failed), "failed")
	fmt.Println(tally.Note("results.jsonl"))
	// Output:
	// results.jsonl:3: skipping a half-written last line (28 bytes) left by an interrupted run
	// 1 finished, 1 failed
	// 1 of 2 matches in results.jsonl failed and are left out (see "error" in the file); first: r0-1v0: seed 7: player easy failed
}
