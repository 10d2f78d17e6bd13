package bidders

// modeller: it keeps every rival's revealed bids from the public log,
// draws a set of scenarios for this turn (a past move of each rival,
// carried over to today's beacons and scaled to its sparks, or a move of
// the lotto equilibrium while the log is short), and bids the best
// response to that sample: the spread of its sparks that maximises its
// expected points, embers and kept sparks against it.

import (
	"math"
	"math/rand/v2"

	"crucible/engine/kindling"
	"crucible/strategies"
)

// maxStrength bounds the strengths the modeller tallies (bids plus embers).
const maxStrength = 2 * levels

// move is one revealed move of a seat and what it held when it made it.
type move struct {
	bids   kindling.Bid
	budget int     // sparks it held
	rank   [nb]int // beacons by value that turn, most valuable first
}

// The rival's bid at a beacon is also predicted by a linear model of what
// it saw: its sparks split by value, its sparks if the beacon is the
// first, second or third most valuable, its own bid there last turn, the
// others' bids there last turn, its embers there and the most embers any
// other seat holds there.
const features = 8

// row is one observed bid of a rival at one beacon and its features.
type row struct {
	f [features]float64
	y float64
}

// ways of predicting a rival's move.
const (
	bySame  = iota // its latest moves, beacon by beacon
	byRank         // its latest moves, by the beacons' value rank
	byModel        // the linear model, with its past errors drawn at random
	ways
)

// rivalLog is what the modeller knows of one rival. It holds no pointers
// (its moves and rows are counted in fixed arrays), so that the
// collector need not scan the modeller's logs.
type rivalLog struct {
	n     int                      // moves held (up to a match's worth)
	moves [kindling.Turns]move     // the first n
	rows  [kindling.Turns * nb]row // the first n*nb: each move's beacons
	beta  [features]float64        // the linear model's weights
	// gram holds the sums of f f' (its upper half: the sums are symmetric)
	// and f y over rows, kept as rows come and go.
	gram [features][features + 1]float64
	// resid holds its errors on rows: resid[i] is the current fit's when
	// residAt[i] is fits (the count of fits so far); each is worked out
	// only when a scenario first draws it (residual).
	resid   [kindling.Turns * nb]float64
	residAt [kindling.Turns * nb]int
	fits    int
	// err is the running error of each way of predicting, scored on every
	// move before it was added.
	err [ways]float64
}

// gen is the modeller's generator: src, whose floats it draws directly
// (uniform), and rng on it for the whole numbers.
type gen struct {
	src *rand.PCG
	rng *rand.Rand
}

// uniforms fills u with floats from g, in order.
func (g *gen) uniforms(u *[nb]float64) {
	for i := range u {
		u[i] = uniform(g.src)
	}
}

type modellerBidder struct {
	gen
	memory  float64 // weight of a move one turn older, relative
	stay    float64 // 1/(1+memory): the chance of not stepping further back
	prior   float64 // pseudo-moves of the equilibrium prior
	samples int     // scenarios per turn
	price   float64 // points a kept spark is worth
	ember   float64 // worth of an ember left behind, as a share of price

	log  [kindling.MaxSeats]rivalLog
	prev kindling.View                // the view of the previous turn (Turn 0: none)
	eq   [kindling.MaxSeats]lottoDraw // this turn's equilibrium prior of each rival
	// seen keeps what the latest Bid worked out of each rival's features,
	// which observe reads again on the next turn.
	seen [kindling.MaxSeats]seenTurn
}

// seenTurn is a rival's features and the model's bids in the view of the
// given turn (the model as it stood then, and still does when observe
// reads them: only observe refits it).
type seenTurn struct {
	turn int
	f    [nb][features]float64
	pred [nb]float64
}

// valueRank returns the beacons ordered by value, most valuable first,
// ties by id.
func valueRank(values [nb]int) [nb]int {
	var key [nb]float64
	for i := range key {
		key[i] = float64(values[i])
	}
	return byKey(key)
}

