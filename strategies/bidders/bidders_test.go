package bidders

import (
	"context"
	"math/rand/v2"
	"testing"

	"crucible/engine"
	"crucible/engine/kindling"
	"crucible/strategies"
)

// play runs one match of the named strategies at the given genomes (nil:
// defaults), each seat seeded from the match seed as the arena does.
func play(t testing.TB, seed uint64, names []string, genomes []strategies.Genome) engine.Result {
	t.Helper()
	seats := make([]engine.Seat, len(names))
	for i, n := range names {
		s := mustLookup(t, n)
		g := s.Schema.Defaults()
		if genomes != nil && genomes[i] != nil {
			g = genomes[i]
		}
		seats[i] = engine.Seat{Name: n, Strategy: n, Player: s.New(g, engine.SeatSeed(seed, i), i)}
	}
	res, err := kindling.Game{}.Play(context.Background(), engine.MatchSpec{Seed: seed, Seats: seats})
	if err != nil {
		t.Fatalf("match %v seed %d: %v", names, seed, err)
	}
	return res
}

func mustLookup(t testing.TB, name string) strategies.Strategy {
	t.Helper()
	for _, s := range All() {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no strategy %q", name)
	return strategies.Strategy{}
}

// winShare is seat's share of first place: 1 alone, 1/k shared by k.
func winShare(r engine.Result, seat int) float64 {
	if r.Ranks[seat] != 1 {
		return 0
	}
	k := 0
	for _, x := range r.Ranks {
		if x == 1 {
			k++
		}
	}
	return 1 / float64(k)
}

func TestAllIsComplete(t *testing.T) {
	all := All()
	if _, err := strategies.NewRegistry(all...); err != nil {
		t.Fatalf("the bidders do not form a registry: %v", err)
	}
	names := map[string]bool{}
	for _, s := range all {
		names[s.Name] = true
		if s.Game != "kindling" || s.Description == "" {
			t.Errorf("%s: game %q description %q", s.Name, s.Game, s.Description)
		}
		if len(s.Schema) < 3 {
			t.Errorf("%s has %d parameters, want at least 3", s.Name, len(s.Schema))
		}
		for _, p := range s.Schema {
			if p.Description == "" {
				t.Errorf("%s.%s has no description", s.Name, p.Name)
			}
		}
		if _, ok := s.New(s.Schema.Defaults(), 1, 0).(kindling.Bidder); !ok {
			t.Errorf("%s does not build a kindling.Bidder", s.Name)
		}
	}
	if len(all) < 12 || !names["easy"] || !names["normal"] {
		t.Fatalf("All() has %d bidders (%v); want at least ten ideas plus easy and normal", len(all), names)
	}
}

// randomView draws an arbitrary position a seat might face: 2-4 seats,
// turn 1..8, any values, sparks 0..12, embers, scores and a random last
// turn (not necessarily consistent with the rest: bidders must cope).
func randomView(rng *rand.Rand) kindling.View {
	var v kindling.View
	v.Seats = 2 + rng.IntN(3)
	v.You = rng.IntN(v.Seats)
	v.Turns = kindling.Turns
	v.Turn = 1 + rng.IntN(kindling.Turns)
	base := kindling.BaseValues()
	for i := range v.Values {
		v.Values[i] = base[i] + rng.IntN(kindling.ValueCap-base[i]+1)
	}
	for p := 0; p < v.Seats; p++ {
		v.Sparks[p] = rng.IntN(kindling.SparkCap + 1)
		v.Scores[p] = rng.IntN(60)
		for i := range v.Embers[p] {
			if rng.IntN(3) == 0 {
				v.Embers[p][i] = rng.IntN(12)
			}
		}
	}
	if v.Turn > 1 {
		l := &v.Last
		l.Seats, l.Turn = v.Seats, v.Turn-1
		for i := range l.Values {
			l.Values[i] = base[i] + rng.IntN(kindling.ValueCap-base[i]+1)
			l.Winners[i] = kindling.NoWinner
			if rng.IntN(2) == 0 {
				l.Winners[i] = rng.IntN(v.Seats)
			}
		}
		for p := 0; p < v.Seats; p++ {
			for i := 0; i < kindling.Beacons; i++ {
				l.Bids[p][i] = rng.IntN(7)
				l.Strength[p][i] = l.Bids[p][i] + rng.IntN(4)
			}
			l.Missed[p] = rng.IntN(8) == 0
			l.Scores[p] = v.Scores[p]
		}
		l.Embers = v.Embers
	}
	return v
}

// genomesToTry returns the defaults, the two corners of the box and a few
// random points of it.
func genomesToTry(s strategies.Strategy, rng *rand.Rand) []strategies.Genome {
	lo := make([]float64, len(s.Schema))
	hi := make([]float64, len(s.Schema))
	for i := range hi {
		hi[i] = 1
	}
	out := []strategies.Genome{s.Schema.Defaults(), s.Schema.Denormalize(lo), s.Schema.Denormalize(hi)}
	for k := 0; k < 5; k++ {
		x := make([]float64, len(s.Schema))
		for i := range x {
			x[i] = rng.Float64()
		}
		out = append(out, s.Schema.Denormalize(x))
	}
	return out
}

// TestSplitByWeight checks the proportional split the even, contrarian,
// saver and dump bidders share: shares rounded down, the rest one at a time
// from the top of the order, only the first width beacons touched.
func TestSplitByWeight(t *testing.T) {
	order := [nb]int{2, 3, 1, 4, 0}
	tests := []struct {
		rule   string
		width  int
		n      int
		weight [nb]float64
		want   kindling.Bid
	}{
		{"shares in proportion to weight", 2, 6, [nb]float64{2: 2, 3: 1}, kindling.Bid{2: 4, 3: 2}},
		{"the rounding's rest goes from the top", 2, 5, [nb]float64{2: 4, 3: 3}, kindling.Bid{2: 3, 3: 2}},
		{"beacons past width get nothing whatever their weight", 2, 4, [nb]float64{9, 9, 1, 1, 9}, kindling.Bid{2: 2, 3: 2}},
		{"width below 1 bids on the top beacon alone", 0, 5, [nb]float64{1, 1, 1, 1, 1}, kindling.Bid{2: 5}},
		{"no weight at all falls back to round-robin", 3, 7, [nb]float64{}, kindling.Bid{2: 3, 3: 2, 1: 2}},
		{"nothing to bid bids nothing", 3, 0, [nb]float64{1, 2, 3, 4, 5}, kindling.Bid{}},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			var out kindling.Bid
			splitByWeight(&out, order, tt.width, tt.n, &tt.weight)
			if out != tt.want {
				t.Fatalf("splitByWeight(width %d, %d sparks, weights %v) = %v, want %v", tt.width, tt.n, tt.weight, out, tt.want)
			}
		})
	}
}

