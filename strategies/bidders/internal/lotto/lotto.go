// Package lotto solves Kindling's one-beacon contest as a two-seat
// zero-sum game and keeps the solutions in a table the bidders read.
//
// A turn of Kindling is a Colonel Blotto game over the five beacons (the
// strictly strongest seat at a beacon lights it), coupled across turns by
// sparks carried over and embers left behind. Its General Lotto relaxation
// keeps the budget only in expectation and prices each spark instead: the
// turn then splits into five independent contests, one per beacon, in which
// a seat pays its spark price for every spark it bids. The contest at one
// beacon (Game) is a small matrix game: each seat bids 0..MaxBid on top of
// its embers there, the stronger scores the beacon's value (the weaker loses
// it: the payoff is the score difference), and a seat that does not light
// the beacon keeps half its strength as embers, worth Ember of a spark each.
// Dividing by the beacon's value leaves three numbers: the ember lead of
// seat A and both seats' prices per spark relative to the value.
//
// Solve finds a mixed equilibrium of one contest by regret matching (RM+
// with alternating updates and linearly weighted averages). The table
// (table.bin, written by `go generate`, which runs ./gen) holds the
// equilibrium strategy of seat A for every lead in -MaxLead..MaxLead and
// every pair of prices on a log-spaced grid, as bid probabilities in
// 255ths; seat B's strategy in a contest is seat A's in the mirrored one
// (lead negated, prices swapped).
package lotto

//go:generate go run ./gen -out table.bin

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"math"
	"sync"
)

// The table's shape and the contest's fixed terms.
const (
	// MaxBid is the largest bid at one beacon: the spark cap.
	MaxBid = 12
	// Bids is the number of bid sizes, 0..MaxBid.
	Bids = MaxBid + 1
	// MaxLead bounds the ember lead; larger leads are read as MaxLead.
	MaxLead = 6
	// Leads is the number of leads, -MaxLead..MaxLead.
	Leads = 2*MaxLead + 1
	// Prices is the number of price levels of the grid.
	Prices = 20
	// PriceMin is the lowest price level, in beacon values per spark.
	PriceMin = 0.04
	// PriceRatio is the ratio of one price level to the one below.
	PriceRatio = 1.27
	// Ember is what an ember is worth, as a share of a spark's price.
	Ember = 1.0
	// Iterations is the number of RM+ iterations per contest of the table.
	Iterations = 4000
)

// Price returns the price of level k: PriceMin * PriceRatio^k.
func Price(k int) float64 { return PriceMin * math.Pow(PriceRatio, float64(k)) }

// Game is one beacon's contest, values divided by the beacon's value.
type Game struct {
	// Lead is seat A's embers at the beacon minus seat B's. Seat A holds
	// max(Lead, 0) embers and seat B max(-Lead, 0).
	Lead int
	// PriceA and PriceB are what a spark costs each seat, in beacon values.
	PriceA, PriceB float64
}

// Payoff is seat A's payoff when A bids a and B bids b: +1 if A alone is
// strongest (with strength above 0), -1 if B is, 0 on a tie; minus A's
// spark cost plus B's; plus the embers A keeps unless it lit the beacon
// (half its strength, rounded down, at Ember of a spark each), minus those
// B keeps.
func (g Game) Payoff(a, b int) float64 {
	sa, sb := a+max(g.Lead, 0), b+max(-g.Lead, 0)
	u := -g.PriceA*float64(a) + g.PriceB*float64(b)
	switch {
	case sa > sb:
		u++
		u -= Ember * g.PriceB * float64(sb/2)
	case sb > sa:
		u--
		u += Ember * g.PriceA * float64(sa/2)
	default:
		u += Ember * (g.PriceA*float64(sa/2) - g.PriceB*float64(sb/2))
	}
	return u
}

// Matrix returns the payoff matrix of g, seat A's bid by seat B's.
func (g Game) Matrix() (m [Bids][Bids]float64) {
	for a := range m {
		for b := range m[a] {
			m[a][b] = g.Payoff(a, b)
		}
	}
	return m
}

// Strategy is a probability for each bid 0..MaxBid.
type Strategy [Bids]float64

