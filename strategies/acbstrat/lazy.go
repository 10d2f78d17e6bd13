package acbstrat

// lazy is a breadth-first search run only as far as its reads need: at(i)
// resumes the search until tile i is labelled or the search is over. A
// breadth-first search labels tiles in the order of their distance and
// never changes a label, so every value read is the one the whole search
// (bfs) gives; only the tiles nobody reads may be left unsearched. Use it
// for a field read at a few tiles near its sources (TestLazyMatchesBFS).
type lazy struct {
	g          *grid
	f          field
	q          []int32
	head, tail int
	lim        int16
}

// start begins the search bfs(f, q, sources, tmpl, maxD) would make, with
// l's own field and queue (tmpl is copied at once; it may change after).
func (l *lazy) start(sources []int32, tmpl field, maxD int) {
	f := l.f
	copy(f, tmpl)
	l.head, l.tail = 0, 0
	for _, s := range sources {
		if f[s] <= 0 {
			f[s] = 1
			l.q[l.tail] = s
			l.tail++
		}
	}
	if maxD <= 0 || maxD > 30000 {
		maxD = 30000
	}
	l.lim = int16(maxD + 1)
}

// at returns the distance of tile i, or far when the search does not
// reach it, searching as far as needed to know.
func (l *lazy) at(i int32) int {
	if l.f[i] == 0 && l.head < l.tail {
		l.run(i)
	}
	return l.f.at(i)
}

// run continues the search until tile t is labelled (t < 0: to the end).
func (l *lazy) run(t int32) {
	l.head, l.tail = expand(l.f, l.q, l.g.nbr, l.head, l.tail, l.lim, t)
}

// full finishes the search and returns the whole field.
func (l *lazy) full() field {
	l.run(-1)
	return l.f
}

// multiLazy starts the k-th lazy search (its own field and queue, apart
// from multi's) from sources on template tmpl, depth limited by maxD when
// positive, as multiAvoid would make it whole.
func (b *bot) multiLazy(k int, sources []int32, tmpl field, maxD int) *lazy {
	for len(b.lazies) <= k {
		b.lazies = append(b.lazies, &lazy{g: b.g, f: b.bufs.field(b.g.n), q: b.bufs.int32s(b.g.n + 8)})
	}
	l := b.lazies[k]
	l.start(sources, tmpl, maxD)
	return l
}

// towardLazy is toward on a lazy search.
func (b *bot) towardLazy(u int32, l *lazy, w float64, sc *[5]float64) {
	for k := 0; k < 5; k++ {
		d := l.at(b.opt(u, k))
		if d >= far {
			d = 2 * (b.g.rows + b.g.cols)
		}
		sc[k] -= w * float64(d)
	}
}
