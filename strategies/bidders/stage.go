package bidders

// The stage game: one turn of Kindling between a seat and its strongest
// rival as a zero-sum game, solved by CFR+ over each seat's bid lattice.
//
// A seat's move is a path through a small lattice: beacon by beacon it
// chooses a bid, the node being (beacon, sparks bid so far). The payoff is
// a sum over beacons, each depending only on the two bids there, plus the
// worth of the sparks each seat keeps; so the value of a node does not
// depend on how it was reached, and regret minimisation node by node (CFR+)
// converges to an equilibrium of the turn with the budget held exactly,
// unlike the per-beacon relaxation of lotto.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
)

// stageSeat is one side of a stage game and its CFR+ state.
type stageSeat struct {
	budget int
	emb    [nb]int     // embers at each beacon
	cap    [nb]int     // most it bids at each beacon
	keep   float64     // points per spark kept (up to carry sparks)
	carry  int         // sparks that can be kept without loss
	hi     [nb + 1]int // the most sparks bid before beacon k (no move reaches more)
	// noAverage skips the reach-weighted strategy sums (cum): a seat
	// whose average strategy is never read (cfr's rival) needs only its
	// current strategy.
	noAverage bool

	w   [nb][levels]float64         // expected payoff of each bid at each beacon
	reg [nb][levels][levels]float64 // regret[k][t][x]: node (k, t), bid x
	cum [nb][levels][levels]float64 // reach-weighted strategy sums
	// The current strategy at node (k, t) is num[k][t][x]*scale[k][t]:
	// twice the node's positive part of the predicted regret and one over
	// their sum (so the product is the normalised strategy, rounded once,
	// as a division would be followed by a product), or 1 and 1/n for the
	// uniform strategy of n moves (see update).
	num   [nb][levels][levels]float64
	scale [nb][levels]float64
	reach [nb + 1][levels]float64
	marg  [nb][levels]float64 // current marginal of each beacon's bid
	val   [nb + 1][levels]float64
}

// stageGame is one turn between seat A and seat B.
type stageGame struct {
	values [nb]float64
	ember  float64 // points an ember left behind is worth
	a, b   stageSeat
}

// reset prepares s for solving: a uniform current strategy, no regrets.
func (s *stageSeat) reset() {
	for t := 0; t <= s.budget; t++ {
		s.val[nb][t] = s.keep * float64(min(s.budget-t, s.carry))
	}
	s.hi[0] = 0
	for k := 0; k < nb; k++ {
		s.hi[k+1] = min(s.budget, s.hi[k]+s.cap[k])
		for t := 0; t <= s.hi[k]; t++ {
			n := min(s.cap[k], s.budget-t) + 1
			clear(s.reg[k][t][:n])
			clear(s.cum[k][t][:n])
			num := s.num[k][t][:n]
			for x := range num {
				num[x] = 1
			}
			s.scale[k][t] = 1 / float64(n)
		}
	}
	s.forward()
}

// forward recomputes the reach of every node and the bid marginals under
// the current strategy.
func (s *stageSeat) forward() {
	// Whole arrays cleared (a few hundred bytes) cost less than loops over
	// the entries the budget can reach.
	s.reach = [nb + 1][levels]float64{}
	s.marg = [nb][levels]float64{}
	s.reach[0][0] = 1
	for k := 0; k < nb; k++ {
		for t := 0; t <= s.hi[k]; t++ {
			r, sc := s.reach[k][t], s.scale[k][t] // (of reach 0, the node adds +0)
			n := min(s.cap[k], s.budget-t) + 1
			num, marg := s.num[k][t][:n], s.marg[k][:n]
			if k == nb-1 { // the reach past the last beacon is never read
				for x, m := range num {
					marg[x] += r * (m * sc)
				}
				continue
			}
			reach := s.reach[k+1][t : t+len(num)]
			for x, m := range num {
				f := r * (m * sc)
				marg[x] += f
				reach[x] += f
			}
		}
	}
}

