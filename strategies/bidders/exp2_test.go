package bidders

import (
	"fmt"
	"os"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
)

// stage game payoff at one beacon for A bidding a, B bidding b.
type stage struct {
	v        [nb]int
	ea, eb   [nb]int
	ba, bb   int
	lam, eta float64
	last     bool
}

func (g *stage) u(i, a, b int) float64 {
	sa, sb := a+g.ea[i], b+g.eb[i]
	u := -g.lam*float64(a) + g.lam*float64(b)
	if g.last {
		u = 0
	}
	v := float64(g.v[i])
	switch {
	case sa > sb && sa > 0:
		u += v - g.eta*g.lam*float64(sb/2)
	case sb > sa && sb > 0:
		u += -v + g.eta*g.lam*float64(sa/2)
	default:
		u += g.eta * g.lam * float64(sa/2-sb/2)
	}
	return u
}

// brValue: best response of A (sign +1) to B marginals q, or of B (sign -1) to A marginals.
func (g *stage) br(q *[nb][levels]float64, forA bool) (float64, kindling.Bid) {
	budget := g.ba
	if !forA {
		budget = g.bb
	}
	var w [nb][levels]float64
	for i := 0; i < nb; i++ {
		for x := 0; x <= budget; x++ {
			for y := 0; y < levels; y++ {
				if q[i][y] == 0 {
					continue
				}
				if forA {
					w[i][x] += q[i][y] * g.u(i, x, y)
				} else {
					w[i][x] -= q[i][y] * g.u(i, y, x)
				}
			}
		}
	}
	const none = -1e18
	var dp [nb + 1][levels]float64
	var ch [nb][levels]int
	for t := range dp[0] {
		dp[0][t] = none
	}
	dp[0][0] = 0
	for i := 0; i < nb; i++ {
		for t := range dp[i+1] {
			dp[i+1][t] = none
		}
		for t := 0; t <= budget; t++ {
			if dp[i][t] == none {
				continue
			}
			for x := 0; t+x <= budget; x++ {
				if s := dp[i][t] + w[i][x]; s > dp[i+1][t+x] {
					dp[i+1][t+x] = s
					ch[i][t+x] = x
				}
			}
		}
	}
	best, bt := none, 0
	for t := 0; t <= budget; t++ {
		if dp[nb][t] > best {
			best, bt = dp[nb][t], t
		}
	}
	var out kindling.Bid
	for i := nb - 1; i >= 0; i-- {
		out[i] = ch[i][bt]
		bt -= out[i]
	}
	return best, out
}

func TestExpStage(t *testing.T) {
	if os.Getenv("EXP2") == "" {
		t.Skip()
	}
	st, _ := kindling.NewState(2)
	var v kindling.View
	v.Fill(&st, 0, nil)
	g := &stage{v: v.Values, ba: 5, bb: 5, lam: 1.2, eta: 0.5}
	for _, price := range []float64{0.8, 1.2, 2} {
		b := &lottoBidder{rng: newRNG(1), price: price, rivalPrice: 1, crowd: 0.5}
		var m [nb][levels]float64
		const n = 20000
		spend := 0.0
		for k := 0; k < n; k++ {
			var out kindling.Bid
			b.Bid(&v, &out)
			for i, x := range out {
				m[i][x] += 1.0 / n
				spend += float64(x) / n
			}
		}
		val, bid := g.br(&m, false)
		fmt.Printf("lotto price %.1f spend %.2f: best response of B gains %.3f with %v\n", price, spend, val, bid)
		for i := range m {
			fmt.Printf("  %d: %.2f\n", i, m[i][:7])
		}
	}
	for _, bid := range []kindling.Bid{{0, 0, 2, 2, 0}, {0, 1, 1, 1, 1}, {0, 1, 2, 2, 0}, {0, 0, 3, 2, 0}} {
		var m [nb][levels]float64
		for i, x := range bid {
			m[i][x] = 1
		}
		val, br := g.br(&m, false)
		fmt.Printf("pure %v: best response gains %.3f with %v\n", bid, val, br)
	}
}

func TestExpFP(t *testing.T) {
	if os.Getenv("EXP2") == "" {
		t.Skip()
	}
	st, _ := kindling.NewState(2)
	var v kindling.View
	v.Fill(&st, 0, nil)
	g := &stage{v: v.Values, ba: 5, bb: 5, lam: 1.2, eta: 0.5}
	var ma, mb [nb][levels]float64
	ma[2][5], mb[2][5] = 1, 1
	for it := 2; it <= 20000; it++ {
		_, ba := g.br(&mb, true)
		_, bb := g.br(&ma, false)
		w := 1 / float64(it)
		for i := 0; i < nb; i++ {
			for x := range ma[i] {
				ma[i][x] *= 1 - w
				mb[i][x] *= 1 - w
			}
			ma[i][ba[i]] += w
			mb[i][bb[i]] += w
		}
		if it%5000 == 0 {
			va, _ := g.br(&mb, true)
			vb, _ := g.br(&ma, false)
			fmt.Printf("it %d exploitability %.3f %.3f\n", it, va, vb)
		}
	}
	for i := range ma {
		fmt.Printf("  %d: %.2f\n", i, ma[i][:7])
	}
}

