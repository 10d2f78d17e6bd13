package acbstrat

import "slices"

// Combat awareness. The rule (focus fire): enemies(u) are the enemy units
// within attack_radius2 of u; u dies if some e in enemies(u) has
// |enemies(e)| <= |enemies(u)|. So a unit that has more friends around its
// attackers than they have around it kills without dying, equal numbers
// trade, and fewer die without killing.

// threat holds per-tile counts of units around each tile for the current
// turn, built lazily by the bot: how many enemies are within attack range
// of a tile now, how many could be after their next step, and how many own
// units are within attack range now.
type threat struct {
	atk   []offset // offsets within attack_radius2
	reach []offset // offsets from which a unit can be within range after a step
	// Lazy per-tile counts: enemies in range now, enemies that can be in
	// range after a step, own units in range now.
	now, next, near *proximity
	// enemyNext[t]: enemy units that can be within attack_radius2 of t after
	// one step of theirs, stamped for every tile on demand.
	enemyNext []uint16
}

func newThreat(g *grid, r2 int, p *bufs) *threat {
	sh := sharedThreat(g, r2)
	t := &threat{atk: sh.atk, reach: sh.reach, enemyNext: p.uint16s(g.n)}
	t.now, t.next, t.near = newProximity(sh.atkHood, p), newProximity(sh.reachHood, p), newProximity(sh.atkHood, p)
	return t
}

// odds summarises a possible fight at a tile for one of our units.
type odds struct {
	enemies int // enemy units that may be within range after their move
	allies  int // own units within range (the unit itself included)
}

// outcome classes of a fight at a tile.
const (
	fightNone  = iota // no enemy can reach
	fightWin          // we outnumber: our unit survives, theirs die
	fightTrade        // equal: both sides lose units
	fightLose         // outnumbered: our unit dies
)

// class returns the expected outcome class of the odds.
func (o odds) class() int {
	switch {
	case o.enemies == 0:
		return fightNone
	case o.allies > o.enemies:
		return fightWin
	case o.allies == o.enemies:
		return fightTrade
	}
	return fightLose
}

// proximity counts, for any tile, the units of a set (rebuilt every turn)
// whose offset to the tile lies in a fixed neighbourhood (a disc, or a disc
// grown by a step). Units are kept in buckets of at least the
// neighbourhood's radius on a side, so a query looks at a few buckets
// only; answers are cached per tile for the turn. It replaces stamping a
// disc around every unit when only the tiles near one's own units are ever
// asked about. The tables of the neighbourhood (hood) depend only on the
// grid and the offsets and are shared by every bot of the process.
type proximity struct {
	*hood
	head   []int32
	list   []int32
	fill   []int32
	cache  []uint16
	cstamp []int32
	stamp  int32
	// near[b]: units in the buckets any query from bucket b looks at; 0
	// answers such queries at once.
	near []int32
	// For a set of fewUnits or less: bit r of rowBand (c of colBand) is
	// set when some unit's row (column) is within the neighbourhood's
	// radius of r (c); a tile outside either band counts none.
	rowBand, colBand []uint64
}

// hood is the immutable part of a proximity: the neighbourhood and its
// buckets on one grid.
type hood struct {
	g        *grid
	rad      int    // neighbourhood radius (Chebyshev bound of the offsets)
	in       []bool // (2rad+1)^2 table: offset in the neighbourhood
	sr, sc   int    // bucket size in rows and columns (divides the grid)
	nbr, nbc int    // buckets per column and per row
	// inTorus[dr*cols+dc] for dr in 0..rows-1, dc in 0..cols-1: the
	// offset (dr, dc), as a residue on the torus, is in the
	// neighbourhood (the offsets are distinct residues, so this is the
	// in table read without the shortest-residue arithmetic).
	inTorus []bool
	// rowSpan[r] and colSpan[c]: the bucket rows (columns) a query at
	// that row (column) looks at.
	rowSpan, colSpan [][]int32
	// rowNear[br] and colNear[bc]: the row (column) buckets any query from
	// bucket row br (column bc) may look at.
	rowNear, colNear [][]int32
	// bucketOf[t] is the bucket of tile t.
	bucketOf []int16
}