// payoffs fills me.w: the expected payoff to me of each bid at each
// beacon against the rival's current marginals (the game is zero-sum, so
// the rival's payoff is the same formula from its side).
func (g *stageGame) payoffs(me, rival *stageSeat) {
	// Strengths (bid plus embers) are tallied up to strengths-1.
	const strengths = 2*levels + 1
	for k := 0; k < nb; k++ {
		// At strength s: P(rival strength < s) is lt[j] and
		// E[floor(strength/2); strength < s] is half[j], j = s-er clamped
		// to [0, top]: the sums over the rival's bids y < j in order
		// (bids up to one past the most it bids, whose marginal is 0,
		// and strengths below strengths).
		er := rival.emb[k]
		top := min(min(rival.cap[k], rival.budget)+1, levels-1, strengths-1-er) + 1
		var lt, half [levels + 1]float64
		acc, hacc := 0.0, 0.0
		marg := &rival.marg[k]
		for y := 0; y < top; y++ {
			acc += marg[y]
			hacc += marg[y] * float64((y+er)>>1) // (y+er)/2, y+er >= 0
			lt[y+1], half[y+1] = acc, hacc
		}
		top = max(top, 0)
		v, ember, em := g.values[k], g.ember, me.emb[k]
		w := me.w[k][:min(me.cap[k], me.budget)+1]
		if em+len(w)-1 > strengths-2 { // strengths past the tally: capped
			for x := range w {
				sa := min(x+em, strengths-2)
				j, j1 := min(max(sa-er, 0), top), min(max(sa+1-er, 0), top)
				pLess, pMore := lt[j], acc-lt[j1]
				w[x] = v*(pLess-pMore) - ember*half[j] + ember*float64(sa/2)*pMore
			}
			continue
		}
		// Strength sa = x+em: the clamped index of sa+1 is the next
		// bid's of sa.
		d := em - er
		j1 := min(max(d, 0), top)
		for x := range w {
			j := j1
			j1 = min(max(x+1+d, 0), top)
			pLess, pMore := lt[j], acc-lt[j1]
			w[x] = v*(pLess-pMore) - ember*half[j] + ember*float64((x+em)>>1)*pMore
		}
	}
}

// update runs one CFR+ step for s against the payoffs in s.w: node values
// backwards, regrets, the new current strategy, and the weighted sums.
// (The node values past the last beacon, s.val[nb], are set by reset.)
//
// The new strategy is left as numerators and a scale (num, scale): with p
// the positive part of the predicted regret and total their sum, the
// strategy p*(1/total) is num*scale with num = 2p (a+|a|, pos without its
// halving) and scale = 1/(2 total): the same real product, so the same
// bits (doubling and halving are exact: regrets and payoffs are far from
// the ends of the float range). Its normalisation is left to its readers,
// which fuse it with the products they need.
func (s *stageSeat) update(weight float64) {
	var buf [levels]float64
	avg := !s.noAverage
	for k := nb - 1; k >= 0; k-- {
		capk, room := s.cap[k], s.budget
		wk, valk, nextk, reachk := &s.w[k], &s.val[k], &s.val[k+1], &s.reach[k]
		for t := 0; t <= s.hi[k]; t++ {
			// Slices of exactly the node's moves, so the loops below need
			// no bounds checks.
			n := min(capk, room-t) + 1
			num, reg, cum := s.num[k][t][:n], s.reg[k][t][:n], s.cum[k][t][:n]
			w, next, q := wk[:n], nextk[t:t+n], buf[:n]
			if n == 1 { // one move only: bid nothing (num 1, scale 1)
				valk[t] = w[0] + next[0]
				if avg {
					cum[0] += weight * reachk[t]
				}
				continue
			}
			// The value under the strategy before this step, and the
			// weighted sum of that strategy (at a node of reach 0, +0:
			// nothing, but no branch to mispredict).
			sc := s.scale[k][t]
			v := 0.0
			if avg {
				cw := weight * reachk[t]
				for x := range q {
					qx := w[x] + next[x]
					q[x] = qx
					sx := num[x] * sc
					v += sx * qx
					cum[x] += cw * sx
				}
			} else {
				for x := range q {
					qx := w[x] + next[x]
					q[x] = qx
					v += num[x] * sc * qx
				}
			}
			valk[t] = v
			total := 0.0
			for x := range q {
				qx := q[x]
				r := pos(reg[x] + qx - v)
				reg[x] = r
				// Predictive RM+: the next strategy leans on the regret
				// just observed as a forecast of the next one.
				p := r + qx - v
				p += math.Abs(p) // 2*pos(p)
				num[x] = p
				total += p
			}
			if total > 0 {
				s.scale[k][t] = 1 / total
				continue
			}
			for x := range num {
				num[x] = 1
			}
			s.scale[k][t] = 1 / float64(n)
		}
	}
	s.forward()
}

