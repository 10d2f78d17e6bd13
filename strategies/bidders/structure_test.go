package bidders

import (
	"maps"
	"math"
	"os"
	"slices"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// wilson returns the 95% Wilson score interval of a share p observed over
// n trials.
func wilson(p float64, n int) (lo, hi float64) {
	const z = 1.959964
	nf := float64(n)
	centre := (p + z*z/(2*nf)) / (1 + z*z/nf)
	half := z / (1 + z*z/nf) * math.Sqrt(p*(1-p)/nf+z*z/(4*nf*nf))
	return centre - half, centre + half
}

// stagePayoff is seat 0's payoff in g when seat 0 bids a and seat 1 bids b,
// worked out by the engine: Resolve plays the turn from g's position, and
// the payoff is the points difference, plus g.ember for each ember seat 0
// holds after the turn and minus it for each of seat 1's, plus each seat's
// kept sparks (up to its carry) at its keep price, seat 1's counted against.
func stagePayoff(t *testing.T, g *stageGame, a, b kindling.Bid) float64 {
	st := kindling.State{Seats: 2, Turn: 1}
	st.Sparks[0], st.Sparks[1] = g.a.budget, g.b.budget
	st.Embers[0], st.Embers[1] = g.a.emb, g.b.emb
	for i := range st.Values {
		st.Values[i] = int(g.values[i])
	}
	bids := [kindling.MaxSeats]kindling.Bid{a, b}
	rec, err := kindling.Resolve(&st, &bids, nil)
	if err != nil {
		t.Fatal(err)
	}
	u := float64(rec.Points[0] - rec.Points[1])
	for i := 0; i < nb; i++ {
		u += g.ember * float64(rec.Embers[0][i]-rec.Embers[1][i])
	}
	u += g.a.keep * float64(min(g.a.budget-sum(&a), g.a.carry))
	u -= g.b.keep * float64(min(g.b.budget-sum(&b), g.b.carry))
	return u
}

// moves lists every legal move of a seat of the stage game (bids within
// the caps, summing to at most the budget).
func moves(s *stageSeat) []kindling.Bid {
	var out []kindling.Bid
	var cur kindling.Bid
	var walk func(k, left int)
	walk = func(k, left int) {
		if k == nb {
			out = append(out, cur)
			return
		}
		for x := 0; x <= min(left, s.cap[k]); x++ {
			cur[k] = x
			walk(k+1, left-x)
		}
		cur[k] = 0
	}
	walk(0, s.budget)
	return out
}

// mixed is s's average strategy as a distribution over moves.
func mixed(s *stageSeat) map[kindling.Bid]float64 {
	out := map[kindling.Bid]float64{}
	var cur kindling.Bid
	var walk func(k, t int, p float64)
	walk = func(k, t int, p float64) {
		if p < 1e-12 {
			return
		}
		if k == nb {
			out[cur] += p
			return
		}
		n := min(s.cap[k], s.budget-t)
		total := 0.0
		for x := 0; x <= n; x++ {
			total += s.cum[k][t][x]
		}
		for x := 0; x <= n; x++ {
			cur[k] = x
			walk(k+1, t+x, p*s.cum[k][t][x]/total)
		}
		cur[k] = 0
	}
	walk(0, 0, 1)
	return out
}

// exploitability of g's solution, every payoff worked out by the engine:
// the most seat 0 gains against seat 1's strategy by its best move, minus
// the least it gets against seat 1's best move.
func exploitability(t *testing.T, g *stageGame) float64 {
	ma, mb := mixed(&g.a), mixed(&g.b)
	bestA := math.Inf(-1)
	for _, a := range moves(&g.a) {
		u := 0.0
		for b, p := range mb {
			u += p * stagePayoff(t, g, a, b)
		}
		bestA = max(bestA, u)
	}
	bestB := math.Inf(1)
	for _, b := range moves(&g.b) {
		u := 0.0
		for a, p := range ma {
			u += p * stagePayoff(t, g, a, b)
		}
		bestB = min(bestB, u)
	}
	return bestA - bestB
}

// TestStageGameConverges solves two turns with CFR+ and checks the
// solution against best responses found by trying every move, with every
// payoff worked out by the engine's own Resolve: within 0.6 point of an
// equilibrium after the bidder's cfrIterations, within 0.03 after 400.
func TestStageGameConverges(t *testing.T) {
	first, _ := kindling.NewState(2)
	var v1 kindling.View
	v1.Fill(&first, 0, nil)
	v1.Turn = 2 // not the last turn: kept sparks are worth their price
	v2 := v1
	v2.Values = [nb]int{2, 3, 5, 3, 4}
	v2.Sparks[0], v2.Sparks[1] = 6, 4
	v2.Embers[0] = [nb]int{0, 2, 0, 1, 0}
	v2.Embers[1] = [nb]int{1, 0, 3, 0, 0}
	for _, v := range []*kindling.View{&v1, &v2} {
		for _, tc := range []struct {
			iters int
			want  float64
		}{{cfrIterations, 0.6}, {400, 0.03}} {
			var g stageGame
			g.setup(v, 1.6, 0.5, 1)
			g.solve(tc.iters)
			if e := exploitability(t, &g); e > tc.want {
				t.Errorf("values %v sparks %v: exploitability %.3f after %d iterations, want at most %v", v.Values, v.Sparks[:2], e, tc.iters, tc.want)
			}
		}
	}
}

// TestStageGameIsMixed: the first turn's equilibrium mixes: no move of
// either seat has as much as half the weight.
func TestStageGameIsMixed(t *testing.T) {
	first, _ := kindling.NewState(2)
	var v kindling.View
	v.Fill(&first, 0, nil)
	var g stageGame
	g.setup(&v, 1.6, 0.5, 1)
	g.solve(400)
	for seat, s := range []*stageSeat{&g.a, &g.b} {
		support := 0
		for b, p := range mixed(s) {
			if p > 0.5 {
				t.Fatalf("seat %d plays %v with weight %.2f: not a mixed strategy", seat, b, p)
			}
			if p > 0.01 {
				support++
			}
		}
		if support < 3 {
			t.Errorf("seat %d mixes only %d moves", seat, support)
		}
	}
}

// exploiter knows cfr's algorithm and parameters: each turn it solves the
// same stage game from the cfr seat's side and best-responds to the cfr
// seat's strategy (its marginals), or, against a cfr seat that plays its
// most likely move (mode), to that move exactly.
type exploiter struct {
	target                       int // the cfr seat
	mode                         bool
	cfrPrice, cfrEmber, cfrRival float64 // the cfr seat's parameters
	price, emb                   float64 // its own valuation of kept sparks and embers
	g                            stageGame
}

func (x *exploiter) Bid(v *kindling.View, out *kindling.Bid) {
	w := *v
	w.You = x.target
	x.g.setup(&w, x.cfrPrice, x.cfrEmber, x.cfrRival)
	x.g.solve(cfrIterations)
	var m [nb][levels]float64
	if x.mode {
		var b kindling.Bid
		x.g.a.modeMove(&b)
		for i := range b {
			m[i][b[i]] = 1
		}
	} else {
		m = x.g.a.averageMarginals()
	}
	// The cfr seat's strengths, tallied out of a large count.
	const n = 1 << 16
	var cnt [nb][maxStrength + 1]int
	for i := 0; i < nb; i++ {
		for b, p := range m[i] {
			cnt[i][min(b+v.Embers[x.target][i], maxStrength)] += int(math.Round(p * n))
		}
	}
	for i := range cnt {
		total := 0
		for _, c := range cnt[i] {
			total += c
		}
		cnt[i][0] += n - total // rounding
	}
	bestResponse(v, &cnt, n, x.price, x.emb, out)
}

// modeMove sets out to the most likely move of s's average strategy, node
// by node.
func (s *stageSeat) modeMove(out *kindling.Bid) {
	t := 0
	for k := 0; k < nb; k++ {
		best := 0
		for x := 0; x <= min(s.cap[k], s.budget-t); x++ {
			if s.cum[k][t][x] > s.cum[k][t][best] {
				best = x
			}
		}
		out[k] = best
		t += best
	}
}

// modeCFR is cfr playing the most likely move of its solution: the same
// bidder with its mixing taken away.
type modeCFR struct{ cfrBidder }

func (c *modeCFR) Bid(v *kindling.View, out *kindling.Bid) {
	c.g.setup(v, c.price, c.ember, c.rivalPrice)
	c.g.solve(cfrIterations)
	c.g.a.modeMove(out)
	topUp(v, out, mustSpend(v, sum(out)))
	fit(out, v.Budget())
}

// TestCFRResistsABestResponder: a bidder that knows cfr's algorithm and
// best-responds to the strategy it will draw from wins no more than 60% of
// its matches against it (the interval's lower end below 0.6); against
// the same bidder playing its most likely move instead of drawing, that
// best responder wins most matches. Mixing is what protects it.
func TestCFRResistsABestResponder(t *testing.T) {
	const seeds = 150
	s := mustLookup(t, "cfr")
	def := s.Schema.Defaults()
	price, emb, rivalPrice := def[s.Schema.Index("price")], def[s.Schema.Index("ember")], def[s.Schema.Index("rivalPrice")]
	rates := map[bool]float64{}
	for _, mode := range []bool{false, true} {
		w := 0.0
		for k := uint64(0); k < seeds; k++ {
			cseat := int(k % 2)
			var me engine.Player = s.New(def, engine.SeatSeed(k, cseat), cseat)
			if mode {
				me = &modeCFR{cfrBidder{price: price, ember: emb, rivalPrice: rivalPrice}}
			}
			seats := make([]engine.Seat, 2)
			seats[cseat] = engine.Seat{Name: "cfr", Player: me}
			seats[1-cseat] = engine.Seat{Name: "exploiter", Player: &exploiter{target: cseat, mode: mode, cfrPrice: price, cfrEmber: emb, cfrRival: rivalPrice, price: 1.6, emb: 1}}
			w += winShare(playSeats(t, k, seats), 1-cseat)
		}
		rates[mode] = w / seeds
	}
	if lo, _ := wilson(rates[false], seeds); lo >= 0.6 {
		t.Errorf("the best responder won %.2f against cfr (interval from %.2f), want below 0.60", rates[false], lo)
	}
	if rates[true] < 0.75 || rates[true] < rates[false]+0.2 {
		t.Errorf("the best responder won %.2f against cfr's most likely moves and %.2f against its draws; want at least 0.75 and 0.2 more", rates[true], rates[false])
	}
	t.Logf("best responder's score: %.2f against cfr, %.2f against its most likely moves", rates[false], rates[true])
}

// TestModellerBeatsWhatItCanModel: against every hand-rule bidder with its
// mixing turned off (jitter 0: the same move in the same position), the
// modeller wins at least 75% of its matches.
func TestModellerBeatsWhatItCanModel(t *testing.T) {
	const seeds = 60
	for _, name := range []string{"even", "greedy", "sniper", "farmer", "saver", "contrarian", "growth", "dump", "bestresp"} {
		s := mustLookup(t, name)
		g := s.Schema.Defaults()
		g[s.Schema.Index("jitter")] = 0
		w := 0.0
		for k := uint64(0); k < seeds; k++ {
			seat := int(k % 2)
			genomes := make([]strategies.Genome, 2)
			genomes[1-seat] = g
			names := []string{name, name}
			names[seat] = "modeller"
			w += winShare(play(t, k, names, genomes), seat)
		}
		if rate := w / seeds; rate < 0.75 {
			t.Errorf("modeller won %.2f against %s without mixing, want at least 0.75", rate, name)
		}
	}
}

// TestNormalBeatsEasyClearly: the house bot normal beats easy in 2 and 4
// seats (one normal against easy in every other seat), the 95% interval of
// its score rate wholly above its fair share, and in two seats above 0.9.
func TestNormalBeatsEasyClearly(t *testing.T) {
	for _, tc := range []struct {
		seats int
		floor float64
	}{{2, 0.9}, {4, 0.5}} {
		const seeds = 200
		w := 0.0
		for k := uint64(0); k < seeds; k++ {
			seat := int(k) % tc.seats
			names := make([]string, tc.seats)
			for i := range names {
				names[i] = "easy"
			}
			names[seat] = "normal"
			w += winShare(play(t, k, names, nil), seat)
		}
		rate := w / seeds
		lo, hi := wilson(rate, seeds)
		if lo < tc.floor {
			t.Errorf("%d seats: normal scored %.3f against easy [%.3f, %.3f], want the interval above %.2f", tc.seats, rate, lo, hi, tc.floor)
		}
		t.Logf("%d seats: normal scores %.3f against easy, 95%% interval [%.3f, %.3f]", tc.seats, rate, lo, hi)
	}
}

// TestEveryBidderMixes: every bidder draws from its seat seed, so the same
// seed gives the same bids and two seeds give different bids, in real
// matches against a fixed opponent.
func TestEveryBidderMixes(t *testing.T) {
	for _, s := range All() {
		bids := func(seed uint64) []kindling.Bid {
			me := &bidLog{Bidder: s.New(s.Schema.Defaults(), engine.SeatSeed(seed, 0), 0).(kindling.Bidder)}
			seats := []engine.Seat{{Name: s.Name, Player: me}, {Name: "even", Player: mustLookup(t, "even").New(mustLookup(t, "even").Schema.Defaults(), 9, 1)}}
			playSeats(t, 3, seats) // the match seed does not reach the players
			return me.bids
		}
		a, b, c := bids(1), bids(1), bids(2)
		same := func(x, y []kindling.Bid) bool {
			for i := range x {
				if x[i] != y[i] {
					return false
				}
			}
			return len(x) == len(y)
		}
		if !same(a, b) {
			t.Errorf("%s bids differently with the same seed: %v and %v", s.Name, a, b)
		}
		varied := !same(a, c)
		for seed := uint64(3); seed < 8 && !varied; seed++ {
			varied = !same(a, bids(seed))
		}
		if !varied {
			t.Errorf("%s makes the same bids with seeds 1 to 7: %v", s.Name, a)
		}
	}
}

// playSeats plays one match of prepared seats.
func playSeats(t testing.TB, seed uint64, seats []engine.Seat) engine.Result {
	t.Helper()
	res, err := kindling.Game{}.Play(t.Context(), engine.MatchSpec{Seed: seed, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTunedIsTheCheckedInVariant: strategy tuned is its base with the
// checked-in variant's values as defaults, so it bids exactly as the base
// does at the variant's genome, seed for seed.
func TestTunedIsTheCheckedInVariant(t *testing.T) {
	data, err := os.ReadFile("variants/tuned.json")
	if err != nil {
		t.Fatal(err)
	}
	v, err := strategies.ParseVariant(data, "variants/tuned.json")
	if err != nil {
		t.Fatal(err)
	}
	tuned, base := mustLookup(t, "tuned"), mustLookup(t, v.Base)
	if got := tuned.Schema.Map(tuned.Schema.Defaults()); !maps.Equal(got, v.Params) {
		t.Fatalf("tuned's defaults %v, the variant's params %v", got, v.Params)
	}
	g, err := base.Schema.FromMap(v.Params)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := bidsOf(t, tuned, tuned.Schema.Defaults()), bidsOf(t, base, g); !slices.Equal(a, b) {
		t.Fatalf("tuned and %s at the variant's genome bid differently: %v vs %v", v.Base, a[:4], b[:4])
	}
}

// TestTunedBeatsItsBase: against every other bidder at its defaults, on
// the same seeds in both seat orders, tuned scores more than its base at
// its defaults: the variant still improves on the base's code as it is
// (change the base, and this says when to tune it again).
func TestTunedBeatsItsBase(t *testing.T) {
	const seeds = 16
	tuned := mustLookup(t, "tuned")
	v, err := strategies.ParseVariant(tunedJSON, "tuned")
	if err != nil {
		t.Fatal(err)
	}
	rate := func(name string) float64 {
		w, n := 0.0, 0
		for _, opp := range All() {
			if opp.Name == "tuned" || opp.Name == v.Base {
				continue
			}
			for k := uint64(0); k < seeds; k++ {
				w += winShare(play(t, k, []string{name, opp.Name}, nil), 0)
				w += winShare(play(t, k, []string{opp.Name, name}, nil), 1)
				n += 2
			}
		}
		return w / float64(n)
	}
	rt, rb := rate(tuned.Name), rate(v.Base)
	if rt <= rb {
		t.Errorf("tuned scores %.3f against the field, its base %s %.3f: the variant no longer improves on its base", rt, v.Base, rb)
	}
	t.Logf("against the field: tuned %.3f, %s %.3f", rt, v.Base, rb)
}
