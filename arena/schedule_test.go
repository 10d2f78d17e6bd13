package arena_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"crucible/arena"
)

// TestRoundRobin checks the round robin's rules: every pair on every seed,
// in both seat orders on the same seed, one round per seed, unique ids.
func TestRoundRobin(t *testing.T) {
	seeds := arena.Seeds(1, 3)
	jobs := arena.RoundRobin(5, seeds)
	if want := 5 * 4 * 3; len(jobs) != want {
		t.Fatalf("RoundRobin(5, 3 seeds) gave %d jobs, want n(n-1) per seed = %d", len(jobs), want)
	}
	type key struct {
		a, b  int
		round int
	}
	seen := map[key]uint64{}
	ids := map[string]bool{}
	for _, j := range jobs {
		if len(j.Seats) != 2 || j.Seats[0] == j.Seats[1] {
			t.Fatalf("job %s seats %v", j.ID, j.Seats)
		}
		if j.Seed != seeds[j.Round] {
			t.Fatalf("job %s of round %d has seed %d, want seed %d of that round", j.ID, j.Round, j.Seed, seeds[j.Round])
		}
		if ids[j.ID] {
			t.Fatalf("id %s repeats", j.ID)
		}
		ids[j.ID] = true
		if want := fmt.Sprintf("r%d-%dv%d", j.Round, j.Seats[0], j.Seats[1]); j.ID != want {
			t.Fatalf("id %s, want %s", j.ID, want)
		}
		seen[key{j.Seats[0], j.Seats[1], j.Round}] = j.Seed
	}
	for r := range seeds {
		for a := 0; a < 5; a++ {
			for b := 0; b < 5; b++ {
				if a == b {
					continue
				}
				s1, ok1 := seen[key{a, b, r}]
				s2, ok2 := seen[key{b, a, r}]
				if !ok1 || !ok2 || s1 != s2 {
					t.Fatalf("round %d: pair %d,%d not played in both seat orders on one seed", r, a, b)
				}
			}
		}
	}
}

// TestSeedsAreDerivedAndDistinct checks that seeds repeat for a base and
// differ between bases and indices.
func TestSeedsAreDerivedAndDistinct(t *testing.T) {
	a, b := arena.Seeds(1, 50), arena.Seeds(1, 50)
	if !slices.Equal(a, b) {
		t.Fatal("Seeds(1, 50) differs between calls")
	}
	seen := map[uint64]bool{}
	for _, s := range append(a, arena.Seeds(2, 50)...) {
		if seen[s] {
			t.Fatalf("seed %d repeats", s)
		}
		seen[s] = true
	}
}

// TestGauntlet checks that each player meets each pool member in both seat
// orders, never itself, and that a pairing arising twice is played once.
func TestGauntlet(t *testing.T) {
	tests := []struct {
		name          string
		players, pool []int
		want          int // jobs per seed
	}{
		{"two players against a pool of three", []int{0, 1}, []int{2, 3, 4}, 2 * 3 * 2},
		{"a player in the pool does not meet itself", []int{0}, []int{0, 1, 2}, 2 * 2},
		{"players that are also in the pool meet once", []int{0, 1}, []int{0, 1, 2}, (1 + 2) * 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seeds := arena.Seeds(9, 2)
			jobs := arena.Gauntlet(tt.players, tt.pool, seeds)
			if len(jobs) != tt.want*len(seeds) {
				t.Fatalf("got %d jobs, want %d", len(jobs), tt.want*len(seeds))
			}
			ids := map[string]bool{}
			for _, j := range jobs {
				if j.Seats[0] == j.Seats[1] {
					t.Fatalf("job %s seats a player against itself", j.ID)
				}
				ids[j.ID] = true
			}
			if len(ids) != len(jobs) {
				t.Fatalf("ids repeat")
			}
			for _, j := range jobs {
				rev := fmt.Sprintf("r%d-%dv%d", j.Round, j.Seats[1], j.Seats[0])
				if !ids[rev] {
					t.Fatalf("job %s has no reversed twin %s", j.ID, rev)
				}
				if !slices.Contains(tt.players, j.Seats[0]) && !slices.Contains(tt.players, j.Seats[1]) {
					t.Fatalf("job %s has no player from %v", j.ID, tt.players)
				}
			}
		})
	}
}

// TestFreeForAll checks the free-for-all's counts and seat rotation: every
// group of k plays k times on the same seed, each member once in each seat.
func TestFreeForAll(t *testing.T) {
	tests := []struct {
		n, seats, groups int
	}{
		{3, 3, 1}, {5, 3, 10}, {4, 4, 1}, {6, 4, 15},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%d players %d seats", tt.n, tt.seats), func(t *testing.T) {
			seeds := arena.Seeds(3, 2)
			jobs, err := arena.FreeForAll(tt.n, tt.seats, seeds)
			if err != nil {
				t.Fatal(err)
			}
			if want := tt.groups * tt.seats * len(seeds); len(jobs) != want {
				t.Fatalf("got %d jobs, want C(n,k)*k*seeds = %d", len(jobs), want)
			}
			// group (sorted members) + round -> member -> seats taken
			seatsOf := map[string]map[int][]int{}
			for _, j := range jobs {
				members := slices.Clone(j.Seats)
				slices.Sort(members)
				if len(j.Seats) != tt.seats || j.Seed != arena.GroupSeed(seeds[j.Round], members) {
					t.Fatalf("job %s: %v seats, seed %d", j.ID, j.Seats, j.Seed)
				}
				key := fmt.Sprint(j.Round, members)
				if seatsOf[key] == nil {
					seatsOf[key] = map[int][]int{}
				}
				for s, m := range j.Seats {
					seatsOf[key][m] = append(seatsOf[key][m], s)
				}
			}
			if len(seatsOf) != tt.groups*len(seeds) {
				t.Fatalf("%d groups, want %d", len(seatsOf), tt.groups*len(seeds))
			}
			for key, bySeat := range seatsOf {
				for m, ss := range bySeat {
					slices.Sort(ss)
					for s := range tt.seats {
						if len(ss) != tt.seats || ss[s] != s {
							t.Fatalf("group %s: member %d sat in seats %v, want each seat once", key, m, ss)
						}
					}
				}
			}
		})
	}
}