// featuresOf returns the features of seat p's bid at every beacon in view
// w (w.Last is the turn before it), rank being valueRank(w.Values).
func featuresOf(w *kindling.View, rank *[nb]int, p int) (f [nb][features]float64) {
	sumV := 0
	for _, x := range w.Values {
		sumV += x
	}
	b := float64(w.Sparks[p])
	for r, i := range rank {
		f[i][0] = b * float64(w.Values[i]) / float64(max(1, sumV))
		if r < 3 {
			f[i][1+r] = b
		}
	}
	for i := 0; i < nb; i++ {
		if w.Last.Turn > 0 {
			f[i][4] = float64(w.Last.Bids[p][i])
			for q := 0; q < w.Last.Seats; q++ {
				if q != p {
					f[i][5] += float64(w.Last.Bids[q][i])
				}
			}
		}
		f[i][6] = float64(w.Embers[p][i])
		for q := 0; q < w.Seats; q++ {
			if q != p {
				f[i][7] = max(f[i][7], float64(w.Embers[q][i]))
			}
		}
	}
	return f
}

// fit solves the ridge regression of lg.rows, pulled toward splitting the
// sparks by value (weight 1 on the first feature, 0 elsewhere), and
// records its errors.
func (lg *rivalLog) fit() {
	const ridge = 2.0
	a := lg.sums()
	for j := 0; j < features; j++ {
		a[j][j] += ridge
	}
	a[0][features] += ridge // the pull toward beta = (1, 0, ...)
	// Gaussian elimination with partial pivoting (the matrix is positive
	// definite, so it never meets a zero pivot).
	for c := 0; c < features; c++ {
		p := c
		for r := c + 1; r < features; r++ {
			if math.Abs(a[r][c]) > math.Abs(a[p][c]) {
				p = r
			}
		}
		if p != c { // columns left of c are dead in both rows: swap the rest
			for k := c; k <= features; k++ {
				a[c][k], a[p][k] = a[p][k], a[c][k]
			}
		}
		for r := c + 1; r < features; r++ {
			m := a[r][c] / a[c][c]
			// Column c below the pivot is never read again: left as is.
			for k := c + 1; k <= features; k++ {
				a[r][k] -= m * a[c][k]
			}
		}
	}
	for c := features - 1; c >= 0; c-- {
		x := a[c][features]
		for k := c + 1; k < features; k++ {
			x -= a[c][k] * lg.beta[k]
		}
		lg.beta[c] = x / a[c][c]
	}
	lg.fits++
}

// residual returns the model's error on row i of lg.rows.
func (lg *rivalLog) residual(i int) float64 {
	if lg.residAt[i] != lg.fits {
		r := &lg.rows[i]
		lg.resid[i] = r.y - lg.predict(&r.f)
		lg.residAt[i] = lg.fits
	}
	return lg.resid[i]
}

// tally adds row r to the sums of the normal equations (sign 1) or takes
// it out (sign -1), the upper half of f f'.
func (lg *rivalLog) tally(r *row, sign float64) {
	for j := 0; j < features; j++ {
		for k := j; k < features; k++ {
			lg.gram[j][k] += sign * r.f[j] * r.f[k]
		}
		lg.gram[j][features] += sign * r.f[j] * r.y
	}
}

// sums returns the normal equations' sums: the sums of f f' are symmetric
// to the bit (the same products, in the same order), so the lower half
// is the upper's.
func (lg *rivalLog) sums() (a [features][features + 1]float64) {
	a = lg.gram
	for j := 0; j < features; j++ {
		for k := j + 1; k < features; k++ {
			a[k][j] = a[j][k]
		}
	}
	return a
}

// predict returns the model's bid for features f.
func (lg *rivalLog) predict(f *[features]float64) float64 {
	y := 0.0
	for j, x := range f {
		y += lg.beta[j] * x
	}
	return y
}

// carry maps past move m to a turn with the given rank and budget: by
// beacon (same) or by value rank, each bid scaled by the change of sparks.
// With rng it rounds at random and caps the total by the budget; without,
// it rounds to the nearest.
func carry(rng *rand.Rand, m *move, same bool, rank [nb]int, budget int, out *kindling.Bid) {
	if rng == nil {
		carryBy(nil, m, same, rank, budget, out)
		return
	}
	var u [nb]float64
	for i := range u {
		u[i] = rng.Float64()
	}
	carryBy(&u, m, same, rank, budget, out)
}