// Solve returns an approximate equilibrium (x for seat A, y for seat B) of
// g after iters iterations of RM+ with alternating updates, the averages
// weighted by iteration number.
func Solve(g Game, iters int) (x, y Strategy) {
	m := g.Matrix()
	var ra, rb, sa, sb Strategy
	current := func(r *Strategy, s *Strategy) {
		total := 0.0
		for i := range r {
			total += r[i]
		}
		for i := range s {
			if total > 0 {
				s[i] = r[i] / total
			} else {
				s[i] = 1.0 / Bids
			}
		}
	}
	var cur Strategy
	for t := 1; t <= iters; t++ {
		w := float64(t)
		// Seat A against B's current strategy.
		current(&rb, &cur)
		var ua Strategy
		ev := 0.0
		current(&ra, &sa)
		for a := range ua {
			for b := range cur {
				ua[a] += m[a][b] * cur[b]
			}
			ev += sa[a] * ua[a]
		}
		for a := range ra {
			ra[a] = max(0, ra[a]+ua[a]-ev)
		}
		current(&ra, &sa)
		for a := range x {
			x[a] += w * sa[a]
		}
		// Seat B against A's updated strategy (B minimises A's payoff).
		var ub Strategy
		ev = 0
		for b := range ub {
			for a := range sa {
				ub[b] -= m[a][b] * sa[a]
			}
			ev += cur[b] * ub[b]
		}
		for b := range rb {
			rb[b] = max(0, rb[b]+ub[b]-ev)
		}
		current(&rb, &sb)
		for b := range y {
			y[b] += w * sb[b]
		}
	}
	normalize(&x)
	normalize(&y)
	return x, y
}

func normalize(s *Strategy) {
	total := 0.0
	for _, p := range s {
		total += p
	}
	for i := range s {
		s[i] /= total
	}
}

// Exploitability returns how much the two seats together could gain by
// switching to a best response: max over a of A's payoff against y, minus
// min over b of A's payoff against x. It is 0 exactly at an equilibrium.
func Exploitability(g Game, x, y Strategy) float64 {
	m := g.Matrix()
	bestA, bestB := math.Inf(-1), math.Inf(1)
	for a := range m {
		u := 0.0
		for b := range y {
			u += m[a][b] * y[b]
		}
		bestA = math.Max(bestA, u)
	}
	for b := 0; b < Bids; b++ {
		u := 0.0
		for a := range x {
			u += m[a][b] * x[a]
		}
		bestB = math.Min(bestB, u)
	}
	return bestA - bestB
}

// Quantize turns s into whole 255ths that sum to exactly 255, by largest
// remainder (ties to the smaller bid).
func Quantize(s Strategy) (q [Bids]uint8) {
	var rem [Bids]float64
	left := 255
	for i, p := range s {
		f := p * 255
		q[i] = uint8(math.Floor(f))
		rem[i] = f - math.Floor(f)
		left -= int(q[i])
	}
	for ; left > 0; left-- {
		k := 0
		for i := range rem {
			if rem[i] > rem[k] {
				k = i
			}
		}
		q[k]++
		rem[k] = -1
	}
	return q
}

// Entry returns the table index of (lead, price level of A, price level of
// B), all in range.
func Entry(lead, ka, kb int) int { return ((lead+MaxLead)*Prices+ka)*Prices + kb }

// Entries is the number of contests in the table.
const Entries = Leads * Prices * Prices

// Header is the first bytes of table.bin: a magic word and the shape and
// terms it was generated with, so that a table made for other constants
// is refused.
func Header() []byte {
	h := []byte("lotto1\x00\x00")
	for _, v := range []float64{MaxBid, MaxLead, Prices, PriceMin, PriceRatio, Ember, Iterations} {
		h = binary.LittleEndian.AppendUint64(h, math.Float64bits(v))
	}
	return h
}

// Generate solves every contest of the table and returns table.bin's bytes.
// progress, when not nil, is called after each lead.
func Generate(progress func(lead int)) []byte {
	out := Header()
	for lead := -MaxLead; lead <= MaxLead; lead++ {
		for ka := 0; ka < Prices; ka++ {
			for kb := 0; kb < Prices; kb++ {
				x, _ := Solve(Game{Lead: lead, PriceA: Price(ka), PriceB: Price(kb)}, Iterations)
				q := Quantize(x)
				out = append(out, q[:]...)
			}
		}
		if progress != nil {
			progress(lead)
		}
	}
	return out
}

