package rating

import (
	"cmp"
	"fmt"
	"iter"
	"slices"
)

// Matches is a batch of matches held compactly for a leaderboard: player
// names interned once, each match a few words (round, seed, result) and
// its seats and ranks as small integers, so that a results file of
// millions of lines is read into tens of bytes a match instead of the
// records themselves. The zero value is empty and ready to use; it is not
// safe for concurrent use.
type Matches struct {
	names []string
	index map[string]int32
	// recs are the matches in blocks of recBlock, so that adding one
	// never copies those before it (a growing slice of a million would
	// copy and clear tens of megabytes at every doubling).
	recs  [][]matchRec
	count int
	// seats and ranks hold every match's players (interned) and ranks in
	// seat order, at recs[k].off.
	seats []int32
	ranks []int32
}

// matchRec is one match of Matches.
type matchRec struct {
	round        int
	seed, result uint64
	off, n       uint32
}

// recBlock is the number of matches in a block of Matches.recs.
const recBlock = 1 << 12

// rec is match k.
func (ms *Matches) rec(k int) *matchRec { return &ms.recs[k/recBlock][k%recBlock] }

// Len is the number of matches added.
func (ms *Matches) Len() int { return ms.count }

// Add checks one match and adds it: as many ranks as players, every seat
// named, every rank at least 1. The slices are copied.
func (ms *Matches) Add(m Match) error {
	k := ms.count
	if len(m.Players) != len(m.Ranks) {
		return fmt.Errorf("match %d (round %d, seed %d) has %d players but %d ranks", k, m.Round, m.Seed, len(m.Players), len(m.Ranks))
	}
	for s, p := range m.Players {
		if p == "" {
			return fmt.Errorf("match %d (round %d, seed %d): seat %d has no player name", k, m.Round, m.Seed, s)
		}
		if m.Ranks[s] < 1 {
			return fmt.Errorf("match %d (round %d, seed %d): rank %d of seat %d, want >= 1", k, m.Round, m.Seed, m.Ranks[s], s)
		}
	}
	if ms.index == nil {
		ms.index = map[string]int32{}
	}
	off := uint32(len(ms.seats))
	for s, p := range m.Players {
		i, ok := ms.index[p]
		if !ok {
			i = int32(len(ms.names))
			ms.index[p] = i
			ms.names = append(ms.names, p)
		}
		ms.seats = append(ms.seats, i)
		ms.ranks = append(ms.ranks, int32(m.Ranks[s]))
	}
	if k%recBlock == 0 {
		ms.recs = append(ms.recs, make([]matchRec, 0, recBlock))
	}
	last := &ms.recs[len(ms.recs)-1]
	*last = append(*last, matchRec{round: m.Round, seed: m.Seed, result: m.Result, off: off, n: uint32(len(m.Players))})
	ms.count++
	return nil
}

// Leaderboard is Leaderboard of the matches added.
func (ms *Matches) Leaderboard(names []string, opt Options) (Summary, error) {
	if err := checkOptions(&opt); err != nil {
		return Summary{}, err
	}
	b, err := newBatch(names, ms)
	if err != nil {
		return Summary{}, err
	}
	return b.summary(opt)
}

// All yields the matches in the order they were added. The Players and
// Ranks of a yielded match are only valid until the next one.
func (ms *Matches) All() iter.Seq[Match] {
	return ms.in(nil)
}

// in yields the matches in order (in the order added when order is nil).
func (ms *Matches) in(order []int32) iter.Seq[Match] {
	return func(yield func(Match) bool) {
		var players []string
		var ranks []int
		for i := range ms.count {
			k := i
			if order != nil {
				if i >= len(order) {
					return
				}
				k = int(order[i])
			}
			r := ms.rec(k)
			players, ranks = players[:0], ranks[:0]
			for s := r.off; s < r.off+r.n; s++ {
				players = append(players, ms.names[ms.seats[s]])
				ranks = append(ranks, int(ms.ranks[s]))
			}
			if !yield(Match{Players: players, Ranks: ranks, Round: r.round, Seed: r.seed, Result: r.result}) {
				return
			}
		}
	}
}

// canonical returns the indices of the matches in canonical order:
// round, seed, players (by name), ranks, result. Matches that compare
// equal are equal in every field that counts, so the order is
// deterministic whatever order they were added in.
func (ms *Matches) canonical() []int32 {
	// nameRank orders interned names as their strings sort.
	byName := make([]int32, len(ms.names))
	for i := range byName {
		byName[i] = int32(i)
	}
	slices.SortFunc(byName, func(x, y int32) int { return cmp.Compare(ms.names[x], ms.names[y]) })
	nameRank := make([]int32, len(ms.names))
	for r, i := range byName {
		nameRank[i] = int32(r)
	}
	order := make([]int32, ms.count)
	for i := range order {
		order[i] = int32(i)
	}
	less := func(x, y int32) int {
		a, b := ms.rec(int(x)), ms.rec(int(y))
		if c := cmp.Compare(a.round, b.round); c != 0 {
			return c
		}
		if c := cmp.Compare(a.seed, b.seed); c != 0 {
			return c
		}
		sa, sb := ms.seats[a.off:a.off+a.n], ms.seats[b.off:b.off+b.n]
		for i := 0; i < len(sa) && i < len(sb); i++ {
			if c := cmp.Compare(nameRank[sa[i]], nameRank[sb[i]]); c != 0 {
				return c
			}
		}
		if c := cmp.Compare(len(sa), len(sb)); c != 0 {
			return c
		}
		if c := slices.Compare(ms.ranks[a.off:a.off+a.n], ms.ranks[b.off:b.off+b.n]); c != 0 {
			return c
		}
		return cmp.Compare(a.result, b.result)
	}
	if !slices.IsSortedFunc(order, less) {
		slices.SortFunc(order, less)
	}
	return order
}
