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
	for _, sz := range [][2]int{{1, 1}, {2, 3}, {7, 5}, {16, 16}, {40, 40}, {23, 61}} {
		g := newGrid(sz[0], sz[1])
		want := make(field, g.n)
		q := make([]int32, g.n+8)
		l := &lazy{g: g, f: make(field, g.n), q: make([]int32, g.n+8)}
		for trial := 0; trial < 50; trial++ {
			tmpl := make(field, g.n)
			density := rng.Float64() * 0.5
			for i := range tmpl {
				if rng.Float64() < density {
					tmpl[i] = -1
				}
			}
			src := make([]int32, 1+rng.IntN(4))
			for i := range src {
				src[i] = int32(rng.IntN(g.n))
			}
			src = append(src, src[0])
			maxD := 0
			if trial%3 == 1 {
				maxD = 1 + rng.IntN(10)
			}
			g.bfs(want, q, src, tmpl, maxD)
			l.start(src, tmpl, maxD)
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
	g := newGrid(40, 40)
	l := &lazy{g: g, f: make(field, g.n), q: make([]int32, g.n+8)}
	l.start([]int32{0}, make(field, g.n), 0)
	if d := l.at(g.nbr[0]); d != 1 || l.tail > 100 {
		t.Fatalf("a read next to the source gave %d after labelling %d tiles; want 1 after a few", d, l.tail)
	}
}
