package rating

import (
	"cmp"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"crucible/stats"
)

// pairMatches are the two seat orders of a and b on seed: a's rank in
// each (1 win, 2 loss, equal ranks a draw given as 0), with result
// fingerprints that differ by seed unless fixed.
func pairMatches(a, b string, round int, seed uint64, first, second int, fixed bool) []Match {
	rk := func(r int) []int {
		switch r {
		case 1:
			return []int{1, 2}
		case 2:
			return []int{2, 1}
		}
		return []int{1, 1}
	}
	fp := func(k uint64) uint64 {
		if fixed {
			return 100 + k
		}
		return 1000*seed + k
	}
	r2 := rk(second)
	return []Match{
		{Players: []string{a, b}, Ranks: rk(first), Round: round, Seed: seed, Result: fp(1)},
		{Players: []string{b, a}, Ranks: []int{r2[1], r2[0]}, Round: round, Seed: seed, Result: fp(2)},
	}
}

// TestLeaderboardUnits checks the units: a pair that won every one of its
// 10 seeds with the same result is one unit (the exact bound of one won
// unit, [0.025, 1]: Wilson's over one outcome, [0.21, 1], is no valid
// interval on one unit), a
// pair that won every seed with different games is 10 units (Wilson over
// ten), and a varying pair gets the clustered t interval over its seeds;
// the summary counts units, distinct outcomes and repeated pairings.
func TestLeaderboardUnits(t *testing.T) {
	var ms []Match
	for s := range 10 {
		seed := uint64(s + 1)
		ms = append(ms, pairMatches("a", "b", s, seed, 1, 1, true)...)  // the same win every seed
		ms = append(ms, pairMatches("a", "c", s, seed, 1, 1, false)...) // a win in different games
		r := 1 + s%2                                                    // b and c alternate
		ms = append(ms, pairMatches("b", "c", s, seed, r, r, false)...)
	}
	sum, err := Leaderboard([]string{"a", "b", "c"}, ms, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Units != 30 || sum.Distinct != 21 || sum.Groups != 3 || sum.Repeated != 1 || !sum.Clustered || sum.Model != ModelBT {
		t.Fatalf("units %d distinct %d groups %d repeated %d", sum.Units, sum.Distinct, sum.Groups, sum.Repeated)
	}
	pairs := map[string]Pair{}
	for _, p := range sum.Pairs {
		pairs[p.A+p.B] = p
	}
	ab, ac, bc := pairs["ab"], pairs["ac"], pairs["bc"]
	lo1 := 0.025
	lo10, _ := stats.Wilson(10, 10, 0.95)
	if ab.Units != 10 || ab.Distinct != 1 || ab.Score != 1 || math.Abs(ab.Lo-lo1) > 1e-12 || ab.Hi != 1 || ab.Method != stats.ExactExtreme {
		t.Fatalf("a-b repeated one win: %+v, want the exact bound of one won unit (lo %v)", ab, lo1)
	}
	if ac.Units != 10 || ac.Distinct != 10 || math.Abs(ac.Lo-lo10) > 1e-12 || ab.Wins != 20 {
		t.Fatalf("a-c won ten different games: %+v, want Wilson of 10 of 10 (lo %v)", ac, lo10)
	}
	want, _ := stats.ClusteredMean([]float64{1, 0, 1, 0, 1, 0, 1, 0, 1, 0}, 0.95)
	if bc.Units != 10 || bc.Distinct != 10 || math.Abs(bc.Lo-want.Lo) > 1e-12 || math.Abs(bc.Hi-want.Hi) > 1e-12 {
		t.Fatalf("b-c alternating: %+v, want the t interval %+v", bc, want)
	}
	// a's field is clustered by seed: the a-b pairing's one unit of 20
	// games lies in its first seed's cluster with that seed's a-c round,
	// and the other nine seeds hold an a-c round each: all won, 10 seeds,
	// Wilson of 10 of 10 (over pair-rounds it was 11 of 11).
	st := sum.Standings[0]
	if st.Name != "a" || st.Units != 10 || st.Distinct != 10 || st.Score != 1 || math.Abs(st.ScoreLo-lo10) > 1e-12 {
		t.Fatalf("a's standing %+v, want 10 seeds, 10 distinct, Wilson of 10 of 10", st)
	}
	if sum.Seeds != 10 {
		t.Fatalf("summary over %d seeds, want 10", sum.Seeds)
	}
	// A perfect record's Elo is taken half a game from the edge.
	if want := EloDiff(39.5 / 40); math.Abs(st.Elo-want) > 1e-9 || math.IsInf(st.EloHi, 0) {
		t.Fatalf("a's Elo %v [%v, %v], want %v and finite", st.Elo, st.EloLo, st.EloHi, want)
	}
	// a never dropped a point: the fit needed a prior, and says so.
	if len(sum.Notes) == 0 || !strings.Contains(sum.Notes[0], "a won or lost every game") {
		t.Fatalf("notes %q", sum.Notes)
	}
}

// syntheticField is a round robin of n players of increasing strength on
// seeds, both seat orders, with draws, played from rng.
func syntheticField(n, seeds int, rng *rand.Rand) ([]string, []Match) {
	names := make([]string, n)
	for i := range names {
		names[i] = string(rune('a' + i))
	}
	var ms []Match
	for s := range seeds {
		seed := uint64(s + 1)
		for i := range n {
			for j := i + 1; j < n; j++ {
				for _, order := range [][2]int{{i, j}, {j, i}} {
					d := 60 * float64(order[0]-order[1])
					p := 1 / (1 + math.Pow(10, -d/400))
					u := rng.Float64()
					ranks := []int{1, 1}
					switch {
					case u < 0.8*p:
						ranks = []int{1, 2}
					case u > 1-0.8*(1-p):
						ranks = []int{2, 1}
					}
					ms = append(ms, Match{Players: []string{names[order[0]], names[order[1]]}, Ranks: ranks, Round: s, Seed: seed, Result: rng.Uint64() | 1})
				}
			}
		}
	}
	return names, ms
}

// TestLeaderboardOrderFollowsScores checks the property the default must
// have: on a round robin, Bradley–Terry ranks by score (ties aside), no
// pair is inverted, and so does one Glicko-2 period; the figures are the
// stats package's on the same games.
func TestLeaderboardOrderFollowsScores(t *testing.T) {
	names, ms := syntheticField(8, 12, rand.New(rand.NewPCG(4, 5)))
	for _, opt := range []Options{{Model: ModelBT}, {Model: ModelGlicko2}} {
		sum, err := Leaderboard(names, ms, opt)
		if err != nil {
			t.Fatal(err)
		}
		for i := 1; i < len(sum.Standings); i++ {
			a, b := sum.Standings[i-1], sum.Standings[i]
			if a.Score < b.Score-1e-12 {
				t.Fatalf("%s: %s (score %v) ranked above %s (score %v)", opt.Model, a.Name, a.Score, b.Name, b.Score)
			}
		}
		if len(sum.Inversions) != 0 {
			t.Fatalf("%s: inversions %+v", opt.Model, sum.Inversions)
		}
	}
	// The BT figures are FitGames' clustered by seed (every pairing of a
	// round on one seed is one cluster).
	sum, _ := Leaderboard(names, ms, Options{})
	var games []stats.PairGame
	for k, m := range ms {
		a, b := slices.Index(names, m.Players[0]), slices.Index(names, m.Players[1])
		s := 0.5
		if m.Ranks[0] < m.Ranks[1] {
			s = 1
		} else if m.Ranks[0] > m.Ranks[1] {
			s = 0
		}
		_ = k
		games = append(games, stats.PairGame{A: a, B: b, Score: s, Unit: int64(m.Seed)})
	}
	fit, err := stats.BradleyTerry{MergedRepeats: true}.FitGames(names, games)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range fit.Ratings {
		st := sum.Standings[k]
		if st.Name != r.Name || math.Abs(st.BT.Elo-r.Elo) > 1e-6 || math.Abs(st.BT.SE-r.SE) > 1e-6 {
			t.Fatalf("standing %d: %s %+v, FitGames %s %+v", k, st.Name, st.BT, r.Name, r)
		}
	}
}

// TestLeaderboardModels checks each model against the code it stands for:
// Glicko-2 one period is RatePeriod over every outcome, per round is
// RatePeriods, none keeps the prior; Weng–Lin rates the matches in round
// order with RateFFA; α-Rank and Nash are the stats package's on the
// score matrix, and their leaderboards are ordered by them.
func TestLeaderboardModels(t *testing.T) {
	names, ms := syntheticField(5, 4, rand.New(rand.NewPCG(7, 8)))
	g := Default()
	var all []Outcome
	byRound := make([][]Outcome, 4)
	for _, m := range ms {
		o := Pairwise(m.Players, m.Ranks)
		all = append(all, o...)
		byRound[m.Round] = append(byRound[m.Round], o...)
	}
	prior := map[string]Rating{"a": {Rating: 1900, RD: 40, Volatility: 0.06}}
	start := g.Initials(names)
	start["a"] = prior["a"]
	tests := []struct {
		periods Periods
		want    map[string]Rating
	}{
		{OnePeriod, g.RatePeriod(start, all)},
		{RoundPeriods, g.RatePeriods(start, byRound)},
		{PriorIsRating, start},
	}
	for _, tt := range tests {
		sum, err := Leaderboard(names, ms, Options{Model: ModelGlicko2, Periods: tt.periods, Prior: prior})
		if err != nil {
			t.Fatal(err)
		}
		for i, st := range sum.Standings {
			if st.Rating != tt.want[st.Name] || st.Conservative != st.Rating.Conservative() {
				t.Fatalf("%s: %s %+v, want %+v", tt.periods, st.Name, st.Rating, tt.want[st.Name])
			}
			if i > 0 && sum.Standings[i-1].Conservative < st.Conservative {
				t.Fatalf("%s: not ordered by rating - 2 RD", tt.periods)
			}
		}
	}

	w := stats.DefaultWengLin()
	skill := map[string]stats.Skill{}
	for _, n := range names {
		skill[n] = w.Initial()
	}
	sorted := slices.Clone(ms)
	// The canonical order: round, seed, players, ranks, result.
	slices.SortStableFunc(sorted, func(x, y Match) int {
		return cmp.Or(cmp.Compare(x.Round, y.Round), cmp.Compare(x.Seed, y.Seed), slices.Compare(x.Players, y.Players),
			slices.Compare(x.Ranks, y.Ranks), cmp.Compare(x.Result, y.Result))
	})
	for _, m := range sorted {
		out, err := w.RateFFA([]stats.Skill{skill[m.Players[0]], skill[m.Players[1]]}, []float64{float64(m.Ranks[0]), float64(m.Ranks[1])})
		if err != nil {
			t.Fatal(err)
		}
		skill[m.Players[0]], skill[m.Players[1]] = out[0], out[1]
	}
	sum, err := Leaderboard(names, ms, Options{Model: ModelWengLin})
	if err != nil {
		t.Fatal(err)
	}
	for i, st := range sum.Standings {
		s := skill[st.Name]
		if st.WengLin.Mu != s.Mu || st.WengLin.Sigma != s.Sigma || st.WengLin.Ordinal != s.Ordinal() {
			t.Fatalf("weng-lin %s: %+v, want %+v", st.Name, st.WengLin, s)
		}
		if i > 0 && sum.Standings[i-1].WengLin.Ordinal < st.WengLin.Ordinal {
			t.Fatal("weng-lin: not ordered by the ordinal")
		}
	}

	// The score matrix in the names' order.
	n := len(names)
	score := make([][]float64, n)
	pts, games := make([][]float64, n), make([][]float64, n)
	for i := range score {
		score[i], pts[i], games[i] = make([]float64, n), make([]float64, n), make([]float64, n)
	}
	for _, o := range all {
		a, b := slices.Index(names, o.A), slices.Index(names, o.B)
		pts[a][b] += o.Score
		pts[b][a] += 1 - o.Score
		games[a][b]++
		games[b][a]++
	}
	for i := range n {
		for j := range n {
			score[i][j] = 0.5
			if i != j {
				score[i][j] = pts[i][j] / games[i][j]
			}
		}
	}
	pi, err := stats.AlphaRank{}.Rank(score)
	if err != nil {
		t.Fatal(err)
	}
	nash, err := stats.NashAverage(stats.ScoreMargins(score))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Model{ModelAlphaRank, ModelNash} {
		sum, err := Leaderboard(names, ms, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Field == nil || sum.Inversions != nil {
			t.Fatalf("%s: field %v, inversions %v", m, sum.Field, sum.Inversions)
		}
		for i, st := range sum.Standings {
			k := slices.Index(names, st.Name)
			if math.Abs(*st.AlphaRank-pi[k]) > 1e-12 || math.Abs(st.Nash.Mass-nash.Mass[k]) > 1e-12 || math.Abs(st.Nash.Payoff-nash.Rating[k]) > 1e-12 {
				t.Fatalf("%s %s: α %v nash %+v, want %v %v %v", m, st.Name, *st.AlphaRank, st.Nash, pi[k], nash.Mass[k], nash.Rating[k])
			}
			if i == 0 {
				continue
			}
			prev := sum.Standings[i-1]
			if m == ModelAlphaRank && *prev.AlphaRank < *st.AlphaRank-1e-9 {
				t.Fatal("alpharank: not ordered by mass")
			}
			if m == ModelNash && prev.Nash.Payoff < st.Nash.Payoff-1e-9 {
				t.Fatal("nash: not ordered by payoff")
			}
		}
	}
}

// TestLeaderboardCycle finds the rock-paper-scissors cycle of a field in
// which every win is by every seed, and reports no inversion for a
// leaderboard ordered by the given ratings when the scores are level.
func TestLeaderboardCycle(t *testing.T) {
	var ms []Match
	for s := range 12 {
		seed := uint64(s + 1)
		ms = append(ms, pairMatches("rock", "scissors", s, seed, 1, 1, false)...)
		ms = append(ms, pairMatches("scissors", "paper", s, seed, 1, 1, false)...)
		ms = append(ms, pairMatches("paper", "rock", s, seed, 1, 1, false)...)
	}
	sum, err := Leaderboard(nil, ms, Options{Model: ModelNash})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Field.Cycles) != 1 {
		t.Fatalf("cycles %+v, want one", sum.Field.Cycles)
	}
	c := sum.Field.Cycles[0]
	lo, _ := stats.Wilson(12, 12, 0.95)
	if c.Players != [3]string{"paper", "rock", "scissors"} || math.Abs(c.Margin-(lo-0.5)) > 1e-12 {
		t.Fatalf("cycle %+v, want paper > rock > scissors > paper with margin %v", c, lo-0.5)
	}
	for _, st := range sum.Standings {
		if math.Abs(st.Nash.Mass-1.0/3) > 1e-6 || math.Abs(*st.AlphaRank-1.0/3) > 1e-6 {
			t.Fatalf("%s: nash %+v α %v, want a third each", st.Name, st.Nash, *st.AlphaRank)
		}
	}
}

// TestLeaderboardInversions checks the warning: ratings given by hand
// (PriorIsRating) that order the field from the weakest to the strongest
// are reported as inversions, each a pair ranked against a significantly
// higher score against the same opponents (and each other), the weakest
// above the strongest among them.
func TestLeaderboardInversions(t *testing.T) {
	names, ms := syntheticField(4, 40, rand.New(rand.NewPCG(1, 1)))
	prior := map[string]Rating{}
	for i, n := range names {
		prior[n] = Rating{Rating: 2500 - 100*float64(i), RD: 30, Volatility: 0.06}
	}
	sum, err := Leaderboard(names, ms, Options{Model: ModelGlicko2, Periods: PriorIsRating, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Standings[0].Name != "a" || len(sum.Inversions) == 0 {
		t.Fatalf("leader %s, inversions %+v", sum.Standings[0].Name, sum.Inversions)
	}
	found := false
	for _, inv := range sum.Inversions {
		if inv.Above >= inv.Below || !(inv.Lo > 0) || inv.Lo > inv.Diff || inv.Opponents != 3 {
			t.Fatalf("inversion %+v, want a weaker player above a stronger one, significantly", inv)
		}
		found = found || (inv.Above == "a" && inv.Below == "d")
	}
	if !found {
		t.Fatalf("inversions %+v lack a above d", sum.Inversions)
	}
	// Without the b-d games, a and d share only c: the comparison is over
	// c and each other.
	var partial []Match
	for _, m := range ms {
		if !(slices.Contains(m.Players, "b") && slices.Contains(m.Players, "d")) {
			partial = append(partial, m)
		}
	}
	part, err := Leaderboard(names, partial, Options{Model: ModelGlicko2, Periods: PriorIsRating, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	found = false
	for _, inv := range part.Inversions {
		if inv.Above == "a" && inv.Below == "d" {
			found = true
			if inv.Opponents != 2 {
				t.Fatalf("a above d compared over %d opponents, want c and each other", inv.Opponents)
			}
		}
	}
	if !found {
		t.Fatalf("partial field: inversions %+v lack a above d", part.Inversions)
	}
	// Ordered by the fit, the same field has none.
	if fit, _ := Leaderboard(names, ms, Options{}); len(fit.Inversions) != 0 {
		t.Fatalf("bradley-terry: inversions %+v", fit.Inversions)
	}
}

// TestLeaderboardFreeForAll checks 4-seat matches: a unit is a group's
// rotations on one seed, each match gives the six pairwise results, and
// Weng–Lin rates the full rankings.
func TestLeaderboardFreeForAll(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	players := []string{"p", "q", "r", "s", "t"}
	var ms []Match
	groups := 0
	for s := range 3 {
		for _, out := range []int{0, 1, 2, 3, 4} { // each group of four leaves one out
			var g []string
			for i, p := range players {
				if i != out {
					g = append(g, p)
				}
			}
			if s == 0 {
				groups++
			}
			for rot := range 4 {
				seats := make([]string, 4)
				ranks := make([]int, 4)
				for i := range seats {
					seats[i] = g[(i+rot)%4]
					ranks[i] = 1 + rng.IntN(4)
				}
				ms = append(ms, Match{Players: seats, Ranks: ranks, Round: s, Seed: uint64(10 + s), Result: rng.Uint64() | 1})
			}
		}
	}
	for _, m := range []Model{ModelBT, ModelWengLin, ModelGlicko2} {
		sum, err := Leaderboard(players, ms, Options{Model: m})
		if err != nil {
			t.Fatal(err)
		}
		if sum.Units != 15 || sum.Groups != 5 || sum.Seeds != 3 {
			t.Fatalf("%s: %d rounds in %d groups on %d seeds, want 15 in 5 on 3", m, sum.Units, sum.Groups, sum.Seeds)
		}
		for _, st := range sum.Standings {
			// 4 of the 5 groups, 4 rotations, 3 opponents, 3 seeds; the
			// groups of a round share its seed, so 3 independent units.
			if st.Games != 4*4*3*3 || st.Units != 3 {
				t.Fatalf("%s: %s has %d games on %d seeds, want 144 on 3", m, st.Name, st.Games, st.Units)
			}
		}
	}
}

// TestLeaderboardCanonical checks that the order of the matches does not
// change a byte of the summary, and that bad input is refused by name.
func TestLeaderboardCanonical(t *testing.T) {
	names, ms := syntheticField(6, 5, rand.New(rand.NewPCG(9, 9)))
	for _, m := range Models() {
		a, err := Leaderboard(names, ms, Options{Model: m, Field: true})
		if err != nil {
			t.Fatal(err)
		}
		shuffled := slices.Clone(ms)
		rand.New(rand.NewPCG(1, 2)).Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		b, _ := Leaderboard(names, shuffled, Options{Model: m, Field: true})
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		if string(ja) != string(jb) {
			t.Fatalf("%s: the order of the matches changed the summary", m)
		}
	}
	tests := []struct {
		names []string
		ms    []Match
		opt   Options
		want  string
	}{
		{[]string{"a", "a"}, nil, Options{}, "player a is listed twice"},
		{nil, []Match{{Players: []string{"a", "b"}, Ranks: []int{1}, Seed: 3}}, Options{}, "match 0 (round 0, seed 3) has 2 players but 1 ranks"},
		{nil, []Match{{Players: []string{"a", ""}, Ranks: []int{1, 2}}}, Options{}, "seat 1 has no player name"},
		{nil, []Match{{Players: []string{"a", "b"}, Ranks: []int{0, 1}}}, Options{}, "rank 0 of seat 0, want >= 1"},
		{nil, nil, Options{Model: "elo-ish"}, `model "elo-ish" is not one of`},
		{nil, nil, Options{Periods: "weekly"}, `periods "weekly" is not one of one, rounds, none`},
		{nil, nil, Options{Level: 1.5}, "confidence level 1.5 is not in (0, 1)"},
		{nil, []Match{{Players: []string{"a", "a"}, Ranks: []int{1, 2}}}, Options{Model: ModelWengLin}, "seats a twice"},
		{[]string{"a"}, nil, Options{Model: ModelAlphaRank}, "alpharank needs at least two players with games"},
	}
	for _, tt := range tests {
		if _, err := Leaderboard(tt.names, tt.ms, tt.opt); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
}
