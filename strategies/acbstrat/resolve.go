package acbstrat

// resolver turns each unit's ranked wishes (target tiles: its own tile for
// staying, or a neighbour) into moves such that no two own units end the
// turn on one tile, since self-collision kills all of them. A unit that
// stays keeps its tile; a unit may move onto a tile an own unit is leaving,
// and two units may swap places (the rules allow it).
//
// Units are settled in order of their index: a unit whose best free wish is
// a tile still held by an unsettled unit waits for that unit to settle,
// which lets a column of units advance together; units still waiting after
// the rounds take their best wish that is certainly free, or stay.
type resolver struct {
	claim    []int32 // tile -> stamp when a unit ends its move there
	occStamp []int32 // tile -> stamp when an unsettled unit stands there
	occUnit  []int32 // tile -> index of that unit
	stamp    int32

	tile    []int32    // unit -> current tile
	wish    [][5]int32 // unit -> ranked target tiles
	nwish   []uint8
	target  []int32 // unit -> settled target, -1 while unsettled
	pending []int32
	next    []int32
}

func newResolver(n int, p *bufs) *resolver {
	return &resolver{
		claim:    p.int32s(n),
		occStamp: p.int32s(n),
		occUnit:  p.int32s(n),
	}
}

// reset starts a turn with the given unit tiles. Wishes default to staying.
func (r *resolver) reset(tiles []int32) {
	r.stamp++
	r.tile = append(r.tile[:0], tiles...)
	n := len(tiles)
	if cap(r.wish) < n {
		r.wish = make([][5]int32, n, 2*n)
		r.nwish = make([]uint8, n, 2*n)
		r.target = make([]int32, n, 2*n)
	}
	r.wish = r.wish[:n]
	r.nwish = r.nwish[:n]
	r.target = r.target[:n]
	for i, t := range tiles {
		r.wish[i][0] = t
		r.nwish[i] = 1
		r.target[i] = -1
	}
}

// setWishes stores unit i's ranked target tiles. Tiles that are neither its
// own nor a neighbour are the caller's bug and are dropped by settle (the
// unit then stays).
func (r *resolver) setWishes(i int, w []int32) {
	n := copy(r.wish[i][:], w)
	r.nwish[i] = uint8(n)
}

func (r *resolver) claimed(t int32) bool { return r.claim[t] == r.stamp }

// holder returns the unsettled unit standing on t, or -1.
func (r *resolver) holder(t int32) int32 {
	if r.occStamp[t] == r.stamp {
		return r.occUnit[t]
	}
	return -1
}

func (r *resolver) settle(i int32, t int32) {
	r.target[i] = t
	r.claim[t] = r.stamp
	if own := r.tile[i]; r.occStamp[own] == r.stamp && r.occUnit[own] == i {
		r.occStamp[own] = 0
	}
}

// firstFree returns unit i's best wish that is not claimed (its own tile
// counts as free), or -1.
func (r *resolver) firstFree(i int32) int32 {
	for k := 0; k < int(r.nwish[i]); k++ {
		t := r.wish[i][k]
		if t == r.tile[i] || !r.claimed(t) {
			return t
		}
	}
	return -1
}

// try settles unit i if it can. With wait set, a unit whose best free wish
// is held by another unsettled unit waits (returns false) unless the two
// want to swap.
func (r *resolver) try(i int32, wait bool) bool {
	own := r.tile[i]
	for k := 0; k < int(r.nwish[i]); k++ {
		t := r.wish[i][k]
		if t == own {
			r.settle(i, own)
			return true
		}
		if r.claimed(t) {
			continue
		}
		if h := r.holder(t); h >= 0 && h != i {
			if r.firstFree(h) == own && r.target[h] < 0 {
				r.settle(i, t)
				r.settle(h, own)
				return true
			}
			if wait {
				return false
			}
			continue
		}
		r.settle(i, t)
		return true
	}
	r.settle(i, own)
	return true
}

// resolve settles every unit and returns the targets, indexed like the
// tiles given to reset.
func (r *resolver) resolve() []int32 {
	r.pending = r.pending[:0]
	for i, t := range r.tile {
		r.occStamp[t] = r.stamp
		r.occUnit[t] = int32(i)
		r.pending = append(r.pending, int32(i))
	}
	for round := 0; round < 6 && len(r.pending) > 0; round++ {
		r.next = r.next[:0]
		for _, i := range r.pending {
			if r.target[i] >= 0 {
				continue
			}
			if !r.try(i, true) {
				r.next = append(r.next, i)
			}
		}
		if len(r.next) == len(r.pending) {
			break
		}
		r.pending, r.next = r.next, r.pending
	}
	for _, i := range r.pending {
		if r.target[i] < 0 {
			r.try(i, false)
		}
	}
	return r.target
}