func TestExpCFR(t *testing.T) {
	if os.Getenv("EXP2") == "" {
		t.Skip()
	}
	st, _ := kindling.NewState(2)
	var v kindling.View
	v.Fill(&st, 0, nil)
	g := &stage{v: v.Values, ba: 5, bb: 5, lam: 1.2, eta: 0.5}
	for _, iters := range []int{4, 6, 8, 10, 15, 20, 40, 80, 1000} {
		var sg stageGame
		for i := range sg.values {
			sg.values[i] = float64(v.Values[i])
		}
		sg.ember = 0.6
		for _, s := range []*stageSeat{&sg.a, &sg.b} {
			s.budget, s.keep, s.carry = 5, 1.2, 7
			for i := range s.cap {
				s.cap[i] = 5
			}
		}
		sg.solve(iters)
		ma, mb := sg.a.averageMarginals(), sg.b.averageMarginals()
		va, _ := g.br(&mb, true)
		vb, _ := g.br(&ma, false)
		fmt.Printf("iters %d exploitability %.3f %.3f\n", iters, va, vb)
		if iters == 1000 {
			for i := range ma {
				fmt.Printf("  %d: %.2f\n", i, ma[i][:7])
			}
		}
	}
}

func BenchmarkExpCFR(b *testing.B) {
	for _, budget := range []int{5, 10, 12} {
		b.Run(fmt.Sprint(budget), func(b *testing.B) {
			var sg stageGame
			sg.values = [nb]float64{1, 2, 4, 3, 2}
			sg.ember = 0.6
			for _, s := range []*stageSeat{&sg.a, &sg.b} {
				s.budget, s.keep, s.carry = budget, 1.2, 7
				for i := range s.cap {
					s.cap[i] = budget
				}
			}
			for b.Loop() {
				sg.solve(40)
			}
		})
	}
}

func BenchmarkExpMatchCFR(b *testing.B)    { benchMatches(b, "cfr", "even", "greedy", "normal") }
func BenchmarkExpMatch2CFR(b *testing.B)   { benchMatches(b, "cfr", "even") }
func BenchmarkExpMatch2Lotto(b *testing.B) { benchMatches(b, "lotto", "even") }
func BenchmarkExpMatch2Cheap(b *testing.B) { benchMatches(b, "greedy", "even") }

// brGain: value of A's best response to B's average minus value of B's best response to A's average, via the stageSeat payoffs.
func brGap(g *stageGame) float64 {
	val := func(me, rival *stageSeat) float64 {
		saved := rival.marg
		rival.marg = rival.averageMarginals()
		g.payoffs(me, rival)
		rival.marg = saved
		var worth [nb][levels]float64
		for k := 0; k < nb; k++ {
			for x := 0; x <= min(me.cap[k], me.budget); x++ {
				worth[k][x] = me.w[k][x]
			}
			for x := min(me.cap[k], me.budget) + 1; x < levels; x++ {
				worth[k][x] = -1e9
			}
		}
		var out kindling.Bid
		knapsack(&worth, me.budget, func(l int) float64 { return me.keep * float64(min(l, me.carry)) }, &out)
		u := me.keep * float64(min(me.budget-sum(&out), me.carry))
		for k := 0; k < nb; k++ {
			u += me.w[k][out[k]]
		}
		// minus the value of me's own average strategy
		m := me.averageMarginals()
		cur := 0.0
		for k := 0; k < nb; k++ {
			for x := 0; x <= min(me.cap[k], me.budget); x++ {
				cur += m[k][x] * me.w[k][x]
			}
		}
		// terminal distribution of spend
		var reach [nb + 1][levels]float64
		reach[0][0] = 1
		for k := 0; k < nb; k++ {
			for t := 0; t <= me.budget; t++ {
				n := min(me.cap[k], me.budget-t)
				tot := 0.0
				for x := 0; x <= n; x++ {
					tot += me.cum[k][t][x]
				}
				for x := 0; x <= n; x++ {
					p := 1 / float64(n+1)
					if tot > 0 {
						p = me.cum[k][t][x] / tot
					}
					reach[k+1][t+x] += reach[k][t] * p
				}
			}
		}
		for t := 0; t <= me.budget; t++ {
			cur += reach[nb][t] * me.keep * float64(min(me.budget-t, me.carry))
		}
		return u - cur
	}
	return val(&g.a, &g.b) + val(&g.b, &g.a)
}

