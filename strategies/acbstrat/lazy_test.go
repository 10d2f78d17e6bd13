package acbstrat

import (
	"math/rand/v2"
	"testing"
)

// TestLazyMatchesBFS: a lazy search read at random tiles in random order
// gives at each the distance of the whole search, on random grids, walls,
// sources (sources on walls and repeated ones included) and depth limits;
// finished, it is the whole field, and it searched less than the whole
// when it was read only near its sources.
func TestLazyMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, sz := range [][2]int{{1, 1}, {2, 3}, {7, 5}, {16, 16}, {40, 40}, {23, 61}, {3, 64}, {9, 65}, {4, 130}, {70, 20}} {
		g := newGrid(sz[0], sz[1])
		want := make(field, g.n)
		q := make([]int32, g.n+8)
		l := newLazy(g, nil)
		if (l.w != nil) != (g.cols <= waveCols) {
			t.Fatalf("%dx%d: wave %v", g.rows, g.cols, l.w != nil)
		}
		for trial := 0; trial < 50; trial++ {
			tmpl, src := randomSearch(rng, g, 1)
			maxD := 0
			if trial%3 == 1 {
				maxD = 1 + rng.IntN(10)
			}
			g.bfs(want, q, src, tmpl, maxD)
			var blocked []uint64
			if trial%2 == 0 && l.w != nil {
				blocked = rowsOf(g, tmpl)
			}
			l.start(src, tmpl, blocked, maxD)
			for r := 0; r < 30; r++ {
				i := int32(rng.IntN(g.n))
				if got := l.at(i); got != want.at(i) {
					t.Fatalf("%dx%d trial %d: lazy distance of %v = %d, whole search %d", g.rows, g.cols, trial, g.pos(i), got, want.at(i))
				}
			}
			f := l.full()
			for i := range f {
				if f[i] != want[i] {
					t.Fatalf("%dx%d trial %d: the finished lazy field differs at %v: %d, whole search %d", g.rows, g.cols, trial, g.pos(int32(i)), f[i], want[i])
				}
			}
		}
	}
	for _, sz := range [][2]int{{40, 40}, {40, 100}} {
		g := newGrid(sz[0], sz[1])
		l := newLazy(g, nil)
		l.start([]int32{0}, make(field, g.n), nil, 0)
		d := l.at(g.nbr[0])
		n := 0
		for _, v := range l.f {
			if v > 0 {
				n++
			}
		}
		if d != 1 || n > 100 {
			t.Fatalf("%dx%d: a read next to the source gave %d after labelling %d tiles; want 1 after a few", g.rows, g.cols, d, n)
		}
	}
}

// rowsOf returns the blocked tiles of tmpl per row, as memory.wallRows.
func rowsOf(g *grid, tmpl field) []uint64 {
	out := make([]uint64, g.rows)
	for i, v := range tmpl {
		if v != 0 {
			out[g.row[i]] |= 1 << uint(g.col[i])
		}
	}
	return out
}

// TestWaveMatchesBFS: a searcher's whole search (by waves up to 64
// columns, by the queue beyond) gives bfs's field, on random grids, walls,
// sources (on walls and repeated) and depth limits, reusing its scratch
// from one search to the next.
func TestWaveMatchesBFS(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, sz := range [][2]int{{1, 1}, {1, 7}, {6, 1}, {2, 2}, {5, 9}, {16, 16}, {40, 40}, {17, 63}, {11, 64}, {8, 65}, {3, 200}, {64, 64}, {65, 9}, {130, 3}} {
		g := newGrid(sz[0], sz[1])
		want, got := make(field, g.n), make(field, g.n)
		q := make([]int32, g.n+8)
		sr := newSearcher(g, nil)
		for trial := 0; trial < 60; trial++ {
			tmpl, src := randomSearch(rng, g, 0)
			maxD := 0
			if trial%3 == 1 {
				maxD = rng.IntN(12)
			}
			g.bfs(want, q, src, tmpl, maxD)
			var blocked []uint64
			if trial%2 == 0 && sr.w != nil {
				blocked = rowsOf(g, tmpl)
			}
			for i := range got {
				got[i] = int16(rng.IntN(100)) // stale content is overwritten
			}
			sr.bfs(got, src, tmpl, blocked, maxD)
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%dx%d trial %d: the searcher's field differs at %v: %d, bfs %d", g.rows, g.cols, trial, g.pos(int32(i)), got[i], want[i])
				}
			}
		}
	}
}

// randomSearch returns a random template (a share of up to 0.6 of the
// tiles blocked) and minSrc to 4 random sources, the first repeated at the
// end (sources on blocked tiles and repeated ones are part of the contract).
func randomSearch(rng *rand.Rand, g *grid, minSrc int) (field, []int32) {
	tmpl := make(field, g.n)
	density := rng.Float64() * 0.6
	for i := range tmpl {
		if rng.Float64() < density {
			tmpl[i] = -1
		}
	}
	src := make([]int32, minSrc+rng.IntN(5-minSrc))
	for i := range src {
		src[i] = int32(rng.IntN(g.n))
	}
	if len(src) > 0 {
		src = append(src, src[0])
	}
	return tmpl, src
}
