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
// that at their n-th common seed, so with probability at least 1 - Delta no candidate
// is ever dropped for a difference that is not there. A candidate at
// least Elo1 stronger than the baseline is therefore missed with
// probability at most Beta + Delta.
//
// The race stops when a candidate's test accepts H1 (the winner), or when
// every candidate has been dropped (none is shown better than the
// baseline). Which candidate plays next is free (the tests' error rates do
// not depend on it, since each candidate plays its own seeds in order):
// Leader plays the candidate nearest H1, AddRound all alike.
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
	// Pairs is the number of pairs counted, over all candidates; Rounds
	// the most any candidate played.
	Pairs, Rounds int
	// Winner is the index of the accepted candidate, -1 while none is.
	Winner int
	// Done tells that the race has ended.
	Done bool

	hist     [][]int8    // each candidate's classes, by seed
	points   []float64   // sum of pair scores, per candidate
	sum, sq  [][]float64 // paired differences i - j and their squares, on common seeds
	commonTo [][]int     // seeds both i and j played
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
		hist: make([][]int8, k), points: make([]float64, k), sum: newSquare(k), sq: newSquare(k), commonTo: make([][]int, k)}
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

// AddRound counts one round of equal allocation: classes[i] is the
// pentanomial class (0 to 4, see ScoreBucket) of candidate i's next pair
// against the baseline; the entries of candidates no longer active are
// ignored. The pairs are counted with Add in candidate order, so the
// first candidate to reach H1 in that order wins.
func (rr *RaceRun) AddRound(classes []int) error {
	if rr.Done {
		return fmt.Errorf("the race has ended after %d pairs", rr.Pairs)
	}
	if len(classes) != len(rr.Racers) {
		return fmt.Errorf("%d classes for %d candidates", len(classes), len(rr.Racers))
	}
	active := rr.Active()
	for _, i := range active {
		if classes[i] < LL || classes[i] > WW {
			return fmt.Errorf("candidate %d has class %d, want 0 to 4", i, classes[i])
		}
	}
	for _, i := range active {
		if rr.Done {
			break
		}
		if rr.Racers[i].Status == RaceActive {
			if err := rr.Add(i, classes[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// Leader is the active candidate to play next: the one with the largest
// LLR (ties: fewer pairs, then the earlier), or -1 when the race has
// ended. Giving it the next pairs is "play the leader": a candidate
// whose LLR falls behind another's waits, so the race spends its pairs
// where H1 is nearest. Each candidate still plays its own seeds in order
// and its test sees its own pairs only, so how pairs are allocated
// changes neither test's error rates (see Race).
func (rr *RaceRun) Leader() int {
	best := -1
	for i, r := range rr.Racers {
		if r.Status != RaceActive {
			continue
		}
		if best < 0 {
			best = i
			continue
		}
		b := rr.Racers[best]
		if r.LLR > b.LLR || (r.LLR == b.LLR && r.Pairs < b.Pairs) {
			best = i
		}
	}
	return best
}

// Next is the batch to play next by "play the leader" (see Leader): the
// leader c's pairs [from, to), at most batch of them and none at or past
// maxPairs. ok is false when the race has ended; a leader that has
// reached maxPairs ends it (Stop), undecided.
func (rr *RaceRun) Next(batch, maxPairs int) (c, from, to int, ok bool) {
	if rr.Done {
		return -1, 0, 0, false
	}
	c = rr.Leader()
	from = rr.Racers[c].Pairs
	if from >= maxPairs {
		rr.Stop()
		return -1, 0, 0, false
	}
	return c, from, min(from+batch, maxPairs), true
}

// Add counts candidate i's next pair (its pair on seed Racers[i].Pairs),
// of pentanomial class class (0 to 4), then applies its test and the
// eliminations that involve it.
func (rr *RaceRun) Add(i, class int) error {
	switch {
	case rr.Done:
		return fmt.Errorf("the race has ended after %d pairs", rr.Pairs)
	case i < 0 || i >= len(rr.Racers):
		return fmt.Errorf("candidate %d of %d", i, len(rr.Racers))
	case rr.Racers[i].Status != RaceActive:
		return fmt.Errorf("candidate %d is %v, not racing", i, rr.Racers[i].Status)
	case class < LL || class > WW:
		return fmt.Errorf("candidate %d has class %d, want 0 to 4", i, class)
	}
	r := &rr.Racers[i]
	n := r.Pairs
	rr.hist[i] = append(rr.hist[i], int8(class))
	r.Counts[class]++
	r.Pairs++
	rr.Pairs++
	rr.Rounds = max(rr.Rounds, r.Pairs)
	rr.points[i] += float64(class) / 4
	r.Score = rr.points[i] / float64(r.Pairs)
	for j := range rr.Racers {
		if j == i || len(rr.hist[j]) <= n {
			continue
		}
		d := float64(class-int(rr.hist[j][n])) / 4
		rr.sum[i][j] += d
		rr.sum[j][i] -= d
		rr.sq[i][j] += d * d
		rr.sq[j][i] += d * d
		rr.commonTo[i][j]++
		rr.commonTo[j][i]++
	}
	llr, err := rr.Test.LLR(r.Counts)
	if err != nil {
		return err
	}
	r.LLR = llr
	switch rr.Test.Decide(llr) {
	case AcceptH1:
		r.Status = RaceAccepted
		rr.Winner = i
		rr.Stop()
		return nil
	case AcceptH0:
		r.Status = RaceRejected
	}
	// The eliminations the new pair can trigger: i by another, others
	// by i.
	for j, o := range rr.Racers {
		if r.Status != RaceActive {
			break
		}
		if j != i && o.Status == RaceActive && rr.lowerBound(j, i) > 0 {
			r.Status, r.By = RaceEliminated, j
		}
	}
	if r.Status == RaceActive {
		for j := range rr.Racers {
			if j != i && rr.Racers[j].Status == RaceActive && rr.lowerBound(i, j) > 0 {
				rr.Racers[j].Status, rr.Racers[j].By = RaceEliminated, i
			}
		}
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