// carryBy is carry with the floats its rounding draws (one a beacon, in
// rank order) in u; u nil rounds to the nearest.
func carryBy(u *[nb]float64, m *move, same bool, rank [nb]int, budget int, out *kindling.Bid) {
	scale := 1.0
	if m.budget > 0 {
		scale = float64(budget) / float64(m.budget)
	}
	left := budget
	for r := 0; r < nb; r++ {
		from, to := r, r
		if !same {
			from, to = m.rank[r], rank[r]
		}
		x := float64(m.bids[from]) * scale
		if u == nil {
			out[to] = int(math.Round(x))
			continue
		}
		b := int(x)
		if u[r] < x-float64(b) {
			b++
		}
		b = min(b, left)
		out[to] = b
		left -= b
	}
}

// predictAll returns the model's bid at every beacon, given the features
// f of each.
func (lg *rivalLog) predictAll(f *[nb][features]float64) (y [nb]float64) {
	for i := range y {
		y[i] = lg.predict(&f[i])
	}
	return y
}

// fromModel draws rival p's move from its linear model in view v, pred
// being the model's bids (predictAll): each bid is the model's plus one
// of its past errors drawn at random (none without g), rounded at
// random, and the total scaled down to the rival's sparks.
func (lg *rivalLog) fromModel(g *gen, pred *[nb]float64, budget int, out *kindling.Bid) {
	y := *pred
	total := 0.0
	for i := 0; i < nb; i++ {
		if g != nil && lg.n > 0 {
			y[i] += lg.residual(g.rng.IntN(lg.n * nb))
		}
		y[i] = max(0, y[i])
		total += y[i]
	}
	scale := 1.0
	if total > float64(budget) {
		scale = float64(budget) / total
	}
	left := budget
	for i := 0; i < nb; i++ {
		x := y[i] * scale
		b := int(x)
		if g == nil {
			b = int(math.Round(x))
		} else if uniform(g.src) < x-float64(b) {
			b++
		}
		b = min(b, left)
		out[i] = b
		left -= b
	}
}

// observe records the moves of v.Last, made from the previous view, and
// scores each way of predicting on them first.
func (m *modellerBidder) observe(v *kindling.View) {
	last := &v.Last
	if last.Turn == 0 || m.prev.Turn != last.Turn {
		return
	}
	rank := valueRank(m.prev.Values)
	for p := 0; p < last.Seats; p++ {
		if p == v.You || last.Missed[p] {
			continue
		}
		lg := &m.log[p]
		mv := move{bids: last.Bids[p], budget: m.prev.Sparks[p], rank: rank}
		seen := &m.seen[p]
		if seen.turn != m.prev.Turn { // the latest Bid did not get as far
			seen.f = featuresOf(&m.prev, &rank, p)
			seen.pred = lg.predictAll(&seen.f)
		}
		f := &seen.f
		if n := lg.n; n > 0 {
			var guess [ways]kindling.Bid
			carryBy(nil, &lg.moves[n-1], true, rank, mv.budget, &guess[bySame])
			carryBy(nil, &lg.moves[n-1], false, rank, mv.budget, &guess[byRank])
			lg.fromModel(nil, &seen.pred, mv.budget, &guess[byModel])
			for w := range guess {
				lg.err[w] = 0.7*lg.err[w] + l1(guess[w], mv.bids)
			}
		}
		if lg.n == kindling.Turns { // a match has no more; drop the oldest
			for _, r := range lg.rows[:nb] {
				lg.tally(&r, -1)
			}
			copy(lg.moves[:], lg.moves[1:])
			copy(lg.rows[:], lg.rows[nb:])
			lg.n--
		}
		lg.moves[lg.n] = mv
		for i := 0; i < nb; i++ {
			r := &lg.rows[lg.n*nb+i]
			*r = row{f: f[i], y: float64(mv.bids[i])}
			lg.tally(r, 1)
		}
		lg.n++
		lg.fit()
	}
}

func l1(a, b kindling.Bid) float64 {
	d := 0
	for i := range a {
		d += max(a[i]-b[i], b[i]-a[i])
	}
	return float64(d)
}

