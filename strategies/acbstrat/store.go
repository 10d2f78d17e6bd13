package acbstrat

import (
	"slices"
	"sync"
)

// The store of searches. A bot's distance fields are searches on its
// remembered walls (memory.wallT), and on the same map many bots remember
// the same walls: every match of a round robin on one seed plays one map,
// both seats start seeing the same walls whatever the strategies, and a
// strategy keeps seeing the same ones until its opponent makes a
// difference. The store keeps the fields of recent searches by what they
// depend on, and no more: the grid's size, the set of remembered walls,
// the sources in order and the depth limit. A search made before is copied
// from the store instead of repeated (measured on the 21-strategy round
// robin: about 6 in 10 of the cached fields' searches had been made before
// in the process). A hit is checked against the stored walls and sources
// in full, so a hash collision costs a search, never a wrong field, and
// the fields, hence every decision, are those of a search made afresh.
var store struct {
	sync.Mutex
	m     map[searchKey]searchEntry
	bytes int
	// The entries' slices are cut from larger blocks, so that a search
	// stored costs no allocation of its own (a turn allocates nothing).
	fields slab[int16]
	words  slab[uint64]
	tiles  slab[int32]
}

// slab hands out slices cut from blocks of at least slabLen elements.
type slab[T any] struct{ free []T }

const slabLen = 1 << 16

// take returns a slice of n elements no other take shares.
func (s *slab[T]) take(n int) []T {
	if len(s.free) < n {
		s.free = make([]T, max(slabLen, n))
	}
	out := s.free[:n:n]
	s.free = s.free[n:]
	return out
}

func (s *slab[T]) copyOf(src []T) []T {
	out := s.take(len(src))
	copy(out, src)
	return out
}

// storeBytes bounds the memory the store holds; when full it starts
// afresh (which changes only how many searches are made, not their
// results).
const storeBytes = 48 << 20

type searchKey struct {
	rows, cols int32
	walls      uint64 // memory.wallHash
	srcs       uint64 // hash of the sources in order
	nsrc       int32
	maxD       int32
}

type searchEntry struct {
	walls []uint64 // the remembered walls (memory.wallSet)
	srcs  []int32
	f     field
}

// search fills f as g.bfs(f, q, sources, mem.wallT, maxD) does, from the
// store when it holds that search.
func search(g *grid, mem *memory, f field, q []int32, sources []int32, maxD int) {
	copy(f, lookup(g, mem, q, sources, maxD))
}

// lookup returns the field g.bfs(f, q, sources, mem.wallT, maxD) would
// fill f with, as the store holds it: the caller must not write to it.
func lookup(g *grid, mem *memory, q []int32, sources []int32, maxD int) field {
	if maxD <= 0 || maxD > 30000 {
		maxD = 0 // no limit, as bfs reads it
	}
	h := uint64(14695981039346656037)
	for _, s := range sources {
		h = (h ^ uint64(uint32(s))) * 1099511628211
	}
	k := searchKey{rows: int32(g.rows), cols: int32(g.cols), walls: mem.wallHash, srcs: h, nsrc: int32(len(sources)), maxD: int32(maxD)}
	store.Lock()
	e, ok := store.m[k]
	if ok && slices.Equal(e.walls, mem.wallSet) && sameTiles(e.srcs, sources) {
		store.Unlock()
		return e.f
	}
	size := 8*len(mem.wallSet) + 4*len(sources) + 2*g.n + 64
	if store.m == nil || store.bytes+size > storeBytes {
		store.m, store.bytes = make(map[searchKey]searchEntry, 4096), 0
	}
	f := field(store.fields.take(g.n)) // this caller's alone until stored
	store.Unlock()
	g.bfs(f, q, sources, mem.wallT, maxD)
	store.Lock()
	store.m[k] = searchEntry{walls: store.words.copyOf(mem.wallSet), srcs: store.tiles.copyOf(sources), f: f}
	store.bytes += size
	store.Unlock()
	return f
}

// wallKey is the Zobrist key of a wall on tile t: the memory's wallHash is
// the XOR of the keys of its walls (SplitMix64 of the tile, so the same
// walls give the same hash in any order of discovery).
func wallKey(t int32) uint64 {
	z := uint64(t) + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