func newHood(g *grid, offs []offset) *hood {
	p := &hood{g: g}
	for _, o := range offs {
		p.rad = max(p.rad, abs(int(o.dr)), abs(int(o.dc)))
	}
	w := 2*p.rad + 1
	p.in = make([]bool, w*w)
	p.inTorus = make([]bool, g.n)
	for _, o := range offs {
		p.in[(int(o.dr)+p.rad)*w+int(o.dc)+p.rad] = true
		dr, dc := (int(o.dr)%g.rows+g.rows)%g.rows, (int(o.dc)%g.cols+g.cols)%g.cols
		p.inTorus[dr*g.cols+dc] = true
	}
	p.sr, p.sc = bucketSide(g.rows, p.rad), bucketSide(g.cols, p.rad)
	p.nbr, p.nbc = g.rows/p.sr, g.cols/p.sc
	p.bucketOf = make([]int16, g.n)
	for t := range p.bucketOf {
		p.bucketOf[t] = int16(int(g.row[t])/p.sr*p.nbc + int(g.col[t])/p.sc)
	}
	p.rowSpan, p.rowNear = spans(g.rows, p.rad, p.sr, p.nbr)
	p.colSpan, p.colNear = spans(g.cols, p.rad, p.sc, p.nbc)
	return p
}

func newProximity(h *hood, p *bufs) *proximity {
	return &proximity{
		hood:    h,
		head:    p.int32s(h.nbr*h.nbc + 1),
		fill:    p.int32s(h.nbr * h.nbc),
		cache:   p.uint16s(h.g.n),
		cstamp:  p.int32s(h.g.n),
		near:    p.int32s(h.nbr * h.nbc),
		rowBand: p.uint64s((h.g.rows + 63) / 64),
		colBand: p.uint64s((h.g.cols + 63) / 64),
	}
}

// band sets in bits, for each tile, the coordinates within rad of its own
// on an axis of n cells (coord gives a tile's), all of them when 2rad+1
// covers the axis.
func band(bits []uint64, n int, tiles []int32, coord []int16, rad int) {
	if 2*rad+1 >= n {
		setBits(bits, 0, n)
		return
	}
	if n <= 64 {
		// One word: the band is 2rad+1 bits rotated to start at lo.
		w, full := uint64(1)<<uint(2*rad+1)-1, uint64(1)<<uint(n)-1
		acc := bits[0]
		for _, t := range tiles {
			lo := int(coord[t]) - rad
			if lo < 0 {
				lo += n
			}
			acc |= (w<<uint(lo) | w>>uint(n-lo)) & full
		}
		bits[0] = acc
		return
	}
	for _, t := range tiles {
		lo := int(coord[t]) - rad
		if lo < 0 {
			lo += n
		}
		if hi := lo + 2*rad + 1; hi <= n {
			setBits(bits, lo, hi)
		} else {
			setBits(bits, lo, n)
			setBits(bits, 0, hi-n)
		}
	}
}

// setBits sets bits lo..hi-1 of bits.
func setBits(bits []uint64, lo, hi int) {
	for lo < hi {
		w, b := lo>>6, uint(lo&63)
		k := min(hi-lo, 64-int(b))
		bits[w] |= (1<<uint(k) - 1) << b
		lo += k
	}
}

// inBand reports bit x of bits.
func inBand(bits []uint64, x int16) bool { return bits[x>>6]>>uint(x&63)&1 != 0 }

// spans tabulates, for every coordinate of an axis of n cells, the buckets
// its span covers, and for every bucket the union of its cells' spans.
func spans(n, rad, side, nb int) ([][]int32, [][]int32) {
	sp := make([][]int32, n)
	union := make([][]int32, nb)
	for x := 0; x < n; x++ {
		f, k := span(x, rad, n, side, nb)
		b := x / side
		for i := 0; i < k; i++ {
			bb := int32((f + i) % nb)
			sp[x] = append(sp[x], bb)
			if !slices.Contains(union[b], bb) {
				union[b] = append(union[b], bb)
			}
		}
	}
	return sp, union
}

