package arena

import (
	"fmt"
	"strconv"
	"strings"

	"crucible/engine"
)

// Job is one match to play.
type Job struct {
	// ID is stable for a given schedule and names the job in results and
	// replay files: "r<round>-<seat0>v<seat1>[v...]" with entrant indices
	// in seat order, e.g. "r0-2v5". --resume matches results to jobs by
	// it. The match itself is played under an id unique to the run (see
	// Run), which begins with the job's.
	ID string
	// Round is the rating period: one round of the schedule, which is one
	// seed of the seed list.
	Round int
	// Seed is the match seed.
	Seed uint64
	// Seats are indices into the entrants slice, in seat order.
	Seats []int
}

// newJob builds the job of round r on seed with the given seat order.
func newJob(r int, seed uint64, seats []int) Job {
	var b strings.Builder
	b.WriteString("r")
	b.WriteString(strconv.Itoa(r))
	b.WriteString("-")
	for i, s := range seats {
		if i > 0 {
			b.WriteString("v")
		}
		b.WriteString(strconv.Itoa(s))
	}
	return Job{ID: b.String(), Round: r, Seed: seed, Seats: append([]int(nil), seats...)}
}

// Seeds derives n match seeds from base: engine.Mix(base, i) for i in
// [0, n). The same base gives the same seeds.
func Seeds(base uint64, n int) []uint64 {
	out := make([]uint64, n)
	for i := range out {
		out[i] = engine.Mix(base, uint64(i))
	}
	return out
}

// RoundRobin schedules every pair of n entrants on every seed, in both seat
// orders on the same seed (a paired game, so that neither side profits from
// the seat or the map). Seed i is round i. It gives n(n-1) jobs per seed.
func RoundRobin(n int, seeds []uint64) []Job {
	var jobs []Job
	for r, seed := range seeds {
		for a := 0; a < n; a++ {
			for b := a + 1; b < n; b++ {
				jobs = append(jobs, newJob(r, seed, []int{a, b}), newJob(r, seed, []int{b, a}))
			}
		}
	}
	return jobs
}

// Gauntlet schedules each of players against each member of pool (both
// are indices into the entrants slice) on every seed, in both seat orders
// on the same seed. A player never meets itself, and a pairing that arises
// twice (two players that are also in the pool) is played once.
func Gauntlet(players, pool []int, seeds []uint64) []Job {
	var jobs []Job
	for r, seed := range seeds {
		seen := map[[2]int]bool{}
		for _, p := range players {
			for _, q := range pool {
				if p == q || seen[[2]int{p, q}] {
					continue
				}
				seen[[2]int{p, q}], seen[[2]int{q, p}] = true, true
				jobs = append(jobs, newJob(r, seed, []int{p, q}), newJob(r, seed, []int{q, p}))
			}
		}
	}
	return jobs
}

// GauntletEntrants joins a gauntlet's players and pool into the one list
// of entrants Run takes: the players in order, then the pool members that
// are not among them (matched by name, duplicates in the pool kept once).
// It returns the list and the indices of the players and of the pool
// members in it, for Gauntlet. A pool member named like an earlier entrant
// but with another identity (strategy or variant) is an error: names
// identify entrants in results.
func GauntletEntrants(players, pool []Entrant) (entrants []Entrant, playerIdx, poolIdx []int, err error) {
	index := make(map[string]int, len(players)+len(pool))
	add := func(e Entrant) (int, error) {
		if i, ok := index[e.Name]; ok {
			if got := entrants[i].Ref(); got != e.Ref() {
				return 0, fmt.Errorf("entrant %s is strategy %s variant %q and strategy %s variant %q: give them different names",
					e.Name, got.Strategy, got.VariantID, e.Strategy, e.VariantID)
			}
			return i, nil
		}
		index[e.Name] = len(entrants)
		entrants = append(entrants, e)
		return len(entrants) - 1, nil
	}
	for _, e := range players {
		i, err := add(e)
		if err != nil {
			return nil, nil, nil, err
		}
		playerIdx = append(playerIdx, i)
	}
	for _, e := range pool {
		i, err := add(e)
		if err != nil {
			return nil, nil, nil, err
		}
		poolIdx = append(poolIdx, i)
	}
	return entrants, playerIdx, poolIdx, nil
}

// FreeForAll schedules every group of `seats` entrants out of n (3 or 4
// seats) in every round, each group once per rotation of its seats on one
// map, so every member sits in every seat once. It gives C(n, seats) *
// seats jobs per seed.
//
// Each group plays on its own map: the match seed is GroupSeed(round
// seed, members), not the round seed itself. On any one map the seats are
// not quite equal in play (the strategies' tie-breaks and the seats'
// random streams favour some seat), and with every group of a round on
// one map those leanings add up instead of averaging out: 5,940 matches
// of 12 strategies on 3 maps gave one seat 946 first places and the
// others 1,630 to 1,730.
func FreeForAll(n, seats int, seeds []uint64) ([]Job, error) {
	if seats < 3 || seats > 4 {
		return nil, fmt.Errorf("free-for-all seats = %d is outside its range [3, 4]", seats)
	}
	if n < seats {
		return nil, fmt.Errorf("free-for-all of %d seats needs at least %d players, got %d", seats, seats, n)
	}
	var groups [][]int
	group := make([]int, seats)
	var choose func(start, k int)
	choose = func(start, k int) {
		if k == seats {
			groups = append(groups, append([]int(nil), group...))
			return
		}
		for i := start; i <= n-(seats-k); i++ {
			group[k] = i
			choose(i+1, k+1)
		}
	}
	choose(0, 0)
	var jobs []Job
	order := make([]int, seats)
	for r, seed := range seeds {
		for _, g := range groups {
			gs := GroupSeed(seed, g)
			for rot := 0; rot < seats; rot++ {
				for i := range order {
					order[i] = g[(i+rot)%seats]
				}
				jobs = append(jobs, newJob(r, gs, order))
			}
		}
	}
	return jobs, nil
}

// GroupSeed is the match seed of a free-for-all group in the round of
// seed: engine.Mix of the seed and the members' entrant indices (sorted,
// each below 65536) packed 16 bits apiece, so a group keeps its map when
// entrants are added after it.
func GroupSeed(seed uint64, members []int) uint64 {
	var key uint64
	for i, m := range members {
		key |= uint64(m) << (16 * i)
	}
	return engine.Mix(seed, key)
}
