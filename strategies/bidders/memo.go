package bidders

// An exact memo of solved stage games for cfr (and tuned): the solution
// (seat A's average strategy over the nodes its moves can reach) is a
// pure function of the stage game's input, so a game met before is not
// solved again. The key is the whole input, compared in full on a hit
// (a Go map of comparable structs), floats by their bits, so a hit yields
// exactly the bits a solve would: results do not depend on what the cache
// holds, on eviction, or on how many goroutines share it.

import (
	"hash/maphash"
	"math"
	"sync"
)

// memoSeat is one seat's part of a stage game's input.
type memoSeat struct {
	budget, carry int
	emb, cap      [nb]int
	keep          uint64
}

// memoKey is the whole input of solveOwn.
type memoKey struct {
	values [nb]uint64
	ember  uint64
	iters  int
	a, b   memoSeat
}

const (
	memoShards = 16
	// memoShardBytes caps each shard (about 16 MB in all); a full shard
	// is emptied and refilled.
	memoShardBytes = 1 << 20
)

type memoShard struct {
	mu    sync.Mutex
	m     map[memoKey][]float64
	bytes int
}

var (
	stageMemo [memoShards]memoShard
	memoSeed  = maphash.MakeSeed()
)

func memoShardOf(key memoKey) *memoShard {
	return &stageMemo[maphash.Comparable(memoSeed, key)%memoShards]
}

// lookup returns the stored solution of the stage game key, sh being its
// shard (memoShardOf).
func (sh *memoShard) lookup(key memoKey) ([]float64, bool) {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sol, ok := sh.m[key]
	return sol, ok
}

func seatKey(s *stageSeat) memoSeat {
	return memoSeat{budget: s.budget, carry: s.carry, emb: s.emb, cap: s.cap, keep: math.Float64bits(s.keep)}
}

func (g *stageGame) memoKey(iters int) memoKey {
	k := memoKey{ember: math.Float64bits(g.ember), iters: iters, a: seatKey(&g.a), b: seatKey(&g.b)}
	for i, v := range g.values {
		k.values[i] = math.Float64bits(v)
	}
	return k
}

// solveOwnMemo leaves in g.a.cum, at every node seat A's moves can reach,
// exactly what solveOwn(iters) leaves there (other state of g is not
// kept on a hit: only g.a's average strategy may be read after it).
func (g *stageGame) solveOwnMemo(iters int) {
	key := g.memoKey(iters)
	sh := memoShardOf(key)
	sol, ok := sh.lookup(key)
	s := &g.a
	if ok {
		s.hi[0] = 0
		i := 0
		for k := 0; k < nb; k++ {
			s.hi[k+1] = min(s.budget, s.hi[k]+s.cap[k])
			for t := 0; t <= s.hi[k]; t++ {
				n := min(s.cap[k], s.budget-t) + 1
				i += copy(s.cum[k][t][:n], sol[i:i+n])
			}
		}
		return
	}
	g.solveOwn(iters)
	size := 0
	for k := 0; k < nb; k++ {
		for t := 0; t <= s.hi[k]; t++ {
			size += min(s.cap[k], s.budget-t) + 1
		}
	}
	sol = make([]float64, 0, size)
	for k := 0; k < nb; k++ {
		for t := 0; t <= s.hi[k]; t++ {
			n := min(s.cap[k], s.budget-t) + 1
			sol = append(sol, s.cum[k][t][:n]...)
		}
	}
	size = 8*len(sol) + 200
	sh.mu.Lock()
	if sh.m == nil || sh.bytes+size > memoShardBytes {
		sh.m, sh.bytes = make(map[memoKey][]float64), 0
	}
	if _, dup := sh.m[key]; !dup {
		sh.m[key] = sol
		sh.bytes += size
	}
	sh.mu.Unlock()
}