// TestBiddersOnlyMakeLegalMoves drives every bidder, at several parameter
// settings, through many random positions and checks each move with the
// engine's own CheckBid, and that the view is left as it was (Game.Play
// shows the same View to every seat).
func TestBiddersOnlyMakeLegalMoves(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, s := range All() {
		for gi, g := range genomesToTry(s, rng) {
			b := s.New(g, uint64(gi), 0).(kindling.Bidder)
			for k := 0; k < 1500; k++ {
				v := randomView(rng)
				before := v
				var out kindling.Bid
				b.Bid(&v, &out)
				if v != before {
					t.Fatalf("%s %v modified the view it was shown", s.Name, g)
				}
				st := kindling.State{Seats: v.Seats, Turn: v.Turn, Sparks: v.Sparks}
				if err := kindling.CheckBid(&st, v.You, out); err != nil {
					t.Fatalf("%s %v on turn %d with %d sparks: %v", s.Name, g, v.Turn, v.Budget(), err)
				}
			}
		}
	}
}

// TestBiddersPlayWholeMatches plays each bidder at random settings in real
// matches of 2 to 4 seats; Play fails on any illegal move.
func TestBiddersPlayWholeMatches(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	all := All()
	for k := 0; k < 600; k++ {
		n := 2 + k%3
		names := make([]string, n)
		genomes := make([]strategies.Genome, n)
		for i := range names {
			s := all[rng.IntN(len(all))]
			gs := genomesToTry(s, rng)
			names[i], genomes[i] = s.Name, gs[rng.IntN(len(gs))]
		}
		res := play(t, uint64(k), names, genomes)
		if len(res.Ranks) != n || res.Turns != kindling.Turns {
			t.Fatalf("match %v: %+v", names, res)
		}
	}
}

// TestParametersChangePlay checks that moving each parameter from its
// minimum to its maximum changes at least one move over a fixed sequence of
// positions.
func TestParametersChangePlay(t *testing.T) {
	for _, s := range All() {
		for pi, p := range s.Schema {
			lo, hi := s.Schema.Defaults(), s.Schema.Defaults()
			lo[pi], hi[pi] = p.Min, p.Max
			a := s.New(lo, 5, 0).(kindling.Bidder)
			b := s.New(hi, 5, 0).(kindling.Bidder)
			rng := rand.New(rand.NewPCG(31, 32))
			differ := false
			for k := 0; k < 400 && !differ; k++ {
				v := randomView(rng)
				w := v
				var x, y kindling.Bid
				a.Bid(&v, &x)
				b.Bid(&w, &y)
				differ = x != y
			}
			if !differ {
				t.Errorf("%s: %s at %v and at %v bids the same in 400 positions", s.Name, p.Name, p.Min, p.Max)
			}
		}
	}
}

