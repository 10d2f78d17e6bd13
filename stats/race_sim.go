package stats

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// RaceSim simulates races, and the same candidates tested one by one, on
// pentanomial outcomes drawn from a model of the candidates' true
// strengths: many families of candidates, each family raced once and
// each of its candidates also tested alone on the same outcomes.
//
// The model of one game: the candidate's expected score s is the logistic
// score of its true Elo over the baseline, it draws with probability
// DrawRate (at most 2 min(s, 1-s)) and wins with s - DrawRate/2. A round is
// one seed: every candidate plays its seat-swapped pair against the
// baseline on it. The seed makes the candidates' results alike: each game
// of a candidate is decided, with probability Shared, by the seed's own
// random number for that game (the same for every candidate), else by the
// candidate's own, so equal candidates agree on a share of the seeds as
// real ones sharing a baseline and a map do.
type RaceSim struct {
	// Race is the race and the test each candidate alone repeats.
	Race Race
	// Elos are the candidates' true logistic Elo differences over the
	// baseline, one per candidate.
	Elos []float64
	// DrawRate is the probability of a drawn game, in [0, 1).
	DrawRate float64
	// Shared is the probability that a game is decided by the seed's
	// random number, in [0, 1].
	Shared float64
	// MaxPairs caps every test (the race's rounds, and each test alone);
	// 0 means 100,000.
	MaxPairs int
	// Families is the number of families simulated.
	Families int
	// Seed seeds the random numbers: the same Seed gives the same result.
	Seed uint64
}

// RaceSimResult are the totals of a RaceSim.
type RaceSimResult struct {
	Families int `json:"families"`
	// Race is the race; Alone each candidate tested alone at the family's
	// Alpha (what testing them one by one without adjusting gives), and
	// AloneAdjusted each alone at Alpha/k (the same family-wise guarantee
	// as the race).
	Race          RaceSimTotals `json:"race"`
	Alone         RaceSimTotals `json:"alone"`
	AloneAdjusted RaceSimTotals `json:"alone_adjusted"`
}

// RaceSimTotals count one way of testing over the families.
type RaceSimTotals struct {
	// Matches is the number of matches played over all families (two per
	// pair).
	Matches int64 `json:"matches"`
	// FalsePositives counts the families in which a candidate no stronger
	// than Elo0 was accepted; Found those in which a candidate at least
	// Elo1 stronger was; Undecided those that reached MaxPairs with a
	// test still open.
	FalsePositives int `json:"false_positives"`
	Found          int `json:"found"`
	Undecided      int `json:"undecided"`
}

// FalsePositiveRate is FalsePositives over the families.
func (t RaceSimTotals) FalsePositiveRate(families int) float64 {
	return float64(t.FalsePositives) / float64(families)
}

// Run simulates the families.
func (s RaceSim) Run() (RaceSimResult, error) {
	k := len(s.Elos)
	switch {
	case k == 0:
		return RaceSimResult{}, fmt.Errorf("race simulation: no candidate Elo given")
	case s.Families < 1:
		return RaceSimResult{}, fmt.Errorf("race simulation: %d families, want at least 1", s.Families)
	case !(s.DrawRate >= 0 && s.DrawRate < 1):
		return RaceSimResult{}, fmt.Errorf("race simulation: draw rate %v is not in [0, 1)", s.DrawRate)
	case !(s.Shared >= 0 && s.Shared <= 1):
		return RaceSimResult{}, fmt.Errorf("race simulation: shared %v is not in [0, 1]", s.Shared)
	case s.MaxPairs < 0:
		return RaceSimResult{}, fmt.Errorf("race simulation: max pairs %d, want >= 0", s.MaxPairs)
	}
	for i, e := range s.Elos {
		if math.IsNaN(e) || math.Abs(e) > 800 {
			return RaceSimResult{}, fmt.Errorf("race simulation: candidate %d has Elo %v, want a number in [-800, 800]", i, e)
		}
	}
	if _, err := s.Race.Start(k); err != nil {
		return RaceSimResult{}, err
	}
	maxPairs := s.MaxPairs
	if maxPairs == 0 {
		maxPairs = 100_000
	}
	// Each candidate's game outcome probabilities: loss, draw.
	loss, draw := make([]float64, k), make([]float64, k)
	for i, e := range s.Elos {
		sc := logisticScore(e)
		d := math.Min(s.DrawRate, 2*math.Min(sc, 1-sc))
		loss[i], draw[i] = 1-sc-d/2, d
	}
	res := RaceSimResult{Families: s.Families}
	rng := rand.New(rand.NewPCG(s.Seed, 0x9e3779b97f4a7c15))
	for range s.Families {
		if err := s.family(rng, loss, draw, maxPairs, &res); err != nil {
			return res, err
		}
	}
	return res, nil
}

// RaceBatch is the number of pairs a race gives its leader at a time
// (see RaceRun.Leader), in the simulation and in the arena's races.
const RaceBatch = 32

