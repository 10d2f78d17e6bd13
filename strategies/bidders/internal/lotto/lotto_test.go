package lotto

import (
	"bytes"
	"math"
	"testing"
)

// TestPayoffFollowsTheRules checks the contest's payoff against the rules
// worked by hand: the strictly stronger seat scores the beacon (strength
// is bid plus embers), a tie scores nobody, every spark bid is paid, and a
// seat that does not light the beacon keeps half its strength (rounded
// down) as embers worth Ember of a spark each.
func TestPayoffFollowsTheRules(t *testing.T) {
	tests := []struct {
		rule string
		g    Game
		a, b int
		want float64
	}{
		{"nobody bids: a tie at 0 scores nobody", Game{PriceA: 0.5, PriceB: 0.5}, 0, 0, 0},
		{"A outbids B: A scores, pays 3, B keeps 1 ember", Game{PriceA: 0.5, PriceB: 0.25}, 3, 2, 1 - 1.5 + 0.5 - Ember*0.25*1},
		{"B outbids A: B scores; A keeps 1 ember", Game{PriceA: 0.5, PriceB: 0.25}, 2, 3, -1 - 1 + 0.75 + Ember*0.5*1},
		{"a tie: both keep half their strength", Game{PriceA: 0.5, PriceB: 0.25}, 4, 4, -2 + 1 + Ember*(0.5*2-0.25*2)},
		{"A's two embers win a bid of 1", Game{Lead: 2, PriceA: 0.5, PriceB: 0.5}, 0, 1, 1 + 0.5},
		{"B's three embers tie A's bid of 3", Game{Lead: -3, PriceA: 0.5, PriceB: 0.5}, 3, 0, -1.5 + 0}, // equal prices: the ember each keeps is worth the same to both,
		{"embers alone light a beacon", Game{Lead: 1, PriceA: 1, PriceB: 1}, 0, 0, 1},
	}
	for _, tt := range tests {
		if got := tt.g.Payoff(tt.a, tt.b); math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("%s: Payoff(%d, %d) of %+v = %v, want %v", tt.rule, tt.a, tt.b, tt.g, got, tt.want)
		}
	}
}

// TestSolveFindsEquilibria: after the table's iterations, neither seat can
// gain more than 0.002 of the beacon's value by deviating, across leads
// and prices; and a contest where sparks cost more than the beacon is
// worth is not bid on at all.
func TestSolveFindsEquilibria(t *testing.T) {
	for lead := -MaxLead; lead <= MaxLead; lead += 3 {
		for ka := 0; ka < Prices; ka += 5 {
			for kb := 2; kb < Prices; kb += 5 {
				g := Game{Lead: lead, PriceA: Price(ka), PriceB: Price(kb)}
				x, y := Solve(g, Iterations)
				if e := Exploitability(g, x, y); e > 0.002 {
					t.Errorf("%+v: exploitability %.4f after %d iterations", g, e, Iterations)
				}
			}
		}
	}
	x, y := Solve(Game{PriceA: 1.5, PriceB: 1.5}, Iterations)
	if x[0] < 0.99 || y[0] < 0.99 {
		t.Errorf("with sparks at 1.5 times the value, the seats still bid: %v %v", x, y)
	}
}

// TestTableIsTheGeneratorsOutput: the embedded table decodes, and a sample
// of its entries is what solving the contest again gives (within one
// 255th, for floating-point differences between machines).
func TestTableIsTheGeneratorsOutput(t *testing.T) {
	tb := Load()
	for e := 0; e < Entries; e += 97 {
		lead := e/(Prices*Prices) - MaxLead
		ka, kb := e/Prices%Prices, e%Prices
		x, _ := Solve(Game{Lead: lead, PriceA: Price(ka), PriceB: Price(kb)}, Iterations)
		q := Quantize(x)
		got := tb.Probs(lead, ka, kb, false)
		for b := range q {
			if d := int(q[b]) - int(got[b]); d > 1 || d < -1 {
				t.Fatalf("entry %d (lead %d, levels %d, %d): table %v, solved again %v; run go generate", e, lead, ka, kb, *got, q)
			}
		}
	}
	if _, err := Decode(tableBin[:len(tableBin)-1]); err == nil {
		t.Error("a truncated table decodes")
	}
	bad := bytes.Clone(tableBin)
	bad[0] ^= 1
	if _, err := Decode(bad); err == nil {
		t.Error("a table with another header decodes")
	}
}

// TestSeatBIsTheMirror: seat B's strategy read from the table is seat A's in
// the mirrored contest, and the means agree with the probabilities.
func TestSeatBIsTheMirror(t *testing.T) {
	tb := Load()
	for _, c := range [][3]int{{2, 3, 9}, {-4, 12, 1}, {0, 7, 7}} {
		b := tb.Probs(c[0], c[1], c[2], true)
		a := tb.Probs(-c[0], c[2], c[1], false)
		if *a != *b {
			t.Errorf("%v: seat B %v, mirrored seat A %v", c, *b, *a)
		}
		mean := 0.0
		for x, p := range b {
			mean += float64(x) * float64(p) / 255
		}
		if m := tb.Mean(c[0], c[1], c[2], true); math.Abs(m-mean) > 1e-5 {
			t.Errorf("%v: Mean %v, from the probabilities %v", c, m, mean)
		}
	}
}

// TestSampleFollowsTheProbabilities draws from one entry on a grid of u and
// checks the frequencies and the cap.
func TestSampleFollowsTheProbabilities(t *testing.T) {
	p := [Bids]uint8{0: 51, 2: 102, 5: 102}
	var count [Bids]int
	for k := 0; k < 255; k++ {
		count[Sample(&p, (float64(k)+0.5)/255, MaxBid)]++
	}
	if count[0] != 51 || count[2] != 102 || count[5] != 102 {
		t.Errorf("frequencies %v, want 51 of 0, 102 of 2 and 102 of 5", count)
	}
	if x := Sample(&p, 0.99, 3); x != 3 {
		t.Errorf("a draw of 5 capped at 3 gave %d", x)
	}
}

func TestQuantizeSumsTo255(t *testing.T) {
	s := Strategy{0.1, 0.2, 0.3, 0.4 / 3, 0.4 / 3, 0.4 / 3}
	q := Quantize(s)
	total := 0
	for _, x := range q {
		total += int(x)
	}
	if total != 255 || q[3] < 33 || q[3] > 35 {
		t.Fatalf("Quantize(%v) = %v (sum %d)", s, q, total)
	}
}

// TestSupport: Support lists, ascending, exactly the bids Probs gives a
// chance, for every contest of the grid and past its clamps.
func TestSupport(t *testing.T) {
	tb := Load()
	for lead := -MaxLead - 2; lead <= MaxLead+2; lead++ {
		for ka := -2; ka < Prices+2; ka++ {
			for kb := -2; kb < Prices+2; kb++ {
				p, bids := tb.Support(lead, ka, kb)
				if p != tb.Probs(lead, ka, kb, false) {
					t.Fatalf("(%d, %d, %d): not Probs' strategy", lead, ka, kb)
				}
				var want []uint8
				for b, q := range p {
					if q > 0 {
						want = append(want, uint8(b))
					}
				}
				if string(bids) != string(want) {
					t.Fatalf("(%d, %d, %d): support %v, want %v", lead, ka, kb, bids, want)
				}
			}
		}
	}
}
