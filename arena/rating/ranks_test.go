package rating

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// round is one round of a pair on one seed: both seat orders, a scoring
// aPts (0, 1 or 2) points of the 2 games.
func round(a, b string, seed uint64, aPts int) []Match {
	var out []Match
	for g := range 2 {
		ra, rb := 2, 1
		if g < aPts {
			ra, rb = 1, 2
		}
		players, ranks := []string{a, b}, []int{ra, rb}
		if g == 1 {
			players, ranks = []string{b, a}, []int{rb, ra}
		}
		out = append(out, Match{Players: players, Ranks: ranks, Round: int(seed), Seed: seed})
	}
	return out
}

func playerRanks(t *testing.T, tab RankTable, name string) PlayerRanks {
	t.Helper()
	for _, p := range tab.Players {
		if p.Name == name {
			return p
		}
	}
	t.Fatalf("no ranks for %s in %+v", name, tab)
	return PlayerRanks{}
}

// A player who won every round of every pairing is first in every
// resample: P(rank 1) = 1 and its rank interval is [1, 1].
func TestRankProbabilitiesDominantPlayer(t *testing.T) {
	var ms []Match
	for s := uint64(1); s <= 5; s++ {
		ms = append(ms, round("a", "b", s, 2)...)
		ms = append(ms, round("a", "c", s, 2)...)
		ms = append(ms, round("b", "c", s, int(s%3))...)
	}
	tab, err := RankProbabilities(nil, ms, RankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Unavailable != "" {
		t.Fatal(tab.Unavailable)
	}
	a := playerRanks(t, tab, "a")
	if a.Rank != 1 || a.P[0] != 1 || a.Lo != 1 || a.Hi != 1 || a.Mean != 1 {
		t.Errorf("a = %+v, want rank 1 with probability 1 and interval [1, 1]", a)
	}
	for _, p := range tab.Players {
		sum := 0.0
		for _, v := range p.P {
			sum += v
		}
		if math.Abs(sum-1) > 1e-9 {
			t.Errorf("%s: probabilities sum to %v", p.Name, sum)
		}
	}
	if tab.Resamples != DefaultResamples || tab.Seed != DefaultRankSeed || !strings.Contains(tab.Method, "stratified bootstrap") {
		t.Errorf("table says %d resamples, seed %d, method %q", tab.Resamples, tab.Seed, tab.Method)
	}
}

// Two players with the same results against a weaker third (each pairing
// its own rounds, resampled apart) and even against each other are first
// about half the time each.
func TestRankProbabilitiesIdenticalPlayers(t *testing.T) {
	var ms []Match
	for s := uint64(1); s <= 8; s++ {
		ms = append(ms, round("a", "c", s, 1+int(s%3+1)/2)...)
		ms = append(ms, round("b", "c", s, 1+int(s%3+1)/2)...)
		ms = append(ms, round("a", "b", s, 1)...)
	}
	tab, err := RankProbabilities(nil, ms, RankOptions{Resamples: 4000})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := playerRanks(t, tab, "a"), playerRanks(t, tab, "b"), playerRanks(t, tab, "c")
	if c.P[2] != 1 {
		t.Fatalf("c = %+v, want last in every resample", c)
	}
	// 4 standard errors of a share of 4000 resamples at 1/2: 0.032.
	for _, p := range []PlayerRanks{a, b} {
		if math.Abs(p.P[0]-0.5) > 0.032 {
			t.Errorf("%s: P(rank 1) = %.3f, want about 0.5", p.Name, p.P[0])
		}
	}
}

// seedRound is one round on a seed: the pair's first player scored pts
// (0, 1 or 2) of its 2 games.
type seedRound struct {
	pair [2]int
	pts  int
}

// exactRanks enumerates every resample of a round robin of three players
// whose seeds fall in strata (every stratum drawn with replacement as
// often as it has seeds, each seed bringing all its rounds; every pairing
// the same number of rounds in each resample, so the Bradley–Terry order
// is the order of the scores) and returns each player's exact probability
// of each rank, ties sharing their ranks.
func exactRanks(n int, strata [][][]seedRound) [][]float64 {
	p := make([][]float64, n)
	for i := range p {
		p[i] = make([]float64, n)
	}
	total := 0.0
	var rec func(k int, pts []float64)
	rec = func(k int, pts []float64) {
		if k == len(strata) {
			total++
			for i := range n {
				above, tied := 0, 0
				for j := range n {
					switch {
					case j == i:
					case pts[j] > pts[i]+1e-9:
						above++
					case math.Abs(pts[j]-pts[i]) <= 1e-9:
						tied++
					}
				}
				for r := above; r <= above+tied; r++ {
					p[i][r] += 1 / float64(tied+1)
				}
			}
			return
		}
		seeds := strata[k]
		// Every ordered draw of len(seeds) seeds with replacement.
		idx := make([]int, len(seeds))
		for {
			next := append([]float64(nil), pts...)
			for _, x := range idx {
				for _, r := range seeds[x] {
					next[r.pair[0]] += float64(r.pts)
					next[r.pair[1]] += float64(2 - r.pts)
				}
			}
			rec(k+1, next)
			d := 0
			for d < len(idx) && idx[d] == len(seeds)-1 {
				idx[d] = 0
				d++
			}
			if d == len(idx) {
				break
			}
			idx[d]++
		}
	}
	rec(0, make([]float64, n))
	for i := range p {
		for r := range p[i] {
			p[i][r] /= total
		}
	}
	return p
}

// checkExact compares the bootstrap's table of the seeds with the exact
// enumeration, within 4 Monte Carlo standard errors.
func checkExact(t *testing.T, names []string, strata [][][]seedRound, seedOf func(stratum, seed int) uint64) {
	t.Helper()
	var ms []Match
	for k, seeds := range strata {
		for x, rs := range seeds {
			for _, r := range rs {
				ms = append(ms, round(names[r.pair[0]], names[r.pair[1]], seedOf(k, x), r.pts)...)
			}
		}
	}
	const resamples = 20000
	tab, err := RankProbabilities(names, ms, RankOptions{Resamples: resamples, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if tab.Unavailable != "" {
		t.Fatal(tab.Unavailable)
	}
	want := exactRanks(len(names), strata)
	for i, name := range names {
		got := playerRanks(t, tab, name)
		for r := range names {
			q := want[i][r]
			tol := 4*math.Sqrt(q*(1-q)/resamples) + 1e-9
			if math.Abs(got.P[r]-q) > tol {
				t.Errorf("%s: P(rank %d) = %.4f, exact %.4f (tolerance %.4f)", name, r+1, got.P[r], q, tol)
			}
		}
	}
}

// Where every pairing met on seeds of its own (as the adaptive schedule
// plays), each pairing is a stratum: the bootstrap's probabilities agree
// with the exact enumeration of every resample (27 per pairing, 19,683 in
// all), within the Monte Carlo error.
func TestRankProbabilitiesExactEnumeration(t *testing.T) {
	rounds := map[[2]int][]int{{0, 1}: {2, 1, 0}, {0, 2}: {2, 2, 0}, {1, 2}: {1, 2, 1}}
	var strata [][][]seedRound
	for _, pair := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
		var seeds [][]seedRound
		for _, pts := range rounds[pair] {
			seeds = append(seeds, []seedRound{{pair, pts}})
		}
		strata = append(strata, seeds)
	}
	checkExact(t, []string{"a", "b", "c"}, strata, func(k, x int) uint64 { return uint64(10*k + x + 1) })
}

// Where every pairing of a round played the round's seed (a round robin),
// the seeds are the units: the bootstrap draws whole seeds, every pairing
// of a drawn seed together, and agrees with the exact enumeration of the
// 4^4 = 256 draws of four seeds. Resampling each pairing's rounds apart,
// as the leaderboard once did, gives other probabilities: on these rounds
// c's P(rank 1) is 0.170 over pairings and 0.234 over seeds (a seed that
// suits c lifts all its results at once).
func TestRankProbabilitiesSeedsTogether(t *testing.T) {
	ab, ac, bc := [2]int{0, 1}, [2]int{0, 2}, [2]int{1, 2}
	seeds := [][]seedRound{
		{{ab, 2}, {ac, 2}, {bc, 2}},
		{{ab, 1}, {ac, 0}, {bc, 0}},
		{{ab, 2}, {ac, 2}, {bc, 1}},
		{{ab, 0}, {ac, 1}, {bc, 1}},
	}
	checkExact(t, []string{"a", "b", "c"}, [][][]seedRound{seeds}, func(_, x int) uint64 { return uint64(x + 1) })
	apart := make([][][]seedRound, 3)
	for _, rs := range seeds {
		for k, r := range rs {
			apart[k] = append(apart[k], []seedRound{r})
		}
	}
	together, split := exactRanks(3, [][][]seedRound{seeds}), exactRanks(3, apart)
	t.Logf("c's P(rank 1): %.3f over seeds, %.3f over pairings", together[2][0], split[2][0])
	if math.Abs(together[2][0]-split[2][0]) < 0.05 {
		t.Fatalf("the example does not tell seeds from pairings: c's P(rank 1) %.3f and %.3f", together[2][0], split[2][0])
	}
}

// The same batch and seed give the same table; another seed another.
func TestRankProbabilitiesSeeded(t *testing.T) {
	var ms []Match
	for s := uint64(1); s <= 6; s++ {
		ms = append(ms, round("a", "b", s, int(s%3))...)
		ms = append(ms, round("a", "c", s, int((s+1)%3))...)
		ms = append(ms, round("b", "c", s, int((s+2)%3))...)
	}
	one, err := RankProbabilities(nil, ms, RankOptions{Resamples: 300, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The matches in another order: canonical order makes it the same.
	rev := append([]Match(nil), ms...)
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	two, _ := RankProbabilities(nil, rev, RankOptions{Resamples: 300, Seed: 3})
	other, _ := RankProbabilities(nil, ms, RankOptions{Resamples: 300, Seed: 4})
	same, differs := true, false
	for i := range one.Players {
		for r := range one.Players[i].P {
			same = same && one.Players[i].P[r] == two.Players[i].P[r]
			differs = differs || one.Players[i].P[r] != other.Players[i].P[r]
		}
	}
	if !same {
		t.Errorf("the same matches in another order gave another table:\n%+v\n%+v", one.Players, two.Players)
	}
	if !differs {
		t.Errorf("seeds 3 and 4 gave the same table %+v", one.Players)
	}
}

// One or two rounds of a pairing cannot show how its result varies: the
// table says so rather than claiming certainty.
func TestRankProbabilitiesTooFewRounds(t *testing.T) {
	ms := append(round("normal", "sniper", 1, 2), round("normal", "sniper", 2, 2)...)
	tab, err := RankProbabilities(nil, ms, RankOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "every pairing needs at least 3 seeds to resample, and normal-sniper played on 2"; !strings.Contains(tab.Unavailable, want) || len(tab.Players) != 0 {
		t.Errorf("Unavailable %q with %d players, want %q and none", tab.Unavailable, len(tab.Players), want)
	}
	// A round robin on two seeds: its seeds are one stratum of two.
	var rr []Match
	for s := uint64(1); s <= 2; s++ {
		rr = append(rr, round("a", "b", s, 1)...)
		rr = append(rr, round("a", "c", s, 2)...)
		rr = append(rr, round("b", "c", s, 0)...)
	}
	tab, err = RankProbabilities(nil, rr, RankOptions{})
	if want := "need at least 3 of them, and 2 seeds hold the 3 pairings a-b, a-c, b-c"; err != nil || !strings.Contains(tab.Unavailable, want) || len(tab.Players) != 0 {
		t.Errorf("round robin on 2 seeds: Unavailable %q with %d players (%v), want %q and none", tab.Unavailable, len(tab.Players), err, want)
	}
	tab, err = RankProbabilities(nil, ms, RankOptions{MinRounds: 1})
	if err != nil || tab.Unavailable != "" || len(tab.Players) != 2 {
		t.Fatalf("MinRounds 1: %+v, %v", tab, err)
	}
	if _, err := RankProbabilities(nil, ms, RankOptions{Resamples: -1}); err == nil || !strings.Contains(err.Error(), "rank resamples -1") {
		t.Errorf("resamples -1: error %v", err)
	}
}

// BenchmarkRankProbabilities times the rank table of a 21-player round
// robin on 3 seeds (630 units) at the default 1000 resamples.
func BenchmarkRankProbabilities(b *testing.B) {
	names, ms := syntheticField(21, 3, rand.New(rand.NewPCG(1, 2)))
	var batch Matches
	for _, m := range ms {
		batch.Add(m)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := batch.RankProbabilities(names, RankOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