// family simulates one family: the race and the tests alone, on the same
// outcomes (candidate i's n-th pair is the same in both).
func (s RaceSim) family(rng *rand.Rand, loss, draw []float64, maxPairs int, res *RaceSimResult) error {
	k := len(s.Elos)
	race, err := s.Race.Start(k)
	if err != nil {
		return err
	}
	// The seeds' shared numbers and each candidate's own stream, drawn
	// as far as some test needs them.
	var shared [][2]float64
	own := make([]*rand.Rand, k)
	for i := range own {
		own[i] = rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
	}
	hist := make([][]int, k)
	class := func(i, n int) int {
		for len(hist[i]) <= n {
			m := len(hist[i])
			for len(shared) <= m {
				shared = append(shared, [2]float64{rng.Float64(), rng.Float64()})
			}
			pts := 0
			for g := range 2 {
				x := shared[m][g]
				if own[i].Float64() >= s.Shared {
					x = own[i].Float64()
				}
				switch {
				case x < loss[i]:
				case x < loss[i]+draw[i]:
					pts++
				default:
					pts += 2
				}
			}
			hist[i] = append(hist[i], pts)
		}
		return hist[i][n]
	}
	// Each candidate alone, at alpha and at alpha/k: one LLR for both.
	alone, adjusted := s.Race.Test, race.Test
	aloneLo, aloneHi := alone.Bounds()
	adjLo, adjHi := adjusted.Bounds()
	t := s.Race.Test
	type totals struct {
		falsePos, found, open bool
		pairs                 int
	}
	var a, adj totals
	for i := range k {
		llr := newRaceLLR(alone)
		var c Pentanomial
		va, vj := Continue, Continue
		for n := 0; n < maxPairs && (va == Continue || vj == Continue); n++ {
			c[class(i, n)]++
			v, err := llr(c)
			if err != nil {
				return err
			}
			if va == Continue {
				a.pairs++
				va = decide(v, aloneLo, aloneHi)
			}
			if vj == Continue {
				adj.pairs++
				vj = decide(v, adjLo, adjHi)
			}
		}
		for _, x := range []struct {
			v  Verdict
			to *totals
		}{{va, &a}, {vj, &adj}} {
			x.to.falsePos = x.to.falsePos || (x.v == AcceptH1 && s.Elos[i] <= t.Elo0)
			x.to.found = x.to.found || (x.v == AcceptH1 && s.Elos[i] >= t.Elo1)
			x.to.open = x.to.open || x.v == Continue
		}
	}
	for _, x := range []struct {
		t  totals
		to *RaceSimTotals
	}{{a, &res.Alone}, {adj, &res.AloneAdjusted}} {
		x.to.Matches += int64(2 * x.t.pairs)
		x.to.FalsePositives += b2i(x.t.falsePos)
		x.to.Found += b2i(x.t.found)
		x.to.Undecided += b2i(x.t.open)
	}
	// The race: batches of pairs to its leader.
	for !race.Done {
		c := race.Leader()
		if race.Racers[c].Pairs >= maxPairs {
			res.Race.Undecided++
			race.Stop()
			break
		}
		for b := 0; b < RaceBatch && !race.Done && race.Racers[c].Status == RaceActive && race.Racers[c].Pairs < maxPairs; b++ {
			if err := race.Add(c, class(c, race.Racers[c].Pairs)); err != nil {
				return err
			}
		}
	}
	if w := race.Winner; w >= 0 {
		res.Race.FalsePositives += b2i(s.Elos[w] <= t.Elo0)
		res.Race.Found += b2i(s.Elos[w] >= t.Elo1)
	}
	res.Race.Matches += int64(2 * race.Pairs)
	return nil
}

// decide is SPRT.Decide with the bounds given.
func decide(llr, lower, upper float64) Verdict {
	switch {
	case llr >= upper:
		return AcceptH1
	case llr <= lower:
		return AcceptH0
	}
	return Continue
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// newRaceLLR returns the LLR of a test on pentanomial counts that grow
// one pair at a time. In the logistic model it is SPRT.LLR computed
// without allocating and with each secular equation started from its
// last root (the counts change little between calls), which makes a
// simulation of thousands of families run in seconds; in the normalized
// model it is SPRT.LLR.
func newRaceLLR(t SPRT) func(Pentanomial) (float64, error) {
	if t.Model != Logistic {
		return func(c Pentanomial) (float64, error) { return t.LLR(c) }
	}
	s0, s1 := logisticScore(t.Elo0), logisticScore(t.Elo1)
	var x0, x1 float64
	scores := [5]float64{0, 0.25, 0.5, 0.75, 1}
	return func(c Pentanomial) (float64, error) {
		var p [5]float64
		n := 0.0
		for i, v := range c {
			f := float64(v)
			if v == 0 {
				f = regularizer
			}
			p[i] = f
			n += f
		}
		for i := range p {
			p[i] /= n
		}
		var a0, a1 [5]float64
		for i, sc := range scores {
			a0[i], a1[i] = sc-s0, sc-s1
		}
		var err error
		if x0, err = secular(a0[:], p[:], x0); err != nil {
			return 0, err
		}
		if x1, err = secular(a1[:], p[:], x1); err != nil {
			return 0, err
		}
		// p_h = phat / (1 + x_h a_h), so log p1 - log p0 is
		// log(1 + x0 a0) - log(1 + x1 a1).
		llr := 0.0
		for i := range p {
			llr += p[i] * (math.Log1p(x0*a0[i]) - math.Log1p(x1*a1[i]))
		}
		return n * llr, nil
	}
}