// bucketSide returns the smallest divisor of n that is at least r (n
// itself when there is none below it).
func bucketSide(n, r int) int {
	for s := max(r, 1); s < n; s++ {
		if n%s == 0 {
			return s
		}
	}
	return n
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

func (p *proximity) bucket(t int32) int { return int(p.bucketOf[t]) }

// fewUnits is the set size up to which a query looks at every unit of the
// set rather than at the buckets around the tile (the same count, found
// with less work).
const fewUnits = 12

// build files the tiles into buckets (a counting sort) for a new turn.
func (p *proximity) build(tiles []int32) {
	p.stamp++
	p.list = resizeI32(p.list, len(tiles))
	if len(tiles) <= fewUnits {
		copy(p.list, tiles) // count scans the list; no buckets needed
		clear(p.rowBand)
		clear(p.colBand)
		band(p.rowBand, p.g.rows, tiles, p.g.row, p.rad)
		band(p.colBand, p.g.cols, tiles, p.g.col, p.rad)
		return
	}
	clear(p.head)
	for _, t := range tiles {
		p.head[p.bucket(t)+1]++
	}
	for b := 1; b < len(p.head); b++ {
		p.head[b] += p.head[b-1]
	}
	copy(p.fill, p.head[:len(p.fill)])
	for _, t := range tiles {
		b := p.bucket(t)
		p.list[p.fill[b]] = t
		p.fill[b]++
	}
	for br := 0; br < p.nbr; br++ {
		for bc := 0; bc < p.nbc; bc++ {
			n := int32(0)
			for _, rr := range p.rowNear[br] {
				for _, cc := range p.colNear[bc] {
					b := int(rr)*p.nbc + int(cc)
					n += p.head[b+1] - p.head[b]
				}
			}
			p.near[br*p.nbc+bc] = n
		}
	}
}

// count returns how many of the set's tiles lie in the neighbourhood of t.
func (p *proximity) count(t int32) int {
	if p.cstamp[t] == p.stamp {
		return int(p.cache[t])
	}
	if len(p.list) <= fewUnits {
		n := 0
		if inBand(p.rowBand, p.g.row[t]) && inBand(p.colBand, p.g.col[t]) {
			n = p.countIn(t, p.list)
		}
		p.cstamp[t], p.cache[t] = p.stamp, uint16(n)
		return n
	}
	if p.near[p.bucketOf[t]] == 0 {
		return 0
	}
	n := 0
	// The buckets holding rows r-rad..r+rad and columns c-rad..c+rad: at
	// most three each way, since a bucket is at least rad wide.
	cs := p.colSpan[p.g.col[t]]
	for _, br := range p.rowSpan[p.g.row[t]] {
		for _, bc := range cs {
			b := int(br)*p.nbc + int(bc)
			n += p.countIn(t, p.list[p.head[b]:p.head[b+1]])
		}
	}
	p.cstamp[t], p.cache[t] = p.stamp, uint16(n)
	return n
}

// countIn counts the tiles of xs whose offset from t (a residue on the
// torus) is in the neighbourhood.
func (p *proximity) countIn(t int32, xs []int32) int {
	g := p.g
	r, c := int(g.row[t]), int(g.col[t])
	n := 0
	for _, x := range xs {
		dr := int(g.row[x]) - r
		if dr < 0 {
			dr += g.rows
		}
		dc := int(g.col[x]) - c
		if dc < 0 {
			dc += g.cols
		}
		if p.inTorus[dr*g.cols+dc] {
			n++
		}
	}
	return n
}

// span returns the first bucket holding coordinate x-rad (wrapped) and how
// many consecutive buckets (wrapping) cover x-rad..x+rad, on an axis of n
// cells cut into nb buckets of side.
func span(x, rad, n, side, nb int) (first, count int) {
	if 2*rad+1 >= n {
		return 0, nb
	}
	lo := ((x-rad)%n + n) % n
	first = lo / side
	last := (lo + 2*rad) % n / side
	count = (last-first+nb)%nb + 1
	if count == 1 && (lo%side)+2*rad >= side {
		count = nb // starts and ends in one bucket having gone round
	}
	return first, count
}