func TestExpGap(t *testing.T) {
	if os.Getenv("EXP2") == "" {
		t.Skip()
	}
	for _, bud := range [][2]int{{5, 5}, {8, 8}, {10, 7}, {12, 12}} {
		for _, it := range []int{12, 24, 48, 200} {
			var g stageGame
			g.values = [nb]float64{2, 3, 5, 3, 4}
			g.ember = 2.4
			g.a = stageSeat{budget: bud[0], keep: 1.6, carry: 7}
			g.b = stageSeat{budget: bud[1], keep: 1.6, carry: 7}
			for i := 0; i < nb; i++ {
				g.a.cap[i] = min(bud[0], bud[1]+1)
				g.b.cap[i] = min(bud[1], bud[0]+1)
			}
			g.solve(it)
			fmt.Printf("budgets %v iters %d gap %.3f\n", bud, it, brGap(&g))
		}
	}
}

// stage-BR exploiter: best response in cfr's own zero-sum stage game.
type stageExploiter struct {
	target     int
	g          stageGame
	price, emb float64
}

func (x *stageExploiter) Bid(v *kindling.View, out *kindling.Bid) {
	w := *v
	w.You = x.target
	x.g.setup(&w, x.price, x.emb, 1)
	x.g.solve(cfrIterations)
	me, rival := &x.g.b, &x.g.a
	rival.marg = rival.averageMarginals()
	x.g.payoffs(me, rival)
	var worth [nb][levels]float64
	for k := 0; k < nb; k++ {
		for xx := 0; xx < levels; xx++ {
			if xx <= min(me.cap[k], me.budget) {
				worth[k][xx] = me.w[k][xx]
			} else {
				worth[k][xx] = -1e9
			}
		}
	}
	// my budget is v.Budget(): me.budget is the max rival budget which in 2 seats is mine
	knapsack(&worth, me.budget, func(l int) float64 { return me.keep * float64(min(l, me.carry)) }, out)
	fit(out, v.Budget())
}

func TestExpStageExploiter(t *testing.T) {
	if os.Getenv("EXP2") == "" {
		t.Skip()
	}
	s := mustLookup(t, "cfr")
	def := s.Schema.Defaults()
	const seeds = 150
	w := 0.0
	for k := uint64(0); k < seeds; k++ {
		cseat := int(k % 2)
		seats := make([]engine.Seat, 2)
		seats[cseat] = engine.Seat{Name: "cfr", Player: s.New(def, engine.SeatSeed(k, cseat), cseat)}
		seats[1-cseat] = engine.Seat{Name: "x", Player: &stageExploiter{target: cseat, price: 1.6, emb: 1.5}}
		w += winShare(playSeats(t, k, seats), 1-cseat)
	}
	fmt.Printf("stage exploiter %.3f\n", w/seeds)
}

type printer struct {
	kindling.Bidder
	name string
}

func (p *printer) Bid(v *kindling.View, out *kindling.Bid) {
	p.Bidder.Bid(v, out)
	fmt.Printf("t%d %-4s sparks %2d emb %v vals %v -> %v  score %d\n", v.Turn, p.name, v.Budget(), v.Embers[v.You], v.Values, *out, v.Scores[v.You])
}

func TestExpShowExploit(t *testing.T) {
	if os.Getenv("EXP2") == "" {
		t.Skip()
	}
	s := mustLookup(t, "cfr")
	def := s.Schema.Defaults()
	for k := uint64(0); k < 2; k++ {
		seats := []engine.Seat{
			{Name: "cfr", Player: &printer{s.New(def, engine.SeatSeed(k, 0), 0).(kindling.Bidder), "cfr"}},
			{Name: "x", Player: &printer{&exploiter{target: 0, price: 1.6, emb: 1.5}, "x"}},
		}
		r := playSeats(t, k, seats)
		fmt.Println(r.Scores)
	}
}

func BenchmarkExpSolve(b *testing.B) {
	for _, bud := range [][2]int{{5, 5}, {8, 8}, {12, 12}} {
		b.Run(fmt.Sprint(bud[0]), func(b *testing.B) {
			var g stageGame
			g.values = [nb]float64{2, 3, 5, 3, 4}
			g.ember = 0.8
			g.a = stageSeat{budget: bud[0], keep: 1.6, carry: 7}
			g.b = stageSeat{budget: bud[1], keep: 1.6, carry: 7}
			for i := 0; i < nb; i++ {
				g.a.cap[i] = min(bud[0], bud[1]+1)
				g.b.cap[i] = min(bud[1], bud[0]+1)
			}
			for b.Loop() {
				g.solve(24)
			}
		})
	}
}
