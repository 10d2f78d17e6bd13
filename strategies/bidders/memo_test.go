package bidders

import (
	"hash/fnv"
	"math/rand/v2"
	"testing"
)

// A memo hit leaves in seat A's average strategy exactly the bits a fresh
// solve does, also when the game it lands in held another game's solution.
func TestStageMemoSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(77, 5))
	var fresh, miss, hit stageGame
	hits := 0
	for i := range 300 {
		v := randomStageView(rng)
		price, ember, rival := 0.3+3.7*rng.Float64(), 2*rng.Float64(), 0.5+1.5*rng.Float64()
		// hit first holds another game's solution (stale state).
		other := randomStageView(rng)
		hit.setup(&other, 1.1, 0.4, 1.2)
		hit.solveOwn(cfrIterations)

		fresh.setup(&v, price, ember, rival)
		fresh.solveOwn(cfrIterations)
		miss.setup(&v, price, ember, rival)
		miss.solveOwnMemo(cfrIterations)
		hit.setup(&v, price, ember, rival)
		key := hit.memoKey(cfrIterations)
		if _, ok := memoShardOf(key).lookup(key); ok {
			hits++
		}
		hit.solveOwnMemo(cfrIterations)
		hf, hm, hh := fnv.New64a(), fnv.New64a(), fnv.New64a()
		hashCum(hf, &fresh.a)
		hashCum(hm, &miss.a)
		hashCum(hh, &hit.a)
		if hf.Sum64() != hm.Sum64() || hf.Sum64() != hh.Sum64() {
			t.Fatalf("game %d: average strategy hashes fresh %x, memo miss %x, memo hit %x", i, hf.Sum64(), hm.Sum64(), hh.Sum64())
		}
	}
	if hits < 250 {
		t.Fatalf("only %d of 300 second solves were memo hits", hits)
	}
}