// rivalTurn is what the scenarios of one rival read, worked out once a
// turn: the model's bids and the weight of each way of predicting.
type rivalTurn struct {
	pred  [nb]float64
	wt    [ways]float64
	total float64 // the sum of wt
}

// turnOf returns lg's rivalTurn for the model's bids pred: the ways'
// weights fall with their running errors.
func (lg *rivalLog) turnOf(pred *[nb]float64) (rt rivalTurn) {
	rt.pred = *pred
	for w := range rt.wt {
		e := 1 + lg.err[w]
		rt.wt[w] = 1 / (e * e)
		rt.total += rt.wt[w]
	}
	return rt
}

// scenario draws one move of rival p for this turn into out: from the
// equilibrium prior, or by one of the ways of predicting, chosen with
// weights that fall with its running error (rt, turnOf).
func (m *modellerBidder) scenario(v *kindling.View, p int, rank [nb]int, rt *rivalTurn, eq *lottoDraw, out *kindling.Bid) {
	lg := &m.log[p]
	n := lg.n
	budget := v.Sparks[p]
	if n == 0 || uniform(m.src)*(m.prior+float64(n)) < m.prior {
		eq.draw(m.src, out)
		return
	}
	wt, total := &rt.wt, rt.total
	r := uniform(m.src) * total
	way := 0
	for ; way < ways-1; way++ {
		if r -= wt[way]; r < 0 {
			break
		}
	}
	if way == byModel {
		lg.fromModel(&m.gen, &rt.pred, budget, out)
		return
	}
	// A recorded move, the latest most likely.
	k := n - 1
	for k > 0 && uniform(m.src) > m.stay {
		k--
	}
	var u [nb]float64
	m.uniforms(&u)
	carryBy(&u, &lg.moves[k], way == bySame, rank, budget, out)
}

func (m *modellerBidder) Bid(v *kindling.View, out *kindling.Bid) {
	m.observe(v)
	defer func() { m.prev = *v }()
	budget := v.Budget()
	if budget == 0 {
		return
	}
	rank := valueRank(v.Values)
	// Strength tallies over the scenarios: cnt[i][s] scenarios in which the
	// strongest rival reaches strength s at beacon i.
	var cnt [nb][maxStrength + 1]int
	eq := &m.eq
	var rt [kindling.MaxSeats]rivalTurn
	want := level(perRival(m.price, v.Seats))
	if lastTurn(v) {
		want = levelLo
	}
	for p := 0; p < v.Seats; p++ {
		if p == v.You {
			continue
		}
		seen := &m.seen[p]
		seen.turn, seen.f = v.Turn, featuresOf(v, &rank, p)
		seen.pred = m.log[p].predictAll(&seen.f)
		rt[p] = m.log[p].turnOf(&seen.pred)
		if m.prior == 0 && m.log[p].n > 0 {
			continue // the prior is never drawn
		}
		sit := situationOf(v, p)
		floorA := 0
		if !lastTurn(v) {
			floorA = max(0, v.Sparks[p]+kindling.Income-kindling.SparkCap)
		}
		la, lb := sit.prices(want, want, float64(floorA), 0)
		sit.prepare(la, lb, floorA, &eq[p])
	}
	for s := 0; s < m.samples; s++ {
		var top [nb]int
		for p := 0; p < v.Seats; p++ {
			if p == v.You {
				continue
			}
			var bid kindling.Bid
			m.scenario(v, p, rank, &rt[p], &eq[p], &bid)
			for i := 0; i < nb; i++ {
				top[i] = max(top[i], bid[i]+v.Embers[p][i])
			}
		}
		for i := 0; i < nb; i++ {
			cnt[i][min(top[i], maxStrength)]++
		}
	}
	bestResponse(v, &cnt, m.samples, perRival(m.price, v.Seats), m.ember, out)
}

