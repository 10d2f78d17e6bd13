package bidders

import (
	"math"
	"math/rand/v2"
	"testing"

	"crucible/engine/kindling"
	"crucible/strategies/bidders/internal/lotto"
)

// denseDraw is lottoDraw as prepared before the supports: every bid of
// every beacon summed, zero or not (the reference of TestLottoDrawSparse).
type denseDraw struct {
	p             [nb][levels]float64
	cap           [nb]int
	f             [nb + 1][levels]float64
	floor, budget int
	total         float64
}

func (s *situation) denseDraw(la, lb, floor int) (d denseDraw) {
	budget := s.budget
	d.budget, d.floor = budget, min(floor, budget)
	for i := 0; i < nb; i++ {
		d.cap[i] = min(budget, max(0, s.rivalEmb[i]+s.rivalBudget+1-s.own[i]))
		q := s.table.Probs(s.lead[i], la-s.lv[i], lb-s.lv[i], false)
		for x := 0; x < lotto.Bids; x++ {
			d.p[i][min(x, d.cap[i])] += float64(q[x]) / 255
		}
	}
	d.f[nb][0] = 1
	for k := nb - 1; k >= 0; k-- {
		for t := 0; t <= budget; t++ {
			acc := 0.0
			for x := 0; x <= min(t, d.cap[k]); x++ {
				acc += d.p[k][x] * d.f[k+1][t-x]
			}
			d.f[k][t] = acc
		}
	}
	for t := d.floor; t <= budget; t++ {
		d.total += d.f[0][t]
	}
	return d
}

// full returns d as a lottoDraw whose support is every bid up to the
// cap, zero or not: drawn, it runs the dense loops.
func (d *denseDraw) full() lottoDraw {
	out := lottoDraw{p: d.p, cap: d.cap, f: d.f, floor: d.floor, budget: d.budget, total: d.total}
	for k := 0; k < nb; k++ {
		for x := 0; x <= d.cap[k]; x++ {
			out.sup[k][x] = int8(x)
		}
		out.n[k] = d.cap[k] + 1
	}
	return out
}

// randomSituation returns a situation with leads, embers and sparks
// spread past the table's clamps.
func randomSituation(rng *rand.Rand) situation {
	s := situation{table: lotto.Load(), budget: rng.IntN(levels), rivalBudget: rng.IntN(levels)}
	for i := 0; i < nb; i++ {
		s.own[i], s.rivalEmb[i] = rng.IntN(9), rng.IntN(9)
		s.lead[i] = s.own[i] - s.rivalEmb[i]
		s.lv[i] = valueLevel[1+rng.IntN(kindling.ValueCap)]
	}
	return s
}

// TestLottoDrawSparse: prepare and draw over the supports give, bit for
// bit, the dense sums' distribution (f, total, each p on the support,
// zeros off it) and the same moves from the same generator as a draw
// over every bid (full), leaving it in the same state.
func TestLottoDrawSparse(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 3))
	var d lottoDraw // reused, as the modeller reuses its rivals'
	for n := 0; n < 20000; n++ {
		s := randomSituation(rng)
		la, lb, floor := rng.IntN(levelHi+4)-2, rng.IntN(levelHi+4)-2, rng.IntN(levels)
		ref := s.denseDraw(la, lb, floor)
		s.prepare(la, lb, floor, &d)
		if d.total != ref.total || d.floor != ref.floor || d.budget != ref.budget || d.cap != ref.cap {
			t.Fatalf("case %d: total %v floor %d budget %d caps %v, dense %v %d %d %v", n, d.total, d.floor, d.budget, d.cap, ref.total, ref.floor, ref.budget, ref.cap)
		}
		for k := 0; k <= nb; k++ {
			for x := 0; x <= d.budget; x++ {
				if math.Float64bits(d.f[k][x]) != math.Float64bits(ref.f[k][x]) {
					t.Fatalf("case %d: f[%d][%d] = %v, dense %v", n, k, x, d.f[k][x], ref.f[k][x])
				}
			}
		}
		for k := 0; k < nb; k++ {
			var p [levels]float64
			for j := 0; j < d.n[k]; j++ {
				x := d.sup[k][j]
				if j > 0 && x <= d.sup[k][j-1] {
					t.Fatalf("case %d: support %v not ascending", n, d.sup[k][:d.n[k]])
				}
				p[x] = d.p[k][x]
			}
			if p != ref.p[k] {
				t.Fatalf("case %d: beacon %d: %v, dense %v", n, k, p, ref.p[k])
			}
		}
		seed := rng.Uint64()
		a, b := newSource(seed), newSource(seed)
		full := ref.full()
		for range 4 {
			var x, y kindling.Bid
			if sa, sb := d.draw(a, &x), full.draw(b, &y); sa != sb || x != y {
				t.Fatalf("case %d: drew %v (%d), dense %v (%d)", n, x, sa, y, sb)
			}
		}
		if a.Uint64() != b.Uint64() {
			t.Fatalf("case %d: the generators part", n)
		}
	}
}

// TestSpendAtAsMean: spendAt's loads are the table's Mean, summed in the
// same order, for both seats, at levels past both ends of the grid.
func TestSpendAtAsMean(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 4))
	for n := 0; n < 20000; n++ {
		s := randomSituation(rng)
		l, other := rng.IntN(levelHi+8)-4, rng.IntN(levelHi+8)-4
		for _, b := range []bool{false, true} {
			la, lb := l, other
			if b {
				la, lb = other, l
			}
			want := 0.0
			for i := 0; i < nb; i++ {
				want += s.table.Mean(s.lead[i], la-s.lv[i], lb-s.lv[i], b)
			}
			sp := s.spendOf(other, b)
			if got := sp.at(l); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("case %d (rival %v): spend %v, Mean's %v", n, b, got, want)
			}
		}
	}
}

// TestUniformAsRand: newSource is newRNG's source, and uniform on it is
// rand.Rand's Float64, draw for draw, mixed with the Rand's own calls.
func TestUniformAsRand(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		ref := newRNG(seed)
		src := newSource(seed)
		rng := rand.New(src)
		for i := 0; i < 2000; i++ {
			if i%7 == 3 {
				if a, b := rng.IntN(40), ref.IntN(40); a != b {
					t.Fatalf("seed %d draw %d: IntN %d, newRNG's %d", seed, i, a, b)
				}
				continue
			}
			if a, b := uniform(src), ref.Float64(); math.Float64bits(a) != math.Float64bits(b) {
				t.Fatalf("seed %d draw %d: %v, newRNG's %v", seed, i, a, b)
			}
		}
	}
}