func TestBiddersAreDeterministic(t *testing.T) {
	for _, s := range All() {
		a := s.New(s.Schema.Defaults(), 77, 1).(kindling.Bidder)
		b := s.New(s.Schema.Defaults(), 77, 1).(kindling.Bidder)
		rng := rand.New(rand.NewPCG(41, 42))
		for k := 0; k < 200; k++ {
			v := randomView(rng)
			w := v
			var x, y kindling.Bid
			a.Bid(&v, &x)
			b.Bid(&w, &y)
			if x != y {
				t.Fatalf("%s with the same seed bid %v and %v", s.Name, x, y)
			}
		}
	}
	// The randomised bidders follow their seed.
	for _, name := range []string{"random", "easy"} {
		s := mustLookup(t, name)
		a := s.New(s.Schema.Defaults(), 1, 0).(kindling.Bidder)
		b := s.New(s.Schema.Defaults(), 2, 0).(kindling.Bidder)
		rng := rand.New(rand.NewPCG(43, 44))
		same := true
		for k := 0; k < 50 && same; k++ {
			v := randomView(rng)
			w := v
			var x, y kindling.Bid
			a.Bid(&v, &x)
			b.Bid(&w, &y)
			same = x == y
		}
		if same {
			t.Errorf("%s bids the same with seeds 1 and 2", name)
		}
	}
}

// TestStrongerBiddersBeatWeakOnes is the behavioural check: over many
// seeds, with seats swapped, the better bidders win most head-to-head
// matches against random and easy, and normal wins far more than its share
// of 4-seat tables against them.
func TestStrongerBiddersBeatWeakOnes(t *testing.T) {
	const seeds = 60
	for _, strong := range []string{"normal", "bestresp", "contrarian", "even", "growth", "farmer"} {
		for _, weak := range []string{"random", "easy"} {
			w := 0.0
			for k := uint64(0); k < seeds; k++ {
				w += winShare(play(t, k, []string{strong, weak}, nil), 0)
				w += winShare(play(t, k+1000, []string{weak, strong}, nil), 1)
			}
			if share := w / (2 * seeds); share < 0.7 {
				t.Errorf("%s won %.2f of its matches against %s, want at least 0.70", strong, share, weak)
			}
		}
	}
	w := 0.0
	for k := uint64(0); k < 4*seeds; k++ {
		table := []string{"easy", "random", "easy"}
		seat := int(k % 4)
		table = append(table[:seat], append([]string{"normal"}, table[seat:]...)...)
		w += winShare(play(t, k, table, nil), seat)
	}
	if share := w / (4 * seeds); share < 0.6 {
		t.Errorf("normal won %.2f of 4-seat tables against easy, random, easy; want at least 0.60 (fair share 0.25)", share)
	}
}

// TestNormalBeatsEasy pins the house bots' order: normal is clearly the
// stronger of the two.
func TestNormalBeatsEasy(t *testing.T) {
	w := 0.0
	const seeds = 100
	for k := uint64(0); k < seeds; k++ {
		w += winShare(play(t, k, []string{"normal", "easy"}, nil), 0)
		w += winShare(play(t, k+500, []string{"easy", "normal"}, nil), 1)
	}
	if share := w / (2 * seeds); share < 0.9 {
		t.Fatalf("normal won %.2f against easy, want at least 0.90", share)
	}
}

// TestNormalReadsRivals: against a one-note rival that always puts 3
// sparks on Crown, once it has seen that twice normal (over 40 seat
// seeds, each with its own taste) either outbids the rival there or
// leaves Crown alone: it never puts 2 or more sparks into a tie or a loss
// there (a single spark beside its ember is a sowing: it keeps the ember),
// and it outscores the rival on turns 3-6 in every match.
func TestNormalReadsRivals(t *testing.T) {
	s := mustLookup(t, "normal")
	for seed := uint64(1); seed <= 40; seed++ {
		b := s.New(s.Schema.Defaults(), seed, 0).(kindling.Bidder)
		st, _ := kindling.NewState(2)
		var last kindling.TurnRecord
		gained := [2]int{}
		for turn := 1; turn <= 6; turn++ {
			var v kindling.View
			v.Fill(&st, 0, &last)
			var mine kindling.Bid
			b.Bid(&v, &mine)
			if turn > 2 && mine[2] > 1 && mine[2]+st.Embers[0][2] <= 3+st.Embers[1][2] {
				t.Fatalf("seed %d turn %d: normal bids %d on Crown (embers %d) against the rival's known 3 (embers %d)",
					seed, turn, mine[2], st.Embers[0][2], st.Embers[1][2])
			}
			bids := [kindling.MaxSeats]kindling.Bid{mine, {0, 0, 3, 0, 0}}
			var err error
			if last, err = kindling.Resolve(&st, &bids, nil); err != nil {
				t.Fatal(err)
			}
			if turn > 2 {
				gained[0] += last.Points[0]
				gained[1] += last.Points[1]
			}
		}
		if gained[0] <= gained[1] {
			t.Fatalf("seed %d: on turns 3-6 normal scored %d, the one-note rival %d", seed, gained[0], gained[1])
		}
	}
}
