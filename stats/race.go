package stats

import (
	"fmt"
	"math"
)

// Race runs k sequential tests at once: k candidates, each against one
// baseline, on common seeds (round r plays every candidate still in the
// race against the baseline on the same seed, in a seat-swapped pair).
//
// Family-wise error. Each candidate's test is the GSPRT of Test with its
// Alpha divided by k (Bonferroni): the probability that some candidate no
// stronger than Elo0 is accepted is at most the sum of the k candidates'
// own probabilities, k × Alpha/k = Alpha, whatever the dependence between
// the candidates (they share seeds and the baseline). Dropping a
// candidate early only removes chances to accept it, so the bound holds
// with the eliminations below (as fishtest's RFC #2409 notes, stopping a
// test by hand voids its guarantees; stopping by a rule fixed in advance
// that can only drop candidates does not void this one). The GSPRT's own
// error rates are Wald's approximations; TestRaceFamilyWise checks the
// whole family's rate by simulation.
//
// Eliminations. A candidate is dropped when its own test accepts H0, or
// when another candidate still in the race is clearly stronger: the
// difference of their pair scores over the common rounds has an
// empirical-Bernstein lower confidence bound above 0 (Audibert, Munos and
// Szepesvári 2009, theorem 1; racing as in Maron and Moore's Hoeffding
// races, 1994, and Mnih, Szepesvári and Audibert's empirical Bernstein
// stopping, 2008). The bound is made valid at every round at once by
// spending Delta/(k(k-1)/2) on each pair of candidates and 6/(π² n²) of
// that at round n, so with probability at least 1 - Delta no candidate
// is ever dropped for a difference that is not there. A candidate at
// least Elo1 stronger than the baseline is therefore missed with
// probability at most Beta + Delta.
//
// The race stops when a candidate's test accepts H1 (the winner: the one
// with the largest LLR when several do in one round), or when every
// candidate has been dropped (none is shown better than the baseline).
type Race struct {
	// Test is the test of each candidate before the adjustment: Elo0,
	// Elo1, Model and Beta as given, Alpha the family's error rate.
	Test SPRT
	// Delta bounds the probability that any elimination is wrong; 0
	// means Test.Beta.
	Delta float64
}

// RaceStatus is where a candidate stands in a race.
type RaceStatus int

const (
	// RaceActive: still playing.
	RaceActive RaceStatus = iota
	// RaceAccepted: its test accepted H1; the race's winner.
	RaceAccepted
	// RaceRejected: its test accepted H0.
	RaceRejected
	// RaceEliminated: another candidate was clearly stronger.
	RaceEliminated
	// RaceStopped: still undecided when the race ended.
	RaceStopped
)

// String is "active", "H1", "H0", "eliminated" or "stopped".
func (s RaceStatus) String() string {
	switch s {
	case RaceAccepted:
		return "H1"
	case RaceRejected:
		return "H0"
	case RaceEliminated:
		return "eliminated"
	case RaceStopped:
		return "stopped"
	}
	return "active"
}

// MarshalText writes the status's String.
func (s RaceStatus) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Racer is one candidate's state in a race.
type Racer struct {
	Status RaceStatus `json:"status"`
	// Counts are its pentanomial classes against the baseline, one per
	// round it played; Pairs their number.
	Counts Pentanomial `json:"pentanomial"`
	Pairs  int         `json:"pairs"`
	// LLR is its test's log-likelihood ratio (Alpha adjusted).
	LLR float64 `json:"llr"`
	// Score is its mean score per game against the baseline.
	Score float64 `json:"score"`
	// By is the candidate that eliminated it (-1 if none).
	By int `json:"by"`
}

// RaceRun is a race in progress; Start begins one.
type RaceRun struct {
	// Test is each candidate's test (Alpha already divided by k).
	Test SPRT
	// Delta is the eliminations' error budget.
	Delta float64
	// Racers are the candidates, in the order given.
	Racers []Racer
	// Rounds is the number of rounds counted.
	Rounds int
	// Winner is the index of the accepted candidate, -1 while none is.
	Winner int
	// Done tells that the race has ended.
	Done bool

	points   []float64   // sum of pair scores, per candidate
	sum, sq  [][]float64 // paired differences i - j and their squares
	commonTo [][]int     // rounds both i and j played
}

