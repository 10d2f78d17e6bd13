package acbstrat

import "sync"

// A bot's buffers sized by the grid (its memory, combat counts, resolver,
// stamps and distance fields: about 250 KB on the default 40x40 map) are
// reused by the bots of later matches in the process: when a match played
// through acb.Game.Play is over, the engine tells the controllers
// (controller.MatchOver) and the bot hands its buffers back. A buffer
// taken again is cleared first, so a bot starts from the same state as
// with fresh memory, except the distance fields and the search queue,
// which are always overwritten whole before they are read (a search copies
// its template or a stored field over the whole field first). What is
// saved is the allocation, the collector's work and the page faults of a
// quarter of a megabyte per bot and match.
var bufPool sync.Pool // *bufs

// bufs holds the buffers of one grid size: those handed out to the bot
// using it (held) and those free for its next requests.
type bufs struct {
	rows, cols int
	i16        stack[int16]
	i32        stack[int32]
	u16        stack[uint16]
	u64        stack[uint64]
	bs         stack[bool]
}

// getBufs returns a set of buffers for a grid of rows x cols, a free one
// when the pool has one of that size.
func getBufs(rows, cols int) *bufs {
	if p, ok := bufPool.Get().(*bufs); ok && p.rows == rows && p.cols == cols {
		return p
	}
	p := &bufs{rows: rows, cols: cols}
	// Room for what a bot holds (the field cache's 128 fields and a few
	// more), so that a turn's new field costs one allocation at most.
	p.i16.held = make([][]int16, 0, 160)
	p.i32.held = make([][]int32, 0, 32)
	return p
}

// release frees every buffer handed out and returns the set to the pool;
// nothing handed out may be used after.
func (p *bufs) release() {
	p.i16.release()
	p.i32.release()
	p.u16.release()
	p.u64.release()
	p.bs.release()
	bufPool.Put(p)
}

// stack is the free and held buffers of one element type.
type stack[T any] struct {
	free, held [][]T
}

// get returns a buffer of n elements: a free one of that length, cleared
// when zero is set (otherwise with whatever it held), or a new one.
func (s *stack[T]) get(n int, zero bool) []T {
	for i := len(s.free) - 1; i >= 0; i-- {
		if x := s.free[i]; len(x) == n {
			last := len(s.free) - 1
			s.free[i] = s.free[last]
			s.free[last] = nil
			s.free = s.free[:last]
			if zero {
				clear(x)
			}
			s.held = append(s.held, x)
			return x
		}
	}
	x := make([]T, n)
	s.held = append(s.held, x)
	return x
}

func (s *stack[T]) release() {
	s.free = append(s.free, s.held...)
	clear(s.held)
	s.held = s.held[:0]
}

// The typed getters; a nil *bufs allocates (tests build parts of a bot
// without one).

func (p *bufs) int16s(n int) []int16 {
	if p == nil {
		return make([]int16, n)
	}
	return p.i16.get(n, true)
}

// field returns a distance field of n tiles whose content is undefined:
// only for fields a search overwrites whole before any read.
func (p *bufs) field(n int) field {
	if p == nil {
		return make(field, n)
	}
	return p.i16.get(n, false)
}

func (p *bufs) int32s(n int) []int32 {
	if p == nil {
		return make([]int32, n)
	}
	return p.i32.get(n, true)
}

func (p *bufs) uint16s(n int) []uint16 {
	if p == nil {
		return make([]uint16, n)
	}
	return p.u16.get(n, true)
}

func (p *bufs) uint64s(n int) []uint64 {
	if p == nil {
		return make([]uint64, n)
	}
	return p.u64.get(n, true)
}

func (p *bufs) bools(n int) []bool {
	if p == nil {
		return make([]bool, n)
	}
	return p.bs.get(n, true)
}
