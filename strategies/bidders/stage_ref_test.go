package bidders

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The CFR+ step written plainly (one loop per quantity, every node alike),
// as the solver stood before it was made faster: the reference that the
// fast update and forward must match to the bit.

func (s *stageSeat) refForward() {
	s.reach = [nb + 1][levels]float64{}
	s.marg = [nb][levels]float64{}
	s.reach[0][0] = 1
	for k := 0; k < nb; k++ {
		for t := 0; t <= s.hi[k]; t++ {
			n := min(s.cap[k], s.budget-t) + 1
			for x := 0; x < n; x++ {
				f := s.reach[k][t] * s.strategy(k, t, x)
				s.marg[k][x] += f
				if k < nb-1 {
					s.reach[k+1][t+x] += f
				}
			}
		}
	}
}

func (s *stageSeat) refUpdate(weight float64) {
	for k := nb - 1; k >= 0; k-- {
		for t := 0; t <= s.hi[k]; t++ {
			n := min(s.cap[k], s.budget-t) + 1
			var q [levels]float64
			v := 0.0
			for x := 0; x < n; x++ {
				q[x] = s.w[k][x] + s.val[k+1][t+x]
				v += s.strategy(k, t, x) * q[x]
			}
			s.val[k][t] = v
			total := 0.0
			var p [levels]float64
			for x := 0; x < n; x++ {
				s.reg[k][t][x] = math.Max(0, s.reg[k][t][x]+q[x]-v)
				p[x] = math.Max(0, s.reg[k][t][x]+q[x]-v)
				total += p[x]
			}
			var sig [levels]float64
			for x := 0; x < n; x++ {
				if !s.noAverage {
					s.cum[k][t][x] += weight * s.reach[k][t] * s.strategy(k, t, x)
				}
				if total > 0 {
					sig[x] = p[x] * (1 / total)
				} else {
					sig[x] = 1 / float64(n)
				}
			}
			s.setStrategy(k, t, sig[:n])
		}
	}
	s.refForward()
}

// strategy returns the current strategy of bid x at node (k, t).
func (s *stageSeat) strategy(k, t, x int) float64 { return s.num[k][t][x] * s.scale[k][t] }

// setStrategy sets the current strategy at node (k, t) to sig (n moves).
func (s *stageSeat) setStrategy(k, t int, sig []float64) {
	copy(s.num[k][t][:], sig)
	s.scale[k][t] = 1
}

// refSolve is solve (own false) or solveOwn (own true) on the reference
// step, every iteration in full.
func (g *stageGame) refSolve(iters int, own bool) {
	g.a.noAverage, g.b.noAverage = false, own
	g.a.reset()
	g.b.reset()
	g.a.refForward()
	g.b.refForward()
	for it := 1; it <= iters; it++ {
		w := float64(it * it)
		g.payoffs(&g.a, &g.b)
		g.a.refUpdate(w)
		g.payoffs(&g.b, &g.a)
		g.b.refUpdate(w)
	}
}

// sameSeat reports the first node of s and r whose readable state differs
// in its bits: the average strategy, and unless own the rest of the CFR+
// state.
func sameSeat(t *testing.T, what string, s, r *stageSeat, avgOnly bool) bool {
	t.Helper()
	bits := math.Float64bits
	for k := 0; k < nb; k++ {
		for tt := 0; tt <= s.hi[k]; tt++ {
			for x := 0; x <= min(s.cap[k], s.budget-tt); x++ {
				if bits(s.cum[k][tt][x]) != bits(r.cum[k][tt][x]) {
					t.Errorf("%s: cum[%d][%d][%d] = %v, reference %v", what, k, tt, x, s.cum[k][tt][x], r.cum[k][tt][x])
					return false
				}
				if avgOnly {
					continue
				}
				if bits(s.strategy(k, tt, x)) != bits(r.strategy(k, tt, x)) || bits(s.reg[k][tt][x]) != bits(r.reg[k][tt][x]) {
					t.Errorf("%s: node (%d,%d) bid %d: strategy %v regret %v, reference %v %v", what, k, tt, x,
						s.strategy(k, tt, x), s.reg[k][tt][x], r.strategy(k, tt, x), r.reg[k][tt][x])
					return false
				}
			}
		}
	}
	return true
}

// TestStageSolveAsReference: on 4,000 random stage games, solve leaves both
// seats' CFR+ state, and solveOwn seat A's average strategy, exactly as the
// plain reference step does.
func TestStageSolveAsReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(2025, 12))
	var fast, ref stageGame
	for i := range 4000 {
		v := randomStageView(rng)
		price, ember, rival := 0.3+3.7*rng.Float64(), 2*rng.Float64(), 0.5+1.5*rng.Float64()
		iters := cfrIterations
		if i%4 == 0 {
			iters = 1 + rng.IntN(40)
		}
		for _, own := range []bool{false, true} {
			fast.setup(&v, price, ember, rival)
			ref.setup(&v, price, ember, rival)
			if own {
				fast.solveOwn(iters)
			} else {
				fast.solve(iters)
			}
			ref.refSolve(iters, own)
			if !sameSeat(t, "seat A", &fast.a, &ref.a, own) || (!own && !sameSeat(t, "seat B", &fast.b, &ref.b, false)) {
				t.Fatalf("game %d (own %v, %d iterations) differs from the reference", i, own, iters)
			}
		}
	}
}