// bestResponse bids the spread of the seat's sparks that maximises, against
// rival strengths tallied in cnt over n scenarios, the expected points won
// (less the points the rival wins, with one rival),
// plus ember*price for each ember left on a beacon it does not light, plus
// price for each spark kept that the cap lets through (on the last turn a
// kept spark only breaks ties).
func bestResponse(v *kindling.View, cnt *[nb][maxStrength + 1]int, n int, price, ember float64, out *kindling.Bid) {
	budget := v.Budget()
	final := lastTurn(v)
	deny := 1.0
	if v.Seats > 2 {
		deny = 0 // at a crowded table, a point one rival takes is mostly another rival's loss
	}
	me := v.Embers[v.You]
	var worth [nb][levels]float64
	for i := 0; i < nb; i++ {
		// below[s]: scenarios with rival strength below s.
		var below [maxStrength + 2]int
		for s := 0; s <= maxStrength; s++ {
			below[s+1] = below[s] + cnt[i][s]
		}
		val := float64(v.Values[i])
		for x := 0; x <= budget; x++ {
			st := min(x+me[i], maxStrength)
			win, lose := 0.0, float64(n-below[st+1])/float64(n)
			if st > 0 {
				win = float64(below[st]) / float64(n)
			}
			w := val * (win - deny*lose)
			if !final {
				w += ember * price * float64(st/2) * (1 - win)
			}
			worth[i][x] = w
		}
	}
	keep := func(left int) float64 {
		if final {
			return 1e-3 * float64(left)
		}
		return price * float64(min(left, kindling.SparkCap-kindling.Income))
	}
	knapsack(&worth, budget, keep, knapTies{step: 1e-12, end: 1e-9}, out)
}

// knapTies are knapsack's tolerances: a plan replaces an equal-size one
// only when its worth is more than step higher, and the best plan over all
// sizes only when more than end higher (so near-ties go to the plan found
// first: the smaller beacon index's fewer sparks, then fewer sparks spent).
type knapTies struct{ step, end float64 }

// knapsack sets out to the bids (summing to at most budget) that maximise
// the sum of worth[i][out[i]] plus keep(sparks left); ties (within ties)
// go to fewer sparks spent.
func knapsack(worth *[nb][levels]float64, budget int, keep func(int) float64, ties knapTies, out *kindling.Bid) {
	const none = -1e18
	var dp, next [levels]float64
	var choice [nb][levels]int8
	for u := range dp {
		dp[u] = none
	}
	dp[0] = 0
	for i := 0; i < nb; i++ {
		for u := range next {
			next[u] = none
		}
		for u := 0; u <= budget; u++ {
			if dp[u] == none {
				continue
			}
			for x := 0; u+x <= budget; x++ {
				if t := dp[u] + worth[i][x]; t > next[u+x]+ties.step {
					next[u+x] = t
					choice[i][u+x] = int8(x)
				}
			}
		}
		dp = next
	}
	best, bestU := none, 0
	for u := 0; u <= budget; u++ {
		if dp[u] == none {
			continue
		}
		if t := dp[u] + keep(budget-u); t > best+ties.end {
			best, bestU = t, u
		}
	}
	for i, u := nb-1, bestU; i >= 0; i-- {
		x := int(choice[i][u])
		out[i] = x
		u -= x
	}
}

func modellerDef() def {
	schema := strategies.Schema{
		param("memory", "how far back it reaches for a rival's recorded move: the chance of stepping one more turn back is memory/(1+memory)", 0, 1, 0.25, false),
		param("prior", "weight, in moves, of the lotto equilibrium among a rival's likely moves (it fades as the log grows)", 0, 4, 2.8, false),
		param("samples", "scenarios of the rivals' moves drawn each turn (fewer: a noisier, more varied response)", 4, 48, 16, true),
		param("price", "points a spark kept for a later turn is worth", 0.3, 3, 2.1, false),
		param("ember", "points an ember left on a beacon it does not light is worth, as a share of a spark's", 0, 2, 1.1, false),
	}
	return def{name: "modeller", schema: schema,
		desc: "rival modeller: draws likely moves of every rival from its revealed bids (or the lotto equilibrium while its log is short) and bids the best response to them",
		build: func(d strategies.Decoder, seed uint64) kindling.Bidder {
			src := newSource(seed)
			memory := d.Float("memory")
			return &modellerBidder{gen: gen{src: src, rng: rand.New(src)}, memory: memory, stay: 1 / (1 + memory), prior: d.Float("prior"),
				samples: d.Int("samples"), price: d.Float("price"), ember: d.Float("ember")}
		}}
}