// TestFreeForAllMapPerGroup: every rotation of a group plays on one map
// (one seed), and the groups of a round play on as many maps as there
// are groups, so the seat leanings of one map do not add up over a round.
func TestFreeForAllMapPerGroup(t *testing.T) {
	jobs, err := arena.FreeForAll(8, 4, arena.Seeds(5, 2))
	if err != nil {
		t.Fatal(err)
	}
	seedOf := map[string]uint64{}
	seedsOfRound := map[int]map[uint64]bool{}
	for _, j := range jobs {
		members := slices.Clone(j.Seats)
		slices.Sort(members)
		key := fmt.Sprint(j.Round, members)
		if s, ok := seedOf[key]; ok && s != j.Seed {
			t.Fatalf("group %s plays on seeds %d and %d", key, s, j.Seed)
		}
		seedOf[key] = j.Seed
		if seedsOfRound[j.Round] == nil {
			seedsOfRound[j.Round] = map[uint64]bool{}
		}
		seedsOfRound[j.Round][j.Seed] = true
	}
	for r, ss := range seedsOfRound {
		if len(ss) != 70 {
			t.Errorf("round %d: %d distinct seeds for C(8,4) = 70 groups", r, len(ss))
		}
	}
	// A group keeps its seed when more entrants join.
	more, err := arena.FreeForAll(9, 4, arena.Seeds(5, 2))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range more {
		members := slices.Clone(j.Seats)
		slices.Sort(members)
		if s, ok := seedOf[fmt.Sprint(j.Round, members)]; ok && s != j.Seed {
			t.Fatalf("group %v of round %d: seed %d with 9 entrants, %d with 8", members, j.Round, j.Seed, s)
		}
	}
}

// TestFreeForAllErrors checks that seat counts outside [3, 4] and too few
// players are refused with the range named.
func TestFreeForAllErrors(t *testing.T) {
	tests := []struct {
		n, seats int
		want     string
	}{
		{5, 2, "seats = 2 is outside its range [3, 4]"},
		{5, 5, "seats = 5 is outside its range [3, 4]"},
		{3, 4, "needs at least 4 players, got 3"},
	}
	for _, tt := range tests {
		_, err := arena.FreeForAll(tt.n, tt.seats, arena.Seeds(1, 1))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("FreeForAll(%d, %d) error %v, want %q", tt.n, tt.seats, err, tt.want)
		}
	}
}

// TestGauntletEntrants checks the merging of a gauntlet's players and pool
// into one entrant list: players first, pool members that are players
// reuse their index, a pool member listed twice is one entrant, and a pool
// member named like a player with another identity is refused.
func TestGauntletEntrants(t *testing.T) {
	es := toyEntrants(4)
	players := []arena.Entrant{es[2], es[0]}
	pool := []arena.Entrant{es[1], es[2], es[3], es[1]}
	got, pi, qi, err := arena.GauntletEntrants(players, pool)
	if err != nil {
		t.Fatal(err)
	}
	if names := arena.Names(got); !slices.Equal(names, []string{"p2", "p0", "p1", "p3"}) {
		t.Fatalf("entrants %v, want p2 p0 p1 p3", names)
	}
	if !slices.Equal(pi, []int{0, 1}) || !slices.Equal(qi, []int{2, 0, 3, 2}) {
		t.Fatalf("indices players %v pool %v, want [0 1] and [2 0 3 2]", pi, qi)
	}
	jobs := arena.Gauntlet(pi, qi, arena.Seeds(1, 1))
	// p2 meets p1, p3 (not itself); p0 meets p1, p2, p3 where p0-p2 was
	// already paired: 5 pairings, both seat orders.
	if len(jobs) != 10 {
		t.Fatalf("%d jobs, want 10", len(jobs))
	}
	impostor := es[1]
	impostor.VariantID = "abc"
	if _, _, _, err := arena.GauntletEntrants(players, []arena.Entrant{impostor, es[0]}); err != nil {
		t.Fatalf("a pool member not among the players: %v", err)
	}
	impostor.Name = "p0"
	_, _, _, err = arena.GauntletEntrants(players, []arena.Entrant{impostor})
	if err == nil || !strings.Contains(err.Error(), `entrant p0 is strategy toy variant "" and strategy toy variant "abc"`) {
		t.Fatalf("a pool member named like a player: %v", err)
	}
}
