package bidders

import (
	"encoding/binary"
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"crucible/engine/kindling"
)

// randomStageView returns a view of a random position of a match: any
// turn, 2 to 4 seats, values, sparks and embers anywhere in their ranges
// (sparks often at the cap or empty, embers often none).
func randomStageView(rng *rand.Rand) kindling.View {
	var v kindling.View
	v.Turn, v.Turns, v.Seats = 1+rng.IntN(kindling.Turns), kindling.Turns, 2+rng.IntN(3)
	v.You = rng.IntN(v.Seats)
	for i := range v.Values {
		v.Values[i] = 1 + rng.IntN(kindling.ValueCap)
	}
	for p := 0; p < v.Seats; p++ {
		switch rng.IntN(4) {
		case 0:
			v.Sparks[p] = kindling.SparkCap
		case 1:
			v.Sparks[p] = rng.IntN(3)
		default:
			v.Sparks[p] = rng.IntN(kindling.SparkCap + 1)
		}
		for i := range v.Embers[p] {
			if rng.IntN(3) == 0 {
				v.Embers[p][i] = rng.IntN(7)
			}
		}
	}
	return v
}

// hashCum adds to h every entry of s's average strategy that sample and
// averageMarginals read.
func hashCum(h hash.Hash64, s *stageSeat) {
	for k := 0; k < nb; k++ {
		for t := 0; t <= s.hi[k]; t++ {
			for x := 0; x <= min(s.cap[k], s.budget-t); x++ {
				_ = binary.Write(h, binary.LittleEndian, math.Float64bits(s.cum[k][t][x]))
			}
		}
	}
}

// stageSolveHash solves n random stage games (own is solveOwn, else solve)
// and returns an FNV-1a hash of the average strategies that can be read.
func stageSolveHash(n int, own bool) string {
	rng := rand.New(rand.NewPCG(25, 3))
	h := fnv.New64a()
	var g stageGame
	for range n {
		v := randomStageView(rng)
		g.setup(&v, 0.3+3.7*rng.Float64(), 2*rng.Float64(), 0.5+1.5*rng.Float64())
		if own {
			g.solveOwn(cfrIterations)
			hashCum(h, &g.a)
		} else {
			g.solve(cfrIterations)
			hashCum(h, &g.a)
			hashCum(h, &g.b)
		}
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// TestStageSolveAsBefore pins the solutions of 3,000 random stage games bit
// for bit (taken before the solver was made faster): a change meant only to
// speed up CFR+ must leave every average strategy exactly as it was.
func TestStageSolveAsBefore(t *testing.T) {
	{
		for _, c := range []struct {
			own  bool
			want string
		}{{true, "204116ddb13e8af4"}, {false, "73134260f00f4005"}} {
			if got := stageSolveHash(3000, c.own); got != c.want {
				t.Errorf("own=%v: average strategies hash to %s, want %s", c.own, got, c.want)
			}
		}
	}
}