// pos returns max(0, a) for a finite, exactly and without max's sequence
// of branch-free steps: a+|a| is 2a (exact) or +0 (for a <= 0, -0 too),
// and halving is exact.
func pos(a float64) float64 {
	return (a + math.Abs(a)) * 0.5
}

// solve runs iters iterations of CFR+ with alternating updates, the
// average strategy weighted by iteration number.
// Both seats' average strategies are kept (see solveOwn).
func (g *stageGame) solve(iters int) {
	g.a.noAverage, g.b.noAverage = false, false
	g.run(iters, false)
}

// solveOwn is solve for a bidder that reads only seat A's average
// strategy: it keeps no average for seat B and skips the updates whose
// results nobody reads (the last iteration's new current strategies, and
// B's of the one before, read only by them), so
// seat A's average comes out exactly as solve leaves it.
func (g *stageGame) solveOwn(iters int) {
	g.a.noAverage, g.b.noAverage = false, true
	g.run(iters, true)
}

func (g *stageGame) run(iters int, own bool) {
	g.a.reset()
	g.b.reset()
	for it := 1; it <= iters; it++ {
		w := float64(it * it)
		if own && it == iters {
			g.a.accumulate(w) // all that the last iteration adds to A's average
			return
		}
		g.payoffs(&g.a, &g.b)
		g.a.update(w)
		if own && it == iters-1 {
			// B's next strategy would be read only by the last
			// iteration's payoffs of A, which solveOwn skips.
			continue
		}
		g.payoffs(&g.b, &g.a)
		g.b.update(w)
	}
}

// accumulate adds the current strategy, weighted by weight and each
// node's reach, to the average: the part of update that the average
// strategy reads.
func (s *stageSeat) accumulate(weight float64) {
	for k := nb - 1; k >= 0; k-- {
		for t := 0; t <= s.hi[k]; t++ {
			n := min(s.cap[k], s.budget-t) + 1
			num, cum := s.num[k][t][:n], s.cum[k][t][:n]
			if n == 1 {
				cum[0] += weight * s.reach[k][t]
				continue
			}
			if cw := weight * s.reach[k][t]; cw != 0 {
				sc := s.scale[k][t]
				for x := range num {
					cum[x] += cw * (num[x] * sc)
				}
			}
		}
	}
}

// sample draws a move from s's average strategy with rng.
func (s *stageSeat) sample(rng *rand.Rand, out *kindling.Bid) {
	t := 0
	for k := 0; k < nb; k++ {
		n := min(s.cap[k], s.budget-t)
		total := 0.0
		for x := 0; x <= n; x++ {
			total += s.cum[k][t][x]
		}
		x := 0
		if total > 0 {
			r := rng.Float64() * total
			for x = 0; x < n; x++ {
				if r -= s.cum[k][t][x]; r < 0 {
					break
				}
			}
		}
		out[k] = x
		t += x
	}
}

// averageMarginals returns s's average strategy as the marginal of each
// beacon's bid.
func (s *stageSeat) averageMarginals() (m [nb][levels]float64) {
	var reach [nb + 1][levels]float64
	reach[0][0] = 1
	for k := 0; k < nb; k++ {
		for t := 0; t <= s.budget; t++ {
			if reach[k][t] == 0 {
				continue
			}
			n := min(s.cap[k], s.budget-t)
			total := 0.0
			for x := 0; x <= n; x++ {
				total += s.cum[k][t][x]
			}
			for x := 0; x <= n; x++ {
				p := 1 / float64(n+1)
				if total > 0 {
					p = s.cum[k][t][x] / total
				}
				m[k][x] += reach[k][t] * p
				reach[k+1][t+x] += reach[k][t] * p
			}
		}
	}
	return m
}
