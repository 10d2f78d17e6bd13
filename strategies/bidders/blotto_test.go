package bidders

import (
	"math"
	"math/rand/v2"
	"testing"

	"crucible/engine/kindling"
)

// TestBlottoPayoffsAreResolve: blotto's beacon-by-beacon payoffs equal
// the worth of the same joint moves played by the engine's Resolve
// (points, the others' points at the deny weight, kept sparks and embers
// left at their prices), over many random positions and menus.
func TestBlottoPayoffsAreResolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	bb := &blottoBidder{rng: rng, ember: 0.4, deny: 0.8}
	for n := 0; n < 400; n++ {
		v := randomView(rng)
		price := 0.3 + rng.Float64()
		var joint [kindling.MaxSeats]kindling.Bid
		for p := 0; p < v.Seats; p++ {
			var m [blottoMenu]kindling.Bid
			bb.menu(&v, p, &m)
			joint[p] = m[rng.IntN(blottoMenu)]
		}
		p := rng.IntN(v.Seats)
		var menu [blottoMenu]kindling.Bid
		bb.menu(&v, p, &menu)
		var u [blottoMenu]float64
		bb.payoffs(&v, &joint, p, &menu, price, &u)
		for k := range menu {
			j := joint
			j[p] = menu[k]
			st := kindling.State{Seats: v.Seats, Turn: v.Turn, Values: v.Values, Sparks: v.Sparks, Scores: v.Scores, Embers: v.Embers}
			rec, err := kindling.Resolve(&st, &j, nil)
			if err != nil {
				t.Fatalf("menu move %v of seat %d with %d sparks: %v", menu[k], p, v.Sparks[p], err)
			}
			deny := bb.deny
			if v.Seats == 2 {
				deny = 1
			}
			want := float64(rec.Points[p])
			for q := 0; q < v.Seats; q++ {
				if q != p {
					want -= deny * float64(rec.Points[q]) / float64(v.Seats-1)
				}
			}
			left := v.Sparks[p] - sum(&menu[k])
			if lastTurn(&v) {
				want += 1e-3 * float64(left)
			} else {
				want += price * float64(min(left, kindling.SparkCap-kindling.Income))
				for i := 0; i < nb; i++ {
					want += bb.ember * price * float64(rec.Embers[p][i])
				}
			}
			if math.Abs(u[k]-want) > 1e-9 {
				t.Fatalf("seat %d move %v against %v: payoff %v, Resolve gives %v", p, menu[k], joint[:v.Seats], u[k], want)
			}
		}
	}
}
