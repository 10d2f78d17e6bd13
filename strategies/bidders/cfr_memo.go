package bidders

// cfr's memo of solved stage games (heavy_memo.go): the first turn of every
// match is the same game, and many second and third turns repeat across
// matches, so a process solves each of these once.

// stageSeatKey is what the solution depends on of one seat of a stage game.
type stageSeatKey struct {
	budget, carry int
	emb, cap      [nb]int
	keep          float64
}

// stageKey is everything a stage game's solution depends on.
type stageKey struct {
	values [nb]float64
	ember  float64
	a, b   stageSeatKey
	iters  int
}

// stageMemoSize bounds the memo: at most 2*stageMemoSize solutions of at
// most nb*levels*levels numbers (a few MB in practice).
const stageMemoSize = 4096

var stageMemo = newMemo[stageKey, []float64](stageMemoSize)

func (s *stageSeat) key() stageSeatKey {
	return stageSeatKey{budget: s.budget, carry: s.carry, emb: s.emb, cap: s.cap, keep: s.keep}
}

// solveOwnMemo is solveOwn(iters) played back from the memo when the same
// game was solved before: it leaves in g.a.cum every entry that sample
// reads, as solveOwn would.
func (g *stageGame) solveOwnMemo(iters int) {
	k := stageKey{values: g.values, ember: g.ember, a: g.a.key(), b: g.b.key(), iters: iters}
	if cum := stageMemo.get(k); cum != nil {
		g.a.unpackCum(*cum)
		return
	}
	g.solveOwn(iters)
	cum := g.a.packCum()
	stageMemo.put(k, &cum)
}

// eachMove calls f with every move of s's lattice in order: beacon k,
// sparks t bid before it, bid x.
func (s *stageSeat) eachMove(f func(k, t, x int)) {
	hi := 0
	for k := 0; k < nb; k++ {
		for t := 0; t <= hi; t++ {
			for x := 0; x <= min(s.cap[k], s.budget-t); x++ {
				f(k, t, x)
			}
		}
		hi = min(s.budget, hi+s.cap[k])
	}
}

// packCum returns the entries of s's average strategy that sample reads.
func (s *stageSeat) packCum() []float64 {
	var out []float64
	s.eachMove(func(k, t, x int) { out = append(out, s.cum[k][t][x]) })
	return out
}

// unpackCum puts back what packCum returned.
func (s *stageSeat) unpackCum(cum []float64) {
	i := 0
	s.eachMove(func(k, t, x int) { s.cum[k][t][x] = cum[i]; i++ })
}
