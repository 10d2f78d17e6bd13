package rating

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"math"
	"slices"
	"sort"

	"crucible/stats"
)

// Match is one finished match as a leaderboard sees it.
type Match struct {
	// Players are the participants' names in seat order and Ranks their
	// finishing ranks (1 is best, equal ranks tie).
	Players []string
	Ranks   []int
	// Round is the schedule's round (a Glicko-2 rating period with
	// RoundPeriods).
	Round int
	// Seed is the match seed. The matches on one seed (both seat orders
	// of a pair, every rotation of a free-for-all group, every pairing of
	// a round) are one independent unit: they share the seed's map or
	// deal, so they are not independent evidence of one another.
	Seed uint64
	// Result fingerprints the match's full result apart from the seed
	// (the scores, the length, how it ended): two units of the same
	// players whose matches have the same fingerprints repeated each other
	// exactly, and count as one. 0 means unknown: the unit is taken as
	// distinct from every other.
	Result uint64
}

// Field is the analysis of a non-transitive field: the rankings that do
// not assume one scale of strength, and the cycles of significant wins.
// The masses are in the standings (Standing.AlphaRank, Standing.Nash).
type Field struct {
	// AlphaRank says how the α-Rank masses were computed.
	AlphaRank string `json:"alpharank"`
	// Cycles are the 3-cycles A > B > C > A in which every link is a
	// significant win (the lower end of its interval above 1/2),
	// strongest first.
	Cycles []Cycle `json:"cycles"`
	// Unmet counts the pairs of players that never met; the score matrix
	// takes them as even (1/2).
	Unmet int `json:"unmet,omitempty"`
}

// Cycle is a 3-cycle of significant wins: Players[0] beats Players[1],
// which beats Players[2], which beats Players[0].
type Cycle struct {
	Players [3]string `json:"players"`
	// Lo are the lower ends of the three links' intervals, in the order
	// above, and Margin the smallest of them minus 1/2.
	Lo     [3]float64 `json:"lo"`
	Margin float64    `json:"margin"`
}