//go:embed table.bin
var tableBin []byte

// Table is the decoded table: seat A's strategy of every contest in 255ths,
// and its mean bid.
type Table struct {
	prob [Entries][Bids]uint8
	mean [Entries]float32
	sup  [Entries]support
}

// support is the bids a strategy gives any chance, ascending.
type support struct {
	n   uint8
	bid [Bids]uint8
}

var (
	tableOnce sync.Once
	table     *Table
)

// Load returns the embedded table, decoded once. It panics if table.bin does
// not match this package's constants (run `go generate` after changing
// them): a build defect, not a run-time condition.
func Load() *Table {
	tableOnce.Do(func() {
		t, err := Decode(tableBin)
		if err != nil {
			panic(err)
		}
		table = t
	})
	return table
}

// Decode reads a table from table.bin's bytes.
func Decode(data []byte) (*Table, error) {
	h := Header()
	if len(data) != len(h)+Entries*Bids {
		return nil, fmt.Errorf("lotto table: %d bytes, want %d (regenerate with go generate)", len(data), len(h)+Entries*Bids)
	}
	if string(data[:len(h)]) != string(h) {
		return nil, fmt.Errorf("lotto table: header does not match the package's constants (regenerate with go generate)")
	}
	t := new(Table)
	data = data[len(h):]
	for e := range t.prob {
		sum, mean := 0, 0
		for b := range t.prob[e] {
			p := data[e*Bids+b]
			t.prob[e][b] = p
			sum += int(p)
			mean += b * int(p)
			if p > 0 {
				sp := &t.sup[e]
				sp.bid[sp.n] = uint8(b)
				sp.n++
			}
		}
		if sum != 255 {
			return nil, fmt.Errorf("lotto table: entry %d sums to %d/255", e, sum)
		}
		t.mean[e] = float32(mean) / 255
	}
	return t, nil
}

// ClampLead brings a lead into -MaxLead..MaxLead.
func ClampLead(lead int) int { return max(-MaxLead, min(MaxLead, lead)) }

// ClampLevel brings a price level into 0..Prices-1.
func ClampLevel(k int) int { return max(0, min(Prices-1, k)) }

// Means returns every contest's mean bid of seat A, by Entry: Mean(lead,
// ka, kb, false) is Means()[Entry(ClampLead(lead), ClampLevel(ka),
// ClampLevel(kb))] (and seat B's is seat A's in the mirrored contest).
func (t *Table) Means() *[Entries]float32 { return &t.mean }

// Mean returns the mean bid of seat A (b false) or seat B (b true) in the
// contest of seat A's lead at price levels ka and kb (clamped into the
// grid).
func (t *Table) Mean(lead, ka, kb int, b bool) float64 {
	if b {
		lead, ka, kb = -lead, kb, ka
	}
	return float64(t.mean[Entry(ClampLead(lead), ClampLevel(ka), ClampLevel(kb))])
}

// Probs returns seat A's (b false) or seat B's (b true) strategy in 255ths
// in the contest of seat A's lead at price levels ka and kb (clamped).
func (t *Table) Probs(lead, ka, kb int, b bool) *[Bids]uint8 {
	if b {
		lead, ka, kb = -lead, kb, ka
	}
	return &t.prob[Entry(ClampLead(lead), ClampLevel(ka), ClampLevel(kb))]
}

// Support returns Probs(lead, ka, kb, false) and the bids it gives any
// chance, ascending (most strategies of the table are pure).
func (t *Table) Support(lead, ka, kb int) (p *[Bids]uint8, bids []uint8) {
	e := Entry(ClampLead(lead), ClampLevel(ka), ClampLevel(kb))
	sp := &t.sup[e]
	return &t.prob[e], sp.bid[:sp.n]
}

// Sample draws a bid from p (in 255ths) with u uniform in [0, 1), capped at
// most: mass above the cap goes to the cap.
func Sample(p *[Bids]uint8, u float64, most int) int {
	r := int(u * 255)
	for b := 0; b < Bids; b++ {
		r -= int(p[b])
		if r < 0 {
			return min(b, most)
		}
	}
	return min(MaxBid, most)
}