// Start begins a race of k candidates.
func (r Race) Start(k int) (*RaceRun, error) {
	if k < 1 {
		return nil, fmt.Errorf("a race needs at least 1 candidate, got %d", k)
	}
	if err := r.Test.Validate(); err != nil {
		return nil, err
	}
	delta := r.Delta
	if delta == 0 {
		delta = r.Test.Beta
	}
	if !(delta > 0 && delta < 1) {
		return nil, fmt.Errorf("race delta %v is not in (0, 1)", r.Delta)
	}
	t := r.Test
	t.Alpha /= float64(k)
	rr := &RaceRun{Test: t, Delta: delta, Racers: make([]Racer, k), Winner: -1,
		points: make([]float64, k), sum: newSquare(k), sq: newSquare(k), commonTo: make([][]int, k)}
	for i := range rr.Racers {
		rr.Racers[i].By = -1
		rr.commonTo[i] = make([]int, k)
	}
	return rr, nil
}

// Active lists the candidates still playing, in order.
func (rr *RaceRun) Active() []int {
	var out []int
	for i, r := range rr.Racers {
		if r.Status == RaceActive {
			out = append(out, i)
		}
	}
	return out
}

// AddRound counts one round: classes[i] is the pentanomial class (0 to
// 4, see ScoreBucket) of candidate i's pair against the baseline; the
// entries of candidates no longer active are ignored. It then applies the
// tests and the eliminations.
func (rr *RaceRun) AddRound(classes []int) error {
	if rr.Done {
		return fmt.Errorf("the race has ended after %d rounds", rr.Rounds)
	}
	if len(classes) != len(rr.Racers) {
		return fmt.Errorf("round %d: %d classes for %d candidates", rr.Rounds, len(classes), len(rr.Racers))
	}
	active := rr.Active()
	for _, i := range active {
		if classes[i] < LL || classes[i] > WW {
			return fmt.Errorf("round %d: candidate %d has class %d, want 0 to 4", rr.Rounds, i, classes[i])
		}
	}
	rr.Rounds++
	for _, i := range active {
		r := &rr.Racers[i]
		r.Counts[classes[i]]++
		r.Pairs++
		rr.points[i] += float64(classes[i]) / 4
		r.Score = rr.points[i] / float64(r.Pairs)
		for _, j := range active {
			if j != i {
				d := float64(classes[i]-classes[j]) / 4
				rr.sum[i][j] += d
				rr.sq[i][j] += d * d
				rr.commonTo[i][j]++
			}
		}
	}
	// The tests.
	best := -1
	for _, i := range active {
		r := &rr.Racers[i]
		llr, err := rr.Test.LLR(r.Counts)
		if err != nil {
			return err
		}
		r.LLR = llr
		switch rr.Test.Decide(llr) {
		case AcceptH1:
			if best < 0 || llr > rr.Racers[best].LLR {
				best = i
			}
		case AcceptH0:
			r.Status = RaceRejected
		}
	}
	if best >= 0 {
		rr.Racers[best].Status = RaceAccepted
		rr.Winner = best
		rr.Stop()
		return nil
	}
	// The eliminations, against the candidates active before them.
	still := rr.Active()
	var out [][2]int
	for _, i := range still {
		for _, j := range still {
			if j != i && rr.lowerBound(j, i) > 0 {
				out = append(out, [2]int{i, j})
				break
			}
		}
	}
	for _, o := range out {
		rr.Racers[o[0]].Status, rr.Racers[o[0]].By = RaceEliminated, o[1]
	}
	if len(rr.Active()) == 0 {
		rr.Done = true
	}
	return nil
}

// Stop ends the race: the candidates still active are marked stopped.
func (rr *RaceRun) Stop() {
	for i := range rr.Racers {
		if rr.Racers[i].Status == RaceActive {
			rr.Racers[i].Status = RaceStopped
		}
	}
	rr.Done = true
}

// lowerBound is the empirical-Bernstein lower confidence bound of the
// mean pair-score difference of j over i on their common rounds, valid
// at every round at once (see Race).
func (rr *RaceRun) lowerBound(j, i int) float64 {
	n := float64(rr.commonTo[j][i])
	if n < 2 {
		return math.Inf(-1)
	}
	k := float64(len(rr.Racers))
	pairs := math.Max(1, k*(k-1)/2)
	deltaN := rr.Delta / pairs * 6 / (math.Pi * math.Pi * n * n)
	mean := rr.sum[j][i] / n
	v := math.Max(0, rr.sq[j][i]/n-mean*mean)
	l := math.Log(3 / deltaN)
	const span = 2 // a difference of pair scores lies in [-1, 1]
	return mean - math.Sqrt(2*v*l/n) - 3*span*l/n
}