// Inversion is a pair of players ranked against their scores: Above is
// ranked above Below, yet Below's score against the same opponents is
// significantly higher.
type Inversion struct {
	Above string `json:"above"`
	Below string `json:"below"`
	// Opponents counts the opponents compared over: those both met, and
	// each other when they met.
	Opponents int `json:"opponents"`
	// Diff is Below's score rate minus Above's against those opponents,
	// and Lo and Hi bound its interval.
	Diff float64 `json:"diff"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// Leaderboard ranks the players of a batch of matches by the model of
// opt, with each player's score against the field and every pair's
// head-to-head score, all with intervals clustered by seed:
//
//   - a round of a pairing is the matches of one group of players on one
//     seed (a seat-swapped pair, a free-for-all group's rotations);
//   - rounds of the same group whose matches repeated each other exactly
//     (Match.Result) are one unit, their games summed: a deterministic
//     outcome repeated on fifty seeds is one observation, not fifty;
//   - the independent units are the seeds: every match on one seed is in
//     one cluster, whatever its players, because the pairings of a round
//     share the seed's map or deal and a map that suits a player lifts
//     all its results of that round at once (a unit merged from exact
//     repeats belongs to the seed of its first round). Where every pair
//     meets on seeds of its own (the adaptive schedule) a cluster is one
//     round of one pairing;
//   - a score's interval is stats.SmallSampleRate over the player's
//     results summed by seed: the cluster-robust standard error with a
//     Student t quantile, Wilson's over the distinct outcomes when every
//     seed gave the same rate, and the small-sample methods on one or
//     two;
//   - Bradley–Terry's intervals are the cluster-robust sandwich over the
//     same seeds.
//
// names lists the players in a preferred order (players of matches
// missing from it are added after, sorted); players without a game are
// listed last. The order of matches does not matter: they are taken in a
// canonical order (round, seed, players), so the same batch gives the
// same summary bytes. A match with a player seated twice is an error for
// Weng–Lin and is otherwise rated pairwise without that pairing.
func Leaderboard(names []string, matches []Match, opt Options) (Summary, error) {
	if err := checkOptions(&opt); err != nil {
		return Summary{}, err
	}
	if err := checkNames(names); err != nil {
		return Summary{}, err
	}
	var ms Matches
	for _, m := range matches {
		if err := ms.Add(m); err != nil {
			return Summary{}, err
		}
	}
	return ms.Leaderboard(names, opt)
}

// checkOptions fills in opt's defaults and checks it.
func checkOptions(opt *Options) error {
	if opt.Model == "" {
		opt.Model = ModelBT
	}
	if opt.Periods == "" {
		opt.Periods = OnePeriod
	}
	if opt.Level == 0 {
		opt.Level = Confidence
	}
	if !(opt.Level > 0 && opt.Level < 1) {
		return fmt.Errorf("confidence level %v is not in (0, 1)", opt.Level)
	}
	if Lookup(opt.Model) == nil {
		_, err := ParseModel(string(opt.Model), Models())
		return err
	}
	switch opt.Periods {
	case OnePeriod, RoundPeriods, PriorIsRating:
	default:
		return fmt.Errorf("periods %q is not one of %s, %s, %s", opt.Periods, OnePeriod, RoundPeriods, PriorIsRating)
	}
	return nil
}

// checkNames refuses a list of players that names one twice.
func checkNames(names []string) error {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return fmt.Errorf("player %s is listed twice", n)
		}
		seen[n] = true
	}
	return nil
}

// entry is one player's games against one opponent in one (merged) unit.
type entry struct {
	opp, unit  int32
	pts, games float64
}

// batch is a set of matches reduced to pairwise games by units.
type batch struct {
	names []string
	index map[string]int
	// ms are the matches, order their canonical order and at the final
	// index of each of ms's interned players.
	ms    *Matches
	order []int32
	at    []int32
	// games are the pairwise games with Unit their cluster (the seed).
	games []stats.PairGame
	// copies[u] is the number of raw units merged into unit u and
	// unitGroup[u] the group (pairing, free-for-all group) it belongs to.
	copies    []int
	unitGroup []int32
	// entries[p] are player p's games by opponent and unit, sorted by
	// unit then opponent.
	entries [][]entry
	// groups and repeated count the groups and those whose every unit
	// repeated one outcome.
	groups, repeated, rawUnits int
	// The seeds cluster the units: every match on one seed is in one
	// cluster, whatever its players (the pairings of a round share the
	// seed's map or deal, so their results move together). clusters is
	// the number of seeds; unitCluster[u] is merged unit u's cluster (the
	// seed of the first round merged into it); rawMerged[r] and
	// rawCluster[r] are raw unit r's merged unit and cluster; and
	// seedsOf(u) lists the clusters of the raw units merged into u.
	clusters    int
	unitCluster []int32
	rawMerged   []int32
	rawCluster  []int32
	seedStart   []int32
	seedList    []int32
	// stamp, slot, seen and seedSeen are units' scratch: slot[c] is
	// cluster c's place in its output when seen[c] == stamp, and
	// seedSeen[c] == stamp once seed c is counted.
	stamp      int32
	slot, seen []int32
	seedSeen   []int32
}

// newBatch orders the matches canonically, finds their units and merges
// exact repeats.
func newBatch(names []string, ms *Matches) (*batch, error) {
	if err := checkNames(names); err != nil {
		return nil, err
	}
	b := &batch{index: map[string]int{}, ms: ms}
	for _, n := range names {
		b.index[n] = len(b.names)
		b.names = append(b.names, n)
	}
	var extra []string
	for _, n := range ms.names {
		if _, ok := b.index[n]; !ok {
			extra = append(extra, n)
		}
	}
	sort.Strings(extra)
	for _, n := range extra {
		b.index[n] = len(b.names)
		b.names = append(b.names, n)
	}
	b.at = make([]int32, len(ms.names))
	for i, n := range ms.names {
		b.at[i] = int32(b.index[n])
	}
	b.order = ms.canonical()

	n := len(b.names)
	type unitInfo struct {
		group   int32
		seed    uint64
		fp      uint64
		count   int
		unknown bool
	}
	groupID := map[string]int32{}
	type unitKey struct {
		group int32
		seed  uint64
	}
	unitID := map[unitKey]int32{}
	var units []unitInfo
	pairs := 0
	for _, block := range ms.recs {
		for _, r := range block {
			pairs += int(r.n) * (int(r.n) - 1) / 2
		}
	}
	b.games = make([]stats.PairGame, 0, pairs)
	rawOfGame := make([]int32, 0, pairs)
	var key []byte
	seats := make([]int32, 0, 8)
	group := make([]int32, 0, 8)
	for _, k := range b.order {
		m := ms.rec(int(k))
		ranks := ms.ranks[m.off : m.off+m.n]
		seats = seats[:0]
		for _, p := range ms.seats[m.off : m.off+m.n] {
			seats = append(seats, b.at[p])
		}
		key, group = setKey(key, append(group[:0], seats...))
		gid, ok := groupID[string(key)]
		if !ok {
			gid = int32(len(groupID))
			groupID[string(key)] = gid
		}
		uid, ok := unitID[unitKey{gid, m.seed}]
		if !ok {
			uid = int32(len(units))
			unitID[unitKey{gid, m.seed}] = uid
			units = append(units, unitInfo{group: gid, seed: m.seed})
		}
		u := &units[uid]
		u.count++
		if m.result == 0 {
			u.unknown = true
		}
		// The fingerprint of the unit is the sum of its matches', each
		// mixed with its seat order, so it does not depend on their order.
		h := m.result
		for _, p := range seats {
			h = mix64(h ^ uint64(p+1))
		}
		u.fp += h
		for s := range seats {
			for t := s + 1; t < len(seats); t++ {
				if seats[s] == seats[t] {
					continue
				}
				b.games = append(b.games, stats.PairGame{A: int(seats[s]), B: int(seats[t]), Score: pairScore(ranks[s], ranks[t])})
				rawOfGame = append(rawOfGame, uid)
			}
		}
	}
	// Merge the units of a group whose fingerprints agree.
	b.rawUnits = len(units)
	b.groups = len(groupID)
	type fpKey struct {
		group int32
		fp    uint64
		count int
	}
	mergedOf := make([]int32, len(units))
	seen := map[fpKey]int32{}
	perGroup := make([]int, b.groups) // raw units per group
	mergedIn := make([]int, b.groups) // merged units per group
	for uid, u := range units {
		perGroup[u.group]++
		k := fpKey{u.group, u.fp, u.count}
		if m, ok := seen[k]; ok && !u.unknown {
			mergedOf[uid] = m
			b.copies[m]++
			continue
		}
		id := int32(len(b.copies))
		if !u.unknown {
			seen[k] = id
		}
		mergedOf[uid] = id
		b.copies = append(b.copies, 1)
		b.unitGroup = append(b.unitGroup, u.group)
		mergedIn[u.group]++
	}
	for g := range perGroup {
		if perGroup[g] > 1 && mergedIn[g] == 1 {
			b.repeated++
		}
	}
	seeds := make([]uint64, len(units))
	for uid, u := range units {
		seeds[uid] = u.seed
	}
	b.clusterSeeds(seeds, mergedOf)
	// Each player's games by opponent and merged unit: the games grouped
	// by merged unit (a stable counting sort), then each unit's summed by
	// player and opponent, so the entries come sorted by unit, then
	// opponent.
	nm := len(b.copies)
	start := make([]int32, nm+1)
	for k := range b.games {
		u := mergedOf[rawOfGame[k]]
		b.games[k].Unit = int64(u)
		start[u+1]++
	}
	for u := range nm {
		start[u+1] += start[u]
	}
	byUnit := make([]int32, len(b.games))
	fill := slices.Clone(start[:nm])
	for k := range b.games {
		u := b.games[k].Unit
		byUnit[fill[u]] = int32(k)
		fill[u]++
	}
	b.entries = make([][]entry, n)
	from := make([]int, n)   // where p's entries of the current unit begin
	mark := make([]int32, n) // 1 + the unit from[p] is of
	var touched []int
	for u := range nm {
		touched = touched[:0]
		for _, k := range byUnit[start[u]:start[u+1]] {
			g := b.games[k]
			for _, side := range [2]struct {
				p, o int
				s    float64
			}{{g.A, g.B, g.Score}, {g.B, g.A, 1 - g.Score}} {
				p := side.p
				if mark[p] != int32(u+1) {
					mark[p], from[p] = int32(u+1), len(b.entries[p])
					touched = append(touched, p)
				}
				i := from[p]
				for i < len(b.entries[p]) && b.entries[p][i].opp != int32(side.o) {
					i++
				}
				if i == len(b.entries[p]) {
					b.entries[p] = append(b.entries[p], entry{opp: int32(side.o), unit: int32(u)})
				}
				e := &b.entries[p][i]
				e.pts += side.s
				e.games++
			}
		}
		for _, p := range touched {
			slices.SortFunc(b.entries[p][from[p]:], func(x, y entry) int { return cmp.Compare(x.opp, y.opp) })
		}
	}
	// From here on a game's unit is its cluster, the seed: what the
	// models' intervals are clustered over (the entries keep the merged
	// units).
	for k := range b.games {
		b.games[k].Unit = int64(b.unitCluster[b.games[k].Unit])
	}
	return b, nil
}

// clusterSeeds numbers the seeds of the raw units (seeds[r] is raw unit
// r's, in canonical order) by first appearance and sets the batch's
// cluster tables: a merged unit belongs to the cluster of its first round,
// and seedsOf lists the clusters of all its rounds.
func (b *batch) clusterSeeds(seeds []uint64, mergedOf []int32) {
	id := map[uint64]int32{}
	b.rawMerged = mergedOf
	b.rawCluster = make([]int32, len(seeds))
	nm := len(b.copies)
	b.unitCluster = make([]int32, nm)
	for u := range b.unitCluster {
		b.unitCluster[u] = -1
	}
	b.seedStart = make([]int32, nm+1)
	for r, s := range seeds {
		c, ok := id[s]
		if !ok {
			c = int32(len(id))
			id[s] = c
		}
		b.rawCluster[r] = c
		m := mergedOf[r]
		if b.unitCluster[m] < 0 {
			b.unitCluster[m] = c
		}
		b.seedStart[m+1]++
	}
	for u := range nm {
		b.seedStart[u+1] += b.seedStart[u]
	}
	b.seedList = make([]int32, len(seeds))
	fill := slices.Clone(b.seedStart[:nm])
	for r, m := range mergedOf {
		b.seedList[fill[m]] = b.rawCluster[r]
		fill[m]++
	}
	b.clusters = len(id)
	b.slot = make([]int32, b.clusters)
	b.seen = make([]int32, b.clusters)
	b.seedSeen = make([]int32, b.clusters)
}

// seedsOf lists the clusters of the rounds merged into unit u.
func (b *batch) seedsOf(u int32) []int32 { return b.seedList[b.seedStart[u]:b.seedStart[u+1]] }

// setKey sorts and compacts xs in place and returns its members as
// uvarints in key's storage, with the set: the same key for the same set
// in any order and with any repeats.
func setKey(key []byte, xs []int32) ([]byte, []int32) {
	slices.Sort(xs)
	xs = slices.Compact(xs)
	key = key[:0]
	for _, x := range xs {
		key = binary.AppendUvarint(key, uint64(x))
	}
	return key, xs
}

// mix64 is the SplitMix64 finalizer: a fast, well-spread 64-bit hash step.
func mix64(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// units sums player p's entries whose opponent keep accepts by cluster
// (seed), in order of first appearance, and counts the seeds behind them
// (the rounds of a merged unit each count their own).
func (b *batch) units(p int, keep func(opp int32) bool) (out []stats.Unit, seeds int) {
	b.stamp++
	last := int32(-1)
	for _, e := range b.entries[p] {
		if !keep(e.opp) {
			continue
		}
		c := b.unitCluster[e.unit]
		if b.seen[c] != b.stamp {
			b.seen[c], b.slot[c] = b.stamp, int32(len(out))
			out = append(out, stats.Unit{})
		}
		u := &out[b.slot[c]]
		u.Points += e.pts
		u.Games += e.games
		if e.unit != last {
			last = e.unit
			for _, s := range b.seedsOf(e.unit) {
				if b.seedSeen[s] != b.stamp {
					b.seedSeen[s] = b.stamp
					seeds++
				}
			}
		}
	}
	return out, seeds
}

// interval is the clustered score interval of the units, honest on
// fewer than stats.MinUnits (stats.SmallSampleRate), and ok false when
// there are none.
func interval(units []stats.Unit, level float64) (stats.Interval, bool) {
	if len(units) == 0 {
		return stats.Interval{}, false
	}
	iv, err := stats.SmallSampleRate(units, level)
	if err != nil {
		// The units are sums of scores in [0, 1]: nothing to refuse.
		panic(fmt.Sprintf("rating: clustered rate of well-formed units: %v", err))
	}
	return iv, true
}

// eloOf is the Elo difference of score s over games, taken half a game
// from the edges so it stays finite.
func eloOf(s, games float64) float64 {
	edge := 0.5 / games
	e := EloDiff(math.Min(math.Max(s, edge), 1-edge))
	if e == 0 {
		return 0 // not -0, which tables print as "-0"
	}
	return e
}
