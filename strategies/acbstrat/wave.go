package acbstrat

import "math/bits"

// wave is the breadth-first search of bfs made a whole level at a time on
// bitsets, for grids of at most 64 columns (the default map is 40x40): row
// r's tiles are the low cols bits of one word, so the tiles one step from a
// level are the level's words shifted a column either way (rotated within
// the row, the torus) or taken from the rows above and below, less the
// tiles visited or blocked. A level is labelled in the order of its tiles,
// not of the queue, but a tile's label is its distance whatever the order,
// so the field is the one bfs makes (TestWaveMatchesBFS). Measured on the
// 21-strategy round robin, the queue's search cost about 7.6 ns a tile
// labelled, most of it mispredicted tests of the neighbours.
type wave struct {
	f          field
	rows, cols int
	mask       uint64   // the low cols bits
	vis        []uint64 // per row: the tiles labelled or blocked
	cur, next  []uint64 // per row: the last level labelled, and the one after
	occ        uint64   // on grids of at most 64 rows: bit r set when cur[r] is not 0
	d          int16    // the label of cur
	lim        int16    // cur is not expanded once d reaches lim
	live       bool     // cur is not empty and d < lim
}

// waveCols is the widest grid a wave searches.
const waveCols = 64

func newWave(g *grid, p *bufs) *wave {
	w := &wave{rows: g.rows, cols: g.cols, mask: ^uint64(0) >> (64 - g.cols)}
	w.vis, w.cur, w.next = p.uint64s(g.rows), p.uint64s(g.rows), p.uint64s(g.rows)
	return w
}

// searcher is the scratch of a bot's whole searches: a wave where the grid
// is narrow enough, the queue of bfs otherwise.
type searcher struct {
	g *grid
	q []int32
	w *wave
}

func newSearcher(g *grid, p *bufs) *searcher {
	s := &searcher{g: g}
	if g.cols <= waveCols {
		s.w = newWave(g, p)
	} else {
		s.q = p.int32s(g.n + 8)
	}
	return s
}

// bfs fills f as g.bfs(f, q, sources, tmpl, maxD) does; blocked is as
// wave.start's (nil: read from tmpl).
func (s *searcher) bfs(f field, sources []int32, tmpl field, blocked []uint64, maxD int) {
	if s.w == nil {
		s.g.bfs(f, s.q, sources, tmpl, maxD)
		return
	}
	s.w.start(f, sources, tmpl, blocked, maxD)
	s.w.run(-1)
}

// start begins the search bfs(f, _, sources, tmpl, maxD) makes. blocked, if
// not nil, holds per row the tiles where tmpl is not 0 (memory.wallRows);
// otherwise they are read from tmpl.
func (w *wave) start(f field, sources []int32, tmpl field, blocked []uint64, maxD int) {
	w.f = f
	copy(f, tmpl)
	if blocked != nil {
		copy(w.vis, blocked)
	} else {
		for r := range w.vis {
			var x uint64
			row := tmpl[r*w.cols : (r+1)*w.cols]
			for c, v := range row {
				if v != 0 {
					x |= 1 << uint(c)
				}
			}
			w.vis[r] = x
		}
	}
	clear(w.cur)
	w.occ = 0
	for _, s := range sources {
		if f[s] <= 0 {
			f[s] = 1
			r, c := int(s)/w.cols, uint(int(s)%w.cols)
			w.cur[r] |= 1 << c
			w.vis[r] |= 1 << c
			w.occ |= 1 << uint(r&63)
		}
	}
	if maxD <= 0 || maxD > 30000 {
		maxD = 30000
	}
	w.d, w.lim = 1, int16(maxD+1)
	w.live = len(sources) > 0 && w.d < w.lim
}

// step labels the next level; it reports false when the search is over.
func (w *wave) step() bool {
	if !w.live {
		return false
	}
	if w.rows <= 64 {
		return w.stepBand()
	}
	cur, next, vis, f := w.cur, w.next, w.vis, w.f
	rows, cols, mask := w.rows, uint(w.cols), w.mask
	d := w.d + 1
	var any uint64
	up := cur[rows-1]
	for r := 0; r < rows; r++ {
		x := cur[r]
		var down uint64
		if r+1 < rows {
			down = cur[r+1]
		} else {
			down = cur[0]
		}
		n := up | down
		if x != 0 {
			n |= (x<<1 | x>>(cols-1) | x>>1 | x<<(cols-1)) & mask
		}
		up = x
		n &^= vis[r]
		next[r] = n
		if n == 0 {
			continue
		}
		any |= n
		vis[r] |= n
		base := r * w.cols
		for n != 0 {
			f[base+bits.TrailingZeros64(n)] = d
			n &= n - 1
		}
	}
	w.cur, w.next = next, cur
	w.d = d
	w.live = any != 0 && d < w.lim
	return w.live
}

// stepBand is step on grids of at most 64 rows, where occ tells the rows
// of the level: only those and their neighbours can gain tiles (a search
// near its sources touches a band of rows, not the grid).
func (w *wave) stepBand() bool {
	cur, next, vis, f := w.cur, w.next, w.vis, w.f
	rows, cols, mask := uint(w.rows), uint(w.cols), w.mask
	rmask := ^uint64(0) >> (64 - rows)
	occ := w.occ
	todo := (occ | occ<<1 | occ>>(rows-1) | occ>>1 | occ<<(rows-1)) & rmask
	d := w.d + 1
	var nocc uint64
	for t := todo; t != 0; t &= t - 1 {
		r := uint(bits.TrailingZeros64(t))
		ru, rd := r-1, r+1
		if r == 0 {
			ru = rows - 1
		}
		if rd == rows {
			rd = 0
		}
		x := cur[r]
		n := (cur[ru] | cur[rd] | (x<<1|x>>(cols-1)|x>>1|x<<(cols-1))&mask) &^ vis[r]
		if n == 0 {
			continue
		}
		next[r] = n
		nocc |= 1 << r
		vis[r] |= n
		base := int(r) * w.cols
		for n != 0 {
			f[base+bits.TrailingZeros64(n)] = d
			n &= n - 1
		}
	}
	// next holds only the rows of nocc: clear the old level's rows in cur
	// before it becomes the next one.
	for t := occ; t != 0; t &= t - 1 {
		cur[bits.TrailingZeros64(t)] = 0
	}
	w.cur, w.next = next, cur
	w.occ = nocc
	w.d = d
	w.live = nocc != 0 && d < w.lim
	return w.live
}

// run labels levels until tile t is labelled (t < 0: to the end).
func (w *wave) run(t int32) {
	for (t < 0 || w.f[t] == 0) && w.step() {
	}
}
